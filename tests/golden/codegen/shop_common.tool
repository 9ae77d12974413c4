// Imported by shop.tool: its types are generated once, in their own module.
package acme.common;

/// An amount of money.
record Money {
    /// ISO 4217 code.
    @pattern("^[A-Z]{3}$") currency: string,
    /// Minor units (cents).
    amount: i64,
}

/// A page of a listing.
record Page {
    @range(min: 1) number: u32 = 1,
    @range(1, 100) size: u32 = 20,
}
