//! Minimax, alpha-beta and principal variation search, plain and fixed-depth
//! (no quiescence, no transposition table), in negamax form: one routine, so
//! the three differ only where the algorithms differ.

use shakmaty::Move;

use super::node::{Kind, NodeId, Tree};
use super::ordering::{Ordering, OrderingKind};
use super::walker::Walker;
use super::{Outcome, Stats};
use crate::eval::Evaluator;
use crate::position::Position;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Classic {
    /// Every move searched with no window: the reference value.
    Minimax,
    /// Fail-soft alpha-beta.
    AlphaBeta,
    /// Principal variation search: the first move with the full window, the
    /// others with a null window, re-searched when they fail high.
    Pvs,
}

struct Searcher<'e> {
    walker: Walker<'e>,
    algo: Classic,
    ordering: Ordering,
    stats: Stats,
    tree: Tree,
}

const INF: i32 = i32::MAX / 2;

/// A window bound for display: the open window is (-inf, +inf).
fn bound(x: i32) -> f64 {
    match x {
        INF => f64::INFINITY,
        x if x == -INF => f64::NEG_INFINITY,
        x => f64::from(x),
    }
}

/// Runs `algo` to `depth` plies from `pos`, recording up to `record_limit`
/// nodes of the tree.
pub fn search(
    pos: &Position,
    eval: &mut dyn Evaluator,
    algo: Classic,
    ordering: OrderingKind,
    depth: u32,
    record_limit: usize,
) -> Outcome {
    let ordering = match algo {
        Classic::Minimax => OrderingKind::None,
        _ => ordering,
    };
    let mut s = Searcher {
        walker: Walker::new(pos, eval),
        algo,
        ordering: Ordering::new(ordering),
        stats: Stats::default(),
        tree: Tree::new(record_limit),
    };
    let root = s.tree.root();
    let (score, best) = s.node(depth, 0, -INF, INF, root);
    Outcome {
        score: f64::from(score),
        best_move: best,
        stats: s.stats,
        tree: s.tree,
    }
}

impl Searcher<'_> {
    /// Searches the current position; returns its score and best move.
    fn node(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        rec: Option<NodeId>,
    ) -> (i32, Option<Move>) {
        self.stats.nodes += 1;
        let nodes_before = self.stats.nodes;
        let windowed = self.algo != Classic::Minimax;
        let (score, best, kind, pruned, best_child) = match self.walker.moves_or_result(ply) {
            Err(result) => {
                let kind = if result == 0 { Kind::Draw } else { Kind::Mated };
                (result, None, kind, 0, None)
            }
            Ok(_) if depth == 0 => {
                self.stats.leaves += 1;
                (self.walker.evaluate(), None, Kind::Leaf, 0, None)
            }
            Ok(mut moves) => {
                self.ordering.sort(&mut moves, ply);
                let (score, best, pruned, best_child) =
                    self.children(&moves, depth, ply, alpha, beta, rec);
                let kind = if !windowed {
                    Kind::Exact
                } else if score >= beta {
                    Kind::Cut
                } else if score <= alpha {
                    Kind::All
                } else {
                    Kind::Pv
                };
                (score, best, kind, pruned, best_child)
            }
        };
        if let Some(n) = self.tree.get_mut(rec) {
            n.score = f64::from(score);
            n.window = windowed.then_some((bound(alpha), bound(beta)));
            n.kind = kind;
            n.pruned = pruned;
            n.best_child = best_child;
            n.size = self.stats.nodes - nodes_before + 1;
        }
        (score, best)
    }

    /// Searches the moves in order; returns the best score, the best move,
    /// how many moves a cutoff left unsearched, and the best child's record.
    fn children(
        &mut self,
        moves: &[Move],
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        rec: Option<NodeId>,
    ) -> (i32, Option<Move>, usize, Option<NodeId>) {
        let mut best = (-INF, None, None);
        let mut a = alpha;
        for (i, &m) in moves.iter().enumerate() {
            let child = self.tree.child(rec, &self.walker.pos, m);
            self.walker.play(m);
            let (score, searched) = match self.algo {
                Classic::Minimax => (-self.node(depth - 1, ply + 1, -INF, INF, child).0, child),
                Classic::AlphaBeta => (-self.node(depth - 1, ply + 1, -beta, -a, child).0, child),
                Classic::Pvs if i == 0 => {
                    (-self.node(depth - 1, ply + 1, -beta, -a, child).0, child)
                }
                Classic::Pvs => {
                    let probe = -self.node(depth - 1, ply + 1, -a - 1, -a, child).0;
                    if probe > a && probe < beta {
                        self.stats.researches += 1;
                        self.walker.undo();
                        let again = self.tree.child(rec, &self.walker.pos, m);
                        if let Some(n) = self.tree.get_mut(again) {
                            n.research = true;
                        }
                        self.walker.play(m);
                        (-self.node(depth - 1, ply + 1, -beta, -a, again).0, again)
                    } else {
                        (probe, child)
                    }
                }
            };
            self.walker.undo();
            if score > best.0 {
                best = (score, Some(m), searched);
            }
            if self.algo == Classic::Minimax {
                continue;
            }
            a = a.max(score);
            if a >= beta {
                self.stats.cutoffs += 1;
                self.ordering.reward(m, ply, depth);
                return (best.0, best.1, moves.len() - i - 1, best.2);
            }
        }
        (best.0, best.1, 0, best.2)
    }
}
