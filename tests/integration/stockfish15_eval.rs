//! tarpon's evaluation with Stockfish 15.1's own net against Stockfish 15.1
//! itself. Needs the Debian `stockfish` package (/usr/games/stockfish), so
//! it is ignored by default; run it with
//!
//! ```text
//! cargo test --release --test stockfish15_eval -- --ignored --nocapture
//! ```
//!
//! The net is cut out of the binary (as `tarpon extract-net` does), so
//! nothing of it is stored in the repository. Positions: the bench positions
//! and, from each, a few plies of a seeded random game that tarpon follows
//! incrementally. For each, Stockfish's `eval` prints "NNUE evaluation +x.xx
//! (white side)": its internal value / 361 (`NormalizeToPawnValue`) with two
//! decimals; tarpon's value goes through the same scaling and must agree
//! within 0.01 (1 cp); the test reports how many agree exactly.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;

use shakmaty::Color;
use tarpon::eval::Evaluator;
use tarpon::eval::nnue::extract::find_embedded_net;
use tarpon::eval::nnue::{Network, NnueEvaluator};
use tarpon::eval::report::stockfish15_eval_pawns;
use tarpon::position::Position;
use tarpon::rng::SplitMix64;

const STOCKFISH: &str = "/usr/games/stockfish";
const BENCH_FENS: &str = "src/bench-fens.txt";
/// Random plies played from each bench position.
const PLIES: usize = 8;

/// The "NNUE evaluation" Stockfish prints for each position (`None` when it
/// prints none: positions in check).
fn stockfish_nnue_evals(fens: &[String]) -> Vec<Option<f64>> {
    let mut child = Command::new(STOCKFISH)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start stockfish");
    {
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "uci").unwrap();
        for fen in fens {
            writeln!(stdin, "position fen {fen}\neval").unwrap();
        }
        writeln!(stdin, "quit").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // Every `eval` ends with a "Final evaluation" line; the NNUE line, when
    // there is one, comes just before it.
    let mut evals = Vec::new();
    let mut nnue = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("NNUE evaluation") {
            let number = rest.split_whitespace().next().unwrap();
            nnue = Some(number.parse::<f64>().unwrap());
        } else if line.starts_with("Final evaluation") {
            evals.push(nnue.take());
        }
    }
    assert_eq!(evals.len(), fens.len(), "one eval per position");
    evals
}

#[test]
#[ignore = "needs /usr/games/stockfish (Stockfish 15.1); see docs/nnue.md"]
fn tarpon_evaluates_stockfish15_nets_as_stockfish15_does() {
    let binary = std::fs::read(STOCKFISH).expect("read /usr/games/stockfish");
    let (_, bytes, _) = find_embedded_net(&binary).expect("an embedded Stockfish 15.1 net");
    let net = Arc::new(Network::from_bytes(bytes).unwrap());
    println!("net: {}", net.architecture());
    assert!(net.to_bytes() == bytes, "written back byte for byte");

    // Positions, with tarpon's value for each from an evaluator that follows
    // the random game incrementally.
    let text = std::fs::read_to_string(BENCH_FENS).expect("bench positions");
    let mut rng = SplitMix64::new(15);
    let mut fens = Vec::new();
    let mut values = Vec::new();
    let mut ev = NnueEvaluator::new(net.clone());
    for fen in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let mut pos = Position::from_fen(fen, false).unwrap();
        ev.reset(&pos);
        for ply in 0..=PLIES {
            let value = ev.raw_output(&pos) / net.output_scale;
            fens.push(pos.fen());
            values.push(if pos.turn() == Color::White {
                value
            } else {
                -value
            });
            let moves = pos.legal_moves();
            if ply == PLIES || moves.is_empty() {
                break;
            }
            let changes = pos.make(moves[rng.below(moves.len())]);
            ev.push(&pos, &changes);
        }
    }

    let stockfish = stockfish_nnue_evals(&fens);
    let (mut compared, mut exact) = (0, 0);
    for ((fen, &value), sf) in fens.iter().zip(&values).zip(&stockfish) {
        let Some(sf) = sf else { continue };
        compared += 1;
        let ours = stockfish15_eval_pawns(value);
        if ours.parse::<f64>().unwrap() == *sf {
            exact += 1;
        } else {
            println!("differs: stockfish {sf:+.2}, tarpon {ours} (value {value}) at {fen}");
        }
        assert!(
            (f64::from(value) / 361.0 - sf).abs() <= 0.01 + 0.005,
            "more than 1 cp apart: stockfish {sf:+.2}, tarpon {ours} (value {value}) at {fen}"
        );
    }
    println!(
        "{exact} of {compared} positions agree exactly ({} in check, where Stockfish prints no NNUE evaluation)",
        fens.len() - compared
    );
    assert!(compared > 200, "only {compared} positions compared");
}
