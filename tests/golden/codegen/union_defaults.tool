// Defaults of untagged unions: the variant is the one the decoder chooses when it reads the
// default's JSON (the first that fits), whatever spelling the literal uses.
package codegen.union_defaults;

enum Color { red, @value("light-blue") light_blue }

/// A flag, a number or a name.
union Dynamic {
    flag: bool,
    count: integer,
    ratio: f64,
    name: string,
}

type Code = @length(max: 3) string;

/// A color, else any text.
union Shade {
    color: Color,
    code: Code,
    text: string,
}

type Short = @length(max: 2) string;

record Pair {
    a: string,
}

/// Short text, a list of numbers, or a pair.
union Mixed {
    short: Short,
    numbers: list<u8>,
    pair: Pair,
}

record Options {
    mode: Dynamic = "auto",
}

service Dynamics {
    tool run(
        dynamic: Dynamic = false,
        limit: Dynamic = 10,
        /// `2.0` is the integer 2 on the wire: `count`, as a client sending it gets.
        scale: Dynamic = 2.0,
        half: Dynamic = 0.5,
        /// A string that is a member's wire value is that member.
        shade: Shade = "light-blue",
        member: Shade = red,
        code: Shade = "abc",
        long: Shade = "abcd",
        initial: Shade = 'x',
        mixed: Mixed = [1, 2],
        pair: Mixed = { a: "b" },
        short: Mixed = "ok",
        maybe: Dynamic? = null,
        also: Dynamic? = true,
        options: Options = {},
        list: list<Dynamic> = [true, 1, "x"],
    );
}
