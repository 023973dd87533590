//! The evaluation scaled by the pieces left on the board.
//!
//! The same advantage in centipawns wins less often once the pieces are
//! traded: fewer pieces, fewer ways to convert. The search therefore sees
//! a net's score multiplied by `(BASE + material) / ONE`, where
//! material counts both sides' knights, bishops, rooks and queens (not
//! pawns, not kings): a little above 1 with every piece on the board
//! (1.07), 0.81 with none. Several engines do this (Stormphrax and
//! Viridithas publish these weights); here it gained +17.7 ± 12.8 Elo at
//! 5000 nodes a move (docs/search.md, "Techniques by SPRT").

use crate::position::Board;

/// The divisor: a factor of `ONE / ONE` leaves the evaluation as it is.
const ONE: i32 = 32_768;
/// The factor's numerator with no pieces but kings and pawns.
const BASE: i32 = 26_500;
const KNIGHT: i32 = 450;
const BISHOP: i32 = 450;
const ROOK: i32 = 650;
const QUEEN: i32 = 1_250;

/// `eval` (centipawns, either side's view) scaled by the material on `board`.
pub fn scale(board: &Board, eval: i32) -> i32 {
    let count = |pieces: shakmaty::Bitboard| pieces.count() as i32;
    let material = KNIGHT * count(board.knights())
        + BISHOP * count(board.bishops())
        + ROOK * count(board.rooks())
        + QUEEN * count(board.queens());
    // Promotions can add material, but never past a factor of two.
    debug_assert!(BASE + material < 2 * ONE, "{material}");
    eval * (BASE + material) / ONE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn board(fen: &str) -> Board {
        Position::from_fen(fen, false)
            .unwrap()
            .snapshot()
            .board()
            .clone()
    }

    #[test]
    fn full_material_raises_and_bare_pawns_lower_the_evaluation() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(scale(&start, 1000), 1000 * (BASE + 8700) / ONE);
        assert!(scale(&start, 1000) > 1000);
        let pawns = board("4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1");
        assert_eq!(scale(&pawns, 1000), 808);
        assert_eq!(scale(&pawns, -1000), -808, "symmetric in sign");
        assert_eq!(scale(&pawns, 0), 0);
    }

    #[test]
    fn the_search_scales_by_material_only_where_the_evaluator_asks() {
        use crate::eval::{Evaluator, as_search_sees, pst::PstEvaluator};
        let pos = Position::from_fen("r3k3/pppp4/8/8/8/8/4PPPP/R3K3 w - - 0 1", false).unwrap();
        let scaled = scale(pos.snapshot().board(), 300);
        assert_ne!(scaled, 300);
        assert_eq!(as_search_sees(pos.snapshot(), 300, true), scaled);
        assert_eq!(as_search_sees(pos.snapshot(), 300, false), 300);
        // The playing levels search with the PST and were fitted unscaled.
        assert!(!PstEvaluator::new().scaled_by_material());
        use crate::eval::nnue::{NnueEvaluator, features::FeatureSet, random::random_network};
        let net = random_network(FeatureSet::HalfKAv2Hm, 32, &[16, 16], 1, 5).unwrap();
        assert!(NnueEvaluator::new(std::sync::Arc::new(net)).scaled_by_material());
    }

    #[test]
    fn more_pieces_never_scale_less() {
        let fens = [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/R2QK3 w - - 0 1",
            "3qk3/8/8/8/8/8/8/R2QK3 w - - 0 1",
        ];
        let scaled: Vec<i32> = fens.iter().map(|f| scale(&board(f), 500)).collect();
        assert!(scaled.windows(2).all(|w| w[0] < w[1]), "{scaled:?}");
    }
}
