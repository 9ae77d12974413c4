package acme.shop;

import "common.tool";

/// An item of an order.
record Item {
    sku: string,
    @range(min: 1) qty: u32,
    price: Money,
}

/// Takes orders.
service Shop {
    /// Places an order and returns its total.
    @destructive
    tool place_order(@length(min: 1) items: list<Item>, priority: Priority = normal) -> Money;

    /// The total of an order, in the shop's currency.
    @read_only
    tool quote(items: list<Item>, @json_name("couponCode") coupon: string? = null) -> acme.common.Money;
}
