// Names that only clash, or only become unusable, once they are Rust names.
package codegen.clashes;

enum Units { celsius, Celsius, fahrenheit }

record Point {
    fooBar: i32,
    foo_bar: i32,
    self: bool,
}

record point { x: f64 }

record ToolsServer { id: string }

service Tools {
    tool get_thing(ctx: string) -> string;
    @name("get_thing_2") tool GetThing() -> string;
    tool complete(Self: u8);
    prompt hint(units: Units) -> string;
}

record GetThingArgs { id: string }
