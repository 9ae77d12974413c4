// SYNTAX TEST "source.toolidl" "every construct of the language"
/// The weather.
// <--- comment.line.documentation.toolidl
package acme.weather;
// <------- keyword.other.package.toolidl
//      ^^^^^^^^^^^^ entity.name.namespace.toolidl
//                  ^ punctuation.terminator.toolidl

import "common.tool";
// <------ keyword.control.import.toolidl
//     ^^^^^^^^^^^^^ string.quoted.double.toolidl

// An ordinary comment.
// <-- comment.line.double-slash.toolidl

@document_members
// <- punctuation.definition.annotation.toolidl
// <~---------------- storage.type.annotation.toolidl
enum Unit { celsius, @value("F") fahrenheit }
// <---- storage.type.enum.toolidl
//   ^^^^ entity.name.type.enum.toolidl
//          ^^^^^^^ variable.other.enummember.toolidl
//                    ^^^^^ storage.type.annotation.toolidl
//                          ^^^ string.quoted.double.toolidl
//                               ^^^^^^^^^^ variable.other.enummember.toolidl

@rename_all("camelCase")
// <~---------- storage.type.annotation.toolidl
record Forecast {
// <------ storage.type.record.toolidl
//     ^^^^^^^^ entity.name.type.record.toolidl
    @range(-90.5, 1e3) temp_c: f64,
//   ^^^^^ storage.type.annotation.toolidl
//         ^^^^^ constant.numeric.float.toolidl
//                ^^^ constant.numeric.float.toolidl
//                     ^^^^^^ variable.other.member.toolidl
//                           ^ punctuation.separator.type.toolidl
//                             ^^^ support.type.primitive.toolidl
    @length(max: 3) days: list<acme.common.Day>,
//          ^^^ variable.parameter.toolidl
//               ^ constant.numeric.integer.toolidl
//                        ^^^^ support.type.primitive.toolidl
//                            ^ punctuation.definition.typeparameters.begin.toolidl
//                             ^^^^^^^^^^^^ entity.name.namespace.toolidl
//                                         ^^^ entity.name.type.toolidl
    note?: string?,
//  ^^^^ variable.other.member.toolidl
//      ^ keyword.operator.optional.toolidl
//               ^ keyword.operator.nullable.toolidl
    unit: Unit = celsius,
//        ^^^^ entity.name.type.toolidl
//             ^ keyword.operator.assignment.toolidl
//               ^^^^^^^ constant.other.enum-member.toolidl
    tags: map<string, bool> = {"a": true, "b": false},
//                            ^ punctuation.section.braces.begin.toolidl
//                             ^^^ string.quoted.double.toolidl
//                                  ^^^^ constant.language.toolidl
    code: char = 'x',
//               ^^^ string.quoted.single.toolidl
    text: string = "say \"hi\"\n",
//                      ^^ constant.character.escape.toolidl
//                            ^^ constant.character.escape.toolidl
}

type PageSize = @range(1, 100) u8;
// <---- storage.type.alias.toolidl
//   ^^^^^^^^ entity.name.type.alias.toolidl
//              ^^^^^^^^^^^^^^ meta.attribute.toolidl
//                             ^^ support.type.primitive.toolidl

@tag("kind")
// <~--- storage.type.annotation.toolidl
union Shape { circle: Circle, square: Square }
// <----- storage.type.union.toolidl
//    ^^^^^ entity.name.type.union.toolidl
//            ^^^^^^ variable.other.member.toolidl
//                    ^^^^^^ entity.name.type.toolidl

service Weather {
// <------- storage.type.service.toolidl
//      ^^^^^^^ entity.name.type.service.toolidl
    @read_only @name("get-forecast")
//   ^^^^^^^^^ storage.type.annotation.toolidl
//              ^^^^ storage.type.annotation.toolidl
    tool get_forecast(city: string, ..Paging, days: u8 = 3) -> list<Forecast>;
//  ^^^^ storage.type.function.toolidl
//       ^^^^^^^^^^^^ entity.name.function.toolidl
//                    ^^^^ variable.other.member.toolidl
//                                  ^^ keyword.operator.spread.toolidl
//                                    ^^^^^^ entity.name.type.toolidl
//                                                       ^ constant.numeric.integer.toolidl
//                                                          ^^ keyword.operator.arrow.toolidl
//                                                                  ^^^^^^^^ entity.name.type.toolidl
    resource readme() -> string;
//  ^^^^^^^^ storage.type.function.toolidl
//           ^^^^^^ entity.name.function.toolidl
    prompt summary(text: string) -> content;
//  ^^^^^^ storage.type.function.toolidl
//                                  ^^^^^^^ support.type.primitive.toolidl
}
