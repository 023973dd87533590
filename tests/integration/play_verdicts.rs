//! The learner's verdicts at fixed depth (reproducible): a master's strong
//! move is not called a mistake, a move that allows mate is a blunder, and
//! the only move that keeps the result is "great".

use tarpon::eval::EvalChoice;
use tarpon::explain::game::Label;
use tarpon::explain::game::verdict::{Budget, judge};
use tarpon::position::Position;

fn verdict(fen: &str, mv: &str, depth: u32) -> tarpon::explain::game::verdict::Verdict {
    let pos = Position::from_fen(fen, false).expect("test FEN");
    let played = pos.parse_uci(mv).expect("test move");
    judge(&pos, played, Budget::Depth(depth), EvalChoice::default()).expect("a verdict")
}

#[test]
fn morphys_nc3_in_the_opera_game_is_no_mistake() {
    // Before 8.Nc3 (docs/opera-game.pgn): Stockfish ranks it second, 30 cp
    // behind 8.Qxb7; `explain game --depth 8` used to call it a blunder.
    // The page reaches depth 10 or more in its 600 ms on a loaded 2-core
    // machine. Fixed-depth trees wobble near the line: since correction
    // history (54e4af1) depth 9 says inaccuracy (8.7 points), depth 10
    // mistake (11.5), depths 11 to 14 good (2.1 to 4.4); at depth 8 the
    // re-search called it a mistake (10.7) before. Depths 11 to 13 are
    // where the page's verdicts are meant to be settled.
    let fen = "rn2kb1r/ppp1qppp/5n2/4p3/2B1P3/1Q6/PPP2PPP/RNB1K2R w KQkq - 4 8";
    for depth in [11, 12, 13] {
        let v = verdict(fen, "b1c3", depth);
        assert!(
            matches!(v.label, Label::Best | Label::Good | Label::Inaccuracy),
            "depth {depth}: {:?} (loss {:.1})",
            v.label,
            v.loss
        );
    }
}

#[test]
fn allowing_mate_is_a_blunder_and_the_only_defence_is_great() {
    let v = verdict(
        "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
        "g2g4",
        6,
    );
    assert_eq!(v.label, Label::Blunder);
    // The queen checks from f2 undefended: only Kxf2 keeps White winning.
    let only = verdict("4k3/8/8/8/8/8/5q2/4K2R w - - 0 1", "e1f2", 6);
    assert_eq!(only.label, Label::Best);
    assert!(
        only.only_move,
        "taking the queen is the only move: {only:?}"
    );
}
