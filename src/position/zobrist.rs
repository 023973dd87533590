//! Zobrist keys: one random 64-bit number per (piece, square), per castling
//! rook square, per en-passant file and for the side to move.
//!
//! The tables are generated at compile time from a fixed seed, so keys are the
//! same in every build and on every machine (the transposition table, perft
//! hash and opening-book tools may rely on that).

use shakmaty::{Bitboard, Color, Piece, Square};

use crate::rng::SplitMix64;

struct Keys {
    /// Indexed by `piece_index(piece) * 64 + square`.
    pieces: [u64; 12 * 64],
    /// Indexed by the square of a rook that still has castling rights
    /// (works for standard chess and Chess960 alike).
    castling: [u64; 64],
    en_passant_file: [u64; 8],
    black_to_move: u64,
}

const KEYS: Keys = {
    let mut rng = SplitMix64::new(0x7A5B_0F1C_2D3E_4F60);
    let mut pieces = [0u64; 12 * 64];
    let mut i = 0;
    while i < pieces.len() {
        pieces[i] = rng.next_u64();
        i += 1;
    }
    let mut castling = [0u64; 64];
    i = 0;
    while i < 64 {
        castling[i] = rng.next_u64();
        i += 1;
    }
    let mut en_passant_file = [0u64; 8];
    i = 0;
    while i < 8 {
        en_passant_file[i] = rng.next_u64();
        i += 1;
    }
    let black_to_move = rng.next_u64();
    Keys {
        pieces,
        castling,
        en_passant_file,
        black_to_move,
    }
};

/// 0..12: white pawn..king, then black pawn..king.
#[inline]
pub fn piece_index(piece: Piece) -> usize {
    (piece.role as usize - 1) + if piece.color == Color::White { 0 } else { 6 }
}

#[inline]
pub fn piece_key(piece: Piece, square: Square) -> u64 {
    KEYS.pieces[piece_index(piece) * 64 + square as usize]
}

/// XOR of the keys of every rook square in `rights`.
#[inline]
pub fn castling_key(rights: Bitboard) -> u64 {
    rights
        .into_iter()
        .fold(0, |k, sq| k ^ KEYS.castling[sq as usize])
}

#[inline]
pub fn en_passant_key(square: Option<Square>) -> u64 {
    square.map_or(0, |sq| KEYS.en_passant_file[sq.file() as usize])
}

#[inline]
pub fn side_key(turn: Color) -> u64 {
    if turn == Color::Black {
        KEYS.black_to_move
    } else {
        0
    }
}

/// The part of the key that does not depend on piece placement: side to
/// move, castling rights (as rook squares), and the en-passant square's
/// file. The caller passes the en-passant square only when a legal capture
/// exists, so that positions differing only by an unusable en-passant
/// square are equal, as the repetition rule demands.
#[inline]
pub fn state_key(turn: Color, castling_rights: Bitboard, en_passant: Option<Square>) -> u64 {
    side_key(turn) ^ castling_key(castling_rights) ^ en_passant_key(en_passant)
}

/// XOR of the keys of `pieces`: the placement's part of the key, from
/// scratch.
pub fn pieces_key(pieces: impl Iterator<Item = (Square, Piece)>) -> u64 {
    pieces.fold(0, |key, (square, piece)| key ^ piece_key(piece, square))
}
