// Imported by import_broken.tool: a syntax error in an imported file.
record Broken { a: string b: string }
