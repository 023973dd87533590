//! One search thread's state: its copy of the position and evaluator, move
//! ordering tables, the principal variation, and how it decides to stop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use shakmaty::{Move, Role};

use super::history::History;
use super::movepick::ScorePool;
use super::score::{EVAL_LIMIT, INFINITE, KNOWN_WIN, MAX_PLY, Score, is_known_win};
use super::stats::{IterationStats, SearchStats};
use super::tb_probe::SearchProbe;
use super::time::{Clock, TimeBudget};
use super::tt::{TtHit, refines_eval};
use super::{Limits, SearchConfig, SearchControl, TranspositionTable};
use crate::eval::{Evaluator, as_search_sees};
use crate::position::{Position, movegen};

/// Marks "no static evaluation" (in check) in the ply stack and the table.
pub const NO_EVAL: i32 = i16::MIN as i32;

/// What all threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a Limits,
    pub config: &'a SearchConfig,
    /// Set by the main thread when it is done: helpers stop.
    pub abort: AtomicBool,
    /// Nodes searched by each thread, published every 256 nodes.
    pub nodes: Vec<ThreadCounter>,
}

/// A per-thread counter alone on its cache line: threads publishing their
/// own counts do not invalidate each other's lines (false sharing).
#[repr(align(64))]
#[derive(Default)]
pub struct ThreadCounter(pub AtomicU64);

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Relaxed)).sum()
    }
}

/// A root move with what the current and the last iteration said about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// This iteration's score, or `-INFINITE` if it was not the best so far.
    pub score: i32,
    /// Last resolved score (previous iteration or earlier in this one).
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// Nodes this thread has searched below this move since the `go`
    /// began, for time management.
    pub nodes: u64,
}

impl RootMove {
    /// The score to show for this move: this iteration's once it is
    /// resolved, else the last resolved one (`-INFINITE` before any).
    pub fn latest_score(&self) -> i32 {
        if self.score == -INFINITE {
            self.prev_score
        } else {
            self.score
        }
    }
}

/// A node's static evaluations (see [`Searcher::evaluate_with_table`]).
#[derive(Clone, Copy)]
pub struct NodeEval {
    /// The evaluator's, which the table stores.
    pub raw: i32,
    /// With the correction history's estimate of its error: what pruning
    /// and `improving` compare.
    pub corrected: i32,
    /// The corrected one, or the table's score where its bound says more.
    pub eval: i32,
}

impl NodeEval {
    /// A node in check has no static evaluation.
    pub const IN_CHECK: NodeEval = NodeEval {
        raw: NO_EVAL,
        corrected: NO_EVAL,
        eval: NO_EVAL,
    };

    /// Evaluations no table bound has sharpened.
    pub fn unrefined(raw: i32, corrected: i32) -> NodeEval {
        NodeEval {
            raw,
            corrected,
            eval: corrected,
        }
    }
}

#[derive(Clone, Copy, Default)]
pub struct PlyState {
    /// The corrected static evaluation ([`NodeEval::corrected`]).
    pub static_eval: i32,
    /// The evaluator's own, for the table.
    pub raw_eval: i32,
    /// The move made at this ply (`None` for a null move or not yet).
    pub mv: Option<Move>,
    /// The move a singular-extension search leaves out at this ply.
    pub excluded: Option<Move>,
    /// Double extensions on the path to this ply, capped so that they cannot
    /// make a line arbitrarily long.
    pub double_extensions: u8,
    /// The late-move reduction of the search below `mv` (−1 when it searches
    /// a ply deeper): set only while that reduced search runs, 0 otherwise
    /// (hindsight depth reads it).
    pub reduction: i32,
}

/// A thread's result at the end of an iteration it completed.
#[derive(Clone, Debug, Default)]
pub struct CompletedIteration {
    /// 0 before the first iteration completes.
    pub depth: i32,
    pub root_moves: Vec<RootMove>,
}

/// The main thread's clock and limits; helpers have none.
pub struct Timer {
    pub clock: Clock,
    pub budget: Option<TimeBudget>,
    /// Pondering and no `ponderhit` yet: no time limit counts.
    pub pondering: bool,
}

pub struct Searcher<'a, 'o, E: Evaluator> {
    pub id: usize,
    pub shared: &'a Shared<'a>,
    pub pos: Position,
    pub eval: E,
    pub history: History,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub root_depth: i32,
    pub root_moves: Vec<RootMove>,
    /// Index of the MultiPV line being searched.
    pub pv_index: usize,
    pub stack: Box<[PlyState; MAX_PLY + 4]>,
    /// Triangular PV table: `pv[ply][ply..pv_len[ply]]`.
    pub pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub pv_len: Box<[usize; MAX_PLY + 1]>,
    /// Null-move verification: no null move before this ply.
    pub null_min_ply: usize,
    pub timer: Option<Timer>,
    /// Where the main thread sends `info` lines; helpers have none.
    pub out: Option<&'o mut dyn FnMut(&str)>,
    /// The first move of the last first-line PV sent to `out`: the search
    /// reports again before it ends when its best move is another one, so the
    /// last `info ... pv` a GUI shows starts with the move played.
    pub reported_best: Option<Move>,
    pub stats: SearchStats,
    /// Main thread: a snapshot per completed iteration.
    pub iterations: Vec<IterationStats>,
    /// Helpers: the root moves (best first) and depth of the last completed
    /// iteration, which the main thread may adopt when it is deeper than its own.
    pub completed: CompletedIteration,
    /// Tablebase probing: root ranking, tree probes, `tbhits`.
    pub tb: SearchProbe,
    /// The move pickers' score arrays, reused from node to node.
    pub score_arrays: ScorePool,
}

impl<'a, 'o, E: Evaluator> Searcher<'a, 'o, E> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        root: &Position,
        eval: E,
        history: History,
        timer: Option<Timer>,
        out: Option<&'o mut dyn FnMut(&str)>,
    ) -> Self {
        Searcher {
            id,
            shared,
            pos: root.clone(),
            eval,
            history,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            root_moves: Vec::new(),
            pv_index: 0,
            stack: Box::new([PlyState::default(); MAX_PLY + 4]),
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: Box::new([0; MAX_PLY + 1]),
            null_min_ply: 0,
            timer,
            out,
            reported_best: None,
            stats: SearchStats::default(),
            iterations: Vec::new(),
            completed: CompletedIteration::default(),
            tb: SearchProbe::new(&shared.config.syzygy),
            score_arrays: ScorePool::default(),
        }
    }

    /// The root moves best first and the selective depth, for the outcome,
    /// and the history tables and evaluator for the game's next search.
    /// Moved out, not `mem::take`n: a fresh table is 1.4 MB to zero, 4 % of
    /// a datagen search of 2000 nodes.
    pub fn into_summary(self) -> (Vec<RootMove>, usize, History, E) {
        let seldepth = self
            .root_moves
            .first()
            .map_or(self.seldepth, |rm| rm.seldepth);
        (self.root_moves, seldepth, self.history, self.eval)
    }

    pub fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Static evaluation from the side to move, kept clear of mate scores:
    /// the evaluator's as the search sees it ([`as_search_sees`]).
    pub fn evaluate(&mut self) -> i32 {
        let eval = self.eval.evaluate(&self.pos);
        as_search_sees(self.pos.snapshot(), eval, self.eval.scaled_by_material())
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The static evaluation of a node not in check: the raw one (the
    /// table's when it stored one, which saves the evaluation), that one
    /// corrected by the correction history, and the corrected one sharpened
    /// by the table's bound where the bound says more.
    #[inline]
    pub fn evaluate_with_table(&mut self, hit: Option<TtHit>) -> NodeEval {
        let raw = match hit {
            Some(h) if h.eval != NO_EVAL => h.eval,
            _ => self.evaluate(),
        };
        let corrected = self.corrected(raw);
        let eval = match hit {
            Some(h) if refines_eval(h.bound, h.score, corrected) => h.score,
            _ => corrected,
        };
        NodeEval {
            raw,
            corrected,
            eval,
        }
    }

    /// `raw` plus the correction history's estimate of its error here. Known
    /// wins are exact claims, not estimates, and stay as they are; an
    /// ordinary evaluation stays short of them.
    #[inline]
    pub fn corrected(&self, raw: i32) -> i32 {
        if is_known_win(raw) {
            return raw;
        }
        let bound = KNOWN_WIN - 1;
        (raw + self.history.correction.correction(self.pos.snapshot())).clamp(-bound, bound)
    }

    pub fn make(&mut self, ply: usize, m: Move) {
        // Every move played comes from this position's legal moves (table
        // moves are matched against them): a stale or colliding table entry
        // must never reach `make`.
        debug_assert!(
            movegen::is_legal(self.pos.snapshot(), m),
            "{m} not legal in {}",
            self.pos.fen()
        );
        self.stack[ply].mv = Some(m);
        let changes = self.pos.make(m);
        // The child probes the table first thing; start that load now so it
        // overlaps the evaluation update.
        self.shared.tt.prefetch(self.pos.key());
        self.eval.push(&self.pos, &changes);
        self.debug_assert_key();
    }

    pub fn unmake(&mut self) {
        self.pos.unmake();
        self.eval.pop();
        self.debug_assert_key();
    }

    /// The incrementally updated key equals the key computed from scratch
    /// (the table and repetition detection rely on it). Debug builds only.
    fn debug_assert_key(&self) {
        debug_assert_eq!(
            self.pos.key(),
            self.pos.key_from_scratch(),
            "incremental key wrong in {}",
            self.pos.fen()
        );
    }

    /// The side to move has a piece other than pawns and king (null move is
    /// unsound in pawn endings, where zugzwang is the rule).
    pub fn has_non_pawn_material(&self) -> bool {
        self.non_pawn_pieces() > 0
    }

    pub fn non_pawn_pieces(&self) -> u32 {
        let board = self.pos.snapshot().board();
        let ours = board.by_color(self.pos.turn());
        let pieces = board.by_role(Role::Knight)
            | board.by_role(Role::Bishop)
            | board.by_role(Role::Rook)
            | board.by_role(Role::Queen);
        (ours & pieces).count() as u32
    }

    /// Counts a node and says whether to unwind. Every 256 nodes (well under a
    /// millisecond, even on a loaded machine) the thread
    /// publishes its count and looks at the clock and the stop flags.
    /// Forced inline: every node calls it, and the rest of it is cold.
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        // A caller that searches on after a stop (ProbCut's search after
        // its quiescence, say) must not count nodes past `go nodes N`.
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.poll();
        } else if self.is_main()
            && let Some(limit) = self.shared.limits.nodes
            && self.shared.nodes.len() == 1
            && self.nodes >= limit
        {
            // One thread: stop on the exact node count, so `go nodes` is reproducible.
            self.request_stop();
        }
        self.stopped
    }

    /// The main thread always finishes depth 1, so there is a move to play.
    fn request_stop(&mut self) {
        if !self.is_main() || self.root_depth > 1 {
            self.stopped = true;
        }
    }

    pub fn poll(&mut self) {
        self.shared.nodes[self.id].0.store(self.nodes, Relaxed);
        if self.shared.control.is_stopped() || self.shared.abort.load(Relaxed) {
            self.request_stop();
        }
        if !self.is_main() {
            return;
        }
        if let Some(limit) = self.shared.limits.nodes
            && self.shared.total_nodes() >= limit
        {
            self.request_stop();
        }
        if self.hard_limit_reached() {
            self.request_stop();
        }
    }

    /// Notices `ponderhit` (the clock starts then) and checks the hard limit.
    pub fn hard_limit_reached(&mut self) -> bool {
        let ponderhit = self.shared.control.is_ponderhit();
        let Some(timer) = self.timer.as_mut() else {
            return false;
        };
        if timer.pondering {
            if !ponderhit {
                return false;
            }
            timer.pondering = false;
            timer.clock.restart();
        }
        timer
            .budget
            .is_some_and(|b| timer.clock.elapsed_ms() >= b.hard_ms)
    }

    /// Publishes this thread's node count now.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].0.store(self.nodes, Relaxed);
    }

    /// Called by the main thread when an iteration completes: a snapshot
    /// of its best line and counters for `explain trace`.
    pub fn record_iteration(&mut self, depth: i32) {
        let Some(best) = self.root_moves.first() else {
            return;
        };
        self.iterations.push(IterationStats {
            depth: depth.max(0) as u32,
            seldepth: best.seldepth as u32,
            score: Score::from_internal(best.latest_score()),
            nodes: self.nodes,
            time_ms: self.timer.as_ref().map_or(0, |t| t.clock.elapsed_ms()),
            pv: best.pv.clone(),
            stats: self.stats,
        });
    }

    pub fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            ply + 1
        };
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len.max(ply + 1);
    }
}
