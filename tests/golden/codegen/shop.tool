// Types of another package are referenced by their module path (super::common::Money).
package acme.shop;
import "shop_common.tool";

/// An item of an order.
record Item {
    sku: string,
    @range(min: 1) qty: u32,
    price: Money,
}

/// An order.
record Order {
    id: uuid,
    items: list<Item>,
    total: Money,
    note: string? = null,
}

service Shop {
    /// Places an order.
    @destructive
    tool place_order(@length(min: 1) items: list<Item>, coupon: string? = null) -> Order;

    /// Lists orders, a page at a time.
    @read_only
    tool list_orders(page: Page, since: datetime?) -> list<Order>;

    /// Orders by id.
    tool order_index() -> map<string, Order>;
}
