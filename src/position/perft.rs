//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, the
//! standard correctness check for move generation and make/unmake.

use shakmaty::Move;

use super::Position;

/// Leaf count to `depth`, counting the last ply in bulk (the length of the
/// legal move list) instead of playing it.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    match depth {
        0 => 1,
        1 => moves.len() as u64,
        _ => moves
            .iter()
            .map(|&m| {
                pos.make(m);
                let n = perft(pos, depth - 1);
                pos.unmake();
                n
            })
            .sum(),
    }
}

/// Leaf counts below each root move, in move generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    pos.legal_moves()
        .iter()
        .map(|&m| {
            pos.make(m);
            let n = perft(pos, depth - 1);
            pos.unmake();
            (m, n)
        })
        .collect()
}
