// Imported by ambiguous_name.tool: declares `Page` and `Shared`.
package lib.first;

record Page { index: u32 }
record Shared { a: string }
