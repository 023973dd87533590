//! One search thread's use of the tablebase: it narrows the root moves to
//! those the tables say keep the best result, probes nodes in the tree,
//! counts hits for `tbhits` and says what to report for a root the tables
//! know. It asks the tables for plain results and scores them through
//! [`super::tb_score`].

use std::sync::Arc;

use shakmaty::Move;

use super::score::MATE_BOUND;
use super::tb_score::{result_score, root_score};
use crate::position::Position;
use crate::tablebase::{ProbeSettings, RootRanking, Syzygy, Tablebase, Wdl};

/// One search thread's use of the tables: ranks the root moves, probes the
/// tree, counts hits and says what result to report.
#[derive(Debug, Default)]
pub struct SearchProbe {
    tables: Option<Arc<Tablebase>>,
    settings: ProbeSettings,
    /// Probe inside the tree: off once the root moves were ranked by DTZ,
    /// whose filtering already secures the result (the search then looks
    /// for the quickest way among them), as in Stockfish.
    in_tree: bool,
    root: Option<RootRanking>,
    hits_before: u64,
}

impl SearchProbe {
    pub fn new(syzygy: &Syzygy) -> SearchProbe {
        SearchProbe {
            tables: syzygy.tables.clone(),
            settings: syzygy.settings,
            in_tree: syzygy.tables.is_some(),
            root: None,
            hits_before: syzygy.tables.as_ref().map_or(0, |t| t.hits()),
        }
    }

    /// At the root: when the tables know the position, keeps in `moves`
    /// only the moves that keep the best result (in table order), unless
    /// none of those was among `moves` (`go searchmoves`).
    pub fn filter_root_moves(&mut self, pos: &mut Position, moves: &mut Vec<Move>) {
        let Some(tables) = &self.tables else {
            return;
        };
        let Some(ranking) = tables.rank_root_moves(pos, &self.settings) else {
            return;
        };
        let kept: Vec<Move> = ranking.best_moves().filter(|m| moves.contains(m)).collect();
        if !kept.is_empty() {
            *moves = kept;
        }
        let winning = matches!(ranking.result(), Wdl::Win | Wdl::CursedWin);
        self.in_tree = ranking.dtz().is_none() && winning;
        self.root = Some(ranking);
    }

    /// Probes a node `ply` plies from the root with `depth` plies left and
    /// returns its score when the tables know it. The node ends there
    /// whatever the window: the WDL result is certain, only the distance
    /// is not, and the search does not look for a quicker mate below it
    /// (a mate found elsewhere still outranks the tablebase band).
    pub fn probe(&self, pos: &Position, depth: i32, ply: usize) -> Option<i32> {
        if !self.in_tree || ply == 0 {
            return None;
        }
        let tables = self.tables.as_ref()?;
        if !tables.should_probe_in_search(pos.snapshot(), depth, &self.settings) {
            return None;
        }
        let wdl = tables.probe_wdl_after_zeroing(&pos.to_chess())?;
        Some(result_score(wdl, ply, self.settings.rule50))
    }

    /// Table hits since this thread started its search, counting every
    /// thread's probes (root ranking included).
    pub fn hits(&self) -> u64 {
        let total = self.tables.as_ref().map_or(0, |t| t.hits());
        total.saturating_sub(self.hits_before)
    }

    /// What the tables say about the root, if they were asked.
    pub fn root(&self) -> Option<&RootRanking> {
        self.root.as_ref()
    }

    /// The score and UCI `wdl` to report for the root given the search's
    /// `score`: a mate the search found in the winning direction stands,
    /// anything else gives way to the true result from the tables.
    pub fn report(&self, score: i32) -> Option<(i32, (u32, u32, u32))> {
        let root = self.root.as_ref()?;
        let result = root.result();
        let found_mate = match result {
            Wdl::Win => score >= MATE_BOUND,
            Wdl::Loss => score <= -MATE_BOUND,
            _ => false,
        };
        let score = if found_mate { score } else { root_score(root) };
        Some((score, root.wdl_permille()))
    }
}
