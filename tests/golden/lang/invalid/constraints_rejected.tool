// Each constraint on types it does not apply to, beyond constraints_misapplied.tool:
// @range only on integers and floats, @length only on string/list/set, @pattern, @email
// and @url only on string (not on char, the string formats or a list of strings).
enum Mode { a, b }
record Inner { x: u8 }

record Rejected {
    @range(1, 2) mode: Mode,
    @range(1, 2) inner: Inner,
    @range(min: 0) counts: list<u8>,
    @range(max: 9) anything: json,
    @length(1, 2) count: u32,
    @length(max: 2) letter: char,
    @length(min: 1) blob: bytes,
    @length(min: 1) items: array,
    @length(min: 1) choice: Mode?,
    @pattern("^a") id: uuid,
    @pattern("^a") initial: char,
    @pattern("^a") names: list<string>,
    @email who: char,
    @email when: datetime,
    @url link: uri,
    @url links: list<string>,
}
