//! Bad FENs and bad command lines give clear errors, never a panic.

use std::process::Command;

use tarpon::position::{Position, START_FEN};

/// Each bad FEN with a word the error message must contain.
const BAD_FENS: [(&str, &str); 12] = [
    ("", "malformed"),
    ("hello world", "malformed"),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "malformed",
    ),
    (
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "malformed",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "malformed",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - zero 1",
        "malformed",
    ),
    (
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "king is missing",
    ),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "king is missing"),
    (
        "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
        "pawns on the first or eighth rank",
    ),
    ("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "not to move is in check"),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling rights"),
    ("4kk2/8/8/8/8/8/8/4K3 w - - 0 1", "more than one king"),
];

#[test]
fn bad_fens_are_errors_with_reasons() {
    for (fen, reason) in BAD_FENS {
        for chess960 in [false, true] {
            let err = Position::from_fen(fen, chess960).unwrap_err().to_string();
            assert!(err.contains(reason), "{fen:?}: {err}");
        }
    }
}

#[test]
fn a_huge_garbage_fen_gives_a_short_error() {
    let garbage = "ü".repeat(100_000);
    let err = Position::from_fen(&garbage, false).unwrap_err().to_string();
    assert!(err.len() < 400, "{}", err.len());
}

#[test]
fn forgivable_fens_are_accepted() {
    // Missing move counters (EPD), an en-passant square with no capture.
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1  ",
    ] {
        assert!(Position::from_fen(fen, false).is_ok(), "{fen}");
    }
}

#[test]
fn fen_round_trips_including_chess960_rights() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "1rk4r/8/8/8/8/8/8/1RK4R w KQkq - 0 1",
        "rkr5/8/8/8/8/8/8/RKR5 w CAca - 0 1",
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        let again = Position::from_fen(&pos.fen(), pos.is_chess960()).unwrap();
        assert_eq!(again.fen(), pos.fen());
        assert_eq!(again.key(), pos.key());
    }
    // X-FEN `KQkq` and Shredder-FEN `HBhb` name the same rooks.
    let xfen = Position::from_fen("1rk4r/8/8/8/8/8/8/1RK4R w KQkq - 0 1", true).unwrap();
    let shredder = Position::from_fen("1rk4r/8/8/8/8/8/8/1RK4R w HBhb - 0 1", true).unwrap();
    assert_eq!(xfen.key(), shredder.key());
    assert_eq!(xfen.legal_moves().len(), shredder.legal_moves().len());
}

#[test]
fn bad_uci_moves_are_errors() {
    let pos = Position::startpos();
    for text in ["", "e2e5", "e7e5", "e1g1", "zz99", "e2e4q", "0000"] {
        assert!(pos.parse_uci(text).is_err(), "{text}");
    }
    assert!(pos.parse_uci("e2e4").is_ok());
}

fn tarpon(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tarpon"))
        .args(args)
        .output()
        .expect("run tarpon");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_command_rejects_bad_input_cleanly() {
    let mut cases: Vec<Vec<&str>> = BAD_FENS
        .iter()
        .map(|(fen, _)| vec!["perft", "2", "--fen", fen])
        .collect();
    cases.extend([
        vec!["perft", "0"],
        vec!["perft", "13"],
        vec!["perft", "-1"],
        vec!["perft", "three"],
        vec!["perft"],
        vec!["perft", "2", "--threads", "0"],
        vec!["perft", "2", "--hash", "99999999"],
        vec!["perft", "2", "--hash", "-5"],
    ]);
    for args in cases {
        let (code, stdout, stderr) = tarpon(&args);
        assert_ne!(code, 0, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn perft_command_prints_counts() {
    let (code, stdout, _) = tarpon(&["perft", "4"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("Nodes searched: 197281\n"), "{stdout}");
    assert!(stdout.contains("Mnps"), "{stdout}");

    let (code, stdout, _) = tarpon(&["perft", "3", "--divide", "--hash", "0", "--threads", "1"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\ng1f3: 440\n"), "{stdout}");
    assert!(stdout.contains("\n\nNodes searched: 8902\n\n"), "{stdout}");
}

#[test]
fn datagen_refuses_more_random_plies_than_a_game_can_take() {
    let dir = crate::common::temp_dir("datagen-random-plies");
    let out = dir.join("never.bin");
    let out = out.to_str().expect("utf-8 path");
    for plies in ["201", "100000", "4294967295"] {
        let (code, stdout, stderr) = tarpon(&[
            "datagen",
            "--games",
            "1",
            "--nodes",
            "100",
            "--random-plies",
            plies,
            "--out",
            out,
        ]);
        assert_ne!(code, 0, "--random-plies {plies} was accepted");
        assert!(stdout.is_empty(), "{plies}: {stdout}");
        assert!(stderr.contains("random-plies"), "{plies}: {stderr}");
        assert!(!stderr.contains("panicked"), "{plies}: {stderr}");
    }
    assert!(!std::path::Path::new(out).exists(), "datagen wrote a file");
}
