// `@scopes`: a service's scopes are the default of its members; a member's own replace
// them, and `@scopes()` needs none.
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

// Without `@scopes` anywhere, nothing is needed.
service Open {
    tool hello() -> string;

    @scopes("https://example.com/scopes/odd!#$%&'()*+,-./:;<=>?@[]^_`{|}~")
    tool every_allowed_character();
}
