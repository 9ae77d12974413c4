// A tool result that may be null although its outputSchema is an object is a warning
// (W0404): a nullable record or `map<string, T>`, also through a named type. The server
// sends null as the text `null` without structured content, and the official MCP clients
// refuse that result. Other nullable results have no outputSchema and are not reported.
package golden.nullable_results;

record Coordinates { lat: f64, lon: f64 }

enum Mood { calm, busy }

union Found { place: Coordinates, name: string }

type MaybeCoordinates = Coordinates?;
type Spot = Coordinates;
type Counts = map<string, u32>;

service Places {
    tool locate(city: string) -> Coordinates?;
    tool locate_named(city: string) -> MaybeCoordinates;
    tool spot(city: string) -> Spot?;
    tool visits() -> Counts?;
    tool tallies() -> map<string, u32>?;

    // Not reported: a record that is always there, or a nullable result without an
    // outputSchema.
    tool locate_known(city: string) -> Coordinates;
    tool nickname() -> string?;
    tool neighbours() -> list<Coordinates>?;
    tool mood() -> Mood?;
    tool found(city: string) -> Found?;
    tool rendered(city: string) -> content;

    // A resource has no outputSchema: not reported either.
    @uri("places://{city}")
    resource place(city: string) -> Coordinates?;
}
