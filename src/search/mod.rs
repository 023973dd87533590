//! The search: iterative deepening with aspiration windows over a negamax
//! principal variation search, quiescence, a shared lock-free transposition
//! table and Lazy SMP helpers. The UCI loop drives it through [`run_search`].

mod alphabeta;
mod check;
mod correction;
mod driver;
pub mod history;
pub mod movepick;
pub mod params;
mod qsearch;
pub mod score;
mod searcher;
pub mod see;
pub mod stats;
pub mod tb_probe;
pub mod tb_score;
mod threads;
pub mod threats;
pub mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::Move;

use crate::eval::nnue::{Network, NnueEvaluator};
use crate::eval::{EvalChoice, pst::PstEvaluator};
use crate::position::Position;

pub use history::HistoryStore;
pub use score::Score;
pub use threads::MAX_THREADS;
pub use tt::TranspositionTable;

/// What `go` asked for. Absent fields impose no limit.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched (the node
    /// count of a completed iteration, not a cut-off one: datagen's budget).
    pub soft_nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub wtime_ms: Option<i64>,
    pub btime_ms: Option<i64>,
    pub winc_ms: Option<i64>,
    pub binc_ms: Option<i64>,
    pub movestogo: Option<u32>,
    /// Search for a mate in at most this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Time limits apply only after [`SearchControl::ponderhit`].
    pub ponder: bool,
    /// Restrict the root to these moves (ignored when none of them is legal).
    pub searchmoves: Vec<Move>,
}

/// Engine settings that outlive one search (UCI options).
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Search threads including the main one (at least 1).
    pub threads: usize,
    /// Number of principal variations to report (at least 1).
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Add `wdl` to `info` lines.
    pub show_wdl: bool,
    pub eval: EvalChoice,
    /// Write UCI castling as king-takes-rook (`UCI_Chess960`).
    pub chess960: bool,
    /// Syzygy tables and their probe options.
    pub syzygy: crate::tablebase::Syzygy,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
            show_wdl: false,
            eval: EvalChoice::default(),
            chess960: false,
            syzygy: Default::default(),
        }
    }
}

/// Signals from the UCI thread to a running search; share it through `Arc`.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    ponderhit: AtomicBool,
    /// Set by the search job once it has let go of everything the engine
    /// loop may change (hash table, histories), just before `bestmove`.
    finished: AtomicBool,
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Ends the search as soon as possible (`stop`, `quit`).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: time limits start to count.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn is_ponderhit(&self) -> bool {
        self.ponderhit.load(Ordering::Relaxed)
    }

    /// The job is done with the shared tables: a command read after its
    /// `bestmove` may resize or clear them. Release pairs with
    /// [`SearchControl::is_finished`]'s Acquire, so the dropped references
    /// are seen as dropped.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::Release);
    }

    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    /// Clears the flags; call before starting a new search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.ponderhit.store(false, Ordering::Relaxed);
        self.finished.store(false, Ordering::Relaxed);
    }
}

/// One principal variation of the last completed iteration.
#[derive(Clone, Debug)]
pub struct PvLine {
    pub score: Score,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug, Default)]
pub struct SearchOutcome {
    /// `None` only when the root has no legal move (`bestmove 0000`).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// Best first; as many as MultiPV asked for (and legal moves allow).
    pub lines: Vec<PvLine>,
    /// Deepest completed iteration: the main thread's, or a helper's when
    /// one completed a deeper iteration (its lines and `seldepth` are then
    /// the search's result too).
    pub depth: u32,
    pub seldepth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Nodes of the main thread alone: with helpers on free cores, time to
    /// depth follows this count.
    pub main_thread_nodes: u64,
    pub time_ms: u64,
    /// The main thread after each completed iteration (`explain trace`).
    pub iterations: Vec<stats::IterationStats>,
}

/// Searches `root` (which carries the game's key history for repetitions)
/// within `limits`, sending complete UCI `info` lines to `out`.
///
/// Returns when a limit is reached or `control` says stop. In infinite and
/// ponder mode it may return early (depth limit, forced mate); the caller
/// waits for `stop`/`ponderhit` before printing `bestmove`. The best move is
/// always a legal move when one exists, even when stopped at once.
///
/// The calling thread runs the main search: give it a few MB of stack
/// (helper threads are spawned with their own).
pub fn run_search(
    root: &Position,
    limits: &Limits,
    config: &SearchConfig,
    tt: &TranspositionTable,
    control: &SearchControl,
    out: &mut dyn FnMut(&str),
) -> SearchOutcome {
    let mut histories = HistoryStore::new();
    let memory = GameMemory {
        tt,
        histories: &mut histories,
        evaluators: None,
    };
    run_search_in_game(root, limits, config, memory, control, Some(out))
}

/// What the searches of one game leave for the next move: table entries,
/// move-ordering history and, where the caller keeps them, the threads' NNUE
/// evaluators (a search of a few thousand nodes, as in datagen, then
/// allocates nothing and refreshes from warm caches).
pub struct GameMemory<'a> {
    pub tt: &'a TranspositionTable,
    pub histories: &'a mut HistoryStore,
    pub evaluators: Option<&'a mut EvaluatorStore>,
}

/// NNUE evaluators kept between the searches of a game, one a thread.
#[derive(Default)]
pub struct EvaluatorStore {
    nnue: Vec<NnueEvaluator>,
}

impl EvaluatorStore {
    pub fn new() -> EvaluatorStore {
        EvaluatorStore::default()
    }

    /// The kept evaluators, if they evaluate with `net` (another net's are
    /// dropped: `EvalFile` may have changed between two searches).
    fn take(&mut self, net: &Arc<Network>) -> Vec<NnueEvaluator> {
        let kept = std::mem::take(&mut self.nnue);
        if kept.iter().all(|e| Arc::ptr_eq(e.network(), net)) {
            kept
        } else {
            Vec::new()
        }
    }

    fn put_back(&mut self, evaluators: Vec<NnueEvaluator>) {
        self.nnue = evaluators;
    }
}

/// `run_search` for one move of a game: it starts from what the game's
/// earlier searches left in `memory` and leaves what it learned there.
/// Without `out` no `info` line is even formatted (datagen's searches).
pub fn run_search_in_game(
    root: &Position,
    limits: &Limits,
    config: &SearchConfig,
    memory: GameMemory<'_>,
    control: &SearchControl,
    out: Option<&mut dyn FnMut(&str)>,
) -> SearchOutcome {
    let threads = config.threads.clamp(1, MAX_THREADS);
    match &config.eval {
        EvalChoice::Pst => {
            let evals = (0..threads).map(|_| PstEvaluator::new()).collect();
            threads::search_with(root, limits, config, memory, control, out, evals).0
        }
        EvalChoice::Nnue(net) => {
            let mut memory = memory;
            let mut evaluators = memory.evaluators.take();
            let kept = evaluators
                .as_deref_mut()
                .map_or_else(Vec::new, |store| store.take(net));
            let evals = kept
                .into_iter()
                .chain(std::iter::repeat_with(|| NnueEvaluator::new(net.clone())))
                .take(threads)
                .collect();
            let (outcome, evals) =
                threads::search_with(root, limits, config, memory, control, out, evals);
            if let Some(store) = evaluators {
                store.put_back(evals);
            }
            outcome
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first moves of a game searched at fixed nodes, each search
    /// starting from what the earlier ones left; `keep` keeps the
    /// evaluators between them too.
    fn game(net: &Arc<Network>, keep: bool) -> Vec<(Option<Move>, u64, Score)> {
        let config = SearchConfig {
            eval: EvalChoice::Nnue(Arc::clone(net)),
            ..SearchConfig::default()
        };
        let limits = Limits {
            nodes: Some(3000),
            ..Limits::default()
        };
        let tt = TranspositionTable::new(1);
        let mut histories = HistoryStore::new();
        let mut store = EvaluatorStore::new();
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..8 {
            let memory = GameMemory {
                tt: &tt,
                histories: &mut histories,
                evaluators: keep.then_some(&mut store),
            };
            let outcome =
                run_search_in_game(&pos, &limits, &config, memory, &SearchControl::new(), None);
            let best = outcome.best.expect("a legal move");
            moves.push((outcome.best, outcome.nodes, outcome.lines[0].score));
            pos.make(best);
        }
        moves
    }

    #[test]
    fn kept_evaluators_search_as_fresh_ones_do() {
        let net = Network::embedded_default().expect("the build embeds nets/default.nnue");
        assert_eq!(game(&net, true), game(&net, false));
    }

    #[test]
    fn evaluators_of_another_net_are_not_reused() {
        let net = Network::embedded_default().expect("the build embeds nets/default.nnue");
        let other = Arc::new(Network::clone(&net));
        let mut store = EvaluatorStore::new();
        store.put_back(vec![NnueEvaluator::new(Arc::clone(&net))]);
        assert!(store.take(&other).is_empty());
        store.put_back(vec![NnueEvaluator::new(Arc::clone(&net))]);
        assert_eq!(store.take(&net).len(), 1);
    }
}
