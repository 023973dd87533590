//! Quiescence search: at the horizon, resolve captures (and queen
//! promotions) until the position is quiet, so the static evaluation is never
//! taken in the middle of an exchange. Captures that lose material by SEE are
//! skipped; in check every evasion is searched.

use shakmaty::{Move, MoveList};

use super::history::Continuation;
use super::movepick::{MovePicker, is_tactical};
use super::params::delta_margin;
use super::score::{DRAW, INFINITE, MAX_PLY, is_node_score, mated_in};
use super::searcher::{NodeEval, Searcher};
use super::see::{see_at_least, see_value};
use super::tt::{Bound, bound_allows, legal_table_move, pack_move};
use crate::eval::Evaluator;
use crate::position::movegen::first_legal_move;

impl<E: Evaluator> Searcher<'_, '_, E> {
    pub fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        debug_assert!(alpha < beta, "empty window {alpha}..{beta} at ply {ply}");
        debug_assert!(ply < MAX_PLY, "ply {ply} beyond MAX_PLY");
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        let is_pv = beta - alpha > 1;
        self.seldepth = self.seldepth.max(ply);
        if self.pos.is_insufficient_material() {
            return DRAW;
        }
        let in_check = self.pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate() };
        }

        // Out of check at a non-PV node, standing pat settles most nodes:
        // settle them before the table's bucket is loaded, as it is often
        // still on its way from memory.
        let mut early_eval = None;
        if !in_check && !is_pv {
            let raw = self.evaluate();
            let eval = self.corrected(raw);
            if eval >= beta {
                return eval;
            }
            early_eval = Some(NodeEval::unrefined(raw, eval));
        }
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key, ply);
        if let Some(h) = hit
            && !is_pv
            && bound_allows(h.bound, h.score, alpha, beta)
        {
            return h.score;
        }

        let original_alpha = alpha;
        let node_eval;
        let mut best_score;
        if in_check {
            node_eval = NodeEval::IN_CHECK;
            best_score = -INFINITE;
        } else {
            // Standing pat: the side to move need not capture. (Checked before
            // generating moves, so a stalemate can stand pat here; the main
            // search above recognises stalemates.)
            node_eval = early_eval.unwrap_or_else(|| self.evaluate_with_table(hit));
            best_score = node_eval.eval;
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        // Out of check the picker generates only the tactical moves (a quiet
        // table move is dropped), and none when the table move cuts off.
        let mut moves = MoveList::new();
        let mut scores = self.score_arrays.take();
        let tt_move = hit
            .and_then(|h| legal_table_move(h.packed_move, self.pos.snapshot()))
            .filter(|&m| in_check || is_tactical(m));
        let mut picker = MovePicker::new(
            &mut moves,
            &mut scores,
            tt_move,
            [None; 2],
            None,
            Continuation::default(),
        );
        if !in_check {
            picker.restrict_to_tactical();
        }
        let mut best_move: Option<Move> = None;
        let mut any_move = false;
        // The most a capture's victim aside can add: alpha moves, this does not.
        let futility_base = node_eval.corrected + delta_margin();
        while let Some(m) = picker.next(&self.pos, &self.history) {
            any_move = true;
            if !in_check {
                // Delta pruning: even winning the piece cannot reach alpha.
                let gain = m.capture().map_or(0, see_value);
                if m.promotion().is_none() && futility_base + gain <= alpha {
                    continue;
                }
                // Far below alpha, only a capture that wins material can help.
                if m.promotion().is_none()
                    && futility_base <= alpha
                    && !see_at_least(self.pos.snapshot(), m, 1)
                {
                    continue;
                }
                // The picker filters losing captures; the table move comes unfiltered.
                if Some(m) == tt_move && !see_at_least(self.pos.snapshot(), m, 0) {
                    continue;
                }
            }
            self.make(ply, m);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            debug_assert!(is_node_score(score), "{score} after {m} at ply {ply}");
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if is_pv {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.score_arrays.give_back(scores);

        // Nothing handed out: mate in check; out of check every tactical
        // move lost material or there was none, and stalemate is the rest.
        if !any_move && (in_check || first_legal_move(self.pos.snapshot()).is_none()) {
            return if in_check { mated_in(ply) } else { DRAW };
        }
        let bound = Bound::of_search(best_score, original_alpha, beta, best_move.is_some());
        self.shared.tt.store(
            key,
            ply,
            best_move.map_or(0, pack_move),
            best_score,
            node_eval.raw,
            0,
            bound,
        );
        best_score
    }
}
