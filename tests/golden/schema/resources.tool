// Static resources, resource templates, ui:// resources and prompts.
package golden.resources;

service Library {
    tool ping();

    /// A book's text.
    @uri("library://books/{id}") @mime("text/markdown")
    resource book(id: string) -> string;

    @uri("library://authors/{author}/books/{year}") @title("Books by year")
    resource by_year(author: string, year: u16) -> string;

    /// The catalogue.
    @uri("library://catalogue") @name("catalogue")
    resource catalogue_text() -> string;

    @uri("ui://library/shelf")
    resource shelf() -> string;

    @uri("ui://library/custom") @mime("text/html")
    resource custom_ui() -> string;

    @uri("library://cover") @mime("image/png")
    resource cover() -> bytes;

    /// Summarizes a book.
    @title("Summarize a book")
    prompt summarize(
        /// The book's id.
        id: string,
        @description("Words at most.") max_words: u32 = 200,
        tone: string?,
    ) -> string;

    @name("quick-note")
    prompt note() -> string;
}
