//! Coverage-guided fuzzing of the net loader: any bytes must be refused with
//! an error or give a net that evaluates a position, without a panic. Seed
//! the corpus with small real nets (`tarpon random-net --width 16`), as
//! `arena/nightly.sh` does, so mutations reach past the header.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use tarpon::eval::Evaluator;
use tarpon::eval::nnue::{Network, NnueEvaluator};
use tarpon::position::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(net) = Network::from_bytes(data) else {
        return;
    };
    let mut eval = NnueEvaluator::new(Arc::new(net));
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/8/4k3/8/7p/6b1/6Kp/8 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen, false).expect("a valid FEN");
        eval.reset(&pos);
        let _ = eval.evaluate(&pos);
    }
});
