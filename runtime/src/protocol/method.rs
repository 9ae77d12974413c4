//! The methods a connection answers: one table of their names, matched once per request;
//! what each needs (a revision, a feature of the services) and how it is served are asked
//! of the [`Method`], never of its name again.

use super::revision::Revision;

/// A request method the server knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Initialize,
    Ping,
    Discover,
    SetLevel,
    ListTools,
    ListResources,
    ListTemplates,
    ListPrompts,
    CallTool,
    ReadResource,
    GetPrompt,
    Complete,
    Listen,
    Subscribe,
    Unsubscribe,
    GetTask,
    UpdateTask,
    CancelTask,
}

/// What a method needs of the services (or the server) to exist on a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Needs {
    /// Nothing: the handshake revisions' own methods, `server/discover`.
    Nothing,
    Tools,
    Resources,
    Prompts,
    Completions,
    /// Resources that can be subscribed to, on a connection that keeps subscriptions.
    Subscriptions,
    /// Tools that run as tasks.
    TaskTools,
}

/// Which revisions have a method: the handshake ones (served after `initialize`), the
/// per-request one (2026-07-28), or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Revisions {
    Handshake,
    PerRequest,
    Both,
}

impl Method {
    /// The method named `name`, if the server knows it.
    pub(crate) fn parse(name: &str) -> Option<Method> {
        Some(match name {
            "initialize" => Method::Initialize,
            "ping" => Method::Ping,
            "server/discover" => Method::Discover,
            "logging/setLevel" => Method::SetLevel,
            "tools/list" => Method::ListTools,
            "resources/list" => Method::ListResources,
            "resources/templates/list" => Method::ListTemplates,
            "prompts/list" => Method::ListPrompts,
            "tools/call" => Method::CallTool,
            "resources/read" => Method::ReadResource,
            "prompts/get" => Method::GetPrompt,
            "completion/complete" => Method::Complete,
            "subscriptions/listen" => Method::Listen,
            "resources/subscribe" => Method::Subscribe,
            "resources/unsubscribe" => Method::Unsubscribe,
            "tasks/get" => Method::GetTask,
            "tasks/update" => Method::UpdateTask,
            "tasks/cancel" => Method::CancelTask,
            _ => return None,
        })
    }

    /// The method's name on the wire.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Method::Initialize => "initialize",
            Method::Ping => "ping",
            Method::Discover => "server/discover",
            Method::SetLevel => "logging/setLevel",
            Method::ListTools => "tools/list",
            Method::ListResources => "resources/list",
            Method::ListTemplates => "resources/templates/list",
            Method::ListPrompts => "prompts/list",
            Method::CallTool => "tools/call",
            Method::ReadResource => "resources/read",
            Method::GetPrompt => "prompts/get",
            Method::Complete => "completion/complete",
            Method::Listen => "subscriptions/listen",
            Method::Subscribe => "resources/subscribe",
            Method::Unsubscribe => "resources/unsubscribe",
            Method::GetTask => "tasks/get",
            Method::UpdateTask => "tasks/update",
            Method::CancelTask => "tasks/cancel",
        }
    }

    /// What the services must provide for the method to exist.
    pub(crate) fn needs(self) -> Needs {
        match self {
            Method::Initialize | Method::Ping | Method::Discover | Method::SetLevel => {
                Needs::Nothing
            }
            Method::Listen => Needs::Nothing,
            Method::ListTools | Method::CallTool => Needs::Tools,
            Method::ListResources | Method::ListTemplates | Method::ReadResource => {
                Needs::Resources
            }
            Method::ListPrompts | Method::GetPrompt => Needs::Prompts,
            Method::Complete => Needs::Completions,
            Method::Subscribe | Method::Unsubscribe => Needs::Subscriptions,
            Method::GetTask | Method::UpdateTask | Method::CancelTask => Needs::TaskTools,
        }
    }

    /// Which revisions have the method.
    pub(crate) fn revisions(self) -> Revisions {
        match self {
            Method::Initialize | Method::Ping | Method::SetLevel => Revisions::Handshake,
            Method::Subscribe | Method::Unsubscribe => Revisions::Handshake,
            Method::Listen | Method::GetTask | Method::UpdateTask | Method::CancelTask => {
                Revisions::PerRequest
            }
            _ => Revisions::Both,
        }
    }

    /// Whether `rev` has the method.
    pub(crate) fn in_revision(self, rev: Revision) -> bool {
        match self.revisions() {
            Revisions::Handshake => !rev.is_stateless(),
            Revisions::PerRequest => rev.is_stateless(),
            Revisions::Both => true,
        }
    }

    /// Whether the method runs a service's handler (which may stay pending, and so takes one
    /// of the connection's slots for calls in flight).
    pub(crate) fn calls_handler(self) -> bool {
        matches!(
            self,
            Method::CallTool | Method::ReadResource | Method::GetPrompt | Method::Complete
        )
    }

    /// Whether the method may be served before a session exists (no `initialize` yet).
    pub(crate) fn before_session(self) -> bool {
        matches!(self, Method::Initialize | Method::Ping)
    }

    /// The parameter naming the item the method acts on: what 2026-07-28's `Mcp-Name`
    /// header mirrors.
    #[cfg(feature = "http")]
    pub(crate) fn named_by(self) -> Option<Named> {
        match self {
            Method::CallTool | Method::GetPrompt => Some(Named::Name),
            Method::ReadResource => Some(Named::Uri),
            Method::GetTask | Method::UpdateTask | Method::CancelTask => Some(Named::TaskId),
            _ => None,
        }
    }
}

/// The parameter naming a method's item ([`Method::named_by`]).
#[cfg(feature = "http")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    /// `params.name`: a tool's or a prompt's.
    Name,
    /// `params.uri`: a resource's.
    Uri,
    /// `params.taskId` (SEP-2663).
    TaskId,
}

#[cfg(all(feature = "client", feature = "http"))]
impl Named {
    /// The parameter's key in `params`.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Named::Name => "name",
            Named::Uri => "uri",
            Named::TaskId => "taskId",
        }
    }
}

/// A notification from the client that the server acts on (the others are ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Notification {
    Initialized,
    Cancelled,
}

impl Notification {
    /// The notification named `name`, if the server acts on it.
    pub(crate) fn parse(name: &str) -> Option<Notification> {
        match name {
            "notifications/initialized" => Some(Notification::Initialized),
            "notifications/cancelled" => Some(Notification::Cancelled),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Method; 18] = [
        Method::Initialize,
        Method::Ping,
        Method::Discover,
        Method::SetLevel,
        Method::ListTools,
        Method::ListResources,
        Method::ListTemplates,
        Method::ListPrompts,
        Method::CallTool,
        Method::ReadResource,
        Method::GetPrompt,
        Method::Complete,
        Method::Listen,
        Method::Subscribe,
        Method::Unsubscribe,
        Method::GetTask,
        Method::UpdateTask,
        Method::CancelTask,
    ];

    #[test]
    fn names_round_trip_and_nothing_else_parses() {
        for m in ALL {
            assert_eq!(Method::parse(m.name()), Some(m));
        }
        for name in [
            "",
            "tools/List",
            "tools/call ",
            "notifications/initialized",
            "tasks/list",
        ] {
            assert_eq!(Method::parse(name), None, "{name}");
        }
        assert_eq!(
            Notification::parse("notifications/initialized"),
            Some(Notification::Initialized)
        );
        assert_eq!(
            Notification::parse("notifications/cancelled"),
            Some(Notification::Cancelled)
        );
        assert_eq!(Notification::parse("initialized"), None);
    }
}
