//! MCP protocol revisions served by the runtime and what differs between them.

/// A protocol revision. Ordered oldest to newest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Revision {
    /// 2024-11-05, the first revision.
    V2024_11_05,
    /// 2025-03-26: annotations, completions, progress messages.
    V2025_03_26,
    /// 2025-06-18: titles, `outputSchema`, structured content, elicitation.
    V2025_06_18,
    /// 2025-11-25: icons, tool execution hints.
    V2025_11_25,
    /// Stateless: no handshake, per-request `_meta`, `server/discover`, `resultType`.
    V2026_07_28,
}

impl Revision {
    /// Every revision, oldest first.
    pub const ALL: [Revision; 5] = [
        Revision::V2024_11_05,
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ];

    /// The newest revision negotiated by `initialize`.
    pub const NEWEST_HANDSHAKE: Revision = Revision::V2025_11_25;

    /// The revision's date, as MCP messages carry it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Revision::V2024_11_05 => "2024-11-05",
            Revision::V2025_03_26 => "2025-03-26",
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// The revision with this date, if served.
    pub fn parse(s: &str) -> Option<Revision> {
        Revision::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Whether the revision is stateless (per-request `_meta`, no `initialize`).
    pub fn is_stateless(self) -> bool {
        self >= Revision::V2026_07_28
    }

    /// `structuredContent` and `outputSchema` exist from 2025-06-18.
    pub fn has_structured_content(self) -> bool {
        self >= Revision::V2025_06_18
    }

    /// `structuredContent` may be any JSON value, `null` among them, from 2026-07-28 (an
    /// object before).
    pub fn has_any_structured_content(self) -> bool {
        self >= Revision::V2026_07_28
    }

    /// `elicitation/create` (and the client's `elicitation` capability) exist from 2025-06-18.
    pub fn has_elicitation(self) -> bool {
        self >= Revision::V2025_06_18
    }

    /// `notifications/progress` carries `message` from 2025-03-26.
    pub fn has_progress_message(self) -> bool {
        self >= Revision::V2025_03_26
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tool-definition keys that a revision's schema does not define, stripped from listings for it.
pub(crate) fn unknown_tool_keys(rev: Revision) -> &'static [&'static str] {
    match rev {
        Revision::V2024_11_05 => &[
            "title",
            "outputSchema",
            "annotations",
            "icons",
            "execution",
            "_meta",
        ],
        Revision::V2025_03_26 => &["title", "outputSchema", "icons", "execution", "_meta"],
        Revision::V2025_06_18 => &["icons", "execution"],
        Revision::V2025_11_25 => &[],
        // Tasks (`execution`) moved to an extension in 2026-07-28.
        Revision::V2026_07_28 => &["execution"],
    }
}

/// Keys of `Resource`, `ResourceTemplate` and `Prompt` objects (and, for `title`, of a
/// prompt's arguments) that a revision's schema does not define, stripped from listings for it.
pub(crate) fn unknown_listing_keys(rev: Revision) -> &'static [&'static str] {
    match rev {
        Revision::V2024_11_05 | Revision::V2025_03_26 => &["title", "icons", "_meta"],
        Revision::V2025_06_18 => &["icons"],
        Revision::V2025_11_25 | Revision::V2026_07_28 => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order_is_chronological() {
        for r in Revision::ALL {
            assert_eq!(Revision::parse(r.as_str()), Some(r));
        }
        assert!(Revision::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Revision::parse("2025-01-01"), None);
        assert!(Revision::V2026_07_28.is_stateless());
        assert!(!Revision::V2025_11_25.is_stateless());
    }
}
