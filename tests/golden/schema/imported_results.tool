// Imported records as results: a record result has an outputSchema whether it is declared
// here or imported, nullable or not, by short or qualified name.
package golden.imported_results;

import "pages_common.tool";

service Remote {
    tool first_page() -> Page;
    tool maybe_page() -> golden.common.Page?;
    tool pages_by_key() -> map<string, Page>;
}
