//! Iterative deepening: each thread searches depth 1, 2, 3, ... with
//! aspiration windows around the last score, one MultiPV line at a time. The
//! main thread also reports `info` lines and decides when to stop.

use std::sync::atomic::Ordering::Relaxed;

use shakmaty::Move;

use super::Score;
use super::movepick::mvv_lva;
use super::params::{
    aspiration_delta, aspiration_growth, aspiration_min_depth, tm_iteration_start,
};
use super::score::{INFINITE, MATE_BOUND, MAX_PLY, is_mate_score};
use super::searcher::{CompletedIteration, RootMove, Searcher};
use super::threads::helper_skips_depth;
use super::time::soft_scale;
use crate::eval::Evaluator;

/// Deepest iteration (plies of nominal depth).
pub const MAX_DEPTH: i32 = (MAX_PLY - 8) as i32;
/// `currmove` lines only after this long, as other engines do.
const CURRMOVE_AFTER_MS: u64 = 3000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    Exact,
    Lower,
    Upper,
}

impl<E: Evaluator> Searcher<'_, '_, E> {
    /// Fills the root move list: legal moves (restricted to `searchmoves` if
    /// any of those is legal), captures first by MVV-LVA.
    pub fn init_root_moves(&mut self) {
        let legal = self.pos.legal_moves();
        let wanted = &self.shared.limits.searchmoves;
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| wanted.contains(m))
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        self.tb.filter_root_moves(&mut self.pos, &mut moves);
        moves.sort_by_key(|&m| {
            std::cmp::Reverse(if m.is_capture() || m.is_promotion() {
                mvv_lva(m)
            } else {
                -1_000_000
            })
        });
        self.root_moves = moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
                nodes: 0,
            })
            .collect();
    }

    /// Called by the root node after searching move `m`.
    pub fn record_root_score(
        &mut self,
        m: Move,
        score: i32,
        alpha: i32,
        first: bool,
        ply: usize,
        nodes: u64,
    ) {
        let seldepth = self.seldepth;
        let child_pv: Vec<Move> = (ply + 1..self.pv_len[ply + 1])
            .map_while(|i| self.pv[ply + 1][i])
            .collect();
        let Some(rm) = self.root_moves.iter_mut().find(|rm| rm.mv == m) else {
            return;
        };
        rm.nodes += nodes;
        if first || score > alpha {
            rm.score = score;
            rm.seldepth = seldepth;
            rm.pv.clear();
            rm.pv.push(m);
            rm.pv.extend(child_pv);
        } else {
            rm.score = -INFINITE;
        }
    }

    pub fn report_current_move(&mut self, m: Move, number: usize) {
        let Some(timer) = &self.timer else { return };
        if timer.clock.elapsed_ms() < CURRMOVE_AFTER_MS {
            return;
        }
        let line = format!(
            "info depth {} currmove {} currmovenumber {}",
            self.root_depth,
            self.uci_move(m),
            number
        );
        self.emit(&line);
    }

    fn uci_move(&self, m: Move) -> String {
        let mode = if self.shared.config.chess960 {
            shakmaty::CastlingMode::Chess960
        } else {
            self.pos.castling_mode()
        };
        m.to_uci(mode).to_string()
    }

    fn emit(&mut self, line: &str) {
        if let Some(out) = self.out.as_mut() {
            out(line);
        }
    }

    /// Iterative deepening until a limit or a stop. Returns the depth of the
    /// last completed iteration.
    pub fn iterative_deepening(&mut self) -> i32 {
        self.init_root_moves();
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH as u32) as i32);
        let multipv = self
            .shared
            .config
            .multipv
            .clamp(1, self.root_moves.len().max(1));
        let mut completed = 0;
        let mut last_best: Option<Move> = None;
        let mut stable_iterations = 0u32;
        let mut best_move_changes = 0.0f64;
        let mut previous_score = -INFINITE;

        for depth in 1..=max_depth {
            if helper_skips_depth(self.id, depth, max_depth) {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                if rm.score != -INFINITE {
                    rm.prev_score = rm.score;
                }
            }
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.search_line(depth);
                if self.stopped {
                    break;
                }
                // A later line can end above an earlier one (each is searched
                // with its own window); keep the lines found so far best
                // first, as MultiPV reports them. A no-op for one line.
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            completed = depth;
            if !self.is_main() {
                self.completed = CompletedIteration {
                    depth,
                    root_moves: self.root_moves.clone(),
                };
                continue;
            }
            self.publish_nodes();
            self.report_lines(depth, multipv);
            self.record_iteration(depth);

            // Time management from how settled the best move is.
            let best = self.root_moves[0].mv;
            let score = self.root_moves[0].score;
            best_move_changes *= 0.5;
            if last_best == Some(best) {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
                if last_best.is_some() {
                    best_move_changes += 1.0;
                }
            }
            last_best = Some(best);
            let drop = if previous_score == -INFINITE {
                0
            } else {
                previous_score - score
            };
            previous_score = score;

            if self.enough(depth, score, best_move_changes, stable_iterations, drop) {
                break;
            }
        }
        // The depth asked for is reached as soon as any thread completes it:
        // the others stop and the main thread adopts the deepest result.
        if completed == max_depth {
            self.shared.abort.store(true, Relaxed);
        }
        completed
    }

    /// Whether the main thread stops after a completed iteration.
    fn enough(&mut self, depth: i32, score: i32, changes: f64, stable: u32, drop: i32) -> bool {
        let limits = self.shared.limits;
        if self.shared.control.is_stopped() {
            return true;
        }
        if let Some(n) = limits.mate
            && score >= MATE_BOUND
            && let Score::Mate(moves) = Score::from_internal(score)
            && i64::from(moves) <= i64::from(n)
        {
            return true;
        }
        if let Some(n) = limits.nodes.into_iter().chain(limits.soft_nodes).min()
            && self.shared.total_nodes() >= n
        {
            return true;
        }
        if self.hard_limit_reached() {
            return true;
        }
        let Some(timer) = &self.timer else {
            return false;
        };
        // `go movetime N` means think exactly N ms (less the overhead): only
        // the hard limit ends it, never the stability rules meant for clocks.
        if timer.pondering || limits.infinite || limits.movetime_ms.is_some() {
            return false;
        }
        let Some(budget) = timer.budget else {
            return false;
        };
        // Only one legal move: no need to think.
        if self.root_moves.len() == 1 && depth >= 4 {
            return true;
        }
        let elapsed = timer.clock.elapsed_ms() as f64;
        let best_node_share = self.root_moves[0].nodes as f64 / self.nodes.max(1) as f64;
        let soft = budget.soft_ms as f64 * soft_scale(changes, stable, drop, best_node_share);
        // The next iteration takes a few times longer than this one: do not
        // start it when it could not finish within the soft limit.
        let start_limit = soft * f64::from(tm_iteration_start()) / 100.0;
        elapsed >= soft || (elapsed >= start_limit && !is_mate_score(score))
    }

    /// One MultiPV line at one depth, with aspiration windows.
    fn search_line(&mut self, depth: i32) {
        let pv_index = self.pv_index;
        let previous = self.root_moves[pv_index].prev_score;
        let mut delta = aspiration_delta();
        let (mut alpha, mut beta) =
            if depth >= aspiration_min_depth() && previous != -INFINITE && !is_mate_score(previous)
            {
                (
                    (previous - delta).max(-INFINITE),
                    (previous + delta).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            for rm in &mut self.root_moves[pv_index..] {
                rm.score = -INFINITE;
            }
            let score = self.negamax(alpha, beta, depth, 0, false);
            // Stable: moves that did not become best keep their order.
            self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                self.stats.aspiration_fails_low += 1;
                if self.is_main() {
                    self.report_line(depth, pv_index, Edge::Upper);
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                self.stats.aspiration_fails_high += 1;
                if self.is_main() {
                    self.report_line(depth, pv_index, Edge::Lower);
                }
                beta = (score + delta).min(INFINITE);
            } else {
                self.root_moves[pv_index].prev_score = score;
                return;
            }
            delta += delta * aspiration_growth() / 100;
        }
    }

    pub fn report_lines(&mut self, depth: i32, multipv: usize) {
        for i in 0..multipv {
            self.report_line(depth, i, Edge::Exact);
        }
    }

    fn report_line(&mut self, depth: i32, index: usize, edge: Edge) {
        let Some(rm) = self.root_moves.get(index) else {
            return;
        };
        if self.out.is_none() {
            // Nobody reads it (a helper, or datagen's main thread): 1.6 % of
            // datagen's time went to formatting lines for no one.
            return;
        }
        let score = rm.latest_score();
        let pv = rm.pv.clone();
        if index == 0 {
            self.reported_best = pv.first().copied();
        }
        let elapsed = self.timer.as_ref().map_or(0, |t| t.clock.elapsed_ms());
        let nodes = self.shared.total_nodes().max(self.nodes);
        let nps = nodes * 1000 / elapsed.max(1);
        let pv_text: String = pv
            .iter()
            .map(|&m| format!(" {}", self.uci_move(m)))
            .collect();
        if score == -INFINITE {
            // Stopped before any iteration scored this move: no score to
            // give, but the line still names the move that will be played.
            let line = format!(
                "info depth {depth} multipv {} nodes {nodes} nps {nps} time {elapsed} pv{pv_text}",
                index + 1
            );
            return self.emit(&line);
        }
        // With the root in the tables, the true result (a mate found stands).
        let (score, tb_wdl) = self
            .tb
            .report(score)
            .map_or((score, None), |(s, w)| (s, Some(w)));
        let score = Score::from_internal(score);
        let mut line = format!(
            "info depth {depth} seldepth {} multipv {} score {}",
            rm.seldepth.max(1),
            index + 1,
            score.uci()
        );
        match edge {
            Edge::Lower => line.push_str(" lowerbound"),
            Edge::Upper => line.push_str(" upperbound"),
            Edge::Exact => {}
        }
        if self.shared.config.show_wdl {
            let (w, d, l) = tb_wdl.unwrap_or_else(|| score.wdl());
            line.push_str(&format!(" wdl {w} {d} {l}"));
        }
        line.push_str(&format!(
            " nodes {nodes} nps {nps} hashfull {} tbhits {} time {elapsed} pv{pv_text}",
            self.shared.tt.hashfull(),
            self.tb.hits()
        ));
        self.emit(&line);
    }
}
