// Imported by shop.tool.
package acme.common;

/// An amount of money.
record Money {
    /// ISO 4217 code.
    @pattern("^[A-Z]{3}$") currency: string,
    /// Minor units (cents).
    amount: i64,
}

/// How urgent an order is.
enum Priority { low, normal, high }
