import "lib/first.tool";
import "lib/second.tool";

record UsesImports {
    page: Page,
    ok_first: lib.first.Page,
    ok_second: lib.second.Page,
    shared: Shared,
    missing: lib.first.Missing,
}
