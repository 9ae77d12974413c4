// The decode benchmark's tool: an order of 50 lines whose every field carries a check.
package orders;

/// Where a line of an order stands.
enum Status { pending, paid, packed, shipped, delivered, cancelled }

/// One line of an order.
@rename_all("camelCase")
record LineItem {
    /// Stock-keeping unit, such as `ABC-1234-X9`.
    @pattern("^[A-Z]{3}-[0-9]{4}-[A-Z0-9]{2}$") sku: string,
    /// What the customer sees on the invoice.
    @length(1, 200) description: string,
    @range(1, 1000) quantity: u32,
    /// Price of one unit, in cents.
    @range(0, 10000000) unit_price_cents: i64,
    /// Discount, in percent.
    @range(0, 100) discount_pct: u8,
    status: Status,
    /// The day the line must leave the warehouse, when promised.
    ship_by: date?,
    /// ISO 3166-1 alpha-2 code of the country of origin.
    @pattern("^[A-Z]{2}$") origin: string,
    gift: bool,
}

/// An order, as a shop's front end submits it.
@rename_all("camelCase")
record Order {
    @pattern("^ORD-[0-9]{8}$") order_id: string,
    @pattern("^C[0-9]{6}$") customer_id: string,
    /// ISO 4217 code.
    @pattern("^[A-Z]{3}$") currency: string,
    created_on: date,
    express: bool,
    @length(1, 100) lines: list<LineItem>,
    @length(max: 500) note: string?,
}

service Orders {
    /// Checks and records an order.
    tool submit_order(order: Order, @range(1, 5) priority: u8 = 3, dry_run: bool = false) -> string;
}
