//! The piece placement the search plays on: a bitboard per role and per
//! colour, as shakmaty's `Board` has.
//!
//! shakmaty's board can only be changed a square at a time without knowing
//! what stands there, so each change clears the square from all nine
//! bitboards. A move knows which pieces it lifts and puts down: here each
//! change flips the bits of that one piece. The read-only methods keep
//! shakmaty's names and meaning. (A mailbox of the piece on each square,
//! for one-load `piece_at`, measured no faster: −0.35 % instructions with
//! the Sunfish tables, +0.3 % with the net, as it makes the copy every
//! move does larger.)
//!
//! The board keeps the pieces' part of the Zobrist key up to date with
//! every change, so a move's key costs no extra pass over what it moved. It
//! is kept in three parts, the pawns and each side's other pieces, which the
//! correction history indexes by; the whole key is their XOR.

use shakmaty::{Bitboard, Color, Piece, Role, Square, attacks};

use super::zobrist;

#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    /// Indexed by `Role as usize - 1`.
    by_role: [Bitboard; 6],
    /// Indexed by `Color as usize` (black 0, white 1, as shakmaty numbers them).
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    /// XOR of the Zobrist keys of the pieces on their squares, in three
    /// parts: each side's pieces other than pawns, king included (indexed
    /// by `Color as usize`), and the pawns of both sides ([`PAWNS`]).
    part_keys: [u64; 3],
}

/// Where the pawns' key lies in [`Board`]'s part keys.
const PAWNS: usize = 2;

/// The part key a piece's placement counts in.
#[inline(always)]
fn part(piece: Piece) -> usize {
    if piece.role == Role::Pawn {
        PAWNS
    } else {
        piece.color as usize
    }
}

impl Board {
    pub fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            part_keys: [0; 3],
        }
    }

    /// shakmaty's board in this form.
    pub fn from_shakmaty(board: &shakmaty::Board) -> Board {
        let mut ours = Board::empty();
        for (square, piece) in board.iter() {
            ours.put(square, piece);
        }
        ours
    }

    /// This board in shakmaty's form.
    pub fn to_shakmaty(&self) -> shakmaty::Board {
        let mut board = shakmaty::Board::empty();
        for (square, piece) in self.iter() {
            board.set_piece_at(square, piece);
        }
        board
    }

    /// Puts `piece` on the empty `square`.
    #[inline(always)]
    pub fn put(&mut self, square: Square, piece: Piece) {
        debug_assert!(self.piece_at(square).is_none(), "{square} taken");
        self.flip(square, piece);
    }

    /// Takes `piece`, which stands on `square`, off the board.
    #[inline(always)]
    pub fn remove(&mut self, square: Square, piece: Piece) {
        debug_assert_eq!(self.piece_at(square), Some(piece));
        self.flip(square, piece);
    }

    /// Moves `piece` from `from` to the empty `to`.
    #[inline(always)]
    pub fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        debug_assert_eq!(self.piece_at(from), Some(piece));
        debug_assert!(self.piece_at(to).is_none(), "{to} taken");
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[piece.role as usize - 1] ^= both;
        self.by_color[piece.color as usize] ^= both;
        self.occupied ^= both;
        self.part_keys[part(piece)] ^=
            zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
    }

    #[inline(always)]
    fn flip(&mut self, square: Square, piece: Piece) {
        let bit = Bitboard::from_square(square);
        self.by_role[piece.role as usize - 1] ^= bit;
        self.by_color[piece.color as usize] ^= bit;
        self.occupied ^= bit;
        self.part_keys[part(piece)] ^= zobrist::piece_key(piece, square);
    }

    /// The pieces' part of the Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        let [black, white, pawns] = self.part_keys;
        black ^ white ^ pawns
    }

    /// The Zobrist key of the pawns of both sides alone.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.part_keys[PAWNS]
    }

    /// The Zobrist key of `color`'s pieces other than pawns (king included).
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.part_keys[color as usize]
    }

    /// Whether the part keys are what the pieces on the board make them,
    /// for debug checks of the incremental updates.
    pub fn part_keys_are_fresh(&self) -> bool {
        let mut fresh = [0u64; 3];
        for (square, piece) in self.iter() {
            fresh[part(piece)] ^= zobrist::piece_key(piece, square);
        }
        fresh == self.part_keys
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize - 1]
    }

    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    #[inline(always)]
    pub fn pawns(&self) -> Bitboard {
        self.by_role(Role::Pawn)
    }

    #[inline(always)]
    pub fn knights(&self) -> Bitboard {
        self.by_role(Role::Knight)
    }

    #[inline(always)]
    pub fn bishops(&self) -> Bitboard {
        self.by_role(Role::Bishop)
    }

    #[inline(always)]
    pub fn rooks(&self) -> Bitboard {
        self.by_role(Role::Rook)
    }

    #[inline(always)]
    pub fn queens(&self) -> Bitboard {
        self.by_role(Role::Queen)
    }

    #[inline(always)]
    pub fn kings(&self) -> Bitboard {
        self.by_role(Role::King)
    }

    #[inline(always)]
    pub fn white(&self) -> Bitboard {
        self.by_color(Color::White)
    }

    #[inline(always)]
    pub fn black(&self) -> Bitboard {
        self.by_color(Color::Black)
    }

    #[inline(always)]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.rooks() | self.queens()
    }

    #[inline(always)]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.bishops() | self.queens()
    }

    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color(color)).single_square()
    }

    #[inline(always)]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let color = self.color_at(square)?;
        Some(self.occupant_role(square).of(color))
    }

    #[inline(always)]
    pub fn role_at(&self, square: Square) -> Option<Role> {
        self.occupied
            .contains(square)
            .then(|| self.occupant_role(square))
    }

    #[inline(always)]
    pub fn color_at(&self, square: Square) -> Option<Color> {
        if self.white().contains(square) {
            Some(Color::White)
        } else if self.black().contains(square) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on the occupied `square`.
    #[inline(always)]
    fn occupant_role(&self, square: Square) -> Role {
        debug_assert!(self.occupied.contains(square));
        [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .into_iter()
        .find(|&role| self.by_role(role).contains(square))
        .unwrap_or(Role::King)
    }

    /// The pieces of `attacker` that attack `square`, with `occupied` as
    /// the squares that block sliders.
    #[inline(always)]
    pub fn attacks_to(&self, square: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color(attacker)
            & ((attacks::rook_attacks(square, occupied) & self.rooks_and_queens())
                | (attacks::bishop_attacks(square, occupied) & self.bishops_and_queens())
                | (attacks::knight_attacks(square) & self.knights())
                | (attacks::king_attacks(square) & self.kings())
                | (attacks::pawn_attacks(!attacker, square) & self.pawns()))
    }

    /// Every piece with its square, from a1 to h8 (shakmaty's order).
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .into_iter()
            .filter_map(|square| self.piece_at(square).map(|piece| (square, piece)))
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // shakmaty's rendering, rank 8 first.
        std::fmt::Debug::fmt(&self.to_shakmaty(), f)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position as _};

    use super::*;

    /// Every read agrees with shakmaty's board, on the bench positions and
    /// their children, and the round trip is exact.
    #[test]
    fn reads_agree_with_shakmaty() {
        let mut boards = 0;
        for pos in crate::bench::positions_and_children() {
            let chess: Chess = pos.to_chess();
            let theirs = chess.board();
            let ours = Board::from_shakmaty(theirs);
            assert_eq!(&ours.to_shakmaty(), theirs);
            assert_eq!(ours.occupied(), theirs.occupied());
            for role in Role::ALL {
                assert_eq!(ours.by_role(role), theirs.by_role(role));
            }
            for color in Color::ALL {
                assert_eq!(ours.by_color(color), theirs.by_color(color));
                assert_eq!(ours.king_of(color), theirs.king_of(color));
            }
            for square in Square::ALL {
                assert_eq!(ours.piece_at(square), theirs.piece_at(square));
                assert_eq!(ours.role_at(square), theirs.role_at(square));
                for color in Color::ALL {
                    let occupied = theirs.occupied();
                    assert_eq!(
                        ours.attacks_to(square, color, occupied),
                        theirs.attacks_to(square, color, occupied)
                    );
                }
            }
            assert!(ours.iter().eq(theirs.iter()));
            assert!(ours.part_keys_are_fresh());
            boards += 1;
        }
        assert!(boards > 500, "{boards}");
    }
}
