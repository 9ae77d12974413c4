//! The formatter's output: tokens written in source order, with each comment put back
//! between the two tokens it stood between.
//!
//! Layout is decided by the caller (`line_start`, `space`, blocks); this writer only places
//! comments: a comment that followed a token on its line stays at the end of that token's
//! line; a comment on its own line stays on its own line, indented like the next line. A
//! comment in the middle of a construct that the layout keeps on one line ends that line; the
//! construct goes on on the next line, indented one more level.

use super::lex::{Comment, has_blank_line};

/// Spaces per indentation level.
pub(super) const INDENT: usize = 4;

/// A piece of a line: a token of the source (with its byte range), or text the formatter
/// adds (`,`, `;` never: only separators).
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece<'s> {
    pub text: &'s str,
    pub at: Option<(usize, usize)>,
    /// A space before it (when it is not the first thing on its line).
    pub space: bool,
}

impl<'s> Piece<'s> {
    pub fn spaced(mut self) -> Piece<'s> {
        self.space = true;
        self
    }
}

/// The width of pieces written on one line.
pub(super) fn width(pieces: &[Piece<'_>]) -> usize {
    pieces
        .iter()
        .map(|p| usize::from(p.space) + p.text.chars().count())
        .sum()
}

pub(super) struct Emitter<'s> {
    src: &'s str,
    comments: Vec<Comment<'s>>,
    next_comment: usize,
    out: String,
    indent: usize,
    /// `out` is empty or ends with a line break.
    at_line_start: bool,
    pending_space: bool,
    /// One blank line before the next line written (between items).
    pending_blank: bool,
    /// The next token begins a line.
    want_line: bool,
    /// The next token may keep a blank line written before it in the source.
    keep_blank: bool,
    /// A comment ended a line in the middle of a construct.
    continuation: bool,
    /// Nothing written since a block opened: no blank line here.
    block_start: bool,
    /// The end of the last token or comment written, in the source.
    last_end: usize,
}

impl<'s> Emitter<'s> {
    pub fn new(src: &'s str, comments: Vec<Comment<'s>>) -> Emitter<'s> {
        Emitter {
            src,
            comments,
            next_comment: 0,
            out: String::with_capacity(src.len() + src.len() / 8),
            indent: 0,
            at_line_start: true,
            pending_space: false,
            pending_blank: false,
            want_line: false,
            keep_blank: false,
            continuation: false,
            block_start: true,
            last_end: 0,
        }
    }

    /// Whether a comment starts in `start..end` of the source.
    pub fn has_comment(&self, start: usize, end: usize) -> bool {
        let first = self.comments.partition_point(|c| c.start < start);
        self.comments.get(first).is_some_and(|c| c.start < end)
    }

    /// Whether `width` more columns fit on a line at the current indentation.
    pub fn fits(&self, width: usize) -> bool {
        self.indent * INDENT + width <= super::MAX_WIDTH
    }

    /// The next token begins a line.
    pub fn line_start(&mut self) {
        self.want_line = true;
        self.continuation = false;
    }

    /// The next token begins a line, after a blank line when the source has one there.
    pub fn line_start_keep_blank(&mut self) {
        self.line_start();
        self.keep_blank = true;
    }

    /// One blank line before what comes next.
    pub fn blank_line(&mut self) {
        self.pending_blank = true;
        self.line_start();
    }

    pub fn space(&mut self) {
        self.pending_space = true;
    }

    /// After an opening `{` or `(` whose contents go on their own lines.
    pub fn open_block(&mut self) {
        self.indent += 1;
        self.block_start = true;
    }

    /// Before the closing `}` or `)` (at `close`) of an open block: the comments before it go
    /// inside the block; the closing token begins a line.
    pub fn close_block(&mut self, close: usize) {
        self.line_start();
        self.flush(close);
        self.indent = self.indent.saturating_sub(1);
        self.line_start();
    }

    pub fn pieces(&mut self, pieces: &[Piece<'s>]) {
        for piece in pieces {
            if piece.space {
                self.space();
            }
            match piece.at {
                Some((start, end)) => self.token(piece.text, start, end),
                None => self.write(piece.text),
            }
        }
    }

    /// A token of the source, at `start..end`, after the comments before it.
    pub fn token(&mut self, text: &str, start: usize, end: usize) {
        self.flush(start);
        if self.want_line
            && self.keep_blank
            && !self.block_start
            && has_blank_line(self.src.get(self.last_end..start).unwrap_or(""))
        {
            self.pending_blank = true;
        }
        self.write(text);
        self.last_end = end;
    }

    /// Text at the current place: on a new line when one is wanted (or the last comment
    /// ended the line), else after a space when one is pending.
    fn write(&mut self, text: &str) {
        if self.want_line || self.at_line_start {
            self.begin_line();
        } else if self.pending_space {
            self.out.push(' ');
        }
        self.out.push_str(text);
        self.at_line_start = false;
        self.pending_space = false;
        self.want_line = false;
        self.keep_blank = false;
        self.block_start = false;
    }

    /// Ends the current line if needed, writes a pending blank line, then the indentation.
    fn begin_line(&mut self) {
        if !self.at_line_start {
            self.out.push('\n');
        }
        if self.pending_blank && !self.out.is_empty() && !self.block_start {
            self.out.push('\n');
        }
        self.pending_blank = false;
        let level = self.indent + usize::from(self.continuation);
        self.out.extend(std::iter::repeat_n(' ', level * INDENT));
        self.at_line_start = false;
    }

    /// Writes the comments that start before `before`.
    fn flush(&mut self, before: usize) {
        while let Some(comment) = self.comments.get(self.next_comment) {
            if comment.start >= before {
                break;
            }
            let comment = comment.clone();
            self.next_comment += 1;
            self.comment(&comment);
        }
    }

    fn comment(&mut self, comment: &Comment<'s>) {
        if !self.want_line {
            self.continuation = true;
        }
        if !comment.own_line && !self.out.is_empty() {
            // After the token it followed, on that token's line.
            if self.at_line_start {
                self.out.pop();
            }
            self.out.push(' ');
        } else {
            if comment.blank_before && self.want_line {
                self.pending_blank = true;
            }
            self.begin_line();
        }
        self.out.push_str(comment.text);
        self.out.push('\n');
        self.at_line_start = true;
        self.pending_space = false;
        self.block_start = false;
        self.last_end = comment.end;
    }

    /// Every comment left, then the text, ending with one line break (empty for a file with
    /// nothing in it).
    pub fn finish(mut self) -> String {
        self.indent = 0;
        self.line_start();
        self.flush(usize::MAX);
        if !self.out.is_empty() && !self.at_line_start {
            self.out.push('\n');
        }
        self.out
    }
}
