//! The staged move picker: hands out the legal moves of a node best-first so
//! cutoffs come early, generating and scoring each stage only when it is
//! reached.
//!
//! Order: the table move, winning and equal captures (by SEE, then most
//! valuable victim / least valuable attacker), the two killers, the
//! counter-move, quiet moves by history, and last the losing captures.
//!
//! The table move goes out before any move is generated, the captures are
//! generated after it, and the quiets only when the quiet stage comes: a
//! node cut off by its table move or a capture never generates them. The
//! killers and the counter-move come from other positions, so until the
//! quiets are generated they are checked against the board.
//!
//! The list has two parts, the tactical moves and then the quiets, each in
//! the generator's order (which decides between equal scores) less the
//! moves handed out before it was generated, and each handed out from its
//! own front: handing out a quiet never moves a capture, so the losing
//! captures come in the same order whether or not the quiets were all
//! handed out first.

use shakmaty::{Move, MoveList, Role};

use super::history::{Continuation, History, QUIET_SCORE_MAX};
use super::see::{see_at_least, see_value};
use super::threats::THREAT_MAX;
use crate::position::{Position, Snapshot, movegen};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TableMove,
    GenerateCaptures,
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
const _: () = assert!(UNDERPROMOTION < -QUIET_SCORE_MAX - THREAT_MAX);

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

/// Scores looked at per vector instruction.
const LANES: usize = 8;

/// A picker's scores: one per move, and room for a block of unscored
/// slots past the longest list.
pub type Scores = [i32; 256 + LANES];

/// The score arrays of one search's pickers, handed from node to node. A
/// picker writes every score before it reads it (and the unscored block
/// after its quiets), so a used array needs no clearing; a fresh one per
/// node cost a kilobyte of stores at every node that makes a picker.
#[derive(Default)]
// Boxed so that a picker borrows its kilobyte where it lies: a `Vec` of
// arrays would copy each one out and back.
#[allow(clippy::vec_box)]
pub struct ScorePool(Vec<Box<Scores>>);

impl ScorePool {
    /// An array for a new picker: a used one if any is back.
    pub fn take(&mut self) -> Box<Scores> {
        self.0
            .pop()
            .unwrap_or_else(|| Box::new([UNSCORED; 256 + LANES]))
    }

    /// Returns an array once its picker is done with it.
    pub fn give_back(&mut self, scores: Box<Scores>) {
        self.0.push(scores);
    }
}

/// Where the first of the highest of `scores` lies (`None` if there are
/// none): the best quiet move left. At an all-node this runs once per
/// quiet, over all the quiets left, so with AVX2 (found at run time) a
/// list of whole blocks of eight is looked at eight scores per instruction.
fn first_best(scores: &[i32]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if !scores.is_empty()
        && scores.len().is_multiple_of(LANES)
        && std::arch::is_x86_feature_detected!("avx2")
    {
        // SAFETY: the CPU has AVX2, checked just above.
        return Some(unsafe { first_best_avx2(scores) });
    }
    first_best_portable(scores)
}

/// [`first_best_portable`] for a non-empty list of whole blocks of eight,
/// in two vector passes: the best score, then the first block holding it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn first_best_avx2(scores: &[i32]) -> usize {
    use std::arch::x86_64::{
        __m256i, _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_max_epi32,
        _mm256_movemask_ps, _mm256_permute2x128_si256, _mm256_set1_epi32, _mm256_shuffle_epi32,
    };
    debug_assert!(!scores.is_empty() && scores.len().is_multiple_of(LANES));
    let blocks = scores.chunks_exact(LANES);
    // SAFETY (every load): a block is eight `i32`s, 32 bytes, and an
    // unaligned load reads exactly those.
    let load = |block: &[i32]| unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) };
    let mut best = _mm256_set1_epi32(i32::MIN);
    for block in blocks.clone() {
        best = _mm256_max_epi32(best, load(block));
    }
    // Every lane gets the maximum of all eight: halves, pairs, neighbours.
    best = _mm256_max_epi32(best, _mm256_permute2x128_si256::<1>(best, best));
    best = _mm256_max_epi32(best, _mm256_shuffle_epi32::<0b0100_1110>(best));
    best = _mm256_max_epi32(best, _mm256_shuffle_epi32::<0b1011_0001>(best));
    let mut index = 0;
    for block in blocks {
        let hits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(load(block), best)));
        if hits != 0 {
            return index + hits.trailing_zeros() as usize;
        }
        index += LANES;
    }
    unreachable!("the maximum of the blocks lies in one of them")
}

/// The safe path, and the reference the vector one is tested against.
fn first_best_portable(scores: &[i32]) -> Option<usize> {
    let best = scores.iter().copied().max()?;
    scores.iter().position(|&s| s == best)
}

/// Borrows the node's move list, an empty buffer the picker generates
/// into stage by stage and reorders in place as it hands moves out.
pub struct MovePicker<'a> {
    stage: Stage,
    /// From the capture stage on, `moves[..tactical_end]` are the tactical
    /// moves, of which `moves[..done]` have been handed out; once generated,
    /// the quiets follow, of which `moves[tactical_end..quiet_done]` have
    /// been handed out.
    moves: &'a mut MoveList,
    /// One per move, written when the move's stage scores it (a borrowed
    /// array holds stale scores until then), and from the quiet stage on a
    /// block of unscored slots past the list.
    scores: &'a mut Scores,
    done: usize,
    tactical_end: usize,
    quiet_done: usize,
    /// Whether the quiets are in `moves`. Until they are, a killer or the
    /// counter-move is checked against the board and remembered in
    /// `quiets_out`, so the generated list leaves it out.
    quiets_generated: bool,
    quiets_out: [Option<Move>; 3],
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
    /// All legal moves of a main-search node, generated into `buffer` (an
    /// empty list) as the stages reach them. A table move, if any, must be
    /// legal here: it goes out first, before anything is generated, so when
    /// it cuts the node off nothing ever is.
    pub fn new(
        buffer: &'a mut MoveList,
        scores: &'a mut Scores,
        table_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        continuation: Continuation,
    ) -> MovePicker<'a> {
        debug_assert!(buffer.is_empty(), "the picker generates its own moves");
        MovePicker {
            stage: Stage::TableMove,
            moves: buffer,
            scores,
            done: 0,
            tactical_end: 0,
            quiet_done: 0,
            quiets_generated: false,
            quiets_out: [None; 3],
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
    /// promotions that do not lose material by SEE.
    pub fn new_tactical(
        buffer: &'a mut MoveList,
        scores: &'a mut Scores,
        table_move: Option<Move>,
    ) -> MovePicker<'a> {
        let mut picker = MovePicker::new(
            buffer,
            scores,
            table_move,
            [None; 2],
            None,
            Continuation::default(),
        );
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
    }

    /// The quiet moves not handed out yet (the killers and counter-move
    /// among them until they are), in no particular order. Generates the
    /// quiets if they are not yet.
    pub fn quiets_left(&mut self, chess: &Snapshot) -> impl Iterator<Item = Move> + '_ {
        // Pruning starts only after a move was searched, and the captures
        // are generated when the second move is asked for.
        debug_assert!(
            self.stage > Stage::GenerateCaptures,
            "quiets asked for before the tactical moves were generated"
        );
        self.generate_quiets(chess);
        self.moves[self.quiet_done..].iter().copied()
    }

    /// Hands out `moves[i]`, swapping it (and its score) to the front of
    /// the moves left. Forced inline: every stage hands out through it, and
    /// over a borrowed list LLVM stops inlining it on its own (+1.7 % Ir).
    #[inline(always)]
    fn take(&mut self, i: usize) -> Move {
        let done = self.done;
        debug_assert!(done <= i && i < self.tactical_end);
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
    /// legal here and not handed out already.
    fn take_quiet_move(&mut self, wanted: Option<Move>, chess: &Snapshot) -> Option<Move> {
        let wanted = wanted.filter(|&m| !is_tactical(m) && Some(m) != self.table_move)?;
        if self.quiets_generated {
            // The others keep their order: before the quiets are scored
            // that order is the generator's, which decides between equal
            // history scores.
            let q = self.quiet_done;
            let i = self.find(wanted, chess, q)?;
            self.moves[q..=i].rotate_right(1);
            self.quiet_done = q + 1;
            return Some(wanted);
        }
        let slot = self.quiets_out.iter().position(Option::is_none)?;
        if self.quiets_out.contains(&Some(wanted)) || !movegen::is_legal_quiet(chess, wanted) {
            return None;
        }
        self.quiets_out[slot] = Some(wanted);
        Some(wanted)
    }

    /// Where `wanted` lies in `moves[from..]`, if it does. Killers and
    /// counter-moves come from other positions: one whose piece is not on
    /// its square, or whose target does not hold what it captures, cannot
    /// be in the list, and two board lookups spare the search for it.
    fn find(&self, wanted: Move, chess: &Snapshot, from: usize) -> Option<usize> {
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

    /// The tactical moves in generation order, less the table move, which
    /// went out already. In check, where there are few moves, the quiet
    /// evasions are generated with them and follow them.
    fn generate_tactical(&mut self, pos: &Position) {
        let chess = pos.snapshot();
        if pos.is_check() {
            let mut evasions = MoveList::new();
            movegen::legal_moves(chess, &mut evasions);
            let tactical = evasions.iter().filter(|&&m| is_tactical(m));
            self.moves.extend(tactical.copied());
            self.tactical_end = self.moves.len();
            let quiet = evasions.iter().filter(|&&m| !is_tactical(m));
            self.moves.extend(quiet.copied());
            self.quiets_generated = true;
        } else {
            movegen::tactical_moves(chess, self.moves);
            self.tactical_end = self.moves.len();
        }
        if let Some(t) = self.table_move {
            self.remove(t, 0);
        }
    }

    /// Appends the quiet moves in generation order, less those handed out
    /// already: the table move, killers and counter-move.
    fn generate_quiets(&mut self, chess: &Snapshot) {
        if self.quiets_generated {
            return;
        }
        self.quiets_generated = true;
        let start = self.moves.len();
        debug_assert_eq!(start, self.tactical_end);
        debug_assert_eq!(self.quiet_done, self.tactical_end);
        movegen::quiet_moves(chess, self.moves);
        debug_assert!(self.moves.len() <= 256, "more moves than scores");
        let handed_out = [self.table_move].into_iter().chain(self.quiets_out);
        for m in handed_out.flatten() {
            self.remove(m, start);
        }
    }

    /// Removes `m` from `moves[from..]` if it is there, the others keeping
    /// their order; the tactical part shrinks with a tactical move.
    fn remove(&mut self, m: Move, from: usize) {
        let to = m.to();
        let Some(i) = self.moves[from..]
            .iter()
            .position(|&x| x.to() == to && x == m)
        else {
            return;
        };
        self.moves.remove(from + i);
        if from + i < self.tactical_end {
            self.tactical_end -= 1;
        }
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

    /// Hands out the best quiet move left (the first of equals). The quiet
    /// stage is the hot loop of the picker (every quiet of an all-node
    /// passes through it).
    ///
    /// The scores past the list are unscored (the lowest score there is),
    /// so the search runs on to a whole number of blocks of eight and the
    /// vector search needs no tail.
    #[inline(always)]
    fn take_best_quiet(&mut self) -> Option<Move> {
        let (q, end) = (self.quiet_done, self.moves.len());
        if q == end {
            return None;
        }
        debug_assert!(self.scores[end..end + LANES].iter().all(|&s| s == UNSCORED));
        let padded_end = q + (end - q).next_multiple_of(LANES);
        let best = first_best(&self.scores[q..padded_end])?;
        debug_assert!(q + best < end, "an unscored slot chosen");
        Some(self.take_quiet(q + best))
    }

    /// The next move to try, or `None` when the node is exhausted.
    ///
    /// Most moves of a node are its quiets, handed out one by one: they
    /// are served here, so the stage machine and the setup the compiler
    /// hoists to its entry (a fifth of the picker's instructions when it
    /// ran for every move) run only when a stage changes.
    #[inline]
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        if self.stage == Stage::Quiets
            && !self.skip_quiets
            && let Some(m) = self.take_best_quiet()
        {
            return Some(m);
        }
        self.next_by_stage(pos, history)
    }

    #[inline(never)]
    fn next_by_stage(&mut self, pos: &Position, history: &History) -> Option<Move> {
        let chess = pos.snapshot();
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    if self.table_move.is_some() {
                        return self.table_move;
                    }
                }
                Stage::GenerateCaptures => {
                    self.generate_tactical(pos);
                    self.quiet_done = self.tactical_end;
                    // All start in the good band; SEE judges each only when
                    // it comes up, so after a cutoff the rest are never judged.
                    let end = self.tactical_end;
                    for (score, &m) in self.scores[..end].iter_mut().zip(&self.moves[..end]) {
                        *score = GOOD_CAPTURE + mvv_lva(m);
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
                        if self.skip_quiets {
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
                        && let Some(m) = self.take_quiet_move(self.counter, chess)
                    {
                        return Some(m);
                    }
                }
                Stage::ScoreQuiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    self.generate_quiets(chess);
                    let scorer = history.quiet_scorer(chess.turn(), self.continuation);
                    let threats = self.continuation.threats;
                    let (q, end) = (self.quiet_done, self.moves.len());
                    // Zipped slices: no bounds check per move.
                    for (score, &m) in self.scores[q..end].iter_mut().zip(&self.moves[q..end]) {
                        // Underpromotions are almost never right: try them last.
                        *score = if m.is_promotion() {
                            UNDERPROMOTION
                        } else {
                            scorer.score(m) + threats.adjustment(m)
                        };
                    }
                    // The vector search of the quiet stage runs on past the
                    // list to a whole block of eight.
                    self.scores[end..end + LANES].fill(UNSCORED);
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
    use crate::search::threats::Threats;

    fn fresh_scores() -> Box<Scores> {
        ScorePool::default().take()
    }

    fn all_moves(fen: &str, table: Option<&str>) -> (Vec<Move>, Position) {
        let pos = Position::from_fen(fen, false).unwrap();
        let tm = table.map(|t| pos.parse_uci(t).unwrap());
        let mut buffer = MoveList::new();
        let mut scores = fresh_scores();
        // As the search makes it: no moves before, the board's threats.
        let context = Continuation::new(pos.turn(), None, None, Threats::new(pos.snapshot()));
        let mut picker = MovePicker::new(&mut buffer, &mut scores, tm, [None; 2], None, context);
        let history = History::new();
        let mut out = Vec::new();
        while let Some(m) = picker.next(&pos, &history) {
            out.push(m);
        }
        (out, pos)
    }

    #[test]
    fn quiets_leave_a_cheaper_attackers_reach_first_and_enter_it_last() {
        // The black pawn on d5 attacks the knight on c4 and the square e4.
        let (moves, pos) = all_moves("4k3/8/8/3p4/2N5/8/6B1/4K3 w - - 0 1", None);
        let uci: Vec<String> = moves.iter().map(|&m| pos.uci(m)).collect();
        let quiets: Vec<&String> = moves
            .iter()
            .zip(&uci)
            .filter(|&(&m, _)| !is_tactical(m))
            .map(|(_, u)| u)
            .collect();
        // With no history, the knight's escapes come before every other quiet...
        let knight_moves = quiets.iter().filter(|u| u.starts_with("c4")).count();
        assert_eq!(knight_moves, 8);
        assert!(
            quiets[..knight_moves].iter().all(|u| u.starts_with("c4")),
            "{quiets:?}"
        );
        // ...and the bishop's step into the pawn's reach after all of them.
        assert_eq!(
            quiets.last().map(|u| u.as_str()),
            Some("g2e4"),
            "{quiets:?}"
        );
    }

    #[test]
    fn first_best_is_the_first_maximum() {
        // Few distinct values, so the maximum comes several times and in
        // every lane of a block of eight.
        let scores: Vec<i32> = (0..40).map(|i| (i * 7919) % 7 - 3).collect();
        for start in 0..scores.len() {
            for end in start..=scores.len() {
                let left = &scores[start..end];
                let max = left.iter().copied().max();
                let expected = max.and_then(|max| left.iter().position(|&s| s == max));
                assert_eq!(first_best(left), expected, "{start}..{end}");
                assert_eq!(first_best_portable(left), expected, "{start}..{end}");
            }
        }
        assert_eq!(first_best(&[i32::MIN; 2 * LANES]), Some(0));
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

    /// Quiet moves of other positions, as killers and counter-moves come:
    /// legal here or not, some the same as this position's.
    fn foreign_quiets() -> Vec<Move> {
        let mut quiets: Vec<Move> = crate::bench::BENCH_FENS
            .lines()
            .filter_map(|fen| Position::from_fen(fen, false).ok())
            .flat_map(|pos| pos.legal_moves())
            .filter(|&m| !is_tactical(m))
            .collect();
        quiets.sort_by_key(|m| format!("{m:?}"));
        quiets.dedup();
        quiets
    }

    #[test]
    fn every_legal_move_exactly_once_whatever_the_killers() {
        let history = History::new();
        let foreign = foreign_quiets();
        let mut checked = 0;
        for (n, pos) in crate::bench::positions_and_children()
            .into_iter()
            .enumerate()
        {
            let legal = pos.legal_moves();
            let quiets: Vec<Move> = legal.iter().copied().filter(|&m| !is_tactical(m)).collect();
            // Killers from this position and from others, the table move
            // among the legal moves or none, varied from position to position.
            let pick = |i: usize| -> Option<Move> {
                match i % 4 {
                    0 => None,
                    1 => quiets.get(i % quiets.len().max(1)).copied(),
                    _ => Some(foreign[(i * 7919 + n) % foreign.len()]),
                }
            };
            let killers = [pick(n), pick(n / 3 + 1)];
            let counter = pick(n / 2 + 2).or(killers[0]);
            let table = [None, legal.get(n % legal.len().max(1)).copied()][n % 2];
            let mut buffer = MoveList::new();
            let mut scores = fresh_scores();
            let continuation = Continuation::default();
            let mut picker = MovePicker::new(
                &mut buffer,
                &mut scores,
                table,
                killers,
                counter,
                continuation,
            );
            let mut out = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                out.push(m);
            }
            let mut expected: Vec<Move> = legal.to_vec();
            let key = |m: &Move| format!("{m:?}");
            expected.sort_by_key(key);
            let mut sorted = out.clone();
            sorted.sort_by_key(key);
            assert_eq!(
                sorted, expected,
                "{pos:?} {table:?} {killers:?} {counter:?}"
            );
            if let Some(t) = table {
                assert_eq!(out[0], t);
            }
            checked += usize::from(
                killers
                    .iter()
                    .any(|k| k.is_some_and(|k| legal.contains(&k))),
            );
        }
        assert!(checked > 100, "too few legal killers: {checked}");
    }

    #[test]
    fn quiets_left_are_the_quiets_not_handed_out() {
        let history = History::new();
        for pos in crate::bench::positions_and_children() {
            let legal = pos.legal_moves();
            let quiets: Vec<Move> = legal.iter().copied().filter(|&m| !is_tactical(m)).collect();
            let Some(&killer) = quiets.first() else {
                continue;
            };
            let mut buffer = MoveList::new();
            let mut scores = fresh_scores();
            let mut picker = MovePicker::new(
                &mut buffer,
                &mut scores,
                None,
                [Some(killer), quiets.last().copied()],
                None,
                Continuation::default(),
            );
            // Up to and including the first killer.
            let mut out = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                out.push(m);
                if m == killer {
                    break;
                }
            }
            let mut left: Vec<Move> = picker.quiets_left(pos.snapshot()).collect();
            let mut rest = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                rest.push(m);
            }
            let key = |m: &Move| format!("{m:?}");
            let mut expected: Vec<Move> = rest.into_iter().filter(|&m| !is_tactical(m)).collect();
            expected.sort_by_key(key);
            left.sort_by_key(key);
            assert_eq!(left, expected, "{pos:?}");
        }
    }

    #[test]
    fn skipped_quiets_leave_the_losing_captures_in_order() {
        let history = History::new();
        let mut checked = 0;
        for pos in crate::bench::positions_and_children() {
            if pos.is_check() {
                continue;
            }
            let picked = |skip_after: Option<usize>| {
                let mut buffer = MoveList::new();
                let mut scores = fresh_scores();
                let mut picker = MovePicker::new(
                    &mut buffer,
                    &mut scores,
                    None,
                    [None; 2],
                    None,
                    Continuation::default(),
                );
                let mut out = Vec::new();
                let mut quiets = 0;
                while let Some(m) = picker.next(&pos, &history) {
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

    #[test]
    fn the_tactical_picker_hands_out_the_non_losing_tactical_moves() {
        let history = History::new();
        for pos in crate::bench::positions_and_children() {
            if pos.is_check() {
                continue;
            }
            let legal = pos.legal_moves();
            let tables = std::iter::once(None).chain(legal.iter().map(|&m| Some(m)));
            for table in tables {
                let mut buffer = MoveList::new();
                let mut scores = fresh_scores();
                let mut picker = MovePicker::new_tactical(&mut buffer, &mut scores, table);
                let out: Vec<Move> = std::iter::from_fn(|| picker.next(&pos, &history)).collect();
                let table = table.filter(|&t| is_tactical(t));
                let mut expected: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| {
                        is_tactical(m) && (Some(m) == table || see_at_least(pos.snapshot(), m, 0))
                    })
                    .collect();
                let key = |m: &Move| format!("{m:?}");
                expected.sort_by_key(key);
                let mut sorted = out.clone();
                sorted.sort_by_key(key);
                assert_eq!(sorted, expected, "{pos:?} {table:?}");
                if let Some(t) = table {
                    assert_eq!(out[0], t);
                }
            }
        }
    }

    #[test]
    fn a_used_score_array_gives_the_order_of_a_fresh_one() {
        // History that orders the quiets, so their scores matter.
        let mut history = History::new();
        let positions = crate::bench::positions_and_children();
        for (n, pos) in positions.iter().enumerate() {
            let legal = pos.legal_moves();
            let quiets: Vec<Move> = legal.iter().copied().filter(|&m| !is_tactical(m)).collect();
            if let Some(&best) = quiets.get(n % quiets.len().max(1)) {
                history.record_cutoff(
                    pos.turn(),
                    3,
                    1 + n as i32 % 9,
                    best,
                    &quiets,
                    Continuation::default(),
                );
            }
        }
        // One array through every position, left as each picker left it,
        // and first filled with the highest score there is.
        let mut used = Box::new([i32::MAX; 256 + LANES]);
        for pos in &positions {
            let picked = |scores: &mut Scores| {
                let mut buffer = MoveList::new();
                let mut picker = MovePicker::new(
                    &mut buffer,
                    scores,
                    None,
                    [None; 2],
                    None,
                    Continuation::default(),
                );
                std::iter::from_fn(|| picker.next(pos, &history)).collect::<Vec<Move>>()
            };
            assert_eq!(picked(&mut used), picked(&mut fresh_scores()), "{pos:?}");
        }
    }
}
