//! What earlier cutoffs teach move ordering: killer moves per ply, the
//! counter-move to the opponent's last move, and butterfly history scores;
//! beside them, the static evaluation's recent errors (`correction.rs`),
//! which live and are cleared with these tables.

use shakmaty::{Color, Move, Role, Square};

use super::correction::CorrectionHistory;
use super::score::MAX_PLY;
use super::threats::Threats;

/// History scores saturate towards this bound ("gravity"), so old lessons
/// fade as new ones arrive.
pub const HISTORY_MAX: i32 = 16384;
/// A quiet move's score sums three history scores.
pub const QUIET_SCORE_MAX: i32 = 3 * HISTORY_MAX;

pub struct History {
    /// Indexed by [side to move][whether the piece and its target are
    /// attacked ([`Threats::butterfly_table`])][from][to]: the same move is a
    /// different move when it escapes an attack or walks into one.
    butterfly: Box<[[[[i32; 64]; 64]; 4]; 2]>,
    /// The reply that refuted a move, indexed by [mover of that move][its from][its to].
    counter: Box<[[[Option<Move>; 64]; 64]; 2]>,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    /// Quiet moves after the move one or two plies back, indexed by
    /// [that move's piece and target][this move's piece and target]: what
    /// answers what, which butterfly scores average away.
    continuation: Box<[[i16; PIECE_TO]; PIECE_TO]>,
    /// The static evaluation's recent errors, kept between moves like the
    /// move-ordering tables.
    pub correction: CorrectionHistory,
}

/// Rows and columns of the continuation history: a coloured piece and the
/// square it moved to.
const PIECE_TO: usize = 2 * 6 * 64;

/// The piece kind, origin and target the history tables index a move by,
/// taken apart in one match (the accessors `role`, `from` and `to` would
/// each match again, and quiet scoring runs for every quiet of a node).
/// Castling is king to rook, as shakmaty stores it; a drop comes from
/// square 0.
#[inline]
fn parts(m: Move) -> (Role, Square, Square) {
    match m {
        Move::Normal { role, from, to, .. } => (role, from, to),
        Move::Castle { king, rook } => (Role::King, king, rook),
        Move::EnPassant { from, to } => (Role::Pawn, from, to),
        Move::Put { role, to } => (role, Square::A1, to),
    }
}

/// A move's continuation-history index: who moved what where.
fn piece_to(color: Color, m: Move) -> usize {
    let (role, _, to) = parts(m);
    piece_square_index(color, role, to)
}

fn piece_square_index(color: Color, role: Role, to: Square) -> usize {
    ((color as usize * 6) + (role as usize - 1)) * 64 + to as usize
}

/// A node's history context. The moves one and two plies before it (none
/// for a null move or beyond the root): the last one as played, for its
/// counter-move, and both as continuation-history rows; and what the
/// opponent attacks, which picks the butterfly table and adjusts the order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Continuation {
    one_back: Option<Move>,
    rows: [Option<u16>; 2],
    /// What the opponent attacks on this node's board (empty in quiescence).
    pub threats: Threats,
}

impl Continuation {
    /// `one_back` was played by the opponent of the side to move `turn`,
    /// `two_back` by the side to move.
    pub fn new(
        turn: Color,
        one_back: Option<Move>,
        two_back: Option<Move>,
        threats: Threats,
    ) -> Continuation {
        let row = |color: Color, m: Option<Move>| m.map(|m| piece_to(color, m) as u16);
        Continuation {
            one_back,
            rows: [row(!turn, one_back), row(turn, two_back)],
            threats,
        }
    }
}

/// The continuation row of a node with no move one or two plies back: adds
/// nothing, so every quiet sums two rows without a branch.
static NO_CONTINUATION: [i16; PIECE_TO] = [0; PIECE_TO];

/// [`History::quiet_score`] for the quiet moves of one node: the side's
/// butterfly table and the two continuation rows, found once.
pub struct QuietScorer<'a> {
    turn: Color,
    butterfly: &'a [[[i32; 64]; 64]; 4],
    threats: Threats,
    continuation_rows: [&'a [i16; PIECE_TO]; 2],
}

impl QuietScorer<'_> {
    #[inline]
    pub fn score(&self, m: Move) -> i32 {
        let (role, from, to) = parts(m);
        let column = piece_square_index(self.turn, role, to);
        let [one_back, two_back] = self.continuation_rows;
        self.butterfly[self.threats.butterfly_table(from, to)][from as usize][to as usize]
            + i32::from(one_back[column])
            + i32::from(two_back[column])
    }
}

/// What one cutoff at `depth` is worth to a history score: linear in depth,
/// so the shallow cutoffs that are most of them move the tables (16 · depth²
/// gave a depth-3 cutoff under 1 % of the range; this gained 12 Elo).
fn cutoff_bonus(depth: i32) -> i32 {
    (200 * depth - 100).clamp(100, 1800)
}

/// Adds `bonus` to a history score, the more damped the nearer the score is
/// to [`HISTORY_MAX`] in the bonus's direction, so scores stay within it.
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    debug_assert!(h.abs() <= HISTORY_MAX);
}

fn from_to(m: Move) -> (usize, usize) {
    let (_, from, to) = parts(m);
    (from as usize, to as usize)
}

impl History {
    pub fn new() -> History {
        History {
            butterfly: vec![[[[0; 64]; 64]; 4]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two sides"),
            counter: Box::new([[[None; 64]; 64]; 2]),
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            continuation: vec![[0; PIECE_TO]; PIECE_TO]
                .into_boxed_slice()
                .try_into()
                .expect("PIECE_TO rows"),
            correction: CorrectionHistory::new(),
        }
    }

    /// A quiet move's butterfly score where the opponent attacks `threats`.
    pub fn score(&self, turn: Color, threats: Threats, m: Move) -> i32 {
        let (_, from, to) = parts(m);
        self.butterfly[turn as usize][threats.butterfly_table(from, to)][from as usize][to as usize]
    }

    /// A quiet move's ordering score: its butterfly score plus its
    /// continuation scores after the moves one and two plies back.
    pub fn quiet_score(&self, turn: Color, cont: Continuation, m: Move) -> i32 {
        self.quiet_scorer(turn, cont).score(m)
    }

    /// The tables that score the quiet moves of one node, looked up once for
    /// all of them.
    pub fn quiet_scorer(&self, turn: Color, cont: Continuation) -> QuietScorer<'_> {
        let row =
            |row: Option<u16>| row.map_or(&NO_CONTINUATION, |r| &self.continuation[r as usize]);
        QuietScorer {
            turn,
            butterfly: &self.butterfly[turn as usize],
            threats: cont.threats,
            continuation_rows: cont.rows.map(row),
        }
    }

    fn nudge_continuation(&mut self, turn: Color, cont: Continuation, m: Move, bonus: i32) {
        let column = piece_to(turn, m);
        for &row in cont.rows.iter().flatten() {
            let entry = &mut self.continuation[row as usize][column];
            let mut h = i32::from(*entry);
            gravity(&mut h, bonus);
            *entry = h as i16;
        }
    }

    fn nudge(&mut self, turn: Color, threats: Threats, m: Move, bonus: i32) {
        let (_, from, to) = parts(m);
        let table = threats.butterfly_table(from, to);
        gravity(
            &mut self.butterfly[turn as usize][table][from as usize][to as usize],
            bonus,
        );
    }

    /// A quiet move caused a beta cutoff at `depth`: reward it, punish the
    /// quiet moves tried before it, remember it as killer and counter-move.
    pub fn record_cutoff(
        &mut self,
        turn: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        cont: Continuation,
    ) {
        let bonus = cutoff_bonus(depth);
        self.nudge(turn, cont.threats, best, bonus);
        self.nudge_continuation(turn, cont, best, bonus);
        for &m in tried {
            if m != best {
                self.nudge(turn, cont.threats, m, -bonus);
                self.nudge_continuation(turn, cont, m, -bonus);
            }
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        if let Some(prev) = cont.one_back {
            let (f, t) = from_to(prev);
            self.counter[(!turn) as usize][f][t] = Some(best);
        }
    }

    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// The remembered refutation of the opponent's last move.
    pub fn counter_move(&self, turn: Color, cont: Continuation) -> Option<Move> {
        let (f, t) = from_to(cont.one_back?);
        self.counter[(!turn) as usize][f][t]
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

/// The history tables of one game's searches, one per search thread. What a
/// search learned about move order mostly still holds a move later, so the
/// butterfly scores and counter-moves carry over from one `go` to the next
/// (as in Stockfish and Ethereal); `clear` at a new game. Killers are kept
/// per ply from the root, and the root moves on, so every search starts
/// without them.
#[derive(Default)]
pub struct HistoryStore {
    tables: Vec<History>,
}

impl HistoryStore {
    pub fn new() -> HistoryStore {
        HistoryStore::default()
    }

    pub fn clear(&mut self) {
        self.tables.clear();
    }

    /// One table per thread for a new search: the kept ones first (killers
    /// cleared), fresh ones for threads the last search did not have.
    pub fn take(&mut self, threads: usize) -> Vec<History> {
        let mut tables = std::mem::take(&mut self.tables);
        tables.truncate(threads);
        for table in &mut tables {
            table.killers.fill([None; 2]);
        }
        tables.resize_with(threads, History::new);
        tables
    }

    /// Keeps the tables a search has finished with, thread 0 first.
    pub fn put_back(&mut self, tables: Vec<History>) {
        self.tables = tables;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn cutoffs_reward_the_move_and_punish_the_others() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let (good, bad) = (moves[0], moves[1]);
        let mut h = History::new();
        h.record_cutoff(
            Color::White,
            3,
            6,
            good,
            &[bad, good],
            Continuation::default(),
        );
        assert!(h.score(Color::White, Threats::default(), good) > 0);
        assert!(h.score(Color::White, Threats::default(), bad) < 0);
        assert_eq!(h.killers(3)[0], Some(good));
        for _ in 0..10_000 {
            h.record_cutoff(Color::White, 3, 20, good, &[], Continuation::default());
        }
        assert!(h.score(Color::White, Threats::default(), good) <= HISTORY_MAX);
    }

    #[test]
    fn continuation_scores_follow_the_moves_before() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let (reply, other, before, unrelated) = (moves[0], moves[1], moves[2], moves[3]);
        let cont = Continuation::new(Color::White, Some(before), None, Threats::default());
        let elsewhere = Continuation::new(Color::White, Some(unrelated), None, Threats::default());
        let mut h = History::new();
        h.record_cutoff(Color::White, 3, 6, reply, &[other], cont);
        let butterfly = h.score(Color::White, Threats::default(), reply);
        assert!(h.quiet_score(Color::White, cont, reply) > butterfly);
        assert_eq!(h.quiet_score(Color::White, elsewhere, reply), butterfly);
        assert!(
            h.quiet_score(Color::White, cont, other)
                < h.score(Color::White, Threats::default(), other)
        );
    }

    #[test]
    fn the_store_keeps_scores_and_counter_moves_but_not_killers() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let (good, previous) = (moves[0], moves[1]);
        let after_previous =
            Continuation::new(Color::White, Some(previous), None, Threats::default());
        let mut store = HistoryStore::new();
        let mut tables = store.take(2);
        assert_eq!(tables.len(), 2);
        tables[1].record_cutoff(Color::White, 4, 6, good, &[], after_previous);
        store.put_back(tables);

        let tables = store.take(3);
        assert_eq!(tables.len(), 3);
        assert!(tables[1].score(Color::White, Threats::default(), good) > 0);
        assert_eq!(
            tables[1].counter_move(Color::White, after_previous),
            Some(good)
        );
        assert_eq!(tables[1].killers(4), [None, None]);
        assert_eq!(tables[0].score(Color::White, Threats::default(), good), 0);
        store.put_back(tables);

        store.clear();
        assert_eq!(
            store.take(2)[1].score(Color::White, Threats::default(), good),
            0
        );
    }
}
