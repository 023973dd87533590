//! Stockfish's "reprosearch" check: a one-thread search after `ucinewgame` is
//! a pure function of position and node limit, so the same `go nodes N`
//! twice prints the same lines (apart from time, speed and `currmove`).

use crate::common::uci_engine::{Engine, without_clock_fields};

/// A middlegame with tactics, so the trees are not trivial.
const POSITION: &str =
    "position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";

/// The search's output with the fields that depend on the clock removed.
fn search_lines(engine: &mut Engine, nodes: u64) -> Vec<String> {
    engine.send("ucinewgame");
    engine.ready();
    engine.send(POSITION);
    engine.send(&format!("go nodes {nodes}"));
    let (lines, _) = engine.bestmove();
    lines
        .iter()
        // `currmove` lines start after 3 s of search: on a starved machine
        // they come and go with the clock.
        .filter(|line| !line.contains(" currmove "))
        .map(|line| without_clock_fields(line))
        .collect()
}

#[test]
fn the_same_search_twice_prints_the_same_lines() {
    for eval in ["nnue", "pst"] {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name Eval value {eval}"));
        for i in 0..20u64 {
            // 20 node counts from 1 000 to about 60 000, none round.
            let nodes = 1_000 + i * i * 150 + i * 37;
            let first = search_lines(&mut engine, nodes);
            let second = search_lines(&mut engine, nodes);
            assert!(
                first.len() > 1 && first.last().unwrap().starts_with("bestmove"),
                "{first:?}"
            );
            assert_eq!(first, second, "Eval {eval}, go nodes {nodes}");
        }
        engine.finish();
    }
}
