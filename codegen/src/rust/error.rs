//! Why generation failed after the files resolved.

/// Why generation failed after the files resolved (a diagnostic-free failure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateError {
    /// What went wrong, naming the declaration.
    pub message: String,
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GenerateError {}
