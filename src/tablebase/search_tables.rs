//! What a search takes from the tablebase: the open tables with the UCI
//! probe options, and whether a node deep in the tree is worth a probe.

use std::sync::Arc;

use crate::position::Snapshot;

use super::Tablebase;

/// The UCI options `SyzygyProbeDepth`, `SyzygyProbeLimit` and
/// `Syzygy50MoveRule`, with Stockfish's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeSettings {
    /// Probe inside the search only at this remaining depth or more (when
    /// the position has exactly as many pieces as the limit).
    pub depth: i32,
    /// Probe only positions with at most this many pieces (kings included).
    pub limit: u32,
    /// Count cursed wins and blessed losses as draws (the fifty-move rule).
    pub rule50: bool,
}

impl Default for ProbeSettings {
    fn default() -> Self {
        ProbeSettings {
            depth: 1,
            limit: 7,
            rule50: true,
        }
    }
}

impl Tablebase {
    /// Whether the search should probe `pos` (reached `depth` plies before
    /// the horizon): only right after a capture or pawn move, where the WDL
    /// tables are exact, and with few enough pieces (`SyzygyProbeLimit`);
    /// at exactly the limit only from `SyzygyProbeDepth` on.
    pub fn should_probe_in_search(
        &self,
        pos: &Snapshot,
        depth: i32,
        settings: &ProbeSettings,
    ) -> bool {
        if pos.halfmoves() != 0 || pos.castles().any() {
            return false;
        }
        let cardinality = self.cardinality(settings.limit);
        let pieces = pos.board().occupied().count() as u32;
        pieces < cardinality || (pieces == cardinality && depth >= settings.depth)
    }
}

/// The tables and probe options a search runs with (part of the search
/// configuration; `tables` is `None` while `SyzygyPath` is empty).
#[derive(Clone, Debug, Default)]
pub struct Syzygy {
    pub tables: Option<Arc<Tablebase>>,
    pub settings: ProbeSettings,
}

impl Syzygy {
    /// Opens `paths` (the `SyzygyPath` option) and returns the lines to
    /// show as `info string`.
    pub fn set_path(&mut self, paths: &str) -> Vec<String> {
        let tables = Tablebase::open(paths);
        let report = tables.report();
        self.tables = (!tables.is_empty()).then(|| Arc::new(tables));
        report
    }

    /// After a search: lines to show for tables that failed while probing,
    /// which are then left out of the next search.
    pub fn after_search(&mut self) -> Vec<String> {
        let Some(tables) = &self.tables else {
            return Vec::new();
        };
        let problems = tables.take_problems();
        if let Some(repaired) = tables.without_failed_tables() {
            self.tables = Some(Arc::new(repaired));
        }
        problems
    }
}
