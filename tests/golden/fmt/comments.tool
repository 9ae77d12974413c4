// A file's first comment stays first.

//// Four slashes: an ordinary comment.
package   demo.comments ;   // after the package


import "common.tool" ; // after an import
// between imports
import "other.tool";

// Before an item, after a blank line.
/// The item's doc.
// Between the doc and the item.
record   Point {   // after the brace
    // before the first field

    x : f64 , // after a field and its comma
    y : f64   // after the last field, no comma
    // before the closing brace
}   // after the closing brace

enum Mode {
    a, // one
    b
}

enum Inline { a,
    // a comment after the last comma
}

service S {
    // Section: tools

    /// Doc.
    tool t( // after the paren
        a : list< // inside a type
            u8 >,
        @range( 1, // inside an attribute
            10 ) b : u8 = 3 , // after b
    ) -> string ; // after the tool

    tool u() // before the arrow
        -> string;
    tool v(x: u8);
    // Trailing comment in the service.
}
// At the end of the file.
