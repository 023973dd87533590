//! Coverage-guided fuzzing of FEN parsing: any bytes must either be refused
//! with an error or give a position whose own FEN parses again and whose
//! legal moves can all be made and taken back, without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tarpon::eval::Evaluator;
use tarpon::eval::pst::PstEvaluator;
use tarpon::position::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for chess960 in [false, true] {
        let Ok(mut pos) = Position::from_fen(&text, chess960) else {
            continue;
        };
        let fen = pos.fen();
        let again = Position::from_fen(&fen, chess960)
            .unwrap_or_else(|e| panic!("our own FEN {fen} is refused: {e}"));
        assert_eq!(again.fen(), fen);
        let mut eval = PstEvaluator::new();
        eval.reset(&pos);
        let _ = eval.evaluate(&pos);
        for m in pos.legal_moves() {
            let changes = pos.make(m);
            eval.push(&pos, &changes);
            let _ = eval.evaluate(&pos);
            eval.pop();
            pos.unmake();
        }
        assert_eq!(pos.fen(), fen);
    }
});
