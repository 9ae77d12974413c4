recrod A { x: u8 }
