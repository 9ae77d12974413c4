//! Byte offsets (what the parser's spans hold) and LSP positions (lines and UTF-16 code units,
//! the protocol's default encoding) of one text.

use lsp_types::{Position, Range};
use toolidl::ast::Span;

/// The line starts of one text, for converting in both directions.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The position of a byte offset (clamped to the text, and to a character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let character: usize = text[self.starts[line]..offset]
            .chars()
            .map(char::len_utf16)
            .sum();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of a position; a line or column past the end is clamped to the
    /// line's (or the text's) end, as the protocol asks.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(text.len(), |&next| next - 1);
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end),
        )
    }

    /// The range of the whole text.
    pub fn whole(&self, text: &str) -> Range {
        Range::new(Position::new(0, 0), self.position(text, text.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_both_ways() {
        let text = "ab\n\u{e9}\u{1f600}x\n";
        let index = LineIndex::new(text);
        // `x` is after a 2-byte é (1 unit) and a 4-byte emoji (2 units).
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x), Position::new(1, 3));
        assert_eq!(index.offset(text, Position::new(1, 3)), x);
        assert_eq!(index.offset(text, Position::new(1, 99)), x + 1);
        assert_eq!(index.offset(text, Position::new(9, 0)), text.len());
        // Inside the emoji: where the emoji starts.
        assert_eq!(index.position(text, x - 1), Position::new(1, 1));
    }
}
