package bodies;

service Bodies {
    @destructive(false)
    tool submit_form(a?: string, b?: list<string>);

    @destructive(false)
    tool upload(body: bytes) -> bytes;

    @destructive @idempotent
    tool put_notes(body: list<string>) -> string;

    @destructive(false)
    tool echo(body?: string) -> json;
}
