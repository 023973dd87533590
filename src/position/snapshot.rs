//! The position at one ply of the search's stack: piece placement, side to
//! move, castling rights, en-passant square, move clocks, and the pieces
//! giving check, worked out once when the move is made.
//!
//! It plays moves itself rather than through shakmaty's `Chess`: `play`
//! knows from the move which pieces leave and arrive, so it updates the
//! board, the evaluator's piece changes and the checkers in one pass, and a
//! null move is a flip of the side to move instead of a validated rebuild.
//! shakmaty stays the authority on rules: every snapshot comes from a
//! validated `Chess`, and `to_chess` turns one back for whatever needs the
//! full `Position` API (notation, tablebases, game records).

use std::num::NonZeroU32;

use shakmaty::{
    Bitboard, Castles, CastlingMode, CastlingSide, Chess, Color, FromSetup, Move, Position as _,
    PositionError, Role, Setup, Square,
};

use super::{Board, PieceChanges};

#[derive(Clone, Debug)]
pub struct Snapshot {
    board: Board,
    castles: Castles,
    /// The enemy pieces attacking the king of the side to move.
    checkers: Bitboard,
    /// Set after every double pawn push, whether or not a pawn can capture
    /// there (shakmaty's `maybe_ep_square`).
    ep_square: Option<Square>,
    turn: Color,
    halfmoves: u32,
    fullmoves: NonZeroU32,
}

impl Snapshot {
    pub fn from_chess(chess: &Chess) -> Snapshot {
        Snapshot {
            board: Board::from_shakmaty(chess.board()),
            castles: chess.castles().clone(),
            checkers: chess.checkers(),
            ep_square: chess.maybe_ep_square(),
            turn: chess.turn(),
            halfmoves: chess.halfmoves(),
            fullmoves: chess.fullmoves(),
        }
    }

    /// The same position as shakmaty's `Chess`, for everything beyond the
    /// search's needs. It costs a validation, so the search's hot path never
    /// asks for it.
    pub fn to_chess(&self) -> Chess {
        let setup = Setup {
            board: self.board.to_shakmaty(),
            castling_rights: self.castles.castling_rights(),
            ep_square: self.ep_square,
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            ..Setup::empty()
        };
        // Every snapshot descends by legal moves from a position shakmaty
        // accepted, forgiving what `Position::from_fen` forgives; the rest
        // of what it would object to cannot arise from legal moves.
        Chess::from_setup(setup, self.castles.mode())
            .or_else(PositionError::ignore_invalid_ep_square)
            .or_else(PositionError::ignore_too_much_material)
            .or_else(PositionError::ignore_impossible_check)
            .expect("a position reached by legal moves is valid")
    }

    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline(always)]
    pub fn castles(&self) -> &Castles {
        &self.castles
    }

    /// The en-passant square after a double push, capturable or not.
    #[inline(always)]
    pub fn maybe_ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    #[inline(always)]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[inline(always)]
    pub fn fullmoves(&self) -> NonZeroU32 {
        self.fullmoves
    }

    #[inline(always)]
    pub fn us(&self) -> Bitboard {
        self.board.by_color(self.turn)
    }

    #[inline(always)]
    pub fn them(&self) -> Bitboard {
        self.board.by_color(!self.turn)
    }

    #[inline(always)]
    pub fn our(&self, role: Role) -> Bitboard {
        self.board.by_piece(role.of(self.turn))
    }

    pub fn castling_mode(&self) -> CastlingMode {
        self.castles.mode()
    }

    /// Neither side can mate, by shakmaty's rule: a side with a pawn, rook
    /// or queen always can; a lone knight or same-coloured bishops cannot,
    /// unless the other side has pieces its king could be blocked in by.
    pub fn is_insufficient_material(&self) -> bool {
        let board = &self.board;
        // Every node asks, and nearly every position has one of these.
        if (board.pawns() | board.rooks_and_queens()).any() {
            return false;
        }
        let side_cannot_mate = |color: Color| {
            let own = board.by_color(color);
            if (own & board.knights()).any() {
                return own.count() <= 2
                    && (board.by_color(!color) & !board.kings() & !board.queens()).is_empty();
            }
            if (own & board.bishops()).any() {
                let one_colour = (board.bishops() & Bitboard::DARK_SQUARES).is_empty()
                    || (board.bishops() & Bitboard::LIGHT_SQUARES).is_empty();
                return one_colour && board.knights().is_empty();
            }
            true
        };
        side_cannot_mate(Color::White) && side_cannot_mate(Color::Black)
    }

    /// Plays `m`, which must be legal here, and returns the pieces it moved.
    /// Follows shakmaty's `play_unchecked` rule for rule (castling rights,
    /// the en-passant square, the clocks).
    #[inline(always)]
    pub fn play(&mut self, m: Move) -> PieceChanges {
        let mover = self.turn;
        let changes = PieceChanges::of_move(m, mover);
        self.ep_square = None;
        self.halfmoves = if m.is_zeroing() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if role == Role::Pawn && from.distance(to) == 2 {
                    // Half way between origin and target.
                    self.ep_square = Some(Square::new((u32::from(from) + u32::from(to)) / 2));
                }
                if self.castles.any() {
                    if role == Role::King {
                        self.castles.discard_color(mover);
                    } else if role == Role::Rook {
                        self.castles.discard_rook(from);
                    }
                    if capture == Some(Role::Rook) {
                        self.castles.discard_rook(to);
                    }
                }
                if let Some(captured) = capture {
                    self.board.remove(to, captured.of(!mover));
                }
                match promotion {
                    None => self.board.shift(from, to, role.of(mover)),
                    Some(promoted) => {
                        self.board.remove(from, role.of(mover));
                        self.board.put(to, promoted.of(mover));
                    }
                }
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                // Lift both first: in Chess960 either may land where the
                // other stood.
                self.board.remove(king, mover.king());
                self.board.remove(rook, mover.rook());
                self.board.put(side.rook_to(mover), mover.rook());
                self.board.put(side.king_to(mover), mover.king());
                self.castles.discard_color(mover);
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board.remove(captured, (!mover).pawn());
                self.board.shift(from, to, mover.pawn());
            }
            Move::Put { .. } => unreachable!("drops are not chess moves"),
        }
        if mover.is_black() {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !mover;
        self.checkers = self
            .board
            .king_of(self.turn)
            .map_or(Bitboard::EMPTY, |king| {
                self.board.attacks_to(king, mover, self.board.occupied())
            });
        changes
    }

    /// Passes the move: the other side moves, no en-passant square. The
    /// side to move must not be in check.
    pub fn pass(&mut self) {
        debug_assert!(!self.is_check(), "passing in check");
        self.turn = !self.turn;
        self.ep_square = None;
        // The side that passed was not in check, so its opponent is not
        // attacked either (a position accepted at the root cannot have the
        // side not to move in check).
        self.checkers = Bitboard::EMPTY;
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::EnPassantMode;

    use super::*;
    use crate::position::Position;

    /// Every move of the bench positions and two plies below, played by
    /// `play` and by shakmaty, gives the same position, clocks and checkers
    /// included.
    #[test]
    fn play_agrees_with_shakmaty() {
        let mut compared = 0;
        for root in crate::bench::positions_and_children() {
            let chess = root.snapshot().to_chess();
            for m in chess.legal_moves() {
                let mut ours = Snapshot::from_chess(&chess);
                ours.play(m);
                let mut theirs = chess.clone();
                theirs.play_unchecked(m);
                let expected = Snapshot::from_chess(&theirs);
                assert_eq!(format!("{ours:?}"), format!("{expected:?}"), "{m:?}");
                assert_eq!(
                    ours.to_chess().to_setup(EnPassantMode::Always),
                    theirs.to_setup(EnPassantMode::Always)
                );
                compared += 1;
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    #[test]
    fn pass_is_a_null_move() {
        let pos = Position::from_fen(
            "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
            false,
        )
        .unwrap();
        let mut passed = pos.snapshot().clone();
        passed.pass();
        let expected = pos
            .snapshot()
            .to_chess()
            .to_setup(EnPassantMode::Always)
            .into_swapped_turn();
        assert_eq!(passed.to_chess().to_setup(EnPassantMode::Always), expected);
    }
}
