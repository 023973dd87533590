//! The staged move picker: hands out the legal moves of a node best-first so
//! cutoffs come early, scoring each stage only when it is reached.
//!
//! Order: the table move, winning and equal captures (by SEE, then most
//! valuable victim / least valuable attacker), the two killers, the
//! counter-move, quiet moves by history, and last the losing captures.
//!
//! Once the captures are scored the list has two parts, the tactical moves
//! and then the quiets, each handed out from its own front: handing out a
//! quiet never moves a capture, so the losing captures come in the same
//! order whether or not the quiets were all handed out first.

use shakmaty::{Chess, Move, MoveList, Position as _, Role};

use super::history::{Continuation, History, QUIET_SCORE_MAX};
use super::see::{see_at_least, see_value};
use crate::position::movegen;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TableMove,
    ScoreCaptures,
    GoodCaptures,
    Killers,
    CounterMove,
    ScoreQuiets,
    Quiets,
    BadCaptures,
    Done,
}

// Score bands: the capture stages pick the best tactical move left inside
// their band.
const GOOD_CAPTURE: i32 = 1 << 28;
const BAD_CAPTURE: i32 = -(1 << 28);
const BAND: i32 = 1 << 24;
const UNDERPROMOTION: i32 = -(1 << 26);
const UNSCORED: i32 = i32::MIN;
// Underpromotions come after every quiet scored by history.
const _: () = assert!(UNDERPROMOTION < -QUIET_SCORE_MAX);

/// Captures and queen promotions: the moves quiescence looks at.
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// Most valuable victim first, then least valuable attacker.
pub fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, see_value);
    let promo = m
        .promotion()
        .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
    (victim + promo) * 8 - m.role() as i32
}

/// The tactical moves of `legal` in the order a tactical picker over all of
/// `legal` meets them: the table move first (taken by swapping it with the
/// first move), then the others as they come. A tactical picker over this
/// shorter list hands out the same moves in the same order, so ProbCut need
/// not copy the whole list, which the node's own picker still wants intact.
pub fn tactical_moves(legal: &[Move], table_move: Option<Move>) -> MoveList {
    let mut tactical = MoveList::new();
    let table_index = table_move
        .filter(|&m| is_tactical(m))
        .and_then(|t| legal.iter().position(|&m| m == t));
    let Some(t) = table_index else {
        tactical.extend(legal.iter().copied().filter(|&m| is_tactical(m)));
        return tactical;
    };
    tactical.push(legal[t]);
    for i in 1..legal.len() {
        let m = if i == t { legal[0] } else { legal[i] };
        if is_tactical(m) {
            tactical.push(m);
        }
    }
    tactical
}

/// Arranges `tactical`, a node's tactical moves in the order of its full
/// legal list, so that a tactical picker over it hands them out as one over
/// the full list would. There, taking the table move swaps it with the
/// list's first move, which joins the tactical moves only when it is one:
/// when `first_legal` (asked only if it matters) is quiet, the table move
/// goes first and the others keep their order.
pub fn arrange_like_full_list(
    tactical: &mut [Move],
    table_move: Option<Move>,
    first_legal: impl FnOnce() -> Option<Move>,
) {
    let Some(t) = table_move.and_then(|t| tactical.iter().position(|&m| m == t)) else {
        return;
    };
    if t > 0 && !first_legal().is_some_and(is_tactical) {
        tactical[..=t].rotate_right(1);
    }
}

/// The highest of `scores` (`i32::MIN` if none). Baseline x86-64 has no
/// packed maximum of 32-bit integers and emulates it in four instructions;
/// with AVX2 (found at run time) one compares eight scores.
fn best_score(scores: &[i32]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { best_score_avx2(scores) };
    }
    best_score_portable(scores)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn best_score_avx2(scores: &[i32]) -> i32 {
    best_score_portable(scores)
}

/// Inlined into each caller, so that it is compiled for the caller's
/// instruction set.
#[inline(always)]
fn best_score_portable(scores: &[i32]) -> i32 {
    scores.iter().copied().fold(i32::MIN, i32::max)
}

/// The moves a picker generates itself, after handing out the table move
/// first: when that move cuts the node off, they are never generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deferred {
    /// The list came filled.
    Nothing,
    /// Every legal move.
    AllMoves,
    /// The tactical moves, arranged as [`arrange_like_full_list`] does.
    TacticalMoves,
}

/// Borrows the node's move list rather than owning a copy: the list is
/// reordered in place as moves are handed out.
pub struct MovePicker<'a> {
    stage: Stage,
    /// The legal moves. Until the captures are scored `moves[..done]` have
    /// been handed out; from then on `moves[..tactical_end]` are the
    /// tactical moves, of which `moves[..done]` have been handed out, and
    /// the rest the quiets, of which `moves[tactical_end..quiet_done]` have.
    moves: &'a mut MoveList,
    /// What still has to be generated into `moves` once the table move
    /// is out.
    deferred: Deferred,
    scores: [i32; 256],
    done: usize,
    tactical_end: usize,
    quiet_done: usize,
    table_move: Option<Move>,
    killers: [Option<Move>; 2],
    killer_index: usize,
    counter: Option<Move>,
    /// The moves before this node, for the quiets' continuation scores.
    continuation: Continuation,
    /// Quiescence: only winning or equal tactical moves, no quiet stages.
    tactical_only: bool,
    /// Set by the search once it would prune every quiet move left: the
    /// killers, counter-move and quiets are not handed out any more.
    pub skip_quiets: bool,
}

impl<'a> MovePicker<'a> {
    /// All legal moves of a main-search node. An empty `legal` with a
    /// table move (legal here) means the moves are not generated yet: the
    /// table move goes out first, and the picker generates the rest into
    /// `legal` only when the next move is asked for, arranged as they would
    /// be had they come filled (when the table move cuts the node off, they
    /// are never generated).
    pub fn new(
        legal: &'a mut MoveList,
        table_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        continuation: Continuation,
    ) -> MovePicker<'a> {
        debug_assert!(legal.len() <= 256, "more moves than scores");
        let deferred = if legal.is_empty() && table_move.is_some() {
            Deferred::AllMoves
        } else {
            Deferred::Nothing
        };
        MovePicker {
            stage: Stage::TableMove,
            moves: legal,
            deferred,
            scores: [UNSCORED; 256],
            done: 0,
            tactical_end: 0,
            quiet_done: 0,
            table_move,
            killers,
            killer_index: 0,
            counter,
            continuation,
            tactical_only: false,
            skip_quiets: false,
        }
    }

    /// Quiescence: the table move if tactical, then captures and queen
    /// promotions that do not lose material by SEE. As in [`MovePicker::new`],
    /// an empty list with a tactical table move is generated (the tactical
    /// moves only) after it.
    pub fn new_tactical(legal: &'a mut MoveList, table_move: Option<Move>) -> MovePicker<'a> {
        let mut picker =
            MovePicker::new(legal, table_move, [None; 2], None, Continuation::default());
        picker.restrict_to_tactical();
        picker
    }

    /// Turns a picker made by [`MovePicker::new`], before it hands out
    /// anything, into one of [`MovePicker::new_tactical`]: one constructor
    /// call for a node that wants either, so the picker is built in place.
    pub fn restrict_to_tactical(&mut self) {
        debug_assert!(self.stage == Stage::TableMove && self.done == 0);
        self.tactical_only = true;
        self.table_move = self.table_move.filter(|&m| is_tactical(m));
        self.deferred = match (self.deferred, self.table_move) {
            (Deferred::AllMoves, Some(_)) => Deferred::TacticalMoves,
            _ => Deferred::Nothing,
        };
    }

    /// The quiet moves not handed out yet (the killers and counter-move
    /// among them until they are), in no particular order.
    pub fn quiets_left(&self) -> impl Iterator<Item = Move> + '_ {
        debug_assert!(
            self.deferred == Deferred::Nothing,
            "moves not generated yet"
        );
        // Pruning starts only after a move was searched, and the captures
        // are gathered when the second move is asked for.
        debug_assert!(
            self.stage > Stage::ScoreCaptures,
            "quiets asked for before the tactical moves were gathered"
        );
        self.moves[self.quiet_done..].iter().copied()
    }

    /// Hands out `moves[i]`, swapping it (and its score) to the front of
    /// the moves left. Forced inline: every stage hands out through it, and
    /// over a borrowed list LLVM stops inlining it on its own (+1.7 % Ir).
    #[inline(always)]
    fn take(&mut self, i: usize) -> Move {
        let done = self.done;
        debug_assert!(done <= i && i < self.moves.len());
        let front = self.moves[done];
        let m = std::mem::replace(&mut self.moves[i], front);
        self.moves[done] = m;
        self.scores.swap(done, i);
        self.done = done + 1;
        m
    }

    /// Hands out the quiet `moves[i]`, swapping it with the first quiet left.
    #[inline(always)]
    fn take_quiet(&mut self, i: usize) -> Move {
        let q = self.quiet_done;
        debug_assert!(q <= i && i < self.moves.len());
        self.moves.swap(q, i);
        self.scores.swap(q, i);
        self.quiet_done = q + 1;
        self.moves[q]
    }

    /// Hands out the quiet `wanted` (a killer or the counter-move) if it is
    /// among the quiets left, the others keeping their order: before the
    /// quiets are scored that order is the generator's, which decides
    /// between equal history scores.
    fn take_quiet_move(&mut self, wanted: Option<Move>, chess: &Chess) -> Option<Move> {
        let q = self.quiet_done;
        let i = self.find(wanted, chess, q)?;
        self.moves[q..=i].rotate_right(1);
        self.scores[q..=i].rotate_right(1);
        self.quiet_done = q + 1;
        Some(self.moves[q])
    }

    /// Hands out the table move if it is among the moves.
    fn take_table_move(&mut self, chess: &Chess) -> Option<Move> {
        let i = self.find(self.table_move, chess, self.done)?;
        Some(self.take(i))
    }

    /// Where `wanted` lies in `moves[from..]`, if it does. Killers and
    /// counter-moves come from other positions: one whose piece is not on
    /// its square, or whose target does not hold what it captures, cannot
    /// be in the list, and two board lookups spare the search for it.
    fn find(&self, wanted: Option<Move>, chess: &Chess, from: usize) -> Option<usize> {
        let wanted = wanted?;
        if let Move::Normal {
            role,
            from,
            capture,
            to,
            ..
        } = wanted
        {
            let board = chess.board();
            let turn = chess.turn();
            if board.piece_at(from) != Some(role.of(turn)) || board.role_at(to) != capture {
                return None;
            }
        }
        // Target squares first: one byte against the enum's field by field.
        let to = wanted.to();
        let left = &self.moves[from..];
        let i = left.iter().position(|&m| m.to() == to && m == wanted)?;
        Some(from + i)
    }

    /// Hands out the best-scored move among `moves[done..end]` (tactical
    /// moves) whose score lies in `lo..hi`.
    fn take_best_in(&mut self, end: usize, lo: i32, hi: i32) -> Option<Move> {
        self.best_in(end, lo, hi).map(|i| self.take(i))
    }

    /// The first of the moves left before `end` with the highest score in
    /// `lo..hi`.
    fn best_in(&self, end: usize, lo: i32, hi: i32) -> Option<usize> {
        let mut best: Option<usize> = None;
        for i in self.done..end {
            let s = self.scores[i];
            if s >= lo && s < hi && best.is_none_or(|b| s > self.scores[b]) {
                best = Some(i);
            }
        }
        best
    }

    /// Hands out the best quiet move left. The quiet stage is the hot loop
    /// of the picker (every quiet of an all-node passes through it).
    ///
    /// Two passes, the best score and then the first move with it, because
    /// the compiler vectorises the first: one fused pass cannot be, and at
    /// an all-node the scans add up to the square of the quiets.
    fn take_best_quiet(&mut self) -> Option<Move> {
        let q = self.quiet_done;
        let left = &self.scores[q..self.moves.len()];
        let best_score = best_score(left);
        let best = left.iter().position(|&s| s == best_score)?;
        Some(self.take_quiet(q + best))
    }

    /// The next move to try, or `None` when the node is exhausted.
    ///
    /// Most moves of a node are its quiets, handed out one by one: they
    /// are served here, so the stage machine and the setup the compiler
    /// hoists to its entry (a fifth of the picker's instructions when it
    /// ran for every move) run only when a stage changes.
    #[inline]
    pub fn next(&mut self, chess: &Chess, history: &History) -> Option<Move> {
        if self.stage == Stage::Quiets
            && !self.skip_quiets
            && let Some(m) = self.take_best_quiet()
        {
            return Some(m);
        }
        self.next_by_stage(chess, history)
    }

    /// Generates the deferred list and takes the table move out of it, as
    /// the table-move stage would have, so the list ends up as if it had
    /// come filled.
    #[cold]
    fn generate_deferred(&mut self, chess: &Chess) {
        let table_move = self.table_move;
        match std::mem::replace(&mut self.deferred, Deferred::Nothing) {
            Deferred::Nothing => return,
            Deferred::AllMoves => movegen::legal_moves(chess, self.moves),
            Deferred::TacticalMoves => {
                movegen::tactical_moves(chess, self.moves);
                arrange_like_full_list(self.moves, table_move, || movegen::first_legal_move(chess));
            }
        }
        debug_assert!(self.moves.len() <= 256, "more moves than scores");
        let taken = self.take_table_move(chess);
        debug_assert!(
            taken.is_some(),
            "the table move {table_move:?} is not among the generated moves"
        );
    }

    #[inline(never)]
    fn next_by_stage(&mut self, chess: &Chess, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::ScoreCaptures;
                    if self.deferred != Deferred::Nothing {
                        return self.table_move;
                    }
                    if let Some(m) = self.take_table_move(chess) {
                        return Some(m);
                    }
                    self.table_move = None;
                }
                Stage::ScoreCaptures => {
                    if self.deferred != Deferred::Nothing {
                        self.generate_deferred(chess);
                    }
                    // Gather the tactical moves at the front of what is left,
                    // in the order they come, then score them: the scan over
                    // every move stays a tight loop without calls.
                    let left = &mut self.moves[self.done..];
                    let mut gathered = 0;
                    for i in 0..left.len() {
                        if is_tactical(left[i]) {
                            left.swap(i, gathered);
                            gathered += 1;
                        }
                    }
                    self.tactical_end = self.done + gathered;
                    self.quiet_done = self.tactical_end;
                    // All start in the good band; SEE judges each only when
                    // it comes up, so after a cutoff the rest are never judged.
                    for j in self.done..self.tactical_end {
                        self.scores[j] = GOOD_CAPTURE + mvv_lva(self.moves[j]);
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while let Some(i) =
                        self.best_in(self.tactical_end, GOOD_CAPTURE, GOOD_CAPTURE + BAND)
                    {
                        if see_at_least(chess, self.moves[i], 0) {
                            return Some(self.take(i));
                        }
                        // Losing material: down to the bad band, in place, so
                        // the moves keep the positions they would have had.
                        self.scores[i] += BAD_CAPTURE - GOOD_CAPTURE;
                    }
                    self.stage = if self.tactical_only {
                        Stage::Done
                    } else {
                        Stage::Killers
                    };
                }
                Stage::Killers => {
                    while self.killer_index < 2 {
                        let k = self.killers[self.killer_index];
                        self.killer_index += 1;
                        if self.skip_quiets || k.is_none_or(is_tactical) {
                            continue;
                        }
                        if let Some(m) = self.take_quiet_move(k, chess) {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::CounterMove;
                }
                Stage::CounterMove => {
                    self.stage = Stage::ScoreQuiets;
                    if !self.skip_quiets
                        && !self.counter.is_none_or(is_tactical)
                        && let Some(m) = self.take_quiet_move(self.counter, chess)
                    {
                        return Some(m);
                    }
                }
                Stage::ScoreQuiets => {
                    let scorer = history.quiet_scorer(chess.turn(), self.continuation);
                    for i in self.quiet_done..self.moves.len() {
                        let m = self.moves[i];
                        // Underpromotions are almost never right: try them last.
                        self.scores[i] = if m.is_promotion() {
                            UNDERPROMOTION
                        } else {
                            scorer.score(m)
                        };
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.skip_quiets
                        && let Some(m) = self.take_best_quiet()
                    {
                        return Some(m);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if let Some(m) =
                        self.take_best_in(self.tactical_end, BAD_CAPTURE, BAD_CAPTURE + BAND)
                    {
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn all_moves(fen: &str, table: Option<&str>) -> (Vec<Move>, Position) {
        let pos = Position::from_fen(fen, false).unwrap();
        let tm = table.map(|t| pos.parse_uci(t).unwrap());
        let mut legal = pos.legal_moves();
        let mut picker = MovePicker::new(&mut legal, tm, [None; 2], None, Continuation::default());
        let history = History::new();
        let mut out = Vec::new();
        while let Some(m) = picker.next(pos.chess(), &history) {
            out.push(m);
        }
        (out, pos)
    }

    #[test]
    fn best_score_is_the_maximum() {
        let scores: Vec<i32> = (0..40).map(|i| (i * 7919) % 101 - 50).collect();
        for n in 0..=scores.len() {
            let expected = scores[..n].iter().copied().max().unwrap_or(i32::MIN);
            assert_eq!(best_score(&scores[..n]), expected, "{n}");
            assert_eq!(best_score_portable(&scores[..n]), expected, "{n}");
        }
    }

    #[test]
    fn every_legal_move_exactly_once() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let (out, pos) = all_moves(fen, Some("e2a6"));
        let legal = pos.legal_moves();
        assert_eq!(out.len(), legal.len());
        for m in &legal {
            assert_eq!(out.iter().filter(|&&x| x == *m).count(), 1);
        }
        assert_eq!(pos.uci(out[0]), "e2a6");
    }

    #[test]
    fn skipped_quiets_leave_the_losing_captures_in_order() {
        let history = History::new();
        let mut checked = 0;
        for pos in crate::bench::positions_and_children() {
            if pos.is_check() {
                continue;
            }
            let legal = pos.legal_moves();
            let picked = |skip_after: Option<usize>| {
                let mut list = legal.clone();
                let mut picker =
                    MovePicker::new(&mut list, None, [None; 2], None, Continuation::default());
                let mut out = Vec::new();
                let mut quiets = 0;
                while let Some(m) = picker.next(pos.chess(), &history) {
                    out.push(m);
                    quiets += usize::from(!is_tactical(m));
                    if !is_tactical(m) && Some(quiets) == skip_after {
                        picker.skip_quiets = true;
                    }
                }
                out
            };
            let whole = picked(None);
            let quiets = whole.iter().filter(|&&m| !is_tactical(m)).count();
            let last_quiet = whole.iter().rposition(|&m| !is_tactical(m));
            let losing = &whole[last_quiet.map_or(whole.len(), |i| i + 1)..];
            for skip_after in 1..=quiets {
                let kth_quiet = whole
                    .iter()
                    .enumerate()
                    .filter(|&(_, &m)| !is_tactical(m))
                    .nth(skip_after - 1)
                    .map(|(i, _)| i)
                    .unwrap();
                let expected: Vec<Move> =
                    whole[..=kth_quiet].iter().chain(losing).copied().collect();
                assert_eq!(
                    picked(Some(skip_after)),
                    expected,
                    "{pos:?} after {skip_after} quiets"
                );
                checked += usize::from(losing.len() > 1);
            }
        }
        assert!(checked > 0, "no position with two losing captures");
    }

    #[test]
    fn winning_captures_before_quiets_before_losing_captures() {
        // Qxd5 loses the queen to exd5 (bad); exd5... white pawn c4xd5 wins a pawn (good).
        let fen = "4k3/8/4p3/3p4/2P5/8/3Q4/4K3 w - - 0 1";
        let (out, pos) = all_moves(fen, None);
        let names: Vec<String> = out.iter().map(|&m| pos.uci(m)).collect();
        assert_eq!(names[0], "c4d5");
        assert_eq!(names.last().unwrap(), "d2d5");
    }

    /// The moves a tactical picker hands out, in order.
    fn tactical_order(moves: &mut MoveList, table: Option<Move>, pos: &Position) -> Vec<Move> {
        let history = History::new();
        let mut picker = MovePicker::new_tactical(moves, table);
        std::iter::from_fn(|| picker.next(pos.chess(), &history)).collect()
    }

    #[test]
    fn the_arranged_tactical_moves_pick_like_the_whole_list() {
        use crate::position::movegen::{first_legal_move, tactical_moves as generated};
        for pos in crate::bench::positions_and_children() {
            if pos.is_check() {
                continue;
            }
            let legal = pos.legal_moves();
            let tables = std::iter::once(None).chain(legal.iter().map(|&m| Some(m)));
            for table in tables {
                let whole = tactical_order(&mut legal.clone(), table, &pos);
                let mut tactical = MoveList::new();
                generated(pos.chess(), &mut tactical);
                let table = table.filter(|t| tactical.contains(t));
                arrange_like_full_list(&mut tactical, table, || first_legal_move(pos.chess()));
                let picked = tactical_order(&mut tactical, table, &pos);
                assert_eq!(picked, whole, "{pos:?} {table:?}");
            }
        }
    }

    #[test]
    fn the_tactical_list_picks_like_the_whole_list() {
        // Between equal scores the order the moves come in decides. Here the
        // knights' equal captures come after a quiet pawn move and before the
        // rook's capture: taking the rook's as table move reorders them.
        let equal_captures = "4k3/p7/8/8/3p4/1N3N2/7P/R3K3 w - - 0 1";
        for fen in crate::bench::BENCH_FENS.lines().chain([equal_captures]) {
            let pos = Position::from_fen(fen, false).unwrap();
            let legal = pos.legal_moves();
            let tables = std::iter::once(None).chain(legal.iter().map(|&m| Some(m)));
            for table in tables {
                let whole = tactical_order(&mut legal.clone(), table, &pos);
                let mut tactical = tactical_moves(&legal, table);
                let picked = tactical_order(&mut tactical, table, &pos);
                assert_eq!(picked, whole, "{fen} {table:?}");
            }
        }
    }
}
