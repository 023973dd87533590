//! Sunfish's evaluator: material plus piece-square tables, nothing else.
//!
//! The numbers are Sunfish's (classic 2023 sunfish.py), copied unchanged; this
//! evaluator is the baseline the NNUE is measured against, so it stays
//! faithful rather than tuned. Score = sum over White's pieces of
//! (value + table[square]) minus the same for Black with the board mirrored
//! vertically (a8 <-> a1, as `shared/data/sunfish-pst.txt` specifies; sunfish.py
//! itself rotates the board by 180 degrees, which differs only in which wing a
//! Black piece reads), from the side to move's point of view.

use shakmaty::{Color, Piece, Role, Square};

use super::Evaluator;
use crate::position::{PieceChanges, Position};

/// Material values in Sunfish's order P, N, B, R, Q, K (the king's 60000 is
/// Sunfish's "infinity"; both sides always have one, so it cancels).
pub const PIECE_VALUES: [i32; 6] = [100, 280, 320, 479, 929, 60000];

/// Piece-square tables from White's point of view, as printed: index 0 is a8,
/// 7 is h8, 56 is a1, 63 is h1.
#[rustfmt::skip]
pub const TABLES: [[i32; 64]; 6] = [
    // P
    [
        0, 0, 0, 0, 0, 0, 0, 0,
        78, 83, 86, 73, 102, 82, 85, 90,
        7, 29, 21, 44, 40, 31, 44, 7,
        -17, 16, -2, 15, 14, 0, 15, -13,
        -26, 3, 10, 9, 6, 1, 0, -23,
        -22, 9, 5, -11, -10, -2, 3, -19,
        -31, 8, -7, -37, -36, -14, 3, -31,
        0, 0, 0, 0, 0, 0, 0, 0,
    ],
    // N
    [
        -66, -53, -75, -75, -10, -55, -58, -70,
        -3, -6, 100, -36, 4, 62, -4, -14,
        10, 67, 1, 74, 73, 27, 62, -2,
        24, 24, 45, 37, 33, 41, 25, 17,
        -1, 5, 31, 21, 22, 35, 2, 0,
        -18, 10, 13, 22, 18, 15, 11, -14,
        -23, -15, 2, 0, 2, 0, -23, -20,
        -74, -23, -26, -24, -19, -35, -22, -69,
    ],
    // B
    [
        -59, -78, -82, -76, -23, -107, -37, -50,
        -11, 20, 35, -42, -39, 31, 2, -22,
        -9, 39, -32, 41, 52, -10, 28, -14,
        25, 17, 20, 34, 26, 25, 15, 10,
        13, 10, 17, 23, 17, 16, 0, 7,
        14, 25, 24, 15, 8, 25, 20, 15,
        19, 20, 11, 6, 7, 6, 20, 16,
        -7, 2, -15, -12, -14, -15, -10, -10,
    ],
    // R
    [
        35, 29, 33, 4, 37, 33, 56, 50,
        55, 29, 56, 67, 55, 62, 34, 60,
        19, 35, 28, 33, 45, 27, 25, 15,
        0, 5, 16, 13, 18, -4, -9, -6,
        -28, -35, -16, -21, -13, -29, -46, -30,
        -42, -28, -42, -25, -25, -35, -26, -46,
        -53, -38, -31, -26, -29, -43, -44, -53,
        -30, -24, -18, 5, -2, -18, -31, -32,
    ],
    // Q
    [
        6, 1, -8, -104, 69, 24, 88, 26,
        14, 32, 60, -10, 20, 76, 57, 24,
        -2, 43, 32, 60, 72, 63, 43, 2,
        1, -16, 22, 17, 25, 20, -13, -6,
        -14, -15, -2, -5, -1, -10, -20, -22,
        -30, -6, -13, -11, -16, -11, -16, -27,
        -36, -18, 0, -19, -15, -15, -21, -38,
        -39, -30, -31, -13, -31, -36, -34, -42,
    ],
    // K
    [
        4, 54, 47, -99, -99, 60, 83, -62,
        -32, 10, 55, 56, 56, 55, 10, 3,
        -62, 12, -57, 44, -67, 28, 37, -31,
        -55, 50, 11, -4, -19, 13, 0, -49,
        -55, -43, -52, -28, -51, -47, -8, -50,
        -47, -42, -43, -79, -64, -32, -29, -32,
        -4, 3, -14, -50, -57, -18, 13, 4,
        17, 30, -3, -14, 6, -1, 40, 18,
    ],
];

/// Index into a row of [`TABLES`] for a piece of `color` on `square`:
/// White reads the table as printed, Black reads it mirrored vertically.
pub fn table_index(color: Color, square: Square) -> usize {
    index_in_table(color == Color::White, square as usize)
}

/// [`table_index`] for compile-time tables: the tables list the ranks from
/// the top, as white sees the board.
const fn index_in_table(white: bool, square: usize) -> usize {
    let (file, rank) = (square % 8, square / 8);
    let rank_from_top = if white { 7 - rank } else { rank };
    rank_from_top * 8 + file
}

fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Value plus table entry of one piece, from its owner's point of view.
pub fn piece_square_value(piece: Piece, square: Square) -> i32 {
    let r = role_index(piece.role);
    PIECE_VALUES[r] + TABLES[r][table_index(piece.color, square)]
}

/// [`piece_square_value`] from white's point of view (negated for black),
/// by `12 × 64`: white pawn..king, then black, each by square. Worked out
/// at compile time, so the update at every move is a lookup per change.
const WHITE_RELATIVE: [[i32; 64]; 12] = {
    let mut out = [[0; 64]; 12];
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            out[r][sq] = PIECE_VALUES[r] + TABLES[r][index_in_table(true, sq)];
            out[6 + r][sq] = -(PIECE_VALUES[r] + TABLES[r][index_in_table(false, sq)]);
            sq += 1;
        }
        r += 1;
    }
    out
};

#[inline]
fn white_relative(piece: Piece, square: Square) -> i32 {
    let colour = if piece.color == Color::White { 0 } else { 6 };
    WHITE_RELATIVE[colour + role_index(piece.role)][square as usize]
}

/// The full score from White's point of view, computed from scratch.
pub fn white_score(pos: &Position) -> i32 {
    pos.snapshot()
        .board()
        .iter()
        .map(|(sq, piece)| white_relative(piece, sq))
        .sum()
}

/// The PST evaluator: one running White-relative score per ply, updated from
/// each move's piece changes.
#[derive(Clone, Debug, Default)]
pub struct PstEvaluator {
    stack: Vec<i32>,
}

impl PstEvaluator {
    pub fn new() -> PstEvaluator {
        PstEvaluator {
            stack: Vec::with_capacity(256),
        }
    }
}

impl Evaluator for PstEvaluator {
    fn reset(&mut self, pos: &Position) {
        self.stack.clear();
        self.stack.push(white_score(pos));
    }

    fn push(&mut self, _pos: &Position, changes: &PieceChanges) {
        let mut score = self.stack.last().copied().unwrap_or(0);
        for c in changes.removed() {
            score -= white_relative(c.piece, c.square);
        }
        for c in changes.added() {
            score += white_relative(c.piece, c.square);
        }
        self.stack.push(score);
    }

    fn push_null(&mut self) {
        let score = self.stack.last().copied().unwrap_or(0);
        self.stack.push(score);
    }

    fn pop(&mut self) {
        // The root entry stays: a stray pop must not leave evaluate() blind.
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    fn evaluate(&mut self, pos: &Position) -> i32 {
        let white = match self.stack.last() {
            Some(&s) => s,
            None => white_score(pos),
        };
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_relative_table_is_the_signed_piece_square_value() {
        for color in Color::ALL {
            for role in Role::ALL {
                for square in Square::ALL {
                    let piece = role.of(color);
                    let v = piece_square_value(piece, square);
                    let expected = if color == Color::White { v } else { -v };
                    assert_eq!(
                        white_relative(piece, square),
                        expected,
                        "{piece:?} {square}"
                    );
                }
            }
        }
    }

    fn eval_fen(fen: &str) -> i32 {
        let pos = Position::from_fen(fen, false).unwrap();
        let mut e = PstEvaluator::new();
        e.reset(&pos);
        e.evaluate(&pos)
    }

    #[test]
    fn start_position_is_symmetric() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(eval_fen(start), 0);
    }

    #[test]
    fn hand_computed_scores() {
        // White Ke1 (K row 8 col e: 6), Qd1 (row 8 col d: -13 + 929);
        // Black Ke8 mirrored = e1 entry for Black: 6. Total +916 for White.
        assert_eq!(eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), 916);
        assert_eq!(eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1"), -916);
        // White Kg1 (K row 8 col g: 40), pawn e4 (P row 5 col e: 6 + 100);
        // Black Kg8 (mirrored: 40), knight c6 (mirrored c3, N row 6 col c: 13 + 280).
        // White = 40 + 106 = 146, Black = 40 + 293 = 333: White to move -187.
        assert_eq!(eval_fen("6k1/8/2n5/8/4P3/8/8/6K1 w - - 0 1"), -187);
        // White Kh1 (18), rook a7 (R row 2 col a: 55 + 479 = 534);
        // Black Ka8 (mirrored a1: 17), bishop h2 (mirrored h7, B row 2 col h: -22 + 320 = 298).
        // White 552, Black 315: Black to move sees -237.
        assert_eq!(eval_fen("k7/R7/8/8/8/8/7b/7K b - - 0 1"), -237);
    }

    #[test]
    fn incremental_matches_scratch_through_a_game() {
        let mut pos = Position::startpos();
        let mut e = PstEvaluator::new();
        e.reset(&pos);
        // Deterministic pseudo-random walk covering captures, castling, promotions.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmoves() > 80 {
                pos = Position::startpos();
                e.reset(&pos);
                continue;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = moves[(seed % moves.len() as u64) as usize];
            let changes = pos.make(m);
            e.push(&pos, &changes);
            let expected = if pos.turn() == Color::White {
                white_score(&pos)
            } else {
                -white_score(&pos)
            };
            assert_eq!(e.evaluate(&pos), expected, "after {}", pos.fen());
            if seed.is_multiple_of(5) {
                pos.unmake();
                e.pop();
            }
        }
    }
}
