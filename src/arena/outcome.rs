//! How a match ended: what the runner hands back and the report prints. It
//! lives apart from both so that the report and the runner do not import
//! each other.

use super::stats::SprtVerdict;

/// How a match ended.
pub struct MatchOutcome {
    pub interrupted: bool,
    pub sprt: Option<SprtVerdict>,
    pub error: Option<String>,
    /// Faults of all engines together (the report has them per engine).
    pub faults: u32,
}
