// Imported by ambiguous_name.tool: also declares `Page`.
package lib.second;

record Page { cursor: string }
