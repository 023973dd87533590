//! Whether a move gives check, decided from bitboards without playing it:
//! the search asks for every quiet move it considers pruning.

use shakmaty::{Bitboard, Move, Role, Square, attacks};

use crate::position::Snapshot;
use crate::position::movegen::slider_blockers;

/// What a node's moves need to tell checks, worked out once: the enemy
/// king, the squares each kind of piece checks it from, and our pieces
/// that alone block one of our sliders from it. The search asks about many
/// moves of a node, so this pays from the second question on.
pub struct CheckSquares {
    king: Square,
    /// Indexed by `Role as usize`; the king never gives check itself.
    direct: [Bitboard; 7],
    discoverers: Bitboard,
}

impl CheckSquares {
    pub fn new(chess: &Snapshot) -> CheckSquares {
        let board = chess.board();
        let us = chess.turn();
        let king = board.king_of(!us).expect("king in standard chess");
        let occupied = board.occupied();
        let diagonal = attacks::bishop_attacks(king, occupied);
        let straight = attacks::rook_attacks(king, occupied);
        let mut direct = [Bitboard(0); 7];
        direct[Role::Pawn as usize] = attacks::pawn_attacks(!us, king);
        direct[Role::Knight as usize] = attacks::knight_attacks(king);
        direct[Role::Bishop as usize] = diagonal;
        direct[Role::Rook as usize] = straight;
        direct[Role::Queen as usize] = diagonal | straight;

        let ours = board.by_color(us);
        let discoverers = slider_blockers(board, ours, king) & ours;
        CheckSquares {
            king,
            direct,
            discoverers,
        }
    }

    /// Whether `m`, legal in `chess` (the position this was made for), gives
    /// check. A piece that moves without promoting checks from its target
    /// square (the square it leaves cannot open its own line: it would have
    /// given check already) or by leaving a line it alone blocked.
    ///
    /// Forced inline: the search asks it for every quiet left once pruning
    /// starts, and out of line the call cost a third of the answer.
    #[inline(always)]
    pub fn gives_check(&self, chess: &Snapshot, m: Move) -> bool {
        debug_assert_eq!(
            chess.board().king_of(!chess.turn()),
            Some(self.king),
            "check squares of another position"
        );
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                self.direct[role as usize].contains(to)
                    || (self.discoverers.contains(from) && !attacks::aligned(from, to, self.king))
            }
            _ => gives_check(chess, m),
        }
    }
}

/// Whether `m`, legal in `chess`, gives check: the board after it worked
/// out in full. For a single move, and for the rare moves the squares above
/// do not settle (promotions, en passant, castling).
pub fn gives_check(chess: &Snapshot, m: Move) -> bool {
    let (from, to, role) = match m {
        Move::Normal {
            from,
            to,
            role,
            promotion,
            ..
        } => (from, to, promotion.unwrap_or(role)),
        // Rare moves that move two pieces or empty a third square: play them.
        Move::EnPassant { .. } | Move::Castle { .. } | Move::Put { .. } => {
            let mut after = chess.clone();
            after.play(m);
            return after.is_check();
        }
    };
    let board = chess.board();
    let us = chess.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let moved = Bitboard::from_square(from);
    let arrived = Bitboard::from_square(to);
    let occupied = (board.occupied() & !moved) | arrived;
    // Our pieces of each kind after the move (a capture only removes theirs).
    let ours = |r: Role| {
        let stay = board.by_color(us) & board.by_role(r) & !moved;
        if r == role { stay | arrived } else { stay }
    };
    let diagonal = ours(Role::Bishop) | ours(Role::Queen);
    let straight = ours(Role::Rook) | ours(Role::Queen);
    (attacks::pawn_attacks(!us, king) & ours(Role::Pawn)).any()
        || (attacks::knight_attacks(king) & ours(Role::Knight)).any()
        || (attacks::bishop_attacks(king, occupied) & diagonal).any()
        || (attacks::rook_attacks(king, occupied) & straight).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// Agrees with playing the move on every legal move of varied positions.
    fn agrees_with_playing_each_move(pos: &Position) -> usize {
        let mut checks = 0;
        let squares = CheckSquares::new(pos.snapshot());
        for m in pos.legal_moves() {
            let mut after = pos.snapshot().clone();
            after.play(m);
            assert_eq!(
                gives_check(pos.snapshot(), m),
                after.is_check(),
                "{} {}",
                pos.fen(),
                pos.uci(m)
            );
            assert_eq!(
                squares.gives_check(pos.snapshot(), m),
                after.is_check(),
                "check squares: {} {}",
                pos.fen(),
                pos.uci(m)
            );
            checks += usize::from(after.is_check());
        }
        checks
    }

    #[test]
    fn agrees_with_playing_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r4kr1/1b2R1n1/pq4p1/4Q3/1p4P1/5P2/PPP4P/1K2R3 w - - 1 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            "3k4/8/8/3B4/8/8/3R4/3K4 w - - 0 1",
            // A discovered check; promotions
            // that check through the square they leave.
            "4k3/8/8/4N3/8/8/1B2R3/K7 w - - 0 1",
            "8/1P6/8/8/8/8/8/1k2K3 w - - 0 1",
        ];
        for fen in fens {
            agrees_with_playing_each_move(&Position::from_fen(fen, false).unwrap());
        }
    }

    /// Every legal move of the bench positions and of the positions one
    /// move later.
    #[test]
    fn agrees_with_playing_the_move_in_bench_positions() {
        let checks: usize = crate::bench::positions_and_children()
            .iter()
            .map(agrees_with_playing_each_move)
            .sum();
        assert!(checks > 1000, "only {checks} checking moves");
    }
}
