//! Engine misbehaviour, counted per engine in every match as fishtest counts
//! crashes and time losses: a result table says who won, this says whether
//! the games can be trusted.

use std::fmt::Write as _;
use std::ops::AddAssign;

/// What one engine did wrong, in one game or summed over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// The process died or closed its pipes.
    pub crashes: u32,
    /// No move within the hang timeout (untimed games) or no answer at all.
    pub stalls: u32,
    /// Lost on time.
    pub time_losses: u32,
    /// Illegal move, false claim or protocol break.
    pub illegal: u32,
    /// `info string error ...` lines: the engine telling us something went
    /// wrong, such as tarpon's caught search panic ("the search failed").
    pub error_reports: u32,
    /// Games drawn by repetition or the fifty-move rule while this engine's
    /// last [`DRAWN_AHEAD_MOVES`] scores were all above +3.00: a win thrown
    /// away. A weakness of play, not a fault: [`Faults::total`] leaves it out.
    pub drawn_ahead: u32,
}

/// How many of an engine's last scores must all be decisive.
pub const DRAWN_AHEAD_MOVES: u32 = 5;
/// A score above this (centipawns, or any winning mate) is decisive.
pub const DECISIVE_CP: i32 = 300;

impl Faults {
    /// The faults proper: everything but `drawn_ahead`.
    pub fn total(&self) -> u32 {
        self.crashes + self.stalls + self.time_losses + self.illegal + self.error_reports
    }
}

impl AddAssign for Faults {
    fn add_assign(&mut self, other: Faults) {
        self.crashes += other.crashes;
        self.stalls += other.stalls;
        self.time_losses += other.time_losses;
        self.illegal += other.illegal;
        self.error_reports += other.error_reports;
        self.drawn_ahead += other.drawn_ahead;
    }
}

/// Whether an engine's `info` line reports an error of its own. The UCI
/// protocol has no error message; engines use `info string`, and tarpon
/// starts every such report with `error`.
pub fn is_error_report(line: &str) -> bool {
    line.strip_prefix("info string ")
        .is_some_and(|text| text.trim_start().to_ascii_lowercase().starts_with("error"))
}

/// Faults per engine, summed over a match, in the order engines first appear.
#[derive(Clone, Debug, Default)]
pub struct FaultTally(Vec<(String, Faults)>);

impl FaultTally {
    pub fn add(&mut self, engine: &str, faults: Faults) {
        match self.0.iter_mut().find(|(name, _)| name == engine) {
            Some((_, total)) => *total += faults,
            None => self.0.push((engine.to_string(), faults)),
        }
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|(_, f)| f.total()).sum()
    }

    pub fn table(&self) -> String {
        let mut out = String::from(
            "Faults: Name                      Crashes  Stalls  TimeLosses  Illegal  ErrorReports  DrawnAhead\n",
        );
        for (name, f) in &self.0 {
            let _ = writeln!(
                out,
                "        {:<25} {:>7} {:>7} {:>11} {:>8} {:>13} {:>11}",
                name, f.crashes, f.stalls, f.time_losses, f.illegal, f.error_reports, f.drawn_ahead
            );
        }
        out.push_str(
            "        (DrawnAhead: drawn by repetition or fifty moves after five scores above +3.00; not a fault)\n",
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_reports_are_info_strings_that_start_with_error() {
        assert!(is_error_report(
            "info string error: the search failed (boom); playing a fallback move"
        ));
        assert!(is_error_report("info string ERROR in eval"));
        assert!(!is_error_report("info string warning: searchmoves: ..."));
        assert!(!is_error_report("info depth 3 score cp 10 pv e2e4"));
        assert!(!is_error_report(
            "info string NNUE evaluation using nn.nnue"
        ));
    }

    #[test]
    fn tally_sums_per_engine() {
        let mut tally = FaultTally::default();
        tally.add("a", Faults::default());
        tally.add(
            "b",
            Faults {
                crashes: 1,
                ..Faults::default()
            },
        );
        tally.add(
            "a",
            Faults {
                time_losses: 2,
                error_reports: 1,
                ..Faults::default()
            },
        );
        assert_eq!(tally.total(), 4);
        let table = tally.table();
        assert!(
            table.contains(
                "a                               0       0           2        0             1           0"
            ),
            "{table}"
        );
        assert!(table.lines().nth(2).unwrap().contains(" b "), "{table}");
    }
}
