// Imported by pages.tool: a recursive record whose simple name pages.tool reuses.
package golden.common;

/// A page of a remote listing.
record Page {
    items: list<string>,
    next: Page?,
}
