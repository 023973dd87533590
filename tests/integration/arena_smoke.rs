//! Smoke matches: tarpon against itself at fixed nodes (always run), the
//! PGN checked against the final table; python-chess and real engines from
//! /usr/games in #[ignore]d tests.

use crate::common::temp_dir;
use std::process::Command;

const ARENA: &str = env!("CARGO_BIN_EXE_tarpon");

/// Run `tarpon arena ARGS --pgn <temp>` and return its stdout and PGN; the
/// match must succeed.
fn run_arena(name: &str, args: &[&str]) -> (String, String) {
    let dir = temp_dir(&format!("smoke-{name}"));
    let pgn = dir.join("games.pgn");
    let out = Command::new(ARENA)
        .arg("arena")
        .args(args)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (stdout, text)
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

/// tarpon against itself at fixed nodes, random UHO openings, two at once.
fn tarpon_match(games: &str) -> (String, String) {
    run_arena(
        &format!("self-{games}"),
        &[
            "--engine",
            "tarpon:pst",
            "name=alpha",
            "--engine",
            "tarpon:pst",
            "name=beta",
            "--each",
            "nodes=1500",
            "option.Hash=8",
            "--openings",
            "file=arena/openings/uho_4060_v2_2000.epd",
            "order=random",
            "seed=7",
            "--games",
            games,
            "--concurrency",
            "2",
        ],
    )
}

#[test]
fn tarpon_self_match_pgn_agrees_with_table() {
    let (stdout, pgn) = tarpon_match("4");
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
    let (stdout, pgn) = tarpon_match("6");
    let script = r#"
import sys, io, chess.pgn
wdl = [0, 0, 0]
f = io.StringIO(sys.stdin.read())
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
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pgn.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
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

/// A match must agree with its PGN and contain no crash or infraction.
fn assert_clean(stdout: &str, pgn: &str, first: &str) {
    assert_eq!(pgn_wdl(pgn, first), table_wdl(stdout), "{stdout}");
    assert!(
        !pgn.contains("abandoned") && !pgn.contains("rules infraction"),
        "{pgn}"
    );
}

/// Two real UCI engines from /usr/games at fixed depth/nodes.
/// Run with `cargo test --release -- --ignored usr_games`.
#[test]
#[ignore = "needs /usr/games/stockfish and /usr/games/glaurung"]
fn usr_games_uci_smoke_match() {
    let (stdout, pgn) = run_arena(
        "usr-games",
        &[
            "--engine",
            "cmd=/usr/games/stockfish",
            "name=Stockfish",
            "nodes=2000",
            "--engine",
            "cmd=/usr/games/glaurung",
            "name=Glaurung",
            "depth=4",
            "--openings",
            "file=arena/openings/8moves_v3_400.pgn",
            "--games",
            "4",
        ],
    );
    assert_clean(&stdout, &pgn, "Stockfish");
}

/// The xboard adapter against Fairy-Max (no setboard: `edit` set-up) and
/// Phalanx (setboard) on a clock. Run with `cargo test --release -- --ignored xboard`.
#[test]
#[ignore = "needs /usr/games/fairymax and /usr/games/phalanx"]
fn usr_games_xboard_smoke_match() {
    let (stdout, pgn) = run_arena(
        "xboard",
        &[
            "--engine",
            "cmd=/usr/games/fairymax",
            "proto=xboard",
            "name=Fairy-Max",
            "--engine",
            "cmd=/usr/games/phalanx",
            "proto=xboard",
            "name=Phalanx",
            "--each",
            "tc=2+0.05",
            "--openings",
            "file=arena/openings/uho_4060_v2_2000.epd",
            "--games",
            "2",
        ],
    );
    assert_clean(&stdout, &pgn, "Fairy-Max");
}

/// Three tarpon instances, round-robin, Chess960 openings, concurrency 2:
/// the schedule, the UCI_Chess960 path and the standings table.
#[test]
fn chess960_round_robin_of_three() {
    let (stdout, pgn) = run_arena(
        "960",
        &[
            "--variant",
            "fischerandom",
            "--round-robin",
            "--engine",
            "tarpon:pst",
            "name=a",
            "--engine",
            "tarpon:pst",
            "name=b",
            "--engine",
            "tarpon:pst",
            "name=c",
            "--each",
            "nodes=400",
            "option.Hash=4",
            "--openings",
            "file=arena/openings/frc_960.epd",
            "order=random",
            "seed=3",
            "--games",
            "2",
            "--concurrency",
            "2",
        ],
    );
    assert_eq!(pgn.matches("[Variant \"Chess960\"]").count(), 6, "{pgn}");
    assert_eq!(stdout.matches("Results of ").count(), 3, "{stdout}");
    assert!(stdout.contains("Rank Name"), "{stdout}");
    // Each engine plays 4 of the 6 games, 2 with each colour.
    for name in ["a", "b", "c"] {
        assert_eq!(
            pgn.matches(&format!("[White \"{name}\"]")).count(),
            2,
            "{pgn}"
        );
        assert_eq!(
            pgn.matches(&format!("[Black \"{name}\"]")).count(),
            2,
            "{pgn}"
        );
    }
    assert!(
        !pgn.contains("abandoned") && !pgn.contains("rules infraction"),
        "{pgn}"
    );
}

/// The SPRT stops a lopsided match long before its planned length.
#[test]
fn sprt_stops_early() {
    let (stdout, _) = run_arena(
        "sprt",
        &[
            "--engine",
            "tarpon:pst",
            "name=strong",
            "nodes=3000",
            "--engine",
            "tarpon:pst",
            "name=weak",
            "nodes=1",
            "--each",
            "option.Hash=4",
            "--openings",
            "file=arena/openings/8moves_v3_400.pgn",
            "order=random",
            "seed=5",
            "--games",
            "2",
            "--rounds",
            "100",
            "--sprt",
            "elo0=0",
            "elo1=20",
        ],
    );
    assert!(stdout.contains("H1 (elo1) accepted"), "{stdout}");
    let (w, d, l) = table_wdl(&stdout);
    assert!(w + d + l < 100, "{stdout}");
}
