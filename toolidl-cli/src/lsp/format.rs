//! Formatting: `toolidl fmt`'s layout for the whole document.

use lsp_types::TextEdit;
use toolidl::source::FileId;

use super::text::LineIndex;

/// One edit replacing the document with its formatted text (none when it is formatted
/// already), or why it cannot be formatted (the file does not parse), as `toolidl fmt`
/// refuses it.
pub fn format(text: &str) -> Result<Vec<TextEdit>, String> {
    match toolidl::fmt::format(FileId(0), text) {
        Ok(formatted) if formatted == text => Ok(Vec::new()),
        Ok(formatted) => Ok(vec![TextEdit::new(
            LineIndex::new(text).whole(text),
            formatted,
        )]),
        Err(diagnostics) => {
            let reasons: Vec<String> = diagnostics
                .iter()
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            Err(format!(
                "toolidl fmt: the file is left as it is: {}",
                reasons.join("; ")
            ))
        }
    }
}
