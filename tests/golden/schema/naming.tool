// Renaming (rename_all, json_name, @name, derived tool names) and descriptions.
package golden.naming;

/// A calendar entry.
///   Spans   several     lines.
@rename_all("camelCase")
record CalendarEntry {
    /// When it starts.
    start_time: datetime,
    end_time: datetime?,
    @json_name("where") location_name: string,
    /// Ignored: the attribute wins.
    @description("Attendees, by email.")
    attendee_emails: list<string>,
    all_day: bool = false,
}

/// Priority of an entry.
enum Priority { low, normal, high }

record Plain {
    snake_case_name: string,
    @json_name("Renamed") other: u8,
}

service Naming {
    /// Creates an entry.
    ///
    /// The second paragraph   of the doc.
    tool CreateEntryAsync(
        entry: CalendarEntry,
        /// How urgent it is.
        priority: Priority,
        fallback: Priority,
        plain: Plain,
        @json_name("dryRun") dry_run: bool = false,
    ) -> CalendarEntry;

    /// Not used: the attribute wins.
    @name("entries.list") @description("Lists entries.")
    tool list_entries();

    tool HTTPRequest(url: string);
}
