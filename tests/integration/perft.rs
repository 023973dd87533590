//! Perft through tarpon's own Position (make/unmake, Zobrist keys, Chess960
//! castling) against the counts of `tests/data/perft/`.
//!
//! The quick tests run in `cargo test --release`; every depth of both files
//! runs with `cargo test --release -- --ignored`.

use crate::common::{PerftCase, SUITE, SUITE_960, load_perft_cases};
use tarpon::perft::{self, Settings};
use tarpon::position::Position;

/// Counts up to this many leaves are checked with the plain counter (one
/// thread, no table) in the default test run.
const PLAIN_LIMIT: u64 = 3_000_000;
/// Counts up to this many leaves are checked with threads and the table in
/// the default test run.
const HASHED_LIMIT: u64 = 30_000_000;

fn position(case: &PerftCase, chess960: bool) -> Position {
    Position::from_fen(&case.fen, chess960).unwrap_or_else(|e| panic!("suite FEN rejected: {e}"))
}

fn check_plain(path: &str, chess960: bool) {
    for case in load_perft_cases(path) {
        let mut pos = position(&case, chess960);
        for &(depth, expected) in case.counts.iter().filter(|c| c.1 <= PLAIN_LIMIT) {
            assert_eq!(
                perft::perft(&mut pos, depth),
                expected,
                "{} depth {depth}",
                case.fen
            );
            assert_eq!(pos.game_ply(), 0, "perft left moves on the stack");
        }
    }
}

fn check_hashed(path: &str, chess960: bool, limit: u64) {
    for case in load_perft_cases(path) {
        let pos = position(&case, chess960);
        for &(depth, expected) in case.counts.iter().filter(|c| c.1 <= limit) {
            let result = perft::run(&pos, depth, &Settings::default()).unwrap();
            assert_eq!(result.nodes, expected, "{} depth {depth}", case.fen);
        }
    }
}

#[test]
fn suite_plain() {
    check_plain(SUITE, false);
}

#[test]
fn chess960_plain() {
    check_plain(SUITE_960, true);
}

#[test]
fn chess960_suite_detected_without_the_flag() {
    // Shredder-FEN rights that only make sense in Chess960 switch it on.
    for case in load_perft_cases(SUITE_960) {
        let mut pos = position(&case, false);
        assert!(pos.is_chess960(), "{}", case.fen);
        let (depth, expected) = case.counts[2];
        assert_eq!(perft::perft(&mut pos, depth), expected, "{}", case.fen);
    }
}

#[test]
fn suite_hashed_and_threaded() {
    check_hashed(SUITE, false, HASHED_LIMIT);
}

#[test]
fn chess960_hashed_and_threaded() {
    check_hashed(SUITE_960, true, HASHED_LIMIT);
}

#[test]
#[ignore = "minutes: every depth of perft-suite.epd"]
fn suite_full_depth() {
    check_hashed(SUITE, false, u64::MAX);
}

#[test]
#[ignore = "minutes: every depth of perft960.epd"]
fn chess960_full_depth() {
    check_hashed(SUITE_960, true, u64::MAX);
}

/// The real Kiwipete (Peter McKenzie's position, knight on e5 and a black pawn
/// on h3) and the misquote found in issue 3 (no knight on e5, a white pawn on
/// h3), which is the suite's second line: both are checked.
#[test]
fn kiwipete_and_its_misquote() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let misquote = "r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1P/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut pos = Position::from_fen(kiwipete, false).unwrap();
    for (depth, expected) in [(1, 48), (2, 2039), (3, 97862), (4, 4085603)] {
        assert_eq!(perft::perft(&mut pos, depth), expected);
    }
    let run = |fen, depth| {
        let pos = Position::from_fen(fen, false).unwrap();
        perft::run(&pos, depth, &Settings::default()).unwrap().nodes
    };
    assert_eq!(run(kiwipete, 5), 193_690_690);
    assert_eq!(run(misquote, 5), 131_518_335);
}

#[test]
fn threads_and_table_do_not_change_any_count() {
    let fens = [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            4,
        ),
        (
            "1k1qnrbb/rpppnpp1/1B3p2/8/p6p/3N2P1/PPPPP2P/RK1QNR1B b Af - 0 8",
            4,
        ),
    ];
    for (fen, depth) in fens {
        let pos = Position::from_fen(fen, false).unwrap();
        let plain = perft::divide(&mut pos.clone(), depth);
        let plain: Vec<(String, u64)> = plain.iter().map(|&(m, n)| (pos.uci(m), n)).collect();
        for (threads, hash_mb) in [(1, Some(0)), (2, Some(0)), (1, Some(16)), (2, None)] {
            let result = perft::run(&pos, depth, &Settings { threads, hash_mb }).unwrap();
            assert_eq!(
                result.moves, plain,
                "{fen} threads {threads} hash {hash_mb:?}"
            );
            assert_eq!(result.nodes, plain.iter().map(|r| r.1).sum::<u64>());
        }
    }
}

#[test]
fn a_small_table_under_constant_replacement_still_counts_right() {
    // 64k entries for about half a million interior nodes, shared by two
    // threads: most stores overwrite another and races happen; verification
    // must keep every count exact.
    let pos = Position::startpos();
    let settings = Settings {
        threads: 2,
        hash_mb: Some(1),
    };
    assert_eq!(perft::run(&pos, 6, &settings).unwrap().nodes, 119_060_324);
}

#[test]
fn report_prints_stockfish_go_perft_format() {
    let pos = Position::startpos();
    let mut out = Vec::new();
    let nodes = perft::report(&pos, 2, &Settings::default(), &mut out).unwrap();
    assert_eq!(nodes, 400);
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20 + 3);
    assert!(lines[..20].iter().all(|l| l.ends_with(": 20")), "{text}");
    assert!(lines.contains(&"e2e4: 20"));
    assert_eq!(&lines[20..], ["", "Nodes searched: 400", ""]);
}

#[test]
fn chess960_castling_is_written_king_takes_rook() {
    let pos = Position::from_fen("1rk4r/8/8/8/8/8/8/1RK4R w HBhb - 0 1", false).unwrap();
    let result = perft::run(&pos, 1, &Settings::default()).unwrap();
    let moves: Vec<&str> = result.moves.iter().map(|(m, _)| m.as_str()).collect();
    assert!(moves.contains(&"c1b1"), "{moves:?}");
    assert!(moves.contains(&"c1h1"), "{moves:?}");
}

#[test]
fn out_of_range_settings_are_errors() {
    let pos = Position::startpos();
    for (depth, threads, hash_mb) in [
        (0, 1, None),
        (perft::MAX_DEPTH + 1, 1, None),
        (3, 0, None),
        (3, 1, Some(perft::MAX_HASH_MB + 1)),
    ] {
        let settings = Settings { threads, hash_mb };
        let err = perft::run(&pos, depth, &settings).unwrap_err();
        assert!(!err.to_string().is_empty());
    }
}

/// Runs Stockfish's `go perft` on `fen` and returns its divide lines, sorted.
fn stockfish_divide(fen: &str, depth: u32, chess960: bool) -> Vec<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("/usr/games/stockfish")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("this test needs /usr/games/stockfish");
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "setoption name UCI_Chess960 value {chess960}").unwrap();
    writeln!(input, "position fen {fen}\ngo perft {depth}\nquit").unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

#[test]
#[ignore = "needs Stockfish 15.1 in /usr/games"]
fn divide_output_matches_stockfish_line_for_line() {
    let cases = [(SUITE, false), (SUITE_960, true)];
    for (path, chess960) in cases {
        for case in load_perft_cases(path).iter().step_by(3) {
            let pos = position(case, chess960);
            let result = perft::run(&pos, 3, &Settings::default()).unwrap();
            let mut ours: Vec<String> = result
                .moves
                .iter()
                .map(|(m, n)| format!("{m}: {n}"))
                .collect();
            ours.sort();
            assert_eq!(
                ours,
                stockfish_divide(&case.fen, 3, chess960),
                "{}",
                case.fen
            );
        }
    }
}
