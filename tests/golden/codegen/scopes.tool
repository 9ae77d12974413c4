// `@scopes`: each listed item declares what a token must hold (the runtime's auth reads it).
@scopes("notes:read")
service Notes {
    tool list_notes() -> list<string>;

    @scopes("notes:read", "notes:write")
    tool add_note(text: string);

    @scopes()
    tool ping() -> string;

    @uri("notes://{id}")
    resource note(id: string) -> string;

    @scopes("notes:admin") @uri("notes://audit")
    resource audit() -> string;

    prompt summarize(topic: string) -> string;
}
