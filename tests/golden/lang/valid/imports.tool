// Imports: short names of imported types, and qualified names where two packages
// declare the same one.
package acme.search;

import "common.tool";
import "./paging.tool";

record Query {
    text: string,
    order: Order = descending,
    since: Stamp?,
    offset_page: acme.common.Page,
    cursor_page: acme.paging.Page?,
    local: acme.search.Hit?,
}

/// One hit.
record Hit {
    title: string,
}

service Search {
    tool search(query: Query, page: acme.common.Page?) -> list<Hit>;
    tool sorted(order: acme.common.Order = ascending) -> map<string, Stamp>;
}
