//! Input feature sets: which input of the feature transformer a piece on a
//! square switches on, seen from one side ("perspective").
//!
//! The first two follow Stockfish's index layout exactly, so nets trained for
//! it (and nets we write in its layouts) mean the same thing here:
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
//!
//! The third is tarpon's own, the small data-efficient shape of bullet-trained
//! engines:
//!
//! * **Chess768** with king buckets: every piece, kings included, on 12 planes
//!   of 64, oriented as in HalfKAv2_hm (`sq ^ 56` for black, `^ 7` when the own
//!   king is on files a–d), repeated for each of `K` king buckets that a
//!   table of the oriented own king square picks ([`KingBuckets`], stored in
//!   the net file): `index = 64 × (2 × role + theirs) + (sq ^ m) + 768 ×
//!   bucket`, 768 × K inputs.

use shakmaty::{Bitboard, Color, Piece, Role, Square};

use crate::position::Board;

/// The feature sets tarpon reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    HalfKP,
    HalfKAv2Hm,
    /// 768 inputs per king bucket, mirrored so the own king is on files e–h.
    Chess768(KingBuckets),
}

/// Which of `count` buckets the own king's square selects in [`FeatureSet::Chess768`].
///
/// The table has one entry per square the oriented king can stand on (files
/// e–h after the mirror, rank seen from the perspective):
/// `table[4 × rank + (file − 4)]`. Invariant: every entry is below `count`,
/// and `count` is 1..=[`KingBuckets::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    count: u8,
    table: [u8; 32],
}

impl KingBuckets {
    /// Most buckets a table may use (one per square it covers).
    pub const MAX: usize = 32;

    /// One bucket: plain 768 inputs, mirrored.
    pub const SINGLE: KingBuckets = KingBuckets::by_rank([0; 8]);
    /// Four buckets by the own king's rank: 1, 2, 3–4 and 5–8.
    pub const RANKS4: KingBuckets = KingBuckets::by_rank([0, 1, 2, 2, 3, 3, 3, 3]);

    /// The named layouts, for the trainer's `--king-buckets`.
    pub const NAMED: [(&'static str, KingBuckets); 2] = [
        ("single", KingBuckets::SINGLE),
        ("ranks4", KingBuckets::RANKS4),
    ];

    /// A layout where the bucket depends only on the king's relative rank.
    const fn by_rank(buckets: [u8; 8]) -> KingBuckets {
        let mut table = [0u8; 32];
        let mut count = 0;
        let mut i = 0;
        while i < 32 {
            table[i] = buckets[i / 4];
            if table[i] + 1 > count {
                count = table[i] + 1;
            }
            i += 1;
        }
        KingBuckets { count, table }
    }

    /// A table read from a file; `None` unless `count` is 1..=32 and every
    /// entry is below it.
    pub fn new(count: usize, table: [u8; 32]) -> Option<KingBuckets> {
        let valid =
            (1..=Self::MAX).contains(&count) && table.iter().all(|&b| usize::from(b) < count);
        valid.then_some(KingBuckets {
            count: count as u8,
            table,
        })
    }

    pub fn count(self) -> usize {
        usize::from(self.count)
    }

    pub fn table(self) -> [u8; 32] {
        self.table
    }

    /// A layout from a command line: a name from [`KingBuckets::NAMED`], 8
    /// comma-separated buckets by the king's relative rank (`ranks4` is
    /// `0,1,2,2,3,3,3,3`), or 32 for the whole table (`4 × rank + file − 4`
    /// of the oriented king square). The count is the largest bucket + 1.
    pub fn from_name(spec: &str) -> Result<KingBuckets, String> {
        if let Some((_, buckets)) = Self::NAMED.iter().find(|(n, _)| *n == spec) {
            return Ok(*buckets);
        }
        let names: Vec<&str> = Self::NAMED.iter().map(|(n, _)| *n).collect();
        let bad = || {
            format!(
                "king bucket layout '{spec}' is none of {} nor 8 or 32 comma-separated buckets below {}",
                names.join(", "),
                Self::MAX
            )
        };
        let values = spec
            .split(',')
            .map(|v| v.trim().parse::<u8>())
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| bad())?;
        let table: [u8; 32] = match values.len() {
            8 => std::array::from_fn(|i| values[i / 4]),
            32 => std::array::from_fn(|i| values[i]),
            _ => return Err(bad()),
        };
        let count = usize::from(table.iter().copied().max().unwrap_or(0)) + 1;
        KingBuckets::new(count, table).ok_or_else(bad)
    }

    /// The name of a named layout, if this is one.
    pub fn name(self) -> Option<&'static str> {
        Self::NAMED
            .iter()
            .find(|(_, b)| *b == self)
            .map(|(name, _)| *name)
    }

    /// The bucket of the own king on `king` seen from `perspective`.
    #[inline]
    pub fn bucket(self, perspective: Color, king: usize) -> usize {
        let oriented = king ^ mirrored_orientation(perspective, king);
        debug_assert!(oriented % 8 >= 4, "the mirror puts the king on files e-h");
        usize::from(self.table[4 * (oriented / 8) + oriented % 8 - 4])
    }
}

/// Squares per plane.
const SQUARES: usize = 64;
/// HalfKP planes per king square: the unused slot 0 plus ten 64-square planes.
const HALFKP_PER_KING: usize = 10 * SQUARES + 1;
/// HalfKAv2_hm planes per king bucket: ten non-king planes plus the shared king plane.
const HALFKA_PER_BUCKET: usize = 11 * SQUARES;
const HALFKA_KING_PLANE: usize = 10 * SQUARES;
/// Chess768 inputs per king bucket: twelve planes, kings included.
pub const CHESS768_PER_BUCKET: usize = 12 * SQUARES;

impl FeatureSet {
    /// Stockfish's feature sets (Chess768 comes in as many kinds as bucket tables).
    pub const ALL: [FeatureSet; 2] = [FeatureSet::HalfKP, FeatureSet::HalfKAv2Hm];

    /// Number of inputs per perspective.
    pub const fn dimensions(self) -> usize {
        match self {
            FeatureSet::HalfKP => SQUARES * HALFKP_PER_KING,
            FeatureSet::HalfKAv2Hm => 32 * HALFKA_PER_BUCKET,
            FeatureSet::Chess768(buckets) => buckets.count as usize * CHESS768_PER_BUCKET,
        }
    }

    /// The name Stockfish uses in its architecture strings (tarpon's own
    /// name for Chess768).
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::HalfKP => "HalfKP(Friend)",
            FeatureSet::HalfKAv2Hm => "HalfKAv2_hm(Friend)",
            FeatureSet::Chess768(_) => "Chess768_hm",
        }
    }

    /// The most features that can be active at once for one perspective.
    pub const fn max_active(self) -> usize {
        match self {
            FeatureSet::HalfKP => 30,
            FeatureSet::HalfKAv2Hm | FeatureSet::Chess768(_) => 32,
        }
    }

    /// What of the own king's square the inputs depend on, as a number
    /// below 64: while it stays the same, a king move changes inputs like
    /// any other move; when it changes, every input of that perspective
    /// does (the accumulator is rebuilt). The king square itself for the
    /// Stockfish sets; bucket and mirror side for Chess768.
    #[inline]
    pub fn king_slot(self, perspective: Color, king: Square) -> usize {
        match self {
            FeatureSet::HalfKP | FeatureSet::HalfKAv2Hm => king as usize,
            FeatureSet::Chess768(buckets) => {
                let ksq = king as usize;
                2 * buckets.bucket(perspective, ksq) + usize::from(ksq % 8 < 4)
            }
        }
    }

    /// The input that `piece` on `square` switches on for `perspective`,
    /// whose king stands on `king`; `None` when the piece is no input of this
    /// set (kings in HalfKP). Looking up several pieces for one king, take
    /// the [`FeatureSet::view`] once instead.
    #[inline]
    pub fn index(
        self,
        perspective: Color,
        king: Square,
        piece: Piece,
        square: Square,
    ) -> Option<usize> {
        self.view(perspective, king).index(piece, square)
    }

    /// The set seen from `perspective` with the own king on `king`: what
    /// the index depends on besides the piece, worked out once, so that an
    /// update looking up several pieces for the same king pays for it once.
    #[inline]
    pub fn view(self, perspective: Color, king: Square) -> FeatureView {
        let ksq = king as usize;
        let (planes, orient, offset) = match self {
            FeatureSet::HalfKP => {
                let rotate = if perspective == Color::White { 0 } else { 63 };
                (&HALFKP_PLANES, rotate, HALFKP_PER_KING * (ksq ^ rotate))
            }
            FeatureSet::HalfKAv2Hm => (
                &HALFKA_PLANES,
                mirrored_orientation(perspective, ksq),
                HALFKA_PER_BUCKET * halfka_bucket(perspective, ksq),
            ),
            FeatureSet::Chess768(buckets) => (
                &CHESS768_PLANES,
                mirrored_orientation(perspective, ksq),
                CHESS768_PER_BUCKET * buckets.bucket(perspective, ksq),
            ),
        };
        FeatureView {
            planes,
            perspective,
            orient,
            offset,
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

/// First input of each piece's plane, by own (0) or their (1) piece and
/// role from pawn to king ([`role_plane`]); `NO_PLANE` where the set has no
/// input for that piece. A test checks every index against the layouts'
/// formulas (the module's documentation).
type Planes = [[u16; 6]; 2];
const NO_PLANE: u16 = u16::MAX;

const fn planes(first: usize, kings: Option<usize>) -> Planes {
    let mut out = [[NO_PLANE; 6]; 2];
    let mut theirs = 0;
    while theirs < 2 {
        let mut role = 0;
        while role < 5 {
            out[theirs][role] = (first + (2 * role + theirs) * SQUARES) as u16;
            role += 1;
        }
        if let Some(king) = kings {
            out[theirs][5] = (king + theirs * SQUARES) as u16;
        }
        theirs += 1;
    }
    out
}

const HALFKP_PLANES: Planes = planes(1, None);
// Both kings share HalfKAv2_hm's king plane.
const HALFKA_PLANES: Planes = {
    let mut p = planes(0, Some(HALFKA_KING_PLANE));
    p[1][5] = HALFKA_KING_PLANE as u16;
    p
};
const CHESS768_PLANES: Planes = planes(0, Some(10 * SQUARES));

/// A feature set seen from one perspective with the own king on one
/// square ([`FeatureSet::view`]).
#[derive(Clone, Copy, Debug)]
pub struct FeatureView {
    planes: &'static Planes,
    perspective: Color,
    /// XOR mask applied to every square (flip, mirror or rotation).
    orient: usize,
    /// The inputs of the king's square or bucket start here.
    offset: usize,
}

impl FeatureView {
    /// The input that `piece` on `square` switches on ([`FeatureSet::index`]).
    #[inline]
    pub fn index(&self, piece: Piece, square: Square) -> Option<usize> {
        let theirs = usize::from(piece.color != self.perspective);
        let plane = self.planes[theirs][role_plane(piece.role)];
        (plane != NO_PLANE)
            .then(|| usize::from(plane) + self.offset + (square as usize ^ self.orient))
    }
}

/// Roles 0..5, pawn to king.
#[inline]
fn role_plane(role: Role) -> usize {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// The XOR mask HalfKAv2_hm and Chess768 apply to every square: flip ranks
/// for black, mirror files when the own king is on files a–d.
#[inline]
fn mirrored_orientation(perspective: Color, king: usize) -> usize {
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

    /// The layouts' formulas (the module's documentation), piece by piece:
    /// the reference the views are checked against.
    fn reference_index(
        set: FeatureSet,
        perspective: Color,
        king: Square,
        piece: Piece,
        square: Square,
    ) -> Option<usize> {
        let sq = square as usize;
        let ksq = king as usize;
        let theirs = usize::from(piece.color != perspective);
        let non_king_plane = |role| (role != Role::King).then(|| role_plane(role));
        match set {
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
                    (sq ^ mirrored_orientation(perspective, ksq))
                        + plane
                        + HALFKA_PER_BUCKET * halfka_bucket(perspective, ksq),
                )
            }
            FeatureSet::Chess768(buckets) => {
                let plane = (2 * role_plane(piece.role) + theirs) * SQUARES;
                Some(
                    (sq ^ mirrored_orientation(perspective, ksq))
                        + plane
                        + CHESS768_PER_BUCKET * buckets.bucket(perspective, ksq),
                )
            }
        }
    }

    #[test]
    fn views_match_the_layout_formulas() {
        let sets = [
            FeatureSet::HalfKP,
            FeatureSet::HalfKAv2Hm,
            FeatureSet::Chess768(KingBuckets::SINGLE),
            FeatureSet::Chess768(KingBuckets::RANKS4),
        ];
        for set in sets {
            for perspective in Color::ALL {
                for king in Square::ALL {
                    let view = set.view(perspective, king);
                    for color in Color::ALL {
                        for role in Role::ALL {
                            for square in Square::ALL {
                                let piece = role.of(color);
                                assert_eq!(
                                    view.index(piece, square),
                                    reference_index(set, perspective, king, piece, square),
                                    "{set:?} {perspective:?} king {king} {piece:?} {square}"
                                );
                            }
                        }
                    }
                }
            }
        }
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
    fn chess768_indices_mirror_like_halfka_and_follow_the_bucket_table() {
        let set = FeatureSet::Chess768(KingBuckets::RANKS4);
        let wk = Role::King.of(Color::White);
        let bn = Role::Knight.of(Color::Black);
        // White king e1: no mirror, rank 1 -> bucket 0; the king is an input
        // (own king plane 2 × 5 = 10).
        assert_eq!(
            set.index(Color::White, sq("e1"), wk, sq("e1")),
            Some(640 + 4)
        );
        // White king b2: mirrored (b2 ^ 7 = g2 = 14), rank 2 -> bucket 1.
        assert_eq!(
            set.index(Color::White, sq("b2"), wk, sq("b2")),
            Some(640 + 14 + 768)
        );
        // Black knight d5 seen by white with the king on h4 (rank 4 -> bucket 2):
        // their knight plane 2 × 1 + 1 = 3.
        assert_eq!(
            set.index(Color::White, sq("h4"), bn, sq("d5")),
            Some(3 * 64 + 35 + 2 * 768)
        );
        // The same knight seen by black with its king on c7 (rank 2 from
        // black -> bucket 1): flip and mirror d5 -> 35 ^ 63 = 28, own knight plane 2.
        assert_eq!(
            set.index(Color::Black, sq("c7"), bn, sq("d5")),
            Some(2 * 64 + 28 + 768)
        );
        // One bucket: the same with bucket 0 throughout.
        let single = FeatureSet::Chess768(KingBuckets::SINGLE);
        assert_eq!(single.dimensions(), 768);
        assert_eq!(
            single.index(Color::Black, sq("c7"), bn, sq("d5")),
            Some(2 * 64 + 28)
        );
    }

    #[test]
    fn king_slots_change_only_with_bucket_or_mirror_side() {
        let set = FeatureSet::Chess768(KingBuckets::RANKS4);
        let slot = |c, k: &str| set.king_slot(c, sq(k));
        // e1-h1 share a slot, d1 is mirrored, e2 is another bucket.
        assert_eq!(slot(Color::White, "e1"), slot(Color::White, "h1"));
        assert_ne!(slot(Color::White, "e1"), slot(Color::White, "d1"));
        assert_eq!(slot(Color::White, "a1"), slot(Color::White, "d1"));
        assert_ne!(slot(Color::White, "e1"), slot(Color::White, "e2"));
        // Ranks 5-8 are one bucket; black counts from its side.
        assert_eq!(slot(Color::White, "g5"), slot(Color::White, "g8"));
        assert_eq!(slot(Color::Black, "g8"), slot(Color::White, "g1"));
        let single = FeatureSet::Chess768(KingBuckets::SINGLE);
        assert_eq!(
            single.king_slot(Color::White, sq("e1")),
            single.king_slot(Color::White, sq("h8"))
        );
        // The Stockfish sets: the square itself.
        assert_eq!(FeatureSet::HalfKAv2Hm.king_slot(Color::Black, sq("c3")), 18);
    }

    #[test]
    fn king_bucket_tables_are_validated_and_named() {
        assert_eq!(KingBuckets::RANKS4.count(), 4);
        assert_eq!(KingBuckets::SINGLE.count(), 1);
        assert_eq!(KingBuckets::from_name("ranks4"), Ok(KingBuckets::RANKS4));
        assert_eq!(
            KingBuckets::from_name("0,1,2,2,3,3,3,3"),
            Ok(KingBuckets::RANKS4)
        );
        let files: Vec<String> = (0..32).map(|i| (i % 4).to_string()).collect();
        let by_file = KingBuckets::from_name(&files.join(",")).unwrap();
        assert_eq!((by_file.count(), by_file.name()), (4, None));
        assert_eq!(by_file.bucket(Color::White, sq("e1") as usize), 0);
        assert_eq!(by_file.bucket(Color::White, sq("a5") as usize), 3);
        for bad in ["ranks5", "0,1,2", "0,1,2,3,4,5,6,x", "0,0,0,0,0,0,0,40", ""] {
            assert!(KingBuckets::from_name(bad).is_err(), "{bad}");
        }
        assert_eq!(
            KingBuckets::new(4, KingBuckets::RANKS4.table()),
            Some(KingBuckets::RANKS4)
        );
        assert_eq!(KingBuckets::new(3, KingBuckets::RANKS4.table()), None);
        assert_eq!(KingBuckets::new(0, [0; 32]), None);
        assert_eq!(KingBuckets::new(33, [0; 32]), None);
        let mut each = [0u8; 32];
        each.iter_mut().enumerate().for_each(|(i, b)| *b = i as u8);
        let every_square = KingBuckets::new(32, each).unwrap();
        assert_eq!(FeatureSet::Chess768(every_square).dimensions(), 32 * 768);
        assert_eq!(every_square.name(), None);
    }

    #[test]
    fn every_index_is_in_range_and_distinct() {
        let pos = Chess::default();
        let chess768 = KingBuckets::NAMED.map(|(_, b)| FeatureSet::Chess768(b));
        for set in FeatureSet::ALL.into_iter().chain(chess768) {
            for color in Color::ALL {
                let mut active =
                    set.active_features(color, &crate::position::Board::from_shakmaty(pos.board()));
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
