// Resources (static and templated) and prompts, with text-like parameters.
enum Format { short, long }

service Library {
    /// The whole catalogue.
    @uri("library://catalogue") @mime("application/json") @title("Catalogue")
    resource catalogue() -> json;

    @uri("library://books/{isbn}/pages/{page}{?format}")
    @name("book-page")
    resource book_page(isbn: string, page: u32, format: Format?) -> string;

    @uri("library://by-date/{day}")
    resource by_date(day: date);

    /// Summarize a book.
    @name("summarize-book") @description("Asks for a summary.")
    prompt SummarizeBook(isbn: uuid, words: u16 = 200, style: Format = short, strict: bool?, initial: char?) -> string;

    prompt greet();
}
