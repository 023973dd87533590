//! Counters of what the search did, per thread, and a snapshot after each
//! completed iteration of the main thread: `tarpon explain trace` prints them.
//! Plain integer increments on paths the search takes anyway.

use shakmaty::Move;

use super::score::Score;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Transposition-table probes in the main search, and how many found an entry.
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Beta cutoffs, and those caused by the first move searched.
    pub cutoffs: u64,
    pub first_move_cutoffs: u64,
    /// Null-move searches tried, and those that cut the node off.
    pub null_tries: u64,
    pub null_cutoffs: u64,
    /// Late moves searched reduced, and reduced searches redone at full depth.
    pub lmr_reductions: u64,
    pub lmr_researches: u64,
    /// Null-window searches redone with the full window at PV nodes.
    pub pvs_researches: u64,
    /// Root searches that fell outside the aspiration window.
    pub aspiration_fails_low: u64,
    pub aspiration_fails_high: u64,
}

/// The main thread's state after one completed iteration. Counters are
/// cumulative since the start of the search.
#[derive(Clone, Debug)]
pub struct IterationStats {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    /// Main-thread nodes.
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<Move>,
    pub stats: SearchStats,
}
