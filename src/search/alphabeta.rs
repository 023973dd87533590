//! The main search: negamax principal variation search with the usual
//! selectivity (null move, reverse futility, futility, late-move pruning and
//! reductions), check and pawn-to-seventh extensions, hindsight depth.

use shakmaty::{Color, Move, MoveList, Rank, Role};

use super::check::CheckSquares;
use super::history::Continuation;
use super::movepick::{MovePicker, is_tactical};
use super::params::{self as p, lmr_reduction};
use super::score::{
    DRAW, INFINITE, MATE_BOUND, MAX_PLY, eval_can_judge, is_known_win, is_mate_score,
    is_node_score, mated_in,
};
use super::searcher::{NO_EVAL, NodeEval, Searcher};
use super::see::see_at_least;
use super::threats::Threats;
use super::tt::{Bound, TtHit, bound_allows, legal_table_move, pack_move, unpack_move};
use crate::eval::Evaluator;

impl<E: Evaluator> Searcher<'_, '_, E> {
    /// Draw by repetition (game history included), fifty moves or material.
    fn is_draw(&self, ply: usize, in_check: bool) -> bool {
        if self.pos.is_repetition_draw(ply) || self.pos.is_insufficient_material() {
            return true;
        }
        // Checkmate on the hundredth ply still wins.
        self.pos.is_fifty_move_draw() && (!in_check || !self.pos.legal_moves().is_empty())
    }

    pub fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        debug_assert!(alpha < beta, "empty window {alpha}..{beta} at ply {ply}");
        debug_assert!(ply < MAX_PLY, "ply {ply} beyond MAX_PLY");
        let root = ply == 0;
        let is_pv = beta - alpha > 1;
        self.pv_len[ply] = ply;
        let in_check = self.pos.is_check();

        if !root {
            if self.is_draw(ply, in_check) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.evaluate() };
            }
            // Mate-distance pruning: no line from here beats a mate already found closer to the root.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(-mated_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        if self.tick() {
            return 0;
        }
        if is_pv {
            self.seldepth = self.seldepth.max(ply + 1);
        }

        // Inside a singular-extension search one move is left out: the
        // table's entry and the tablebases speak for the whole node, and the
        // selectivity below assumes every move, so all of them stay out.
        let excluded = self.stack[ply].excluded;
        let inherited_doubles = if root {
            0
        } else {
            self.stack[ply - 1].double_extensions
        };
        self.stack[ply].double_extensions = inherited_doubles;

        let key = self.pos.key();
        let hit = if excluded.is_none() {
            self.stats.tt_probes += 1;
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        self.stats.tt_hits += u64::from(hit.is_some());
        if let Some(h) = hit
            && !is_pv
            && h.depth >= depth
            && bound_allows(h.bound, h.score, alpha, beta)
            // Near the fifty-move limit a stored score may ignore the coming draw.
            && self.pos.halfmoves() < 90
        {
            // A quiet table move that still holds beta earns its history,
            // as it would have had it been searched here.
            if h.score >= beta
                && let Some(m) = legal_table_move(h.packed_move, self.pos.snapshot())
                && !is_tactical(m)
            {
                let continuation = self.continuation_at(ply);
                self.history
                    .record_cutoff(self.pos.turn(), ply, depth, m, &[], continuation);
            }
            return h.score;
        }
        if excluded.is_none()
            && let Some(score) = self.tb.probe(&self.pos, depth, ply)
        {
            return score;
        }

        // Static evaluation, sharpened by the table's bound where it applies.
        let node_eval = if in_check {
            NodeEval::IN_CHECK
        } else if excluded.is_some() {
            // The node's own search already evaluated this position.
            let state = self.stack[ply];
            NodeEval::unrefined(state.raw_eval, state.static_eval)
        } else {
            self.evaluate_with_table(hit)
        };
        let (static_eval, eval) = (node_eval.corrected, node_eval.eval);
        self.stack[ply].static_eval = static_eval;
        self.stack[ply].raw_eval = node_eval.raw;
        // Better than two plies ago (the same side's last evaluation); near the
        // root there is nothing to compare with, so assume it is.
        let improving = !in_check
            && (ply < 2
                || self.stack[ply - 2].static_eval == NO_EVAL
                || static_eval > self.stack[ply - 2].static_eval);

        // Hindsight: the parent reduced the move into this node; the two
        // static evaluations now say whether it should have.
        if !root && !in_check && excluded.is_none() {
            let prior_reduction = self.stack[ply - 1].reduction;
            let parent_eval = self.stack[ply - 1].static_eval;
            if parent_eval != NO_EVAL {
                // The opponent's move did not worsen their position: a deep
                // reduction may have cut short something real.
                let opponent_worsening = static_eval > -parent_eval;
                if prior_reduction >= 3 && !opponent_worsening {
                    depth += 1;
                } else if prior_reduction >= 1 && depth >= 2 && static_eval + parent_eval > 60 {
                    // Their move lost over 60 cp by both evaluations: the
                    // reduction was right, and this node is worth less still.
                    depth -= 1;
                }
            }
        }

        if !is_pv && !in_check && !root && excluded.is_none() {
            // Reverse futility: far above beta with little depth left, assume it holds.
            if depth <= p::rfp_depth()
                && eval - p::rfp_margin() * (depth - i32::from(improving)) >= beta
                && !is_mate_score(beta)
                && eval_can_judge(eval, beta)
            {
                return eval;
            }
            if let Some(score) = self.try_null_move(beta, depth, ply, eval, cut_node) {
                self.stats.null_cutoffs += 1;
                return score;
            }
            if self.stopped {
                return 0;
            }
        }

        // The picker hands out a legal table move before it generates any
        // other move: when the table move cuts the node off, none is.
        let tt_move = hit.and_then(|h| legal_table_move(h.packed_move, self.pos.snapshot()));
        debug_assert_eq!(
            tt_move,
            hit.and_then(|h| unpack_move(h.packed_move, &self.pos.legal_moves()))
        );
        if !is_pv
            && !in_check
            && !root
            && excluded.is_none()
            && depth >= p::probcut_depth()
            && let Some(score) = self.probcut(tt_move, hit, beta, depth, ply, cut_node)
        {
            return score;
        }
        if self.stopped {
            return 0;
        }
        // Internal iterative reduction: without a table move this node is
        // probably not worth its full depth; the next visit will have one.
        if depth >= p::iir_depth() && tt_move.is_none() && !root && excluded.is_none() {
            depth -= 1;
        }

        let turn = self.pos.turn();
        let continuation = self.continuation_at(ply);
        let killers = self.history.killers(ply);
        let counter = self.history.counter_move(turn, continuation);
        let mut moves = MoveList::new();
        let mut scores = self.score_arrays.take();
        let mut picker = MovePicker::new(
            &mut moves,
            &mut scores,
            tt_move,
            killers,
            counter,
            continuation,
        );
        let mut root_index = self.pv_index;

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets_tried = MoveList::new();
        // Made when the first pruning candidate asks whether it checks.
        let mut check_squares: Option<CheckSquares> = None;
        // Once late-move or futility pruning starts, the checking quiets
        // the picker still holds (counted at the first pruned quiet).
        let mut checking_quiets_left: Option<usize> = None;
        let mut moves_searched = 0usize;
        // Moves handed out, pruned or not: none means mate or stalemate.
        let mut any_move = false;

        loop {
            let m = if root {
                let Some(rm) = self.root_moves.get(root_index) else {
                    break;
                };
                root_index += 1;
                rm.mv
            } else {
                match picker.next(&self.pos, &self.history) {
                    Some(m) => m,
                    None => break,
                }
            };
            any_move = true;
            if Some(m) == excluded {
                continue;
            }
            let quiet = !is_tactical(m);
            // Read once: SEE pruning and the late-move reduction both weigh it.
            let quiet_history = if quiet {
                self.history.quiet_score(turn, continuation, m)
            } else {
                0
            };

            // Shallow-depth pruning, only once a move has saved us from being mated.
            if !root && !in_check && best_score > -MATE_BOUND {
                if quiet {
                    let late_move_limit =
                        (p::lmp_base() + depth * depth) / (2 - i32::from(improving));
                    let late =
                        depth <= p::lmp_depth() && quiets_tried.len() as i32 >= late_move_limit;
                    // Futility: a quiet move cannot lift a hopeless eval.
                    let futile = depth <= p::fp_depth()
                        && eval + p::fp_base() + p::fp_margin() * depth <= alpha
                        && eval_can_judge(eval, alpha);
                    // Checks are kept: they are how mating attacks are found at low depth.
                    if late || futile {
                        let chess = self.pos.snapshot();
                        let squares = check_squares.get_or_insert_with(|| CheckSquares::new(chess));
                        let checks = squares.gives_check(chess, m);
                        let left = match &mut checking_quiets_left {
                            Some(left) => {
                                *left -= usize::from(checks);
                                left
                            }
                            // Counted after this move was handed out: it is not among them.
                            None => checking_quiets_left.insert(
                                picker
                                    .quiets_left(chess)
                                    .filter(|&q| squares.gives_check(chess, q))
                                    .count(),
                            ),
                        };
                        if !checks {
                            // Until a move is searched nothing here changes,
                            // so every quiet left would be pruned like this
                            // one unless it checks: with no check among them
                            // the picker need not hand them out (the losing
                            // captures after them keep their order).
                            if *left == 0 {
                                picker.skip_quiets = true;
                            }
                            continue;
                        }
                    }
                    // A quiet with a good history may lose more material, one
                    // with a bad history must not lose any, or even has to win some.
                    if depth <= p::quiet_see_depth()
                        && !see_at_least(
                            self.pos.snapshot(),
                            m,
                            -p::quiet_see_margin() * depth * depth - quiet_history / 16,
                        )
                    {
                        continue;
                    }
                } else if depth <= p::see_prune_depth()
                    && !see_at_least(self.pos.snapshot(), m, -p::see_prune_margin() * depth)
                {
                    continue;
                }
            }

            // Singular extension: is the table move much better than every other?
            let mut singular_extension = 0;
            if let Some(h) = hit
                && Some(m) == tt_move
                && !root
                && excluded.is_none()
                && depth >= p::se_min_depth()
                && self.may_extend(ply)
            {
                let double_allowed = !is_pv && i32::from(inherited_doubles) < p::se_double_max();
                match self.singular(m, h, beta, depth, ply, cut_node, double_allowed) {
                    Singular::Extend(plies) => singular_extension = plies,
                    Singular::MultiCut(score) => return score,
                    Singular::Stopped => return 0,
                }
            }

            if root && self.is_main() {
                self.report_current_move(m, root_index - self.pv_index);
            }
            let nodes_before = self.nodes;
            self.make(ply, m);
            moves_searched += 1;
            let gives_check = self.pos.is_check();
            // Otherwise the check and pawn-to-seventh extensions.
            let extension = if singular_extension != 0 {
                singular_extension
            } else {
                i32::from((gives_check || is_pawn_to_seventh(m, turn)) && self.may_extend(ply))
            };
            self.stack[ply].double_extensions = inherited_doubles + u8::from(extension >= 2);
            let new_depth = depth - 1 + extension;

            let mut score;
            if moves_searched == 1 {
                score = -self.negamax(-beta, -alpha, new_depth, ply + 1, !is_pv && !cut_node);
            } else {
                let mut reduction = 0;
                if depth >= p::lmr_min_depth() && moves_searched > 1 + usize::from(is_pv) && quiet {
                    reduction = lmr_reduction(depth, moves_searched);
                    reduction -= i32::from(is_pv);
                    reduction += i32::from(!improving);
                    reduction += i32::from(cut_node);
                    // A capture from the table is the likely best: quiets after it seldom are.
                    reduction += i32::from(tt_move.is_some_and(is_tactical));
                    reduction -= i32::from(gives_check);
                    reduction -= i32::from(
                        Some(m) == killers[0] || Some(m) == killers[1] || Some(m) == counter,
                    );
                    reduction -= quiet_history / p::lmr_history_divisor();
                    // A quiet whose history outweighs every reason to reduce
                    // it is searched a ply deeper (Stockfish's negative
                    // reduction), within the extension limit.
                    let deepest = -i32::from(extension == 0 && self.may_extend(ply));
                    reduction = reduction.clamp(deepest, new_depth - 1);
                }
                self.stats.lmr_reductions += u64::from(reduction > 0);
                self.stack[ply].reduction = reduction;
                score = -self.negamax(-alpha - 1, -alpha, new_depth - reduction, ply + 1, true);
                self.stack[ply].reduction = 0;
                if score > alpha && reduction > 0 {
                    self.stats.lmr_researches += 1;
                    score = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if is_pv && score > alpha {
                    self.stats.pvs_researches += 1;
                    score = -self.negamax(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            debug_assert!(is_node_score(score), "{score} after {m} at ply {ply}");
            self.unmake();
            if self.stopped {
                return 0;
            }

            if root {
                let nodes = self.nodes - nodes_before;
                self.record_root_score(m, score, alpha, moves_searched == 1, ply, nodes);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if is_pv {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.stats.cutoffs += 1;
                        self.stats.first_move_cutoffs += u64::from(moves_searched == 1);
                        if quiet {
                            self.history.record_cutoff(
                                turn,
                                ply,
                                depth,
                                m,
                                &quiets_tried,
                                continuation,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && Some(m) != best_move && quiets_tried.len() < quiets_tried.capacity() {
                quiets_tried.push(m);
            }
        }
        self.score_arrays.give_back(scores);

        if !any_move && !root {
            return if in_check { mated_in(ply) } else { DRAW };
        }
        if moves_searched == 0 {
            // Every move was pruned or excluded (root with searchmoves/MultiPV): fail low.
            return if root { alpha } else { best_score.max(alpha) };
        }
        let bound = Bound::of_search(best_score, original_alpha, beta, best_move.is_some());
        // MultiPV lines after the first exclude moves, and a singular search
        // one: their scores are not the node's.
        if !(root && self.pv_index > 0) && excluded.is_none() {
            self.shared.tt.store(
                key,
                ply,
                best_move.map_or(0, pack_move),
                best_score,
                node_eval.raw,
                depth,
                bound,
            );
            // Teach the correction history where the result lies on the side
            // its bound vouches for: below the evaluation without failing
            // high, or above it with a move that proved it. After a capture
            // or a promotion the evaluation was not the point.
            if !in_check
                && best_move.is_none_or(|m| !is_tactical(m))
                && !is_mate_score(best_score)
                && !is_known_win(best_score)
                && !is_known_win(static_eval)
                && ((best_score < static_eval && best_score < beta)
                    || (best_score > static_eval && best_move.is_some()))
            {
                self.history.correction.update(
                    self.pos.snapshot(),
                    depth,
                    best_score - static_eval,
                );
            }
        }
        best_score
    }

    /// The history context of the node at `ply`: the moves one and two
    /// plies before it (counter-move and continuation histories) and what the
    /// opponent attacks on its board (butterfly table, quiet ordering).
    fn continuation_at(&self, ply: usize) -> Continuation {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].mv
            } else {
                None
            }
        };
        let threats = Threats::new(self.pos.snapshot());
        Continuation::new(self.pos.turn(), back(1), back(2), threats)
    }

    /// Extensions stop beyond `check_ext_ply_factor` (2) times the root depth,
    /// so perpetual checks and chains of singular moves cannot run away.
    fn may_extend(&self, ply: usize) -> bool {
        (ply as i32) < p::check_ext_ply_factor() * self.root_depth
    }

    /// The singular-extension test of the table move `m`: a search of every
    /// other move, half as deep, against a bound below the table's score.
    /// If all fail low, `m` is singular and extended (twice when they fail
    /// far below and `double_allowed`); if even that bound is beaten and it
    /// lies above beta, several moves beat beta and the node is cut
    /// (multi-cut); if the table's score beats beta, `m` is not alone in
    /// doing so and is searched a ply shallower.
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        m: Move,
        h: TtHit,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
        double_allowed: bool,
    ) -> Singular {
        let trusted = h.depth >= depth - 3
            && matches!(h.bound, Bound::Lower | Bound::Exact)
            && !is_mate_score(h.score);
        if !trusted {
            return Singular::Extend(0);
        }
        let singular_beta = h.score - p::se_margin() * depth;
        self.stack[ply].excluded = Some(m);
        let score = self.negamax(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.stack[ply].excluded = None;
        if self.stopped {
            Singular::Stopped
        } else if score < singular_beta {
            let double = double_allowed && score < singular_beta - p::se_double_margin();
            Singular::Extend(1 + i32::from(double))
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else if h.score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// ProbCut: a capture whose shallow search beats beta by a wide margin
    /// (`probcut_margin`) would almost surely beat beta at full depth, so
    /// the node fails high. Captures are screened by SEE and by quiescence
    /// before the reduced search. Returns the cutoff score when it applies.
    fn probcut(
        &mut self,
        tt_move: Option<Move>,
        hit: Option<TtHit>,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let probcut_beta = beta + p::probcut_margin();
        if is_mate_score(beta) || is_known_win(probcut_beta) {
            return None;
        }
        // The table says a search this deep already stayed below the bound.
        if let Some(h) = hit
            && h.depth >= depth - 3
            && h.score < probcut_beta
        {
            return None;
        }
        let static_eval = self.stack[ply].static_eval;
        let raw_eval = self.stack[ply].raw_eval;
        let reduced = depth - p::probcut_reduction();
        let mut tactical = MoveList::new();
        let mut scores = self.score_arrays.take();
        let mut picker = MovePicker::new_tactical(&mut tactical, &mut scores, tt_move);
        let mut cutoff = None;
        while let Some(m) = picker.next(&self.pos, &self.history) {
            if !see_at_least(self.pos.snapshot(), m, probcut_beta - static_eval) {
                continue;
            }
            self.make(ply, m);
            let mut score = -self.qsearch(-probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta {
                score = -self.negamax(
                    -probcut_beta,
                    -probcut_beta + 1,
                    reduced,
                    ply + 1,
                    !cut_node,
                );
            }
            self.unmake();
            if self.stopped {
                break;
            }
            if score >= probcut_beta {
                self.shared.tt.store(
                    self.pos.key(),
                    ply,
                    pack_move(m),
                    score,
                    raw_eval,
                    reduced + 1,
                    Bound::Lower,
                );
                cutoff = Some(score);
                break;
            }
        }
        self.score_arrays.give_back(scores);
        cutoff
    }

    /// Null move: let the opponent move twice; if that still fails high, the
    /// node almost surely does. Returns the cutoff score when it applies.
    fn try_null_move(
        &mut self,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        cut_node: bool,
    ) -> Option<i32> {
        let after_null = self.stack[ply - 1].mv.is_none();
        if depth < p::nmp_min_depth()
            || eval < beta
            || after_null
            || ply < self.null_min_ply
            || is_mate_score(beta)
            || !self.has_non_pawn_material()
        {
            return None;
        }
        let reduction = p::nmp_base()
            + depth / p::nmp_depth_divisor()
            + ((eval - beta) / p::nmp_eval_divisor()).min(p::nmp_eval_max());
        self.stack[ply].mv = None;
        if !self.pos.make_null() {
            return None;
        }
        self.eval.push_null();
        self.stats.null_tries += 1;
        let score = -self.negamax(-beta, -beta + 1, depth - reduction, ply + 1, !cut_node);
        debug_assert!(
            is_node_score(score),
            "{score} after a null move at ply {ply}"
        );
        self.unmake();
        if self.stopped || score < beta {
            return None;
        }
        // Never claim a mate from a position where we passed.
        let score = if score >= MATE_BOUND { beta } else { score };
        // With few pieces zugzwang is likely, and deep cutoffs are costly to
        // get wrong: verify with a normal search that allows no null move near here.
        let zugzwang_prone = self.non_pawn_pieces() <= 1;
        if self.null_min_ply > 0 || (depth < p::nmp_verify_depth() && !zugzwang_prone) {
            return Some(score);
        }
        self.null_min_ply = ply + (3 * (depth - reduction) / 4).max(1) as usize;
        let verified = self.negamax(beta - 1, beta, depth - reduction, ply, false);
        self.null_min_ply = 0;
        (!self.stopped && verified >= beta).then_some(score)
    }
}

/// A pawn's move (capture or not, promotions excepted) to the mover's seventh
/// rank: it threatens to promote, which a shallow search misjudges, so it is
/// extended like a check.
fn is_pawn_to_seventh(m: Move, turn: Color) -> bool {
    m.role() == Role::Pawn
        && !m.is_promotion()
        && m.to().rank() == turn.fold_wb(Rank::Seventh, Rank::Second)
}

/// What the singular-extension test decides for the table move.
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// Several moves beat beta: the node fails high with this score.
    MultiCut(i32),
    /// Time ran out during the test.
    Stopped,
}
