//! The piece/square changes a move causes, as an NNUE accumulator (or any
//! incremental evaluator) needs them: at most two pieces leave the board or a
//! square and at most two arrive.

use shakmaty::{CastlingSide, Color, Move, Piece, Role, Square};

/// One piece appearing on or disappearing from one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceOnSquare {
    pub piece: Piece,
    pub square: Square,
}

/// What a move does to the board, as lists of removed and added pieces.
///
/// A quiet move is one removal and one addition; a capture two removals and
/// one addition; castling two of each. For a Chess960 castle where the king or
/// rook does not move, its removal and addition name the same square, which
/// an accumulator can apply like any other pair.
///
/// Each list is an array and a count, not two options: every make runs
/// through both lists (for the key and the evaluator), and a slice has no
/// hole to test for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChanges {
    removed: [PieceOnSquare; 2],
    added: [PieceOnSquare; 2],
    removed_count: u8,
    added_count: u8,
}

/// What the unused slots hold (never read).
const UNUSED: PieceOnSquare = PieceOnSquare {
    piece: Piece {
        color: Color::White,
        role: Role::Pawn,
    },
    square: Square::A1,
};

impl Default for PieceChanges {
    fn default() -> Self {
        PieceChanges {
            removed: [UNUSED; 2],
            added: [UNUSED; 2],
            removed_count: 0,
            added_count: 0,
        }
    }
}

impl PieceChanges {
    /// The changes `m`, played by `mover`, makes. `m` must be legal in the
    /// position it is played from (the capture role is taken from the move).
    ///
    /// Each arm fills both lists whole, unused slots included: this runs at
    /// every make, and writing each slot once is cheaper than clearing the
    /// lists first.
    #[inline(always)]
    pub fn of_move(m: Move, mover: Color) -> PieceChanges {
        let on = |role: Role, color: Color, square: Square| PieceOnSquare {
            piece: role.of(color),
            square,
        };
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let arrives = on(promotion.unwrap_or(role), mover, to);
                let leaves = on(role, mover, from);
                match capture {
                    Some(captured) => PieceChanges {
                        removed: [leaves, on(captured, !mover, to)],
                        added: [arrives, UNUSED],
                        removed_count: 2,
                        added_count: 1,
                    },
                    None => PieceChanges {
                        removed: [leaves, UNUSED],
                        added: [arrives, UNUSED],
                        removed_count: 1,
                        added_count: 1,
                    },
                }
            }
            Move::EnPassant { from, to } => PieceChanges {
                removed: [
                    on(Role::Pawn, mover, from),
                    on(
                        Role::Pawn,
                        !mover,
                        Square::from_coords(to.file(), from.rank()),
                    ),
                ],
                added: [on(Role::Pawn, mover, to), UNUSED],
                removed_count: 2,
                added_count: 1,
            },
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                PieceChanges {
                    removed: [on(Role::King, mover, king), on(Role::Rook, mover, rook)],
                    added: [
                        on(Role::King, mover, side.king_to(mover)),
                        on(Role::Rook, mover, side.rook_to(mover)),
                    ],
                    removed_count: 2,
                    added_count: 2,
                }
            }
            Move::Put { role, to } => PieceChanges {
                removed: [UNUSED; 2],
                added: [on(role, mover, to), UNUSED],
                removed_count: 0,
                added_count: 1,
            },
        }
    }

    pub fn removed(&self) -> impl Iterator<Item = PieceOnSquare> + '_ {
        self.removed[..usize::from(self.removed_count)]
            .iter()
            .copied()
    }

    pub fn added(&self) -> impl Iterator<Item = PieceOnSquare> + '_ {
        self.added[..usize::from(self.added_count)].iter().copied()
    }

    /// The king's new square if this move moves the mover's king (castling
    /// included); accumulators refresh on it.
    pub fn king_move(&self) -> Option<(Color, Square)> {
        self.added()
            .find(|c| c.piece.role == Role::King)
            .map(|c| (c.piece.color, c.square))
    }
}
