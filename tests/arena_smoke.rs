//! Smoke matches: tarpon against itself at fixed nodes (always run), the
//! PGN checked against the final table; python-chess and real engines from
//! /usr/games in #[ignore]d tests.

use std::path::PathBuf;
use std::process::Command;

const ARENA: &str = env!("CARGO_BIN_EXE_tarpon");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tarpon-smoke-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `Wins: W, Draws: D, Losses: L` from the table.
fn table_wdl(stdout: &str) -> (u32, u32, u32) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Games: "))
        .unwrap_or_else(|| panic!("no table in:\n{stdout}"));
    let number = |key: &str| -> u32 {
        let rest = &line[line.find(key).unwrap() + key.len()..];
        rest.split(',').next().unwrap().trim().parse().unwrap()
    };
    (number("Wins: "), number("Draws: "), number("Losses: "))
}

/// W/D/L of `engine` counted from the PGN's tags.
fn pgn_wdl(pgn: &str, engine: &str) -> (u32, u32, u32) {
    let mut wdl = (0, 0, 0);
    for game in pgn.split("[Event ").skip(1) {
        let tag = |name: &str| {
            let start = format!("[{name} \"");
            let line = game.lines().find(|l| l.starts_with(&start)).unwrap();
            line[start.len()..line.len() - 2].to_string()
        };
        let white = tag("White") == engine;
        match (tag("Result").as_str(), white) {
            ("1/2-1/2", _) => wdl.1 += 1,
            ("1-0", true) | ("0-1", false) => wdl.0 += 1,
            _ => wdl.2 += 1,
        }
    }
    wdl
}

fn tarpon_match(dir: &std::path::Path, games: u32) -> (String, String) {
    let pgn = dir.join("smoke.pgn");
    let out = Command::new(ARENA)
        .args([
            "arena",
            "--engine",
            "tarpon:pst",
            "name=alpha",
            "--engine",
            "tarpon:pst",
            "name=beta",
        ])
        .args(["--each", "nodes=1500", "option.Hash=8"])
        .args([
            "--openings",
            "file=arena/openings/uho_4060_v2_2000.epd",
            "order=random",
            "seed=7",
        ])
        .args(["--games", &games.to_string(), "--concurrency", "2"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (stdout, std::fs::read_to_string(&pgn).unwrap())
}

#[test]
fn tarpon_self_match_pgn_agrees_with_table() {
    let dir = temp_dir("self");
    let (stdout, pgn) = tarpon_match(&dir, 4);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(pgn.matches("[Event ").count(), 4, "{pgn}");
    let (w, d, l) = table_wdl(&stdout);
    assert_eq!(w + d + l, 4);
    assert_eq!(pgn_wdl(&pgn, "alpha"), (w, d, l), "{stdout}\n{pgn}");
    for tag in [
        "Site",
        "Date",
        "Round",
        "TimeControl \"nodes=1500\"",
        "Termination",
        "SetUp \"1\"",
        "FEN",
        "PlyCount",
    ] {
        assert_eq!(pgn.matches(&format!("[{tag}")).count(), 4, "{tag}");
    }
    // No game of tarpon against itself ends by a forfeit.
    assert!(
        !pgn.contains("time forfeit")
            && !pgn.contains("rules infraction")
            && !pgn.contains("abandoned")
    );
}

/// Replays every game with python-chess: legal moves, PlyCount, and for
/// games ended by the rules the same result; then the same W/D/L as the
/// arena's table. Run with `cargo test --release -- --ignored python`.
#[test]
#[ignore = "needs python3 with python-chess"]
fn tarpon_self_match_pgn_parses_in_python_chess() {
    let dir = temp_dir("python");
    let (stdout, _) = tarpon_match(&dir, 6);
    let script = r#"
import sys, chess.pgn
wdl = [0, 0, 0]
with open(sys.argv[1]) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        assert not game.errors, game.errors
        board = game.end().board()
        h = game.headers
        assert int(h["PlyCount"]) == len(list(game.mainline_moves()))
        if h["Termination"] == "normal":
            outcome = board.outcome(claim_draw=True)
            assert outcome is not None and outcome.result() == h["Result"], (h, outcome)
        white = h["White"] == "alpha"
        r = h["Result"]
        if r == "1/2-1/2": wdl[1] += 1
        elif (r == "1-0") == white: wdl[0] += 1
        else: wdl[2] += 1
print(*wdl)
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(dir.join("smoke.pgn"))
        .output()
        .expect("python3");
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let counts: Vec<u32> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let (w, d, l) = table_wdl(&stdout);
    assert_eq!(counts, vec![w, d, l]);
}

/// Two real UCI engines from /usr/games at fixed depth/nodes.
/// Run with `cargo test --release -- --ignored usr_games`.
#[test]
#[ignore = "needs /usr/games/stockfish and /usr/games/glaurung"]
fn usr_games_uci_smoke_match() {
    let dir = temp_dir("usr-games");
    let pgn = dir.join("g.pgn");
    let out = Command::new(ARENA)
        .args([
            "arena",
            "--engine",
            "cmd=/usr/games/stockfish",
            "name=Stockfish",
            "nodes=2000",
        ])
        .args([
            "--engine",
            "cmd=/usr/games/glaurung",
            "name=Glaurung",
            "depth=4",
        ])
        .args([
            "--openings",
            "file=arena/openings/8moves_v3_400.pgn",
            "--games",
            "4",
            "--pgn",
        ])
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "{stdout}");
    assert_eq!(pgn_wdl(&text, "Stockfish"), table_wdl(&stdout));
    assert!(
        !text.contains("abandoned") && !text.contains("rules infraction"),
        "{text}"
    );
}

/// The xboard adapter against Fairy-Max and Phalanx on a clock.
/// Run with `cargo test --release -- --ignored xboard`.
#[test]
#[ignore = "needs /usr/games/fairymax and /usr/games/phalanx"]
fn usr_games_xboard_smoke_match() {
    let dir = temp_dir("xboard");
    let pgn = dir.join("x.pgn");
    let out = Command::new(ARENA)
        .args([
            "arena",
            "--engine",
            "cmd=/usr/games/fairymax",
            "proto=xboard",
            "name=Fairy-Max",
        ])
        .args([
            "--engine",
            "cmd=/usr/games/phalanx",
            "proto=xboard",
            "name=Phalanx",
        ])
        .args([
            "--each",
            "tc=2+0.05",
            "--openings",
            "file=arena/openings/uho_4060_v2_2000.epd",
        ])
        .args(["--games", "2", "--pgn"])
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "{stdout}");
    assert_eq!(pgn_wdl(&text, "Fairy-Max"), table_wdl(&stdout));
    assert!(
        !text.contains("abandoned") && !text.contains("rules infraction"),
        "{text}"
    );
}
