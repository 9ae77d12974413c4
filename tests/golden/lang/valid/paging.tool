// A second package that also declares `Page`: importers must qualify it.
package acme.paging;

/// A cursor-based page.
record Page {
    cursor: string?,
    @range(1, 500) limit: u32 = 50,
}
