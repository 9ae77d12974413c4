//! `toolidl lsp`: a language server for `.tool` files over stdio.
//!
//! One thread, one loop: notifications update the open documents, changed documents are
//! re-checked once the editor pauses (the debounce), and every request is answered from the
//! current text. Each request runs under `catch_unwind`, so that a bug on one odd input
//! answers that request with an error instead of ending the session.
//!
//! Settings (`initializationOptions`, or `workspace/didChangeConfiguration` with the same
//! object under `toolidl`): `profile` (`standard`, `claude`, `openai-strict`, `gemini`: also
//! report `toolidl lint --profile` findings; none by default) and `debounceMs` (default 25).

mod actions;
mod analysis;
mod attributes;
mod completion;
mod format;
mod hover;
mod index;
mod navigate;
mod server;
mod symbols;
mod text;
mod tokens;
mod workspace;

use lsp_server::Connection;

/// Serves the protocol on stdin/stdout until the client exits; the process exit code.
pub fn run() -> i32 {
    let (connection, io_threads) = Connection::stdio();
    let code = match server::serve(&connection) {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("toolidl lsp: {error}");
            1
        }
    };
    drop(connection);
    if let Err(error) = io_threads.join() {
        eprintln!("toolidl lsp: {error}");
    }
    code
}
