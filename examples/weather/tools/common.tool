// Types shared by several services.
package acme.common;

/// A place on Earth.
record Coordinates {
    /// Degrees north, -90 to 90.
    @range(-90, 90) latitude: f64,
    /// Degrees east, -180 to 180.
    @range(-180, 180) longitude: f64,
}
