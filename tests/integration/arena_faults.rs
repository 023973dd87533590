//! The arena's fault gate (`--fail-on-faults`, used by `.ci/selfplay`): an
//! engine that reports a caught search panic or dies mid-game fails the match,
//! and the Faults table says who and what.
//!
//! The faulty engines are tarpon behind a shell wrapper, so the games are real
//! and only the fault is staged.

use std::path::{Path, PathBuf};

use crate::common::temp_dir;
use std::process::Command;

const TARPON: &str = env!("CARGO_BIN_EXE_tarpon");

/// Writes an executable `sh` script and returns its path.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A 2-game match of `engine` against plain tarpon with the gate on: the
/// exit status and stdout.
fn gated_match(engine: &Path) -> (bool, String) {
    match_from(engine, "arena/openings/uho_4060_v2_2000.epd")
}

/// The same from the openings of `epd`.
fn match_from(engine: &Path, epd: &str) -> (bool, String) {
    let out = Command::new(TARPON)
        .arg("arena")
        .args([
            "--engine",
            &format!("cmd={}", engine.display()),
            "name=staged",
        ])
        .args(["--engine", &format!("cmd={TARPON}"), "name=plain"])
        .args(["--each", "nodes=400", "option.Hash=4", "option.Eval=pst"])
        .args(["--openings", &format!("file={epd}")])
        .args(["order=sequential", "--games", "2", "--fail-on-faults"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (out.status.success(), stdout)
}

/// The Faults row of `name`: crashes, stalls, time losses, illegal, error
/// reports, drawn ahead.
fn fault_row(stdout: &str, name: &str) -> Vec<u32> {
    let faults = stdout
        .split("Faults:")
        .nth(1)
        .unwrap_or_else(|| panic!("no Faults table in:\n{stdout}"));
    let row = faults
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row for {name} in:\n{stdout}"));
    row.split_whitespace()
        .skip(1)
        .map(|n| n.parse().unwrap())
        .collect()
}

#[test]
fn a_clean_match_passes_the_gate() {
    let dir = temp_dir("faults-clean");
    let engine = script(&dir, "engine.sh", &format!("exec '{TARPON}'"));
    let (ok, stdout) = gated_match(&engine);
    assert!(ok, "{stdout}");
    assert_eq!(fault_row(&stdout, "staged"), [0, 0, 0, 0, 0, 0], "{stdout}");
}

/// tarpon prints exactly this line when it catches a panic in the search
/// (`src/uci/search_job.rs`) and plays a fallback move: the game goes on,
/// so only the gate can notice.
#[test]
fn a_caught_search_panic_fails_the_gate() {
    let dir = temp_dir("faults-panic");
    let engine = script(
        &dir,
        "engine.sh",
        &format!(
            "'{TARPON}' | sed -u 's/^bestmove/info string error: the search failed (injected); \
             playing a fallback move\\nbestmove/'"
        ),
    );
    let (ok, stdout) = gated_match(&engine);
    assert!(!ok, "the gate let an error report through:\n{stdout}");
    let row = fault_row(&stdout, "staged");
    assert!(row[4] > 0, "{stdout}");
    assert_eq!(
        fault_row(&stdout, "plain")[..5],
        [0, 0, 0, 0, 0],
        "{stdout}"
    );
}

#[test]
fn an_engine_that_dies_mid_game_fails_the_gate() {
    let dir = temp_dir("faults-crash");
    // Passes the engine its input until the third `go`, then closes it:
    // tarpon exits at the end of its input, mid-game.
    let engine = script(
        &dir,
        "engine.sh",
        &format!(
            "n=0; while IFS= read -r line; do echo \"$line\"; \
             case \"$line\" in go*) n=$((n+1));; esac; [ $n -ge 3 ] && break; \
             done | '{TARPON}'"
        ),
    );
    let (ok, stdout) = gated_match(&engine);
    assert!(!ok, "the gate let a crash through:\n{stdout}");
    let row = fault_row(&stdout, "staged");
    assert!(row[0] + row[1] > 0, "{stdout}");
}

/// A closed pawn wall across the board: no capture, no pawn move, neither
/// kings nor rooks can cross, so every game from it is drawn by the
/// fifty-move rule or repetition. The staged engine claims +9.00 for every
/// move, so each draw counts as thrown away by it; that is reported but is
/// no fault, so the gate passes. The castling rights make the game long
/// enough for five claims whatever the engines play: every first move of
/// either side spends a right, and a position repeats only among positions
/// with the same rights, so the third occurrence comes eight plies after the
/// second side's first move at the earliest.
#[test]
fn a_draw_with_five_winning_scores_counts_as_drawn_ahead() {
    let dir = temp_dir("faults-drawn-ahead");
    let engine = script(
        &dir,
        "engine.sh",
        &format!("'{TARPON}' | sed -u -E 's/score cp -?[0-9]+/score cp 900/'"),
    );
    let openings = dir.join("fortress.epd");
    std::fs::write(
        &openings,
        "r3k2r/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/8/R3K2R w KQkq -\n",
    )
    .unwrap();
    let (ok, stdout) = match_from(&engine, &openings.to_string_lossy());
    assert!(ok, "{stdout}");
    assert!(stdout.contains("Draws: 2"), "{stdout}");
    assert_eq!(fault_row(&stdout, "staged"), [0, 0, 0, 0, 0, 2], "{stdout}");
}
