//! `toolidl lsp`: a language server for `.tool` files over stdio.
//!
//! One thread, one loop: notifications update the open documents, changed documents are
//! re-checked once the editor pauses (the debounce), and every request is answered from the
//! current text. Each request runs under `catch_unwind`, so that a bug on one odd input
//! answers that request with an error instead of ending the session.
//!
//! Frames are read by [`framing`] rather than by `lsp-server`, whose reader ends the
//! connection on the first frame it cannot read: a bad frame is answered and the next one
//! served, and no `Content-Length` is allocated before it is checked against the cap.
//!
//! Settings (`initializationOptions`, or `workspace/didChangeConfiguration` with the same
//! object under `toolidl`): `profile` (`standard`, `claude`, `openai-strict`, `gemini`: also
//! report `toolidl lint --profile` findings; none by default) and `debounceMs` (default 25).

mod actions;
mod analysis;
mod attributes;
mod completion;
mod format;
pub mod framing;
mod hover;
mod index;
mod navigate;
mod server;
mod stdio;
mod symbols;
mod text;
mod tokens;
mod workspace;

/// Serves the protocol on stdin/stdout until the client exits; the process exit code.
pub fn run() -> i32 {
    let (connection, writer) = match stdio::connect() {
        Ok(connected) => connected,
        Err(error) => {
            eprintln!("toolidl lsp: {error}");
            return 1;
        }
    };
    let code = match server::serve(&connection) {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("toolidl lsp: {error}");
            1
        }
    };
    // The writer ends once every message sent is written.
    drop(connection);
    match writer.join() {
        Ok(Ok(())) => {}
        Ok(Err(error)) => eprintln!("toolidl lsp: cannot write to stdout: {error}"),
        Err(_) => eprintln!("toolidl lsp: the writer thread panicked"),
    }
    code
}
