// The `time` reference server of modelcontextprotocol/servers (src/time, Python, low-level
// `Server` with hand-written inputSchema dicts). The descriptions interpolate the server's
// local timezone at start-up (`{local_tz}`); this translation fixes it to `UTC`, as with
// `--local-timezone UTC`. See README.md.
package servers.time;

service Time {
    @description("Get current time in a specific timezone")
    @read_only @destructive(false) @idempotent @open_world(false)
    @open tool get_current_time(
        @description("IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local timezone if no timezone provided by the user.")
        timezone: string,
    ) -> string;

    @description("Convert time between timezones")
    @read_only @destructive(false) @idempotent @open_world(false)
    @open tool convert_time(
        @description("Source IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local timezone if no source timezone provided by the user.")
        source_timezone: string,
        @description("Time to convert in 24-hour format (HH:MM)")
        time: string,
        @description("Target IANA timezone name (e.g., 'Asia/Tokyo', 'America/San_Francisco'). Use 'UTC' as local timezone if no target timezone provided by the user.")
        target_timezone: string,
    ) -> string;
}
