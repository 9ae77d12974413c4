record A {
    x: u8,
    /// Documents nothing: no field follows.
}
