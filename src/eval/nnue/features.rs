//! Input feature sets: which input of the feature transformer a piece on a
//! square switches on, seen from one side ("perspective").
//!
//! Both sets follow Stockfish's index layout exactly, so nets trained for it
//! (and nets we write in its layouts) mean the same thing here:
//!
//! * **HalfKP** (Stockfish 12): own king square × every non-king piece.
//!   `index = orient(sq) + plane(piece) + 641 × orient(king)`, where black's
//!   view rotates the board by 180° (`sq ^ 63`) and the planes are 1 + 64 ×
//!   {own pawn, their pawn, own knight, …, their queen} (offset 0 is the
//!   unused "no piece" slot): 64 × 641 = 41024 inputs.
//! * **HalfKAv2_hm** (Stockfish 14.1–15.1): 32 king buckets × 11 planes × 64.
//!   The board is flipped vertically for black (`sq ^ 56`) and mirrored
//!   horizontally (`^ 7`) when the own king stands on files a–d, so that the
//!   king always lands on files e–h; the bucket is `4 × (7 − relative rank) +
//!   (distance of the king's file from the a/h edge)`; both kings share plane
//!   10: 32 × 704 = 22528 inputs.

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

/// The two feature sets tarpon reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    HalfKP,
    HalfKAv2Hm,
}

/// Squares per plane.
const SQUARES: usize = 64;
/// HalfKP planes per king square: the unused slot 0 plus ten 64-square planes.
const HALFKP_PER_KING: usize = 10 * SQUARES + 1;
/// HalfKAv2_hm planes per king bucket: ten non-king planes plus the shared king plane.
const HALFKA_PER_BUCKET: usize = 11 * SQUARES;
const HALFKA_KING_PLANE: usize = 10 * SQUARES;

impl FeatureSet {
    pub const ALL: [FeatureSet; 2] = [FeatureSet::HalfKP, FeatureSet::HalfKAv2Hm];

    /// Number of inputs per perspective.
    pub const fn dimensions(self) -> usize {
        match self {
            FeatureSet::HalfKP => SQUARES * HALFKP_PER_KING,
            FeatureSet::HalfKAv2Hm => 32 * HALFKA_PER_BUCKET,
        }
    }

    /// The name Stockfish uses in its architecture strings.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::HalfKP => "HalfKP(Friend)",
            FeatureSet::HalfKAv2Hm => "HalfKAv2_hm(Friend)",
        }
    }

    /// The feature set's hash as Stockfish embeds it in `.nnue` files.
    pub const fn stockfish_hash(self) -> u32 {
        match self {
            FeatureSet::HalfKP => 0x5D69_D5B8,
            FeatureSet::HalfKAv2Hm => 0x7F23_4CB8,
        }
    }

    /// The most features that can be active at once for one perspective.
    pub const fn max_active(self) -> usize {
        match self {
            FeatureSet::HalfKP => 30,
            FeatureSet::HalfKAv2Hm => 32,
        }
    }

    /// The input that `piece` on `square` switches on for `perspective`,
    /// whose king stands on `king`; `None` when the piece is no input of this
    /// set (kings in HalfKP).
    #[inline]
    pub fn index(
        self,
        perspective: Color,
        king: Square,
        piece: Piece,
        square: Square,
    ) -> Option<usize> {
        let sq = square as usize;
        let ksq = king as usize;
        let theirs = usize::from(piece.color != perspective);
        match self {
            FeatureSet::HalfKP => {
                let role = non_king_plane(piece.role)?;
                let rotate = if perspective == Color::White { 0 } else { 63 };
                let plane = 1 + (2 * role + theirs) * SQUARES;
                Some((sq ^ rotate) + plane + HALFKP_PER_KING * (ksq ^ rotate))
            }
            FeatureSet::HalfKAv2Hm => {
                let plane = match non_king_plane(piece.role) {
                    Some(role) => (2 * role + theirs) * SQUARES,
                    None => HALFKA_KING_PLANE,
                };
                Some(
                    (sq ^ halfka_orientation(perspective, ksq))
                        + plane
                        + HALFKA_PER_BUCKET * halfka_bucket(perspective, ksq),
                )
            }
        }
    }

    /// All inputs active for `perspective` on `board` (which must hold both kings).
    pub fn active_features(self, perspective: Color, board: &Board) -> Vec<usize> {
        let Some(king) = board.king_of(perspective) else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(self.max_active());
        for square in board.occupied() {
            if let Some(piece) = board.piece_at(square)
                && let Some(i) = self.index(perspective, king, piece, square)
            {
                out.push(i);
            }
        }
        out
    }
}

/// Planes 0..5 for pawn..queen; kings have none.
#[inline]
fn non_king_plane(role: Role) -> Option<usize> {
    match role {
        Role::Pawn => Some(0),
        Role::Knight => Some(1),
        Role::Bishop => Some(2),
        Role::Rook => Some(3),
        Role::Queen => Some(4),
        Role::King => None,
    }
}

/// The XOR mask HalfKAv2_hm applies to every square: flip ranks for black,
/// mirror files when the own king is on files a–d.
#[inline]
fn halfka_orientation(perspective: Color, king: usize) -> usize {
    let flip = if perspective == Color::White { 0 } else { 56 };
    let mirror = if king % 8 < 4 { 7 } else { 0 };
    flip ^ mirror
}

/// The HalfKAv2_hm king bucket, 0..32.
#[inline]
fn halfka_bucket(perspective: Color, king: usize) -> usize {
    let file = king % 8;
    let rank = king / 8;
    let relative_rank = if perspective == Color::White {
        rank
    } else {
        7 - rank
    };
    let edge_distance = file.min(7 - file);
    4 * (7 - relative_rank) + edge_distance
}

/// Index of a side in per-perspective arrays: white 0, black 1 (shakmaty's
/// own discriminants run the other way, so never cast a `Color`).
pub const fn color_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Pieces of each color and role (indexed by [`color_index`], then role
/// from pawn to king), as the refresh cache compares them.
pub type PieceBoards = [[Bitboard; 6]; 2];

/// The board split by color and role.
pub fn piece_boards(board: &Board) -> PieceBoards {
    let mut out = [[Bitboard::EMPTY; 6]; 2];
    for color in Color::ALL {
        for (r, role) in Role::ALL.into_iter().enumerate() {
            out[color_index(color)][r] = board.by_piece(role.of(color));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position as _};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn halfkp_indices_match_the_stockfish_12_layout() {
        // White's view: a white pawn on e4 with the white king on g1:
        // e4 = 28, PS_W_PAWN = 1, king g1 = 6 -> 28 + 1 + 641 * 6.
        let wp = Role::Pawn.of(Color::White);
        assert_eq!(
            FeatureSet::HalfKP.index(Color::White, sq("g1"), wp, sq("e4")),
            Some(28 + 1 + 641 * 6)
        );
        // Black's view of the same pawn: rotated square 28 ^ 63 = 35, their pawn
        // plane PS_B_PAWN = 65, black king g8 = 62 -> rotated 1.
        assert_eq!(
            FeatureSet::HalfKP.index(Color::Black, sq("g8"), wp, sq("e4")),
            Some(35 + 65 + 641)
        );
        // Kings are no HalfKP input.
        assert_eq!(
            FeatureSet::HalfKP.index(
                Color::White,
                sq("g1"),
                Role::King.of(Color::Black),
                sq("g8")
            ),
            None
        );
        // A black queen from white's view: PS_B_QUEEN = 9 * 64 + 1 = 577.
        let bq = Role::Queen.of(Color::Black);
        assert_eq!(
            FeatureSet::HalfKP.index(Color::White, sq("a1"), bq, sq("h8")),
            Some(63 + 577)
        );
        assert_eq!(
            FeatureSet::HalfKP.index(Color::White, sq("h8"), bq, sq("h7")),
            Some(55 + 577 + 641 * 63)
        );
    }

    #[test]
    fn halfka_indices_match_the_stockfish_layout() {
        let wk = Role::King.of(Color::White);
        let bk = Role::King.of(Color::Black);
        // White king e1 (files e-h: no mirror, bucket row 0 -> bucket 28 + 3).
        assert_eq!(
            FeatureSet::HalfKAv2Hm.index(Color::White, sq("e1"), wk, sq("e1")),
            Some(4 + 640 + 704 * 31)
        );
        // White king a1: mirrored (a1 ^ 7 = h1 = 7), bucket 28.
        assert_eq!(
            FeatureSet::HalfKAv2Hm.index(Color::White, sq("a1"), wk, sq("a1")),
            Some(7 + 640 + 704 * 28)
        );
        // Black's king e8 from black's view: e8 (60) ^ 56 = 4, bucket 31.
        assert_eq!(
            FeatureSet::HalfKAv2Hm.index(Color::Black, sq("e8"), bk, sq("e8")),
            Some(4 + 640 + 704 * 31)
        );
        // Black knight d5 from white's view, white king h8 (bucket 0, no mirror): 35 + 3 * 64.
        let bn = Role::Knight.of(Color::Black);
        assert_eq!(
            FeatureSet::HalfKAv2Hm.index(Color::White, sq("h8"), bn, sq("d5")),
            Some(35 + 192)
        );
        // Same knight from black's view with black king b8: flip and mirror, 35 ^ 63 = 28, own knight plane 128, bucket 28 + 1.
        assert_eq!(
            FeatureSet::HalfKAv2Hm.index(Color::Black, sq("b8"), bn, sq("d5")),
            Some(28 + 128 + 704 * 29)
        );
    }

    #[test]
    fn every_index_is_in_range_and_distinct() {
        let pos = Chess::default();
        for set in FeatureSet::ALL {
            for color in Color::ALL {
                let mut active = set.active_features(color, pos.board());
                assert!(active.iter().all(|&i| i < set.dimensions()));
                let n = active.len();
                active.sort_unstable();
                active.dedup();
                assert_eq!(active.len(), n);
                assert_eq!(n, if set == FeatureSet::HalfKP { 30 } else { 32 });
            }
        }
    }
}
