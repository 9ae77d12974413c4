record Deleted { success: bool, message: string }

service Memory {
    tool added_text() -> Deleted;
    @text("Entities deleted successfully")
    tool sentence() -> Deleted;
    @text(pretty)
    tool to_handler() -> Deleted;
    @text(pretty)
    tool unchanged() -> Deleted;
}
