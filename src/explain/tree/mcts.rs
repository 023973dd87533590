//! Monte Carlo tree search (UCT) guided by the evaluator: no random rollouts;
//! a new leaf is valued by the win probability of its static evaluation,
//! W = 1 / (1 + 10^(−eval/400)), and finished games by their result. Each
//! playout walks down by the UCT rule, expands one node, and backs the value
//! up, flipping it at every ply. A move that mates is taken whenever its
//! parent is reached again once it has been found.

use shakmaty::Move;

use super::node::{Kind, NodeId, Tree};
use super::ordering::{Ordering, OrderingKind};
use super::walker::Walker;
use super::{Outcome, Stats};
use crate::eval::Evaluator;
use crate::position::Position;

/// The UCT exploration constant for values in 0..1.
const EXPLORATION: f64 = 1.0;
/// Centipawns per factor of ten in the odds (the usual logistic scale).
const ODDS_SCALE: f64 = 400.0;

pub fn win_probability(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / ODDS_SCALE))
}

/// The inverse of [`win_probability`], clamped away from ±infinity.
pub fn centipawns(w: f64) -> f64 {
    let w = w.clamp(1e-6, 1.0 - 1e-6);
    ODDS_SCALE * (w / (1.0 - w)).log10()
}

struct MctsNode {
    mv: Option<Move>,
    children: Vec<usize>,
    expanded: bool,
    /// The value when the game is over here (for the side that moved in).
    result: Option<f64>,
    visits: u32,
    /// Sum of values for the side that made the move into this node.
    value_sum: f64,
}

impl MctsNode {
    fn new(mv: Option<Move>) -> MctsNode {
        MctsNode {
            mv,
            children: Vec::new(),
            expanded: false,
            result: None,
            visits: 0,
            value_sum: 0.0,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.value_sum / f64::from(self.visits)
        }
    }
}

/// Runs `playouts` playouts from `pos`; the best move is the most visited.
pub fn search(
    pos: &Position,
    eval: &mut dyn Evaluator,
    playouts: u32,
    record_limit: usize,
) -> Outcome {
    let mut walker = Walker::new(pos, eval);
    let ordering = Ordering::new(OrderingKind::Tarpon);
    let mut nodes = vec![MctsNode::new(None)];
    let mut stats = Stats::default();
    for _ in 0..playouts {
        let mut path = vec![0usize];
        // Selection.
        while nodes[*path.last().unwrap_or(&0)].expanded {
            let at = *path.last().unwrap_or(&0);
            if nodes[at].result.is_some() {
                break;
            }
            let parent_visits = f64::from(nodes[at].visits.max(1));
            // A move found to mate is always taken (the "MCTS-Solver" idea):
            // in a won position every move's value is near 1 and UCT alone
            // would not tell the mate from the rest.
            let mating = nodes[at]
                .children
                .iter()
                .copied()
                .find(|&c| nodes[c].result == Some(1.0));
            let pick = mating.or_else(|| {
                nodes[at].children.iter().copied().max_by(|&a, &b| {
                    uct(&nodes[a], parent_visits).total_cmp(&uct(&nodes[b], parent_visits))
                })
            });
            let Some(next) = pick else { break };
            if let Some(m) = nodes[next].mv {
                walker.play(m);
            }
            path.push(next);
        }
        // Expansion and evaluation of the node reached.
        let leaf = *path.last().unwrap_or(&0);
        let value = match nodes[leaf].result {
            Some(v) => v,
            None => {
                stats.nodes += 1;
                match walker.moves_or_result(path.len() - 1) {
                    Err(result) => {
                        // Mated side to move: the mover into this node won.
                        let v = if result == 0 { 0.5 } else { 1.0 };
                        nodes[leaf].result = Some(v);
                        nodes[leaf].expanded = true;
                        v
                    }
                    Ok(mut moves) => {
                        ordering.sort(&mut moves, 0);
                        for m in moves {
                            nodes.push(MctsNode::new(Some(m)));
                            let id = nodes.len() - 1;
                            nodes[leaf].children.push(id);
                        }
                        nodes[leaf].expanded = true;
                        stats.leaves += 1;
                        1.0 - win_probability(f64::from(walker.evaluate()))
                    }
                }
            }
        };
        // Backpropagation, flipping the point of view at every ply.
        let mut v = value;
        for &id in path.iter().rev() {
            nodes[id].visits += 1;
            nodes[id].value_sum += v;
            v = 1.0 - v;
        }
        for _ in 1..path.len() {
            walker.undo();
        }
    }
    let best = nodes[0]
        .children
        .iter()
        .copied()
        .max_by_key(|&c| nodes[c].visits)
        .filter(|&c| nodes[c].visits > 0);
    let mut tree = Tree::new(record_limit);
    let root = tree.root();
    copy_into(&nodes, 0, root, &mut tree, &mut walker);
    Outcome {
        score: best.map_or(0.0, |c| centipawns(nodes[c].mean()).round()),
        best_move: best.and_then(|c| nodes[c].mv),
        stats,
        tree,
    }
}

fn uct(n: &MctsNode, parent_visits: f64) -> f64 {
    if n.visits == 0 {
        return f64::INFINITY;
    }
    n.mean() + EXPLORATION * (parent_visits.ln() / f64::from(n.visits)).sqrt()
}

/// Copies the visited part of the search tree into the display tree, most
/// visited children first.
fn copy_into(
    nodes: &[MctsNode],
    at: usize,
    rec: Option<NodeId>,
    tree: &mut Tree,
    walker: &mut Walker,
) -> u64 {
    let mut children: Vec<usize> = nodes[at]
        .children
        .iter()
        .copied()
        .filter(|&c| nodes[c].visits > 0)
        .collect();
    children.sort_by_key(|&c| std::cmp::Reverse(nodes[c].visits));
    let mut size = 1;
    let mut best_child = None;
    for c in children {
        let Some(m) = nodes[c].mv else { continue };
        let child = tree.child(rec, &walker.pos, m);
        best_child = best_child.or(child);
        walker.play(m);
        size += copy_into(nodes, c, child, tree, walker);
        walker.undo();
    }
    if let Some(n) = tree.get_mut(rec) {
        // The root has no mover: show its value for the side to move.
        n.score = if at == 0 {
            1.0 - nodes[at].mean()
        } else {
            nodes[at].mean()
        };
        n.visits = nodes[at].visits;
        n.kind = match nodes[at].result {
            Some(1.0) => Kind::Mated,
            Some(_) => Kind::Draw,
            None => Kind::Playout,
        };
        n.size = size;
        n.best_child = best_child;
    }
    size
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_probability_and_centipawns_are_inverse() {
        assert!((win_probability(0.0) - 0.5).abs() < 1e-12);
        assert!((win_probability(400.0) - 10.0 / 11.0).abs() < 1e-12);
        for cp in [-700.0, -35.0, 0.0, 120.0, 900.0] {
            assert!((centipawns(win_probability(cp)) - cp).abs() < 1e-6);
        }
    }
}
