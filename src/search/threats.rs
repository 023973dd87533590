//! What the side not to move attacks, worked out once per node: where each
//! kind of piece would stand in reach of a cheaper enemy piece (quiet
//! ordering), and every attacked square (the butterfly history's index).

use shakmaty::{Bitboard, Move, Role, attacks};

use crate::position::Snapshot;

/// What ordering adds for a quiet move that takes a piece out of reach of a
/// cheaper attacker, and takes away for one that walks into such reach.
const THREAT_QUEEN: i32 = 24_000;
const THREAT_ROOK: i32 = 12_000;
const THREAT_MINOR: i32 = 8_000;
/// The largest adjustment, either way.
pub const THREAT_MAX: i32 = THREAT_QUEEN;

/// The squares the opponent attacks with pawns, with pieces worth less than a
/// rook, with pieces worth less than a queen (where a knight or bishop, a
/// rook, and a queen would stand en prise to a cheaper piece), and with
/// anything. Empty (the default) where nothing was worked out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    by_pawns: Bitboard,
    by_minors: Bitboard,
    by_rooks: Bitboard,
    all: Bitboard,
}

impl Threats {
    pub fn new(chess: &Snapshot) -> Threats {
        let board = chess.board();
        let them = board.by_color(!chess.turn());
        let occupied = board.occupied();
        let mut by_pawns = Bitboard::EMPTY;
        for sq in board.pawns() & them {
            by_pawns |= attacks::pawn_attacks(!chess.turn(), sq);
        }
        let mut by_minors = by_pawns;
        for sq in board.knights() & them {
            by_minors |= attacks::knight_attacks(sq);
        }
        for sq in board.bishops() & them {
            by_minors |= attacks::bishop_attacks(sq, occupied);
        }
        let mut by_rooks = by_minors;
        for sq in board.rooks() & them {
            by_rooks |= attacks::rook_attacks(sq, occupied);
        }
        let mut all = by_rooks;
        for sq in board.queens() & them {
            all |= attacks::queen_attacks(sq, occupied);
        }
        for sq in board.kings() & them {
            all |= attacks::king_attacks(sq);
        }
        Threats {
            by_pawns,
            by_minors,
            by_rooks,
            all,
        }
    }

    /// The ordering bonus (escaping) or malus (walking into reach) for quiet `m`.
    #[inline]
    pub fn adjustment(&self, m: Move) -> i32 {
        let (reach, worth) = match m.role() {
            Role::Queen => (self.by_rooks, THREAT_QUEEN),
            Role::Rook => (self.by_minors, THREAT_ROOK),
            Role::Knight | Role::Bishop => (self.by_pawns, THREAT_MINOR),
            Role::Pawn | Role::King => return 0,
        };
        match (
            reach.contains(m.from().expect("a quiet move has a from square")),
            reach.contains(m.to()),
        ) {
            (true, false) => worth,
            (false, true) => -worth,
            _ => 0,
        }
    }

    /// Which of the four butterfly tables `from`→`to` belongs to: whether
    /// the piece stands attacked, and whether it goes to an attacked square.
    #[inline]
    pub fn butterfly_table(&self, from: shakmaty::Square, to: shakmaty::Square) -> usize {
        2 * usize::from(self.all.contains(from)) + usize::from(self.all.contains(to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// Black: pawn d5 (attacks c4, e4), knight f6 (d5, d7, e4, e8, g4, g8,
    /// h5, h7), rook a8 (down the a-file to the queen on a2), king e8.
    const FEN: &str = "r3k3/8/5n2/3p4/2N5/8/Q5B1/4K2R w - - 0 1";

    fn adjustment(uci: &str) -> i32 {
        let pos = Position::from_fen(FEN, false).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        Threats::new(pos.snapshot()).adjustment(m)
    }

    #[test]
    fn each_piece_counts_the_cheaper_attackers_only() {
        // The knight escapes the pawn; the bishop walks into its reach.
        assert_eq!(adjustment("c4e3"), THREAT_MINOR);
        assert_eq!(adjustment("g2e4"), -THREAT_MINOR);
        // The rook walks into the knight's reach, or stays out of any.
        assert_eq!(adjustment("h1h5"), -THREAT_ROOK);
        assert_eq!(adjustment("h1h3"), 0);
        // The queen attacked by the rook leaves its file, or stays on it.
        assert_eq!(adjustment("a2b3"), THREAT_QUEEN);
        assert_eq!(adjustment("a2a7"), 0);
        // Kings are not adjusted.
        assert_eq!(adjustment("e1d2"), 0);
    }

    #[test]
    fn butterfly_tables_split_moves_by_attacked_origin_and_target() {
        let pos = Position::from_fen(FEN, false).unwrap();
        let t = Threats::new(pos.snapshot());
        let sq = |name: &str| name.parse::<shakmaty::Square>().unwrap();
        assert_eq!(t.butterfly_table(sq("c4"), sq("e3")), 2);
        assert_eq!(t.butterfly_table(sq("c4"), sq("e4")), 3);
        assert_eq!(t.butterfly_table(sq("g2"), sq("e4")), 1);
        assert_eq!(t.butterfly_table(sq("g2"), sq("f3")), 0);
        // Every attacker counts here, the king too (f7 is only his).
        assert_eq!(t.butterfly_table(sq("g2"), sq("f7")), 1);
        assert_eq!(Threats::default().butterfly_table(sq("c4"), sq("e4")), 0);
    }
}
