// Derived tool names: snake_case of the declared name, a trailing `Async` removed; digits
// stay with the word before them.
package golden.derived_names;

service Derived {
    tool GetDocketAsync();
    tool HTTPRequest();
    tool getHTTP2Response();
    tool Get2FACode();
    tool parseV2Async();
    tool IPv4Address();
    tool already_snake_1();
    tool Async();
    tool fooAsyncAsync();
}
