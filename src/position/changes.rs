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
    fn remove(&mut self, piece: Piece, square: Square) {
        self.removed[usize::from(self.removed_count)] = PieceOnSquare { piece, square };
        self.removed_count += 1;
    }

    fn add(&mut self, piece: Piece, square: Square) {
        self.added[usize::from(self.added_count)] = PieceOnSquare { piece, square };
        self.added_count += 1;
    }

    /// The changes `m`, played by `mover`, makes. `m` must be legal in the
    /// position it is played from (the capture role is taken from the move).
    pub fn of_move(m: Move, mover: Color) -> PieceChanges {
        let mut changes = PieceChanges::default();
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                changes.remove(role.of(mover), from);
                if let Some(captured) = capture {
                    changes.remove(captured.of(!mover), to);
                }
                changes.add(promotion.unwrap_or(role).of(mover), to);
            }
            Move::EnPassant { from, to } => {
                changes.remove(Role::Pawn.of(mover), from);
                changes.remove(
                    Role::Pawn.of(!mover),
                    Square::from_coords(to.file(), from.rank()),
                );
                changes.add(Role::Pawn.of(mover), to);
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                changes.remove(Role::King.of(mover), king);
                changes.remove(Role::Rook.of(mover), rook);
                changes.add(Role::King.of(mover), side.king_to(mover));
                changes.add(Role::Rook.of(mover), side.rook_to(mover));
            }
            Move::Put { role, to } => changes.add(role.of(mover), to),
        }
        changes
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
