record A { x: u8 }
/// This doc comment documents nothing.
