// Two hoisted records share the simple name Page: the later one (imported) is Page2.
package golden.pages;

import "pages_common.tool";

/// A page of a local listing.
record Page {
    lines: list<string>,
    previous: golden.pages.Page?,
}

service Pages {
    tool browse(local: golden.pages.Page, remote: golden.common.Page);
}
