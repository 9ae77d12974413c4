// L0401: a result that may be null although its outputSchema is an object (a nullable record
// or map, also through a named type). The listing alone cannot tell: `-> Coordinates?` and
// `-> Coordinates` list the same outputSchema. Nullable scalars, lists, enums and unions have
// no outputSchema, and a non-nullable record has no null result: none of those is reported.
package lint.results;

/// Where a place is.
record Coordinates {
    /// Degrees north.
    lat: f64,
    /// Degrees east.
    lon: f64,
}

/// How a place feels.
enum Mood { calm, busy }

/// A place that may be unknown.
type MaybeCoordinates = Coordinates?;
/// Another name for a place.
type Spot = Coordinates;

service Places {
    /// Finds a city; null when it is unknown.
    tool locate(
        /// The city.
        city: string,
    ) -> Coordinates?;

    /// Finds a city through a named type.
    tool locate_named(
        /// The city.
        city: string,
    ) -> MaybeCoordinates;

    /// Finds a spot, nullable where it is used.
    @name("places.spot")
    tool spot(
        /// The city.
        city: string,
    ) -> Spot?;

    /// Counts visits per city, or null.
    tool visits() -> map<string, u32>?;

    /// Finds a city that is always known.
    tool locate_known(
        /// The city.
        city: string,
    ) -> Coordinates;

    /// A nickname, or null.
    tool nickname() -> string?;

    /// Neighbours, or null.
    tool neighbours() -> list<Coordinates>?;

    /// The mood, or null.
    tool mood() -> Mood?;
}
