// A file's own type shadows an imported type of the same short name (no ambiguity):
// `Page` is this file's record; the imported one is reached by its package path.
package acme.shadowing;

import "common.tool";

/// This file's own page.
record Page {
    cursor: string?,
}

record Listing {
    mine: Page,
    theirs: acme.common.Page,
    order: Order = ascending,
}
