//! Argument paths (`items[2].qty`, `tags["a b"]`), built on the stack while decoding
//! and rendered only when an error is reported.

use std::fmt::Write as _;

/// Where a value sits inside a tool's `arguments` object.
#[derive(Debug, Clone, Copy)]
pub enum Path<'a> {
    /// The `arguments` object itself.
    Root,
    /// A property of an object (a parameter at the top level, a record field below).
    Field(&'a Path<'a>, &'a str),
    /// An element of a list or set.
    Index(&'a Path<'a>, usize),
    /// An entry of a map.
    Key(&'a Path<'a>, &'a str),
}

impl<'a> Path<'a> {
    /// The property `name` of this object.
    pub fn field(&'a self, name: &'a str) -> Path<'a> {
        Path::Field(self, name)
    }

    /// Item `i` of this list or set.
    pub fn index(&'a self, i: usize) -> Path<'a> {
        Path::Index(self, i)
    }

    /// The entry `key` of this map.
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    /// Renders the path: `.field`, `[i]`, `["key"]`, the first segment without a dot.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out);
        out
    }

    fn render_into(&self, out: &mut String) {
        match *self {
            Path::Root => {}
            Path::Field(parent, name) => {
                parent.render_into(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Path::Index(parent, i) => {
                parent.render_into(out);
                let _ = write!(out, "[{i}]");
            }
            Path::Key(parent, key) => {
                parent.render_into(out);
                out.push('[');
                crate::protocol::push_json_string(out, key);
                out.push(']');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_fields_indexes_and_keys() {
        let root = Path::Root;
        let items = root.field("items");
        let second = items.index(2);
        let qty = second.field("qty");
        assert_eq!(qty.render(), "items[2].qty");
        let tags = root.field("tags");
        let key = tags.key("a \"b\"");
        let inner = key.field("x");
        assert_eq!(inner.render(), r#"tags["a \"b\""].x"#);
        assert_eq!(root.render(), "");
    }
}
