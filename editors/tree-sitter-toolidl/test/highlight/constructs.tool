/// The weather.
// <- comment.documentation
package acme.weather;
// <- keyword.import
//      ^ module

import "common.tool";
//     ^ string

@document_members
// <- attribute
enum Unit { celsius, @value("F") fahrenheit }
// <- keyword.type
//   ^ type.definition
//          ^ constant
//                    ^ attribute
//                                ^ constant

record Forecast {
//     ^ type.definition
    @range(-90.5, max: 1e3) temp_c: f64,
//         ^ number.float
//                ^ variable.parameter
//                          ^ property
//                                  ^ type.builtin
    days: list<acme.common.Day>? = [],
//        ^ type.builtin
//             ^ module
//                         ^ type
//                             ^ operator
    unit: Unit = celsius,
//        ^ type
//               ^ constant
    ok: bool = true,
//             ^ boolean
}

service Weather {
//      ^ type.definition
    tool get_forecast(city: string, ..Paging) -> list<Forecast>;
//  ^ keyword.function
//       ^ function
//                    ^ variable.parameter
//                                    ^ type
//                                            ^ operator
}
