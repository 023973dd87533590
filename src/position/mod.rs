//! The position the search works on: a [`Snapshot`] plus an incremental
//! Zobrist key, the key history for repetition detection (game moves given in
//! `position ... moves` and moves made inside the search alike), null moves,
//! and copy-make/unmake.
//!
//! Copy-make: the positions since the last `forget_undo` lie on a stack, the
//! current one on top. `make` copies the top (a snapshot is about 150 bytes)
//! and plays the move on the copy; `unmake` drops the top, copying nothing.
//! This is cheaper than reversing the state by hand and cannot get the
//! reversal wrong.

mod board;
mod changes;
pub mod movegen;
mod snapshot;
pub mod zobrist;

use std::fmt;

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, MoveList, PositionErrorKinds,
    Setup, fen::Fen, uci::UciMove,
};

pub use board::Board;
pub use changes::{PieceChanges, PieceOnSquare};
pub use snapshot::Snapshot;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN or a move could not be accepted. The message is meant for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// One position of the stack.
#[derive(Clone)]
struct State {
    snapshot: Snapshot,
    /// The Zobrist key of `snapshot` (see [`key_of`]).
    key: u64,
    /// Plies since the last capture, pawn move, castling-rights change or null
    /// move: no position further back can repeat the current one.
    reversible_plies: u32,
}

#[derive(Clone)]
pub struct Position {
    /// The current position last, the ones `unmake` returns to before it;
    /// never empty.
    states: Vec<State>,
    /// Keys of every position since the start of the game, the current one last.
    keys: Vec<u64>,
}

impl Default for Position {
    fn default() -> Self {
        Position::from_chess(Chess::default())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl Position {
    pub fn startpos() -> Position {
        Position::default()
    }

    pub fn from_chess(chess: Chess) -> Position {
        let snapshot = Snapshot::from_chess(&chess);
        let key = key_of(&snapshot);
        let mut states = Vec::with_capacity(256);
        states.push(State {
            key,
            reversible_plies: 0,
            snapshot,
        });
        Position {
            states,
            keys: vec![key],
        }
    }

    #[inline(always)]
    fn top(&self) -> &State {
        self.states
            .last()
            .expect("the stack holds the current position")
    }

    /// Parses a FEN (or the first four fields of an EPD line with the move
    /// counters missing). Castling rights may be given as `KQkq`, X-FEN or
    /// Shredder-FEN letters; with `chess960` set, or when the rights only make
    /// sense in Chess960, castling follows Chess960 rules and is written as
    /// king-takes-rook in UCI.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, PositionError> {
        let fen = fen.trim();
        let parsed = Fen::from_ascii(fen.as_bytes())
            .map_err(|e| PositionError(format!("malformed FEN '{}': {e}", shortened(fen))))?;
        let setup: Setup = parsed.into_setup();
        let first_mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let chess = match Self::validate(setup.clone(), first_mode) {
            Err(kinds)
                if !chess960 && kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) =>
            {
                Self::validate(setup, CastlingMode::Chess960)
            }
            other => other,
        };
        chess.map(Position::from_chess).map_err(|kinds| {
            PositionError(format!(
                "illegal position in FEN '{}': {}",
                shortened(fen),
                describe_errors(kinds)
            ))
        })
    }

    /// Builds the position, forgiving only what a GUI commonly gets wrong and
    /// nothing that would break move generation.
    // shakmaty's PositionError is large by design and lives only here.
    #[allow(clippy::result_large_err)]
    fn validate(setup: Setup, mode: CastlingMode) -> Result<Chess, PositionErrorKinds> {
        let err = match Chess::from_setup(setup, mode) {
            Ok(chess) => return Ok(chess),
            Err(err) => err,
        };
        let err = match err.ignore_invalid_ep_square() {
            Ok(chess) => return Ok(chess),
            Err(err) => err,
        };
        err.ignore_too_much_material().map_err(|e| e.kinds())
    }

    /// The current position, as the search reads it.
    #[inline(always)]
    pub fn snapshot(&self) -> &Snapshot {
        &self.top().snapshot
    }

    /// The current position as shakmaty's `Chess`, for the full rules API
    /// (notation, outcomes, tablebases). Built anew at each call: not for
    /// the search's hot path.
    pub fn to_chess(&self) -> Chess {
        self.snapshot().to_chess()
    }

    pub fn key(&self) -> u64 {
        self.top().key
    }

    /// The current key computed from scratch, for tests and debug checks of
    /// the incremental one.
    pub fn key_from_scratch(&self) -> u64 {
        key_from_scratch(self.snapshot())
    }

    pub fn turn(&self) -> Color {
        self.snapshot().turn()
    }

    pub fn is_check(&self) -> bool {
        self.snapshot().is_check()
    }

    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        movegen::legal_moves(self.snapshot(), &mut moves);
        moves
    }

    pub fn castling_mode(&self) -> CastlingMode {
        self.snapshot().castling_mode()
    }

    pub fn is_chess960(&self) -> bool {
        self.castling_mode() == CastlingMode::Chess960
    }

    /// Halfmove clock for the fifty-move rule.
    pub fn halfmoves(&self) -> u32 {
        self.snapshot().halfmoves()
    }

    /// Number of moves (including null moves) made since this position was
    /// created.
    pub fn game_ply(&self) -> usize {
        self.states.len() - 1
    }

    pub fn fen(&self) -> String {
        Fen::from_position(&self.to_chess(), EnPassantMode::Legal).to_string()
    }

    /// The move in UCI notation, castling written as this position's mode
    /// demands (`e1g1`, or `e1h1` in Chess960).
    pub fn uci(&self, m: Move) -> String {
        m.to_uci(self.castling_mode()).to_string()
    }

    /// Parses a UCI move and checks that it is legal here.
    pub fn parse_uci(&self, text: &str) -> Result<Move, PositionError> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| PositionError(format!("'{text}' is not a move in UCI notation")))?;
        uci.to_move(&self.to_chess())
            .map_err(|_| PositionError(format!("illegal move '{text}' in {}", self.fen())))
    }

    /// Plays a legal move and returns the pieces it moved.
    pub fn make(&mut self, m: Move) -> PieceChanges {
        let top = self.states.len() - 1;
        // One copy, straight into the new top.
        self.states.extend_from_within(top..);
        let state = self.states.last_mut().expect("just pushed");
        let rights_before = state.snapshot.castles().castling_rights();
        let changes = state.snapshot.play(m);
        state.key = key_of(&state.snapshot);
        debug_assert_eq!(
            state.key,
            key_from_scratch(&state.snapshot),
            "incremental Zobrist key differs from a fresh one after {m:?}"
        );
        debug_assert!(
            state.snapshot.board().part_keys_are_fresh(),
            "incremental pawn or piece keys differ from fresh ones after {m:?}"
        );

        let irreversible =
            m.is_zeroing() || state.snapshot.castles().castling_rights() != rights_before;
        state.reversible_plies = if irreversible {
            0
        } else {
            state.reversible_plies + 1
        };
        self.keys.push(state.key);
        changes
    }

    /// Passes the move to the opponent. Not allowed in check (returns false
    /// and changes nothing).
    pub fn make_null(&mut self) -> bool {
        let top = self.top();
        if top.snapshot.is_check() {
            return false;
        }
        let mut swapped = top.snapshot.clone();
        swapped.pass();
        let key = key_of(&swapped);
        debug_assert_eq!(
            key,
            key_from_scratch(&swapped),
            "incremental Zobrist key differs from a fresh one after a null move"
        );
        self.states.push(State {
            snapshot: swapped,
            key,
            // A null move breaks every repetition chain through it.
            reversible_plies: 0,
        });
        self.keys.push(key);
        true
    }

    /// Takes back the last `make` or `make_null`.
    ///
    /// # Panics
    /// If there is nothing to take back (a bug in the caller).
    pub fn unmake(&mut self) {
        assert!(self.states.len() > 1, "unmake without make");
        self.states.pop();
        self.keys.pop();
        debug_assert_eq!(self.keys.last(), Some(&self.top().key));
    }

    /// Forgets the history needed for `unmake` but keeps the keys for
    /// repetition detection: used after the game moves of `position ... moves`
    /// so the search starts with an empty undo stack at the root.
    pub fn forget_undo(&mut self) {
        let top = self.states.len() - 1;
        self.states.drain(..top);
    }

    /// How many times the current position occurred before (same placement,
    /// side to move, castling rights and legal en-passant square), looking
    /// only as far back as the last irreversible move.
    pub fn repetitions(&self) -> usize {
        self.earlier_occurrences().count()
    }

    /// Distances in plies to each earlier occurrence of the current position.
    fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.keys.len();
        let top = self.top();
        let reach = (top.reversible_plies as usize).min(n - 1);
        (2..=reach)
            .step_by(2)
            .filter(move |&back| self.keys[n - 1 - back] == top.key)
    }

    /// A draw by repetition from the search's point of view: the position
    /// occurred before after the root (`search_ply` plies ago is the root), or
    /// it has occurred twice before anywhere (threefold).
    pub fn is_repetition_draw(&self, search_ply: usize) -> bool {
        let mut earlier = 0;
        for back in self.earlier_occurrences() {
            if back < search_ply {
                return true;
            }
            earlier += 1;
            if earlier >= 2 {
                return true;
            }
        }
        false
    }

    /// Fifty-move rule (a mate on the hundredth ply still counts as mate: the
    /// caller checks for mate first).
    pub fn is_fifty_move_draw(&self) -> bool {
        self.snapshot().halfmoves() >= 100
    }

    /// Neither side can mate (shakmaty's rule; the test below holds it to
    /// shakmaty's answer).
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        self.snapshot().is_insufficient_material()
    }
}

/// The Zobrist key of `snapshot`: its board's running piece key and the
/// side, castling and en-passant part.
#[inline(always)]
fn key_of(snapshot: &Snapshot) -> u64 {
    snapshot.board().key() ^ state_key(snapshot)
}

/// The side/castling/en-passant part of the key; the en-passant file counts
/// only when a legal en-passant capture exists.
#[inline(always)]
fn state_key(snapshot: &Snapshot) -> u64 {
    let en_passant = snapshot
        .maybe_ep_square()
        .and_then(|_| legal_en_passant(snapshot));
    zobrist::state_key(
        snapshot.turn(),
        snapshot.castles().castling_rights(),
        en_passant,
    )
}

/// Kept out of line: only double pawn pushes get here, and deciding the
/// capture's legality would bloat every caller's frame.
#[inline(never)]
fn legal_en_passant(snapshot: &Snapshot) -> Option<shakmaty::Square> {
    snapshot
        .maybe_ep_square()
        .filter(|&to| movegen::has_legal_en_passant(snapshot, to))
}

/// The key computed from scratch, every piece anew: what the incremental
/// key must always equal.
fn key_from_scratch(snapshot: &Snapshot) -> u64 {
    zobrist::pieces_key(snapshot.board().iter()) ^ state_key(snapshot)
}

/// Input echoed in an error message, cut short if someone pasted a novel.
fn shortened(text: &str) -> String {
    const LIMIT: usize = 120;
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

fn describe_errors(kinds: PositionErrorKinds) -> String {
    let names = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (
            PositionErrorKinds::TOO_MANY_KINGS,
            "a side has more than one king",
        ),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "pawns on the first or eighth rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "castling rights do not match king and rooks",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "impossible en-passant square",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            "the check cannot arise in a game",
        ),
        (PositionErrorKinds::TOO_MUCH_MATERIAL, "too much material"),
    ];
    let found: Vec<&str> = names
        .iter()
        .filter(|(k, _)| kinds.contains(*k))
        .map(|(_, s)| *s)
        .collect();
    if found.is_empty() {
        "invalid position".to_string()
    } else {
        found.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Position as _;

    use super::*;

    #[test]
    fn insufficient_material_agrees_with_shakmaty() {
        let endings = [
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",
            "8/8/8/4k3/8/8/8/3BKB2 w - - 0 1",
            "8/8/8/4k3/8/8/8/4KB2 w - - 0 1",
            "8/8/5b2/4k3/8/8/8/4KB2 w - - 0 1",
            "8/8/4b3/4k3/8/8/8/4KB2 w - - 0 1",
            "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1",
            "8/8/8/4kn2/8/8/8/4KN2 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
            "8/8/8/4kr2/8/8/8/4K3 w - - 0 1",
            "8/8/8/4kq2/8/8/8/4KN2 w - - 0 1",
        ];
        let mut insufficient = 0;
        let positions = crate::bench::positions_and_children()
            .into_iter()
            .chain(endings.map(|fen| Position::from_fen(fen, false).unwrap()));
        for pos in positions {
            let expected = pos.to_chess().is_insufficient_material();
            assert_eq!(pos.is_insufficient_material(), expected, "{}", pos.fen());
            insufficient += usize::from(expected);
        }
        assert!(
            insufficient >= 4,
            "too few insufficient positions: {insufficient}"
        );
    }
}
