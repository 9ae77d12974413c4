//! What a stdio server tells a person who starts it on a terminal: what it is, which
//! protocol it speaks, and a ready-to-paste client configuration entry. Written to stderr
//! (stdout carries only protocol messages); the server then serves as usual.

use std::io::IsTerminal;

use serde_json::{Map, Value, json};

use crate::protocol::Revision;

/// The terminal banner of a stdio server.
///
/// ```
/// let banner = toolidl_runtime::stdio::StdioBanner::new("notes", "notes-example 0.1.0: notes kept in SQLite")
///     .args(["--db", "/home/me/notes.db"]);
/// let text = banner.render("/usr/local/bin/notes-example");
/// assert!(text.contains(r#"{"mcpServers":{"notes":{"command":"/usr/local/bin/notes-example","args":["--db","/home/me/notes.db"]}}}"#));
/// ```
#[derive(Debug, Clone)]
pub struct StdioBanner {
    key: String,
    about: String,
    args: Vec<String>,
    more: Vec<String>,
}

impl StdioBanner {
    /// A banner for the server `key` (its name in the client configuration), described by
    /// `about` (one line: name, version, what it does).
    pub fn new(key: impl Into<String>, about: impl Into<String>) -> Self {
        StdioBanner {
            key: key.into(),
            about: about.into(),
            args: Vec::new(),
            more: Vec::new(),
        }
    }

    /// The arguments a client should start the server with (make paths absolute: clients
    /// start servers from a directory of their own).
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args = args.into_iter().map(Into::into).collect();
        self
    }

    /// An extra line at the end (another way to run the server, say).
    pub fn line(mut self, text: impl Into<String>) -> Self {
        self.more.push(text.into());
        self
    }

    /// The client configuration entry, one line of JSON:
    /// `{"mcpServers":{"<key>":{"command":"<command>","args":[…]}}}`.
    pub fn client_entry(&self, command: &str) -> String {
        let mut server = Map::new();
        server.insert("command".into(), json!(command));
        server.insert("args".into(), json!(self.args));
        let mut servers = Map::new();
        servers.insert(self.key.clone(), Value::Object(server));
        json!({ "mcpServers": servers }).to_string()
    }

    /// The banner's text, for a server started as `command`.
    pub fn render(&self, command: &str) -> String {
        let mut out = format!(
            "{about}\n\
             This is an MCP server (Model Context Protocol): it speaks JSON-RPC 2.0 on stdin and\n\
             stdout, one message per line, MCP revisions {first} to {last}. It is meant to be\n\
             started by an MCP client rather than typed at. To connect a client, add this entry\n\
             to its MCP server configuration:\n\n\
             {entry}\n",
            about = self.about,
            first = Revision::ALL[0].as_str(),
            last = Revision::ALL[Revision::ALL.len() - 1].as_str(),
            entry = self.client_entry(command),
        );
        for line in &self.more {
            out.push('\n');
            out.push_str(line);
        }
        if !self.more.is_empty() {
            out.push('\n');
        }
        out.push_str("\nWaiting for messages on stdin (Ctrl-D ends).\n");
        out
    }

    /// Prints the banner to stderr when stdin is a terminal (a person started the server,
    /// not a client); returns whether it did. The command is the current executable's path.
    pub fn print_if_terminal(&self) -> bool {
        if !std::io::stdin().is_terminal() {
            return false;
        }
        let command = std::env::current_exe()
            .map(|p| p.display().to_string())
            .or_else(|_| std::env::args().next().ok_or(()))
            .unwrap_or_default();
        eprint!("{}", self.render(&command));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_is_json_with_the_command_and_args() {
        let banner = StdioBanner::new("my \"notes\"", "about").args(["--db", "/tmp/a b.db"]);
        let entry: Value =
            serde_json::from_str(&banner.client_entry("C:\\bin\\x.exe")).expect("JSON");
        assert_eq!(
            entry,
            json!({"mcpServers": {"my \"notes\"": {"command": "C:\\bin\\x.exe", "args": ["--db", "/tmp/a b.db"]}}})
        );
        let text = banner.line("Or: x --http ADDR").render("/x");
        assert!(text.starts_with("about\n"), "{text}");
        assert!(
            text.contains("revisions 2024-11-05 to 2026-07-28."),
            "{text}"
        );
        assert!(text.contains("\nOr: x --http ADDR\n"), "{text}");
    }
}
