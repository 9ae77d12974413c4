import "lib/same_package.tool";

record Dup { y: u8 }
