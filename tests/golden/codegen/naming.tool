// Rust names: keywords become raw identifiers, a type named like a standard type makes the
// generated code name the standard one by its full path, wire names are kept.
package codegen.naming;

enum Status { in_progress, done, type }

/// Named like Rust's `Result`.
record Result {
    type: string,
    match: i32 = 0,
    @json_name("self") self_: bool?,
    status: Status = in_progress,
}

@rename_all("camelCase")
record Options {
    max_depth: u8 = 3,
    include_hidden: bool = false,
    HTTPProxy: uri?,
}

service Naming {
    tool use(type: string, loop: u8) -> Result;
    tool configure(options: Options, results: list<Result>) -> string?;
}
