//! Whether a move gives check, decided from bitboards without playing it:
//! the search asks for every quiet move it considers pruning.

use shakmaty::{Bitboard, Chess, Move, Position as _, Role, attacks};

pub fn gives_check(chess: &Chess, m: Move) -> bool {
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
            after.play_unchecked(m);
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
        for m in pos.legal_moves() {
            let mut after = pos.chess().clone();
            after.play_unchecked(m);
            assert_eq!(
                gives_check(pos.chess(), m),
                after.is_check(),
                "{} {}",
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
