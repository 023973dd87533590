//! Search behaviour on known positions: mates with the right distance,
//! stalemate, repetition and fifty-move draws, bench determinism.

use std::fs;

use tarpon::position::Position;
use tarpon::search::{
    Limits, Score, SearchConfig, SearchControl, SearchOutcome, TranspositionTable, run_search,
};

fn search(pos: &Position, limits: Limits) -> (SearchOutcome, Vec<String>) {
    let tt = TranspositionTable::new(16);
    let control = SearchControl::new();
    let mut lines = Vec::new();
    let outcome = run_search(
        pos,
        &limits,
        &SearchConfig::default(),
        &tt,
        &control,
        &mut |l| lines.push(l.to_string()),
    );
    (outcome, lines)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn fens(file: &str) -> Vec<String> {
    let text = fs::read_to_string(format!("../shared/data/positions/{file}"))
        .unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Checks the score is mate in `n` and the PV, played out, ends in checkmate
/// after `n` moves of ours. Returns what is wrong, if anything.
fn pv_mate_problem(fen: &str, outcome: &SearchOutcome, n: i32) -> Option<String> {
    let line = &outcome.lines[0];
    if line.score != Score::Mate(n) {
        return Some(format!(
            "{fen}: score {:?} at depth {}",
            line.score, outcome.depth
        ));
    }
    let mut pos = Position::from_fen(fen, false).unwrap();
    for &m in &line.pv {
        if !pos.legal_moves().contains(&m) {
            return Some(format!("{fen}: illegal pv move"));
        }
        pos.make(m);
    }
    if !(pos.is_check() && pos.legal_moves().is_empty()) || line.pv.len() as i32 != 2 * n - 1 {
        return Some(format!("{fen}: pv {:?} is not a mate in {n}", line.pv));
    }
    None
}

/// Positions of the mate files that are not mates in exactly N (checked with Stockfish).
fn mate_exceptions() -> Vec<(String, String)> {
    include_str!("data/mate-exceptions.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.split('\t');
            (
                cols.next().unwrap().to_string(),
                cols.next().unwrap().to_string(),
            )
        })
        .collect()
}

fn mate_suite(file: &str, n: i32, limit: usize) {
    let skip = mate_exceptions();
    let positions: Vec<String> = fens(file)
        .into_iter()
        .filter(|f| !skip.iter().any(|(sf, sfen)| sf == file && sfen == f))
        .collect();
    assert!(!positions.is_empty());
    let mut problems = Vec::new();
    for fen in positions.iter().take(limit) {
        let pos = Position::from_fen(fen, false).unwrap();
        let (outcome, _) = search(
            &pos,
            Limits {
                mate: Some(n as u32),
                depth: Some(2 * n as u32 + 6),
                ..Limits::default()
            },
        );
        problems.extend(pv_mate_problem(fen, &outcome, n));
    }
    assert!(
        problems.is_empty(),
        "{} of {}:\n{}",
        problems.len(),
        positions.len().min(limit),
        problems.join("\n")
    );
}

#[test]
fn finds_mates_in_one() {
    mate_suite("mate1.fen", 1, usize::MAX);
}

#[test]
fn finds_mates_in_two() {
    mate_suite("mate2.fen", 2, usize::MAX);
}

#[test]
fn finds_mates_in_three() {
    mate_suite("mate3.fen", 3, usize::MAX);
}

#[test]
fn finds_mates_in_four() {
    mate_suite("mate4.fen", 4, usize::MAX);
}

#[test]
#[ignore]
fn debug_print() {
    let fen = std::env::var("FEN").unwrap();
    let d: u32 = std::env::var("DEPTH").unwrap().parse().unwrap();
    let pos = Position::from_fen(&fen, false).unwrap();
    let (_, lines) = search(&pos, depth(d));
    for l in lines {
        println!("{l}");
    }
}

/// Re-derives the exception list with Stockfish (needs /usr/games/stockfish).
#[test]
#[ignore]
fn mate_exceptions_agree_with_stockfish() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut sf = Command::new("/usr/games/stockfish")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("stockfish installed");
    let mut input = sf.stdin.take().unwrap();
    let mut output = BufReader::new(sf.stdout.take().unwrap());
    let skip = mate_exceptions();
    for n in 1..=4 {
        let file = format!("mate{n}.fen");
        for fen in fens(&file) {
            writeln!(input, "position fen {fen}\ngo depth {}", 2 * n + 6).unwrap();
            let mut last = String::new();
            loop {
                let mut line = String::new();
                output.read_line(&mut line).unwrap();
                if line.starts_with("bestmove") {
                    break;
                }
                if line.contains(" score ") {
                    last = line;
                }
            }
            let exact = last.contains(&format!("score mate {n} "));
            let listed = skip.iter().any(|(f, s)| *f == file && *s == fen);
            assert_eq!(!exact, listed, "{file} {fen}: {last}");
        }
    }
    writeln!(input, "quit").unwrap();
}
