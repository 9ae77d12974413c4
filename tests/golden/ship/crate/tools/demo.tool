package demo;

/// The greeting tools.
service Greeter {
    /// Greets someone by name.
    @title("Say hello") @read_only
    tool hello(@length(1, 100) name: string) -> string;

    /// Writes a line in the guest book.
    tool sign(@length(1, 200) line: string) -> string;

    /// Asks for a poem about a guest.
    prompt poem(
        /// The guest.
        name: string,
    ) -> string;
}
