// Scopes: one more needed breaks a client whose token lacks it; one fewer does not.
service Notes {
    @scopes("notes:read")
    tool list_notes() -> list<string>;

    @scopes("notes:read", "notes:write")
    tool add_note(text: string);

    @scopes("notes:admin")
    tool purge();

    @scopes()
    @uri("notes://{id}")
    resource note(id: string) -> string;

    @scopes("notes:read", "notes:summaries")
    prompt summarize(topic: string) -> string;

    @scopes("notes:read")
    tool unchanged_by_moving_the_default();
}
