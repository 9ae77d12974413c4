//! How deep a client's values may nest, and the guard that keeps reading them off the end of
//! the stack.
//!
//! Decoders recurse once per array or object, so a value nested deeply enough would overflow
//! the thread's stack and abort the whole process (a 3,000-level tree is 78 KB, far under the
//! message limit). Two checks stop that before it happens:
//!
//! - a **nesting limit**, counted in arrays and objects from the `arguments` object (level 1):
//!   a container past it is refused with `Nested deeper than N levels.` at its path. The
//!   default is [`DEFAULT_MAX_DEPTH`]; a server sets its own with `ServerBuilder::max_depth`,
//!   and the runtime hands it to the service with the arguments
//!   ([`Arguments::max_depth`](super::Arguments::max_depth)).
//! - a **stack budget**: however high the limit is set, reading refuses to go on once it has
//!   used [`STACK_BUDGET`] bytes of stack below the point where the runtime handed the
//!   arguments over (where the [`Arguments`](super::Arguments) or the
//!   [`Reader`](super::Reader) was made), with `Nested too deeply to read.`. The runtime's
//!   threads have at least 2 MiB of stack (tokio's workers); the default limit needs a
//!   fraction of the budget even in a debug build, so this guard only fires for a limit set
//!   far above what the stack can hold.
//!
//! Results are written by [`to_json`] under a limit too: a handler may build a value of any
//! depth. [`ToolOutput::json`](crate::ToolOutput::json) writes under
//! [`MAX_DEPTH_CEILING`], and the runtime refuses a result text nested deeper than its
//! server's limit ([`nested_deeper_than`]).

/// The default nesting limit: as deep as serde_json reads by default, far deeper than real
/// arguments go.
pub const DEFAULT_MAX_DEPTH: u32 = 128;

/// The highest nesting limit a server may set: a `json` value is read without recursion, but
/// serde_json drops and writes one recursively, which 1,024 levels keep far inside a 2 MiB
/// stack.
pub const MAX_DEPTH_CEILING: u32 = 1024;

/// The stack that reading one value may use, below the point where its reader (or the
/// arguments it reads) was made.
pub const STACK_BUDGET: usize = 1024 * 1024;

/// The address of a local of the caller's frame: where the stack is now.
#[inline(always)]
pub(crate) fn stack_here() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Whether more than [`STACK_BUDGET`] bytes of stack lie between `base` and here.
#[inline]
pub(crate) fn stack_exhausted(base: usize) -> bool {
    base.abs_diff(stack_here()) > STACK_BUDGET
}

/// Serializes `value` as compact JSON, refusing (with an error, not a stack overflow) to nest
/// deeper than `max_depth` or to use more than the stack budget below this call: a handler may
/// build a result of any depth.
pub fn to_json<T: serde::Serialize + ?Sized>(
    value: &T,
    max_depth: u32,
) -> Result<String, serde_json::Error> {
    let mut out = Vec::with_capacity(128);
    let formatter = Guard {
        depth: 0,
        max_depth,
        stack_base: stack_here(),
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut ser)?;
    // serde_json writes UTF-8 only.
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// Whether the JSON text `json` nests deeper than `max_depth` arrays and objects: how the
/// runtime holds a result written elsewhere to its server's limit. Linear, without recursion;
/// a text too short to nest that deep is not read at all.
pub fn nested_deeper_than(json: &str, max_depth: u32) -> bool {
    // Each level takes two bytes at least (`[` and `]`).
    if json.len() <= 2 * max_depth as usize {
        return false;
    }
    let mut depth = 0u32;
    let mut in_string = false;
    let mut escaped = false;
    for &b in json.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max_depth {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Drops a `serde_json::Value` of any depth without recursion (serde_json's own drop
/// recurses once per level): for a value refused as too deep.
pub fn drop_json(value: serde_json::Value) {
    let mut pending = vec![value];
    while let Some(v) = pending.pop() {
        match v {
            serde_json::Value::Array(items) => pending.extend(items),
            serde_json::Value::Object(map) => pending.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Drops `value` on a thread of its own with a 256 MiB stack: for a value that may be too
/// deep for its drop glue here. If no thread can be started, the value is leaked rather than
/// risk the process.
pub fn drop_on_large_stack<T: Send + 'static>(value: T) {
    let slot = std::sync::Arc::new(std::sync::Mutex::new(Some(value)));
    let theirs = slot.clone();
    let spawned = std::thread::Builder::new()
        .name("toolidl-drop".into())
        .stack_size(256 << 20)
        .spawn(move || {
            let taken = theirs.lock().map(|mut v| v.take());
            drop(taken);
        });
    // The thread is left to finish alone: the caller (a tokio worker) does not wait on it.
    match spawned {
        Ok(_detached) => {}
        Err(e) => {
            tracing::error!(error = %e, "no thread to drop a deep value on; it is leaked");
            std::mem::forget(slot);
        }
    }
}

/// serde_json's compact formatter, counting the arrays and objects it opens.
struct Guard {
    depth: u32,
    max_depth: u32,
    stack_base: usize,
}

impl Guard {
    fn open(&mut self) -> std::io::Result<()> {
        if self.depth >= self.max_depth {
            return Err(std::io::Error::other(format!(
                "the value is nested deeper than {} levels",
                self.max_depth
            )));
        }
        if stack_exhausted(self.stack_base) {
            return Err(std::io::Error::other(
                "the value is nested too deeply to write",
            ));
        }
        self.depth += 1;
        Ok(())
    }
}

impl serde_json::ser::Formatter for Guard {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open()?;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth -= 1;
        w.write_all(b"]")
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open()?;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth -= 1;
        w.write_all(b"}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[[…[]…]]`, `n` arrays deep, built without recursion.
    fn nested(n: usize) -> serde_json::Value {
        let mut v = serde_json::Value::Array(Vec::new());
        for _ in 1..n {
            v = serde_json::Value::Array(vec![v]);
        }
        v
    }

    #[test]
    fn results_nest_up_to_the_limit() {
        let ok = nested(DEFAULT_MAX_DEPTH as usize);
        let json = to_json(&ok, DEFAULT_MAX_DEPTH).unwrap();
        assert_eq!(json, serde_json::to_string(&ok).unwrap());
        let deep = nested(DEFAULT_MAX_DEPTH as usize + 1);
        let e = to_json(&deep, DEFAULT_MAX_DEPTH).unwrap_err().to_string();
        assert_eq!(e, "the value is nested deeper than 128 levels");
        assert!(to_json(&nested(3), 3).is_ok());
        assert!(to_json(&nested(4), 3).is_err());
        // A value of a million levels is refused before the stack runs out; drop it without
        // recursion.
        let huge = nested(1_000_000);
        assert!(to_json(&huge, u32::MAX).is_err());
        drop_json(huge);
    }

    #[test]
    fn a_text_nested_deeper_than_the_limit_is_told_apart() {
        let text = |n: usize| serde_json::to_string(&nested(n)).unwrap();
        assert!(!nested_deeper_than(&text(3), 3));
        assert!(nested_deeper_than(&text(4), 3));
        assert!(!nested_deeper_than(&text(300), 300));
        assert!(nested_deeper_than(&text(301), 300));
        // Brackets inside strings, escaped quotes included, are text.
        assert!(!nested_deeper_than(r#"{"a":"[[[[\"[[[[","b":[1]}"#, 2));
        assert!(nested_deeper_than(r#"{"a":"\\","b":[[1]]}"#, 2));
    }
}
