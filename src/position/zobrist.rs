//! Zobrist keys: one random 64-bit number per (piece, square), per castling
//! rook square, per en-passant file and for the side to move.
//!
//! The tables are generated at compile time from a fixed seed, so keys are the
//! same in every build and on every machine (the transposition table, perft
//! hash and opening-book tools may rely on that).

use shakmaty::{Bitboard, Color, Piece, Square};

use super::{PieceChanges, PieceOnSquare, Snapshot};

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

/// XOR of the keys of the pieces a move took away and put down.
#[inline(always)]
pub fn changes_key(changes: &PieceChanges) -> u64 {
    let key = |c: PieceOnSquare| piece_key(c.piece, c.square);
    let (removed, removed_count, added, added_count) = changes.slots();
    debug_assert!(removed_count >= 1 && added_count >= 1, "{changes:?}");
    // Every chess move takes a piece off and puts one down; the second
    // slots, used by captures and castling only, count where their mask
    // is all ones. No branch to mispredict.
    let second = |used: usize| 0u64.wrapping_sub(u64::from(used == 2));
    key(removed[0])
        ^ key(added[0])
        ^ (key(removed[1]) & second(removed_count))
        ^ (key(added[1]) & second(added_count))
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

/// The part of the key that does not depend on piece placement: side to move,
/// castling rights, and the en-passant file when a legal capture exists (so
/// positions that differ only by an unusable en-passant square are equal, as
/// the repetition rule demands).
#[inline]
pub fn state_key(chess: &Snapshot) -> u64 {
    let ep = match chess.maybe_ep_square() {
        None => 0,
        Some(_) => legal_en_passant_key(chess),
    };
    side_key(chess.turn()) ^ castling_key(chess.castles().castling_rights()) ^ ep
}

/// Kept out of line: deciding whether an en-passant capture is legal needs a
/// move list on the stack, which would bloat every caller's frame, while
/// only double pawn pushes get here.
#[inline(never)]
fn legal_en_passant_key(chess: &Snapshot) -> u64 {
    let ep = chess.maybe_ep_square();
    en_passant_key(ep.filter(|&to| super::movegen::has_legal_en_passant(chess, to)))
}

/// The key computed from scratch; the incremental key must always equal it.
pub fn full_key(chess: &Snapshot) -> u64 {
    let board = chess.board();
    board
        .occupied()
        .into_iter()
        .fold(state_key(chess), |k, sq| {
            k ^ board.piece_at(sq).map_or(0, |p| piece_key(p, sq))
        })
}
