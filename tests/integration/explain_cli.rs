//! `tarpon explain` from the command line: output for good input, a clear
//! message and a non-zero exit for bad input.

use std::process::Output;

use crate::common::{stderr, stdout, tarpon, temp_dir};

#[test]
fn the_same_seed_prints_the_same_maze() {
    let args = [
        "explain", "maze", "--width", "12", "--height", "6", "--seed", "9", "--algo", "bfs",
    ];
    let (a, b) = (tarpon(&args), tarpon(&args));
    assert!(a.status.success());
    // Everything but the timing column is identical.
    let strip = |o: &Output| {
        stdout(o)
            .lines()
            .filter(|l| !l.starts_with("bfs "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
    let other = tarpon(&[
        "explain", "maze", "--width", "12", "--height", "6", "--seed", "10", "--algo", "bfs",
    ]);
    assert_ne!(strip(&a), strip(&other));
}

#[test]
fn bad_maze_input_fails_clearly() {
    let dir = temp_dir("maze");
    let ragged = dir.join("ragged.txt");
    std::fs::write(&ragged, "#####\n#S.G#\n###\n").unwrap();
    let o = tarpon(&["explain", "maze", "--file", ragged.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("line 3 has 3 characters"),
        "{}",
        stderr(&o)
    );

    let o = tarpon(&[
        "explain",
        "maze",
        "--file",
        dir.join("missing.txt").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));

    for bad in [
        &["--preset", "nope"][..],
        &["--loops", "1.5"],
        &["--width", "0"],
    ] {
        let o = tarpon(&[&["explain", "maze"][..], bad].concat());
        assert!(!o.status.success(), "{bad:?}");
        assert!(stderr(&o).starts_with("error"), "{bad:?}: {}", stderr(&o));
    }
}

#[test]
fn tree_prints_a_summary_and_rejects_bad_input() {
    let o = tarpon(&[
        "explain",
        "tree",
        "--depth",
        "2",
        "--algo",
        "minimax,alphabeta,pvs",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for name in ["minimax", "alphabeta", "pvs", "vs minimax"] {
        assert!(out.contains(name), "{out}");
    }
    let o = tarpon(&["explain", "tree", "--depth", "2", "--json"]);
    assert!(stdout(&o).starts_with("{\"fen\":"), "{}", stdout(&o));
    let o = tarpon(&["explain", "tree", "--depth", "2", "--dot"]);
    assert!(stdout(&o).starts_with("digraph"), "{}", stdout(&o));

    for bad in [
        &["--fen", "not a fen"][..],
        &["--depth", "0"],
        &["--depth", "2", "--path", "e5"],
        &[
            "--depth",
            "2",
            "--eval",
            "nnue",
            "--net",
            "/nonexistent/net.nnue",
        ],
        &["--depth", "2", "--net", "/nonexistent/net.nnue"],
        &["--depth", "2", "--algo", "all", "--dot"],
        &["--depth", "2", "--tau", "-1", "--algo", "soft"],
    ] {
        let o = tarpon(&[&["explain", "tree"][..], bad].concat());
        assert!(!o.status.success(), "{bad:?}");
        assert!(stderr(&o).starts_with("error"), "{bad:?}: {}", stderr(&o));
    }
}

#[test]
fn trace_and_game_run_and_reject_bad_input() {
    let o = tarpon(&["explain", "trace", "--depth", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("search trace") && stdout(&o).contains("contribution"));

    let dir = temp_dir("game");
    let good = dir.join("good.pgn");
    std::fs::write(&good, "1. f3 e5 2. g4 Qh4# 0-1\n").unwrap();
    let annotated = dir.join("out.pgn");
    let o = tarpon(&[
        "explain",
        "game",
        "--pgn",
        good.to_str().unwrap(),
        "--depth",
        "3",
        "--out",
        annotated.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pgn = std::fs::read_to_string(&annotated).unwrap();
    assert!(pgn.contains("2. g4 $4"), "{pgn}");
    assert!(stdout(&o).contains("most contested squares"));

    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "1. e4 e5 2. Ke3 *\n").unwrap();
    for args in [
        vec!["explain", "game", "--pgn", bad.to_str().unwrap()],
        vec![
            "explain",
            "game",
            "--pgn",
            dir.join("missing.pgn").to_str().unwrap(),
        ],
        vec!["explain", "trace", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        vec!["explain", "trace", "--depth", "0"],
    ] {
        let o = tarpon(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).starts_with("error"), "{args:?}: {}", stderr(&o));
    }
}
