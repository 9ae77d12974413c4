//! The end of a graceful shutdown, for the transports: wait for the calls and the tasks in
//! flight until the drain deadline, then cancel what still runs, each answered (a call with
//! -32000, a task failed in its store), so that nothing the server took is left without an
//! outcome.

use std::time::Duration;

use tokio::time::Instant;

use super::tasks;
use crate::peer::ConnShared;
use crate::server::{ABORT_GRACE, Server, wait_until};

/// Whose calls a shutdown waits for: every connection of the server (HTTP), or one (stdio).
pub(crate) enum Scope<'a> {
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Server,
    Connection(&'a ConnShared),
}

/// Waits up to `drain` for the calls in `scope` and the server's running tasks to end; then
/// cancels the rest: each call is answered with -32000, each task is failed in its store with
/// -32000 (so a client polling it gets an answer, rather than `working` until it expires),
/// and waits a little for the answers to leave. Tasks waiting for input (`input_required`)
/// are not running and stay as they are: any instance sharing the store can go on with them.
/// Whether everything ended by itself.
pub(crate) async fn settle(server: &Server, scope: Scope<'_>, drain: Duration) -> bool {
    let calls = || match &scope {
        #[cfg(feature = "http")]
        Scope::Server => server.calls_in_flight(),
        #[cfg(not(feature = "http"))]
        Scope::Server => 0,
        Scope::Connection(conn) => conn.calls_in_flight(),
    };
    let deadline = Instant::now() + drain;
    if wait_until(deadline, || calls() == 0 && tasks::running(server) == 0).await {
        return true;
    }
    tracing::warn!(
        calls = calls(),
        tasks = tasks::running(server),
        "shutdown: calls and tasks still running at the drain deadline are cancelled"
    );
    match &scope {
        #[cfg(feature = "http")]
        Scope::Server => server.abort_calls(),
        #[cfg(not(feature = "http"))]
        Scope::Server => {}
        Scope::Connection(conn) => conn.abort_calls(),
    }
    tasks::fail_running(server).await;
    wait_until(Instant::now() + ABORT_GRACE, || calls() == 0).await;
    false
}
