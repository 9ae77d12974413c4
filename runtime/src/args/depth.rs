//! How deep a client's values may nest, and the guard that keeps reading them off the end of
//! the stack.
//!
//! Decoders recurse once per array or object, so a value nested deeply enough would overflow
//! the thread's stack and abort the whole process (a 3,000-level tree is 78 KB, far under the
//! message limit). Two checks stop that before it happens:
//!
//! - a **nesting limit**, counted in arrays and objects from the `arguments` object (level 1):
//!   a container past it is refused with `Nested deeper than N levels.` at its path. The
//!   default is [`DEFAULT_MAX_DEPTH`]; a server sets its own with
//!   `ServerBuilder::max_depth`, which applies while the runtime runs a service's methods and
//!   the futures they return ([`scoped`], [`Scoped`]).
//! - a **stack budget**: however high the limit is set, reading refuses to go on once it has
//!   used [`STACK_BUDGET`] bytes of stack below the point where the runtime called the
//!   service (`Nested too deeply to read.`). The runtime's threads have at least 2 MiB of
//!   stack (tokio's workers); the default limit needs a fraction of the budget even in a debug
//!   build, so this guard only fires for a limit set far above what the stack can hold.

use std::cell::Cell;

/// The default nesting limit: as deep as serde_json reads by default, far deeper than real
/// arguments go.
pub const DEFAULT_MAX_DEPTH: u32 = 128;

/// The highest nesting limit a server may set: a `json` value is read without recursion, but
/// serde_json drops and writes one recursively, which 1,024 levels keep far inside a 2 MiB
/// stack.
pub const MAX_DEPTH_CEILING: u32 = 1024;

/// The stack that reading one value may use, below the point where the runtime called the
/// service (or where the first reader was made, outside the runtime).
pub const STACK_BUDGET: usize = 1024 * 1024;

thread_local! {
    /// The limit in force on this thread, and the stack address reading is measured from
    /// (0: not set, each reader measures from where it was made).
    static SCOPE: Cell<(u32, usize)> = const { Cell::new((DEFAULT_MAX_DEPTH, 0)) };
}

/// The nesting limit in force on this thread: the server's, while the runtime runs a
/// service; [`DEFAULT_MAX_DEPTH`] elsewhere.
pub fn max_depth() -> u32 {
    SCOPE.with(|s| s.get().0)
}

/// The nesting limit in force on this thread and the stack address budgets are measured
/// from (`here` when none is set), in one look at the thread's scope.
pub(crate) fn scope(here: usize) -> (u32, usize) {
    match SCOPE.with(Cell::get) {
        (max_depth, 0) => (max_depth, here),
        scope => scope,
    }
}

/// The stack address budgets are measured from, on this thread (`here` when none is set).
pub(crate) fn stack_base(here: usize) -> usize {
    scope(here).1
}

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

/// Runs `f` with `max_depth` as this thread's nesting limit and the stack measured from here;
/// the previous scope is restored afterwards, also when `f` panics.
pub fn scoped<R>(max_depth: u32, f: impl FnOnce() -> R) -> R {
    struct Restore((u32, usize));
    impl Drop for Restore {
        fn drop(&mut self) {
            SCOPE.with(|s| s.set(self.0));
        }
    }
    let base = stack_here();
    let _restore = Restore(SCOPE.with(|s| s.replace((max_depth.max(1), base))));
    f()
}

/// A future polled inside [`scoped`]: the limit holds on whichever thread polls it. The
/// futures services return are boxed, so `F` is `Unpin`.
pub struct Scoped<F> {
    max_depth: u32,
    inner: F,
}

impl<F> Scoped<F> {
    /// `inner`, polled with `max_depth` as the nesting limit.
    pub fn new(max_depth: u32, inner: F) -> Self {
        Scoped { max_depth, inner }
    }
}

impl<F: std::future::Future + Unpin> std::future::Future for Scoped<F> {
    type Output = F::Output;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<F::Output> {
        let this = &mut *self;
        let inner = std::pin::Pin::new(&mut this.inner);
        scoped(this.max_depth, move || inner.poll(cx))
    }
}

/// Serializes `value` as compact JSON, refusing (with an error, not a stack overflow) to nest
/// deeper than the limit in force or to use more than the stack budget: a handler may build
/// a result of any depth.
pub fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::with_capacity(128);
    let formatter = Guard {
        depth: 0,
        max_depth: max_depth(),
        stack_base: stack_base(stack_here()),
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut ser)?;
    // serde_json writes UTF-8 only.
    String::from_utf8(out).map_err(serde::ser::Error::custom)
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

    #[test]
    fn scopes_nest_and_restore_also_after_a_panic() {
        assert_eq!(max_depth(), DEFAULT_MAX_DEPTH);
        scoped(5, || {
            assert_eq!(max_depth(), 5);
            scoped(0, || assert_eq!(max_depth(), 1));
            assert_eq!(max_depth(), 5);
            let caught = std::panic::catch_unwind(|| scoped(9, || panic!("in a handler")));
            assert!(caught.is_err());
            assert_eq!(max_depth(), 5);
        });
        assert_eq!(max_depth(), DEFAULT_MAX_DEPTH);
    }

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
        assert_eq!(to_json(&ok).unwrap(), serde_json::to_string(&ok).unwrap());
        let deep = nested(DEFAULT_MAX_DEPTH as usize + 1);
        let e = to_json(&deep).unwrap_err().to_string();
        assert_eq!(e, "the value is nested deeper than 128 levels");
        scoped(3, || {
            assert!(to_json(&nested(3)).is_ok());
            assert!(to_json(&nested(4)).is_err());
        });
        // A value of a million levels is refused before the stack runs out; drop it without
        // recursion.
        let huge = nested(1_000_000);
        scoped(u32::MAX, || assert!(to_json(&huge).is_err()));
        drop_json(huge);
    }
}
