// A typo in an import path: the diagnostic suggests the file beside it.
import "atributes.tool";

record A { x: u8 }
