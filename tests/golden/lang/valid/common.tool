// Shared types, imported by design_example.tool and imports.tool.
package acme.common;

/// One page of results.
record Page {
    /// Zero-based page number.
    @range(min: 0) index: u32 = 0,
    @range(1, 100) size: u16 = 20,
}

/// How results are ordered.
enum Order {
    /// Oldest first.
    ascending,
    descending,
}

/// A point in time or a label.
record Stamp {
    at: datetime,
    label: string?,
}
