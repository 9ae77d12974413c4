// Resources (fixed and templates with typed variables) and prompts with typed arguments.
package codegen.resources;

/// Kinds of report.
enum Kind { daily, weekly }

record Summary {
    title: string,
    @range(0, 5) stars: u8,
}

service Library {
    @uri("docs://readme") @mime("text/markdown")
    resource readme() -> string;

    @uri("docs://logo.png") @mime("image/png")
    resource logo() -> bytes;

    @uri("docs://reports/{kind}/{year}") @title("Report")
    resource report(kind: Kind, @range(2000, 2100) year: u16) -> Summary;

    @uri("docs://items/{id}")
    resource item(id: uuid) -> string?;

    @uri("ui://library/view")
    resource view() -> string;

    @uri("docs://empty/{name}")
    resource nothing(@length(max: 10) name: string);

    /// Writes a review.
    prompt review(title: string, kind: Kind = daily, @range(1, 5) stars: u8?, strict: bool = false) -> string;

    prompt structured(kind: Kind) -> Summary;
}
