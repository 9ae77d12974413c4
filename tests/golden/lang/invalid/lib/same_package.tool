package same_package;

record Dup { x: u8 }
