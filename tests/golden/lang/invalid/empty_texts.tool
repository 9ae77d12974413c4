// An empty (or blank) @title, @description or @mime says nothing: it is an error, not an
// empty key in the listing.
record Note {
    @description("") text: string,
}

service S {
    @title("") @description("   ") tool t(@description("") a: string);
    @uri("x://a") @mime("") resource r() -> string;
    @title("") prompt p() -> string;
}
