//! Soft alpha-beta: alpha-beta made differentiable. Every max becomes a
//! log-sum-exp with temperature τ,
//!
//!   V = τ · ln Σᵢ wᵢ · exp(xᵢ / τ),   xᵢ = −V(childᵢ),
//!
//! and every cutoff becomes a sigmoid gate with temperature γ: child i is
//! weighted by the chance that no earlier child caused a cutoff,
//!
//!   wᵢ = Πⱼ<ᵢ σ((β − aⱼ) / γ),   aⱼ = τ · ln(exp(α/τ) + Σₖ≤ⱼ wₖ · exp(xₖ/τ)).
//!
//! As τ and γ go to zero the soft max becomes max, the gates become 0/1 and
//! the recursion becomes fail-soft alpha-beta. The soft version has to visit
//! the whole tree (every weight is positive), so it also reports the
//! "weighted node count": each node counted with the product of the gates on
//! its path, the number of nodes the hard search would keep as γ → 0.

use super::node::{Kind, NodeId, Tree};
use super::ordering::{Ordering, OrderingKind};
use super::walker::Walker;
use super::{Outcome, Stats};
use crate::eval::Evaluator;
use crate::position::Position;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Temperatures {
    /// Of the soft max, in centipawns.
    pub tau: f64,
    /// Of the pruning gates, in centipawns.
    pub gate: f64,
}

/// ln Σ exp(tᵢ), stable for large and infinite terms.
fn log_sum_exp(terms: &[f64]) -> f64 {
    let m = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if m.is_infinite() {
        return m;
    }
    m + terms.iter().map(|t| (t - m).exp()).sum::<f64>().ln()
}

/// ln σ(z), stable for large |z|.
fn log_sigmoid(z: f64) -> f64 {
    if z == f64::INFINITY {
        return 0.0;
    }
    // ln σ(z) = −softplus(−z), softplus(x) = max(x, 0) + ln(1 + e^(−|x|)).
    let x = -z;
    -(x.max(0.0) + (-x.abs()).exp().ln_1p())
}

struct SoftSearcher<'e> {
    walker: Walker<'e>,
    ordering: Ordering,
    t: Temperatures,
    stats: Stats,
    weighted_nodes: f64,
    tree: Tree,
}

/// Soft alpha-beta to `depth` plies. `Outcome::weighted_nodes` holds the
/// gate-weighted node count.
pub fn search(
    pos: &Position,
    eval: &mut dyn Evaluator,
    t: Temperatures,
    ordering: OrderingKind,
    depth: u32,
    record_limit: usize,
) -> Outcome {
    let mut s = SoftSearcher {
        walker: Walker::new(pos, eval),
        ordering: Ordering::new(ordering),
        t,
        stats: Stats::default(),
        weighted_nodes: 0.0,
        tree: Tree::new(record_limit),
    };
    let root = s.tree.root();
    let (score, best) = s.node(depth, 0, f64::NEG_INFINITY, f64::INFINITY, 0.0, root);
    let mut stats = s.stats;
    stats.weighted_nodes = Some(s.weighted_nodes);
    Outcome {
        score,
        best_move: best,
        stats,
        tree: s.tree,
    }
}

impl SoftSearcher<'_> {
    /// `log_reach`: ln of the product of the gates from the root to here.
    fn node(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: f64,
        beta: f64,
        log_reach: f64,
        rec: Option<NodeId>,
    ) -> (f64, Option<shakmaty::Move>) {
        self.stats.nodes += 1;
        self.weighted_nodes += log_reach.exp();
        let nodes_before = self.stats.nodes;
        let tau = self.t.tau;
        let mut best_move = None;
        let mut best_child = None;
        let (value, kind) = match self.walker.moves_or_result(ply) {
            Err(result) => (
                f64::from(result),
                if result == 0 { Kind::Draw } else { Kind::Mated },
            ),
            Ok(_) if depth == 0 => {
                self.stats.leaves += 1;
                (f64::from(self.walker.evaluate()), Kind::Leaf)
            }
            Ok(mut moves) => {
                self.ordering.sort(&mut moves, ply);
                // Terms of the soft max: ln wᵢ + xᵢ/τ; the running alpha also
                // carries α/τ.
                let mut terms = Vec::with_capacity(moves.len());
                let mut log_keep = 0.0;
                let mut best_x = f64::NEG_INFINITY;
                for &m in &moves {
                    let running_alpha = tau * log_sum_exp(&[&terms[..], &[alpha / tau]].concat());
                    let child = self.tree.child(rec, &self.walker.pos, m);
                    self.walker.play(m);
                    let x = -self
                        .node(
                            depth - 1,
                            ply + 1,
                            -beta,
                            -running_alpha,
                            log_reach + log_keep,
                            child,
                        )
                        .0;
                    self.walker.undo();
                    if x > best_x {
                        (best_x, best_move, best_child) = (x, Some(m), child);
                    }
                    terms.push(log_keep + x / tau);
                    let alpha_after = tau * log_sum_exp(&[&terms[..], &[alpha / tau]].concat());
                    log_keep += log_sigmoid((beta - alpha_after) / self.t.gate);
                }
                (tau * log_sum_exp(&terms), Kind::Exact)
            }
        };
        if let Some(n) = self.tree.get_mut(rec) {
            n.score = value;
            n.window = Some((alpha, beta));
            n.kind = kind;
            n.best_child = best_child;
            n.size = self.stats.nodes - nodes_before + 1;
        }
        (value, best_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_sum_exp_and_log_sigmoid_are_stable() {
        assert!((log_sum_exp(&[0.0, 0.0]) - 2f64.ln()).abs() < 1e-12);
        assert!((log_sum_exp(&[1e6, 0.0]) - 1e6).abs() < 1e-6);
        assert_eq!(log_sum_exp(&[f64::NEG_INFINITY]), f64::NEG_INFINITY);
        assert!((log_sigmoid(0.0) - 0.5f64.ln()).abs() < 1e-12);
        assert!((log_sigmoid(-1000.0) + 1000.0).abs() < 1e-9);
        assert!(log_sigmoid(1000.0).abs() < 1e-12);
        assert_eq!(log_sigmoid(f64::INFINITY), 0.0);
    }
}
