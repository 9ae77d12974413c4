// Scopes: one more needed breaks a client whose token lacks it; one fewer does not.
@scopes("notes:read")
service Notes {
    tool list_notes() -> list<string>;

    tool add_note(text: string);

    @scopes("notes:read", "notes:admin")
    tool purge();

    @uri("notes://{id}")
    resource note(id: string) -> string;

    prompt summarize(topic: string) -> string;

    tool unchanged_by_moving_the_default();
}
