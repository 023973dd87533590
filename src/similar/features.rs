//! What a position is made of, as words in a document: a compact board
//! (`Snapshot`) seen from the side to move, and the sparse features LSI
//! counts over it (piece on square, pawns per file, isolated, doubled and
//! passed pawns, castling rights).
//!
//! Colour: every position is normalised to the side to move before its
//! features are taken. When Black is to move the board is flipped vertically
//! and the colours are swapped, so "my knight on f3" is the same feature
//! whichever colour I play; a position and its colour-flipped twin (mirrored,
//! other side to move) have identical features.

use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Piece, Position as _,
    Role, Setup, Square,
};

/// Piece-square features: 12 kinds (mine P N B R Q K, then theirs) × 64 squares.
const PIECE_SQUARE: usize = 12 * 64;
/// Per-file pawn features, mine then theirs: count, isolated, doubled, passed.
const PAWN_FILES: usize = PIECE_SQUARE;
const ISOLATED: usize = PAWN_FILES + 16;
const DOUBLED: usize = ISOLATED + 16;
const PASSED: usize = DOUBLED + 16;
const CASTLING: usize = PASSED + 16;
/// The length of a feature vector.
pub const DIMS: usize = CASTLING + 4;

/// Castling-right bits of `Snapshot::castling`.
const WHITE_KING_SIDE: u8 = 1;
const WHITE_QUEEN_SIDE: u8 = 2;
const BLACK_KING_SIDE: u8 = 4;
const BLACK_QUEEN_SIDE: u8 = 8;

/// A position as the index stores it: one byte per square (0 empty, 1-6 a
/// white pawn..king, 9-14 a black one), the side to move, castling rights
/// and the en-passant file. Move counters are not kept: they do not make
/// two positions more or less alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Snapshot {
    pub cells: [u8; 64],
    pub black_to_move: bool,
    /// `WHITE_KING_SIDE | ...` bits.
    pub castling: u8,
    /// The file (0-7) a pawn may be taken en passant on.
    pub ep_file: Option<u8>,
}

fn role_code(role: Role) -> u8 {
    role as u8 // Pawn = 1 .. King = 6 in shakmaty
}

fn code_piece(code: u8) -> Option<Piece> {
    let color = if code & 8 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let role = match code & 7 {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        6 => Role::King,
        _ => return None,
    };
    Some(Piece { color, role })
}

/// Whether a stored square byte names a piece or an empty square.
pub fn valid_cell(code: u8) -> bool {
    matches!(code, 0..=6 | 9..=14)
}

impl Snapshot {
    pub fn of(chess: &Chess) -> Snapshot {
        let mut cells = [0u8; 64];
        for (sq, piece) in chess.board().iter() {
            cells[sq as usize] = role_code(piece.role) | if piece.color.is_black() { 8 } else { 0 };
        }
        let castles = chess.castles();
        let mut castling = 0;
        for (color, side, bit) in [
            (
                Color::White,
                shakmaty::CastlingSide::KingSide,
                WHITE_KING_SIDE,
            ),
            (
                Color::White,
                shakmaty::CastlingSide::QueenSide,
                WHITE_QUEEN_SIDE,
            ),
            (
                Color::Black,
                shakmaty::CastlingSide::KingSide,
                BLACK_KING_SIDE,
            ),
            (
                Color::Black,
                shakmaty::CastlingSide::QueenSide,
                BLACK_QUEEN_SIDE,
            ),
        ] {
            if castles.has(color, side) {
                castling |= bit;
            }
        }
        Snapshot {
            cells,
            black_to_move: chess.turn().is_black(),
            castling,
            ep_file: chess
                .ep_square(EnPassantMode::Legal)
                .map(|sq| sq.file() as u8),
        }
    }

    /// The same position seen from the side to move, always "White" to move:
    /// flipped and colour-swapped when Black is to move, unchanged otherwise.
    pub fn oriented(&self) -> Snapshot {
        if !self.black_to_move {
            return *self;
        }
        self.colour_flipped()
    }

    /// The mirror image: board flipped top to bottom, colours swapped, the
    /// other side to move. Chess-wise the same position.
    pub fn colour_flipped(&self) -> Snapshot {
        let mut cells = [0u8; 64];
        for (sq, &code) in self.cells.iter().enumerate() {
            cells[sq ^ 56] = if code == 0 { 0 } else { code ^ 8 };
        }
        let c = self.castling;
        Snapshot {
            cells,
            black_to_move: !self.black_to_move,
            castling: (c & 3) << 2 | (c >> 2) & 3,
            ep_file: self.ep_file,
        }
    }

    /// The pawns of the side to move and of the other side, from the side to
    /// move's point of view: two positions with the same key have the same
    /// pawn structure.
    pub fn pawn_key(&self) -> (u64, u64) {
        let o = self.oriented();
        let mut mine = 0u64;
        let mut theirs = 0u64;
        for (sq, &code) in o.cells.iter().enumerate() {
            match code {
                1 => mine |= 1 << sq,
                9 => theirs |= 1 << sq,
                _ => {}
            }
        }
        (mine, theirs)
    }

    /// The sparse feature counts (index, count), sorted by index.
    pub fn features(&self) -> Vec<(u16, f32)> {
        let o = self.oriented();
        let mut out: Vec<(u16, f32)> = Vec::with_capacity(48);
        for (sq, &code) in o.cells.iter().enumerate() {
            if let Some(p) = code_piece(code) {
                let kind =
                    usize::from(role_code(p.role) - 1) + if p.color.is_white() { 0 } else { 6 };
                out.push(((kind * 64 + sq) as u16, 1.0));
            }
        }
        let (mine, theirs) = o.pawn_key();
        pawn_features(mine, theirs, true, 0, &mut out);
        pawn_features(theirs, mine, false, 8, &mut out);
        for (bit, f) in [
            (WHITE_KING_SIDE, 0),
            (WHITE_QUEEN_SIDE, 1),
            (BLACK_KING_SIDE, 2),
            (BLACK_QUEEN_SIDE, 3),
        ] {
            if o.castling & bit != 0 {
                out.push(((CASTLING + f) as u16, 1.0));
            }
        }
        out.sort_by_key(|&(i, _)| i);
        out
    }

    /// A legal shakmaty position, when the stored board is one.
    pub fn to_chess(&self) -> Option<Chess> {
        let mut setup = Setup::empty();
        for (sq, &code) in self.cells.iter().enumerate() {
            if let Some(p) = code_piece(code) {
                setup.board.set_piece_at(Square::new(sq as u32), p);
            }
        }
        setup.turn = if self.black_to_move {
            Color::Black
        } else {
            Color::White
        };
        let mut rooks = Bitboard::EMPTY;
        for (bit, sq) in [
            (WHITE_KING_SIDE, Square::H1),
            (WHITE_QUEEN_SIDE, Square::A1),
            (BLACK_KING_SIDE, Square::H8),
            (BLACK_QUEEN_SIDE, Square::A8),
        ] {
            if self.castling & bit != 0 {
                rooks.add(sq);
            }
        }
        setup.castling_rights = rooks;
        setup.ep_square = self.ep_file.map(|f| {
            let rank = if self.black_to_move { 2 } else { 5 };
            Square::new(u32::from(f) + 8 * rank)
        });
        match Chess::from_setup(setup, CastlingMode::Standard) {
            Ok(chess) => Some(chess),
            Err(e) => e.ignore_invalid_ep_square().ok(),
        }
    }

    /// Board, side to move and castling as the first fields of a FEN.
    pub fn fen(&self) -> String {
        let mut board = shakmaty::Board::empty();
        for (sq, &code) in self.cells.iter().enumerate() {
            if let Some(p) = code_piece(code) {
                board.set_piece_at(Square::new(sq as u32), p);
            }
        }
        let mut castling = String::new();
        for (bit, c) in [
            (WHITE_KING_SIDE, 'K'),
            (WHITE_QUEEN_SIDE, 'Q'),
            (BLACK_KING_SIDE, 'k'),
            (BLACK_QUEEN_SIDE, 'q'),
        ] {
            if self.castling & bit != 0 {
                castling.push(c);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let side = if self.black_to_move { 'b' } else { 'w' };
        format!("{board} {side} {castling}")
    }
}

/// Pawn-structure features of one side: pawns, isolated, doubled and passed
/// pawns per file. `mine` pawns move up the board when `up`.
fn pawn_features(pawns: u64, enemy: u64, up: bool, offset: usize, out: &mut Vec<(u16, f32)>) {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    for file in 0..8 {
        let on_file = pawns & (FILE_A << file);
        let count = on_file.count_ones();
        if count == 0 {
            continue;
        }
        let mut push = |base: usize, n: u32| out.push(((base + offset + file) as u16, n as f32));
        push(PAWN_FILES, count);
        let mut neighbours = 0u64;
        if file > 0 {
            neighbours |= FILE_A << (file - 1);
        }
        if file < 7 {
            neighbours |= FILE_A << (file + 1);
        }
        if pawns & neighbours == 0 {
            push(ISOLATED, count);
        }
        if count > 1 {
            push(DOUBLED, count - 1);
        }
        let span = enemy & (neighbours | FILE_A << file);
        let passed = Bitboard(on_file)
            .into_iter()
            .filter(|sq| {
                let rank = sq.rank() as u32;
                let ahead = if up {
                    u64::MAX.checked_shl(8 * (rank + 1)).unwrap_or(0)
                } else {
                    (1u64 << (8 * rank)) - 1
                };
                span & ahead == 0
            })
            .count() as u32;
        if passed > 0 {
            push(PASSED, passed);
        }
    }
}

/// A move as the index stores it: from (6 bits), to (6 bits), promotion
/// role (3 bits); castling as the king's two-square move.
pub fn encode_move(m: Move) -> u16 {
    match m.to_uci(CastlingMode::Standard) {
        shakmaty::uci::UciMove::Normal {
            from,
            to,
            promotion,
        } => from as u16 | (to as u16) << 6 | (promotion.map_or(0, |r| r as u16)) << 12,
        _ => 0,
    }
}

/// The squares and promotion of a stored move.
pub fn decode_move(code: u16) -> (Square, Square, Option<Role>) {
    let from = Square::new(u32::from(code & 63));
    let to = Square::new(u32::from(code >> 6 & 63));
    let promotion = match code >> 12 & 7 {
        2 => Some(Role::Knight),
        3 => Some(Role::Bishop),
        4 => Some(Role::Rook),
        5 => Some(Role::Queen),
        _ => None,
    };
    (from, to, promotion)
}

/// The same move seen from the other colour (both squares flipped), so a
/// move from a neighbour with the other side to move reads in the query's frame.
pub fn flip_move(code: u16) -> u16 {
    (code & 0xf000) | ((code & 63) ^ 56) | (((code >> 6 & 63) ^ 56) << 6)
}

/// The move as UCI text (`e2e4`, `e7e8q`).
pub fn move_uci(code: u16) -> String {
    let (from, to, promotion) = decode_move(code);
    let mut s = format!("{from}{to}");
    if let Some(r) = promotion {
        s.push(r.char());
    }
    s
}

/// The move in SAN when it is legal in `chess`, else `None`.
pub fn move_san(chess: &Chess, code: u16) -> Option<String> {
    let legal = chess.legal_moves();
    let m = legal.iter().find(|&&m| encode_move(m) == code)?;
    Some(shakmaty::san::SanPlus::from_move(chess.clone(), *m).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn a_colour_flipped_position_has_the_same_features() {
        let white = Snapshot::of(&chess(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ));
        let black = Snapshot::of(&chess(
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
        ));
        assert_eq!(white.colour_flipped(), black);
        assert_eq!(white.features(), black.features());
        assert_eq!(white.pawn_key(), black.pawn_key());
        // The same board with the other side to move is a different document.
        let mut other = white;
        other.black_to_move = true;
        assert_ne!(white.features(), other.features());
    }

    #[test]
    fn pawn_structure_features_count_what_they_say() {
        // White: a2, c2+c3 (doubled) and e5, all isolated; only a2 is passed
        // (d7 guards the c-pawns' path, d7 and f7 the e-pawn's).
        // Black: d7 and f7, neither passed.
        let s = Snapshot::of(&chess("4k3/3p1p2/8/4P3/8/2P5/P1P5/4K3 w - - 0 1"));
        let f = s.features();
        let has = |i: usize, n: f32| f.contains(&(i as u16, n));
        assert!(has(PAWN_FILES + 2, 2.0));
        assert!(has(ISOLATED, 1.0) && has(ISOLATED + 2, 2.0) && has(ISOLATED + 4, 1.0));
        assert!(has(DOUBLED + 2, 1.0));
        let passed: Vec<usize> = f
            .iter()
            .map(|&(i, _)| i as usize)
            .filter(|i| (PASSED..CASTLING).contains(i))
            .collect();
        assert_eq!(passed, vec![PASSED]);
        // Black: d7 and f7 are both isolated (no black pawn on c, e or g).
        assert!(has(ISOLATED + 8 + 3, 1.0) && has(ISOLATED + 8 + 5, 1.0));
        assert!(f.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(f.iter().all(|&(i, _)| (i as usize) < DIMS));
    }

    #[test]
    fn snapshots_and_moves_round_trip() {
        let c = chess("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2");
        let s = Snapshot::of(&c);
        assert_eq!(s.ep_file, Some(3));
        assert_eq!(s.fen(), "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq");
        let back = s.to_chess().unwrap();
        assert_eq!(Snapshot::of(&back), s);
        for m in c.legal_moves() {
            let code = encode_move(m);
            assert_eq!(move_uci(code), m.to_uci(CastlingMode::Standard).to_string());
            assert!(move_san(&c, code).is_some());
            assert_eq!(flip_move(flip_move(code)), code);
        }
        assert!(s.cells.iter().all(|&c| valid_cell(c)));
        assert!(!valid_cell(7) && !valid_cell(8) && !valid_cell(15) && !valid_cell(16));
    }
}
