record Deleted { success: bool, message: string }

service Memory {
    @text(pretty: message)
    tool added_text() -> Deleted;
    @text("Deleted: {message}")
    tool sentence() -> Deleted;
    @text(handler)
    tool to_handler() -> Deleted;
    @text(pretty)
    tool unchanged() -> Deleted;
}
