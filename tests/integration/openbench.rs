//! What OpenBench asks of the engine (docs/openbench.md): `genfens` in
//! argument form, fastchess's datagen PGNs turned into records that `tarpon
//! train` reads, and (ignored, slow) the Makefile build from a fresh
//! `git archive` with simultaneous identical benches.

use std::path::Path;
use std::process::{Command, Stdio};

use shakmaty::{CastlingMode, Chess, FromSetup, Position as _, Setup};
use tarpon::train::data::{GameResult, read_records};

use crate::common::{stderr, stdout, tarpon, temp_dir};

/// Games fastchess played between two tarpon builds (8000 and 600 nodes a
/// move) from genfens openings: four decisive (mates), one drawn.
const FIXTURE: &str = "tests/data/openbench/fastchess-datagen.pgn";

#[test]
fn genfens_prints_n_seeded_openings_in_openbench_form() {
    let command = "genfens 5 seed 31337 book None nodes 800";
    let run = || tarpon(&[command, "quit"]);
    let first = run();
    assert!(first.status.success(), "{}", stderr(&first));
    let lines: Vec<String> = stdout(&first).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    for line in &lines {
        let fen = line
            .strip_prefix("info string genfens ")
            .unwrap_or_else(|| panic!("not a genfens line: {line}"));
        let pos = tarpon::position::Position::from_fen(fen, false)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(!pos.legal_moves().is_empty(), "{fen}");
    }
    assert_eq!(
        stdout(&run()),
        stdout(&first),
        "the seed fixes the openings"
    );

    let bad = tarpon(&["genfens 5 seed 1 book tests/data/no-such.epd", "quit"]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("cannot read book"),
        "{}",
        stderr(&bad)
    );
    assert!(stdout(&bad).is_empty());
}

#[test]
fn fastchess_pgns_become_records_that_train_reads() {
    let dir = temp_dir("openbench-convert");
    let data = dir.join("data.bin");
    let data_arg = data.to_str().unwrap();
    let out = tarpon(&["convert", "--out", data_arg, FIXTURE]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        format!(
            "5 games (0 unfinished skipped), 421 scored moves, 266 positions appended to {data_arg}"
        )
    );

    let (records, dropped) = read_records(&data).unwrap();
    assert_eq!((records.len(), dropped), (266, 0));
    let mut results = [0; 3];
    for record in &records {
        let p = record.unpack().unwrap();
        let mut setup = Setup::empty();
        setup.board = p.board.clone();
        setup.turn = p.turn;
        let chess = Chess::from_setup(setup, CastlingMode::Standard).expect("a legal position");
        assert!(!chess.is_check(), "a position in check was kept");
        assert!(
            i32::from(p.score).abs() < 10_000,
            "a mate or known win was kept"
        );
        results[p.result as usize] += 1;
    }
    // Losses, draws, wins: the drawn game's 71 positions are draws.
    assert_eq!(results, [104, 71, 91]);
    assert_eq!(GameResult::Draw as usize, 1);

    let net = dir.join("net.nnue");
    let trained = tarpon(&[
        "train",
        "--data",
        data_arg,
        "--out",
        net.to_str().unwrap(),
        "--hidden",
        "16",
        "--layers",
        "8",
        "8",
        "--epochs",
        "1",
        "--batch",
        "64",
        "--threads",
        "1",
    ]);
    assert!(trained.status.success(), "{}", stderr(&trained));
    assert!(
        stdout(&trained).contains("trained on"),
        "{}",
        stdout(&trained)
    );
    assert!(tarpon::eval::nnue::Network::load(&net).is_ok());
}

#[test]
fn a_malformed_pgn_is_refused_and_nothing_is_written() {
    let dir = temp_dir("openbench-bad-pgn");
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    // The second game's first move made illegal.
    let second = text.match_indices("[Event ").nth(1).unwrap().0;
    let moves = second + text[second..].find("\n\n").unwrap() + 2;
    let mut broken = text.clone();
    broken.replace_range(moves..moves + text[moves..].find(' ').unwrap(), "5. Ke8");
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, broken).unwrap();
    let data = dir.join("data.bin");
    // The good file first: the bad one must stop the run before any writing.
    let out = tarpon(&[
        "convert",
        "--out",
        data.to_str().unwrap(),
        FIXTURE,
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("bad.pgn: game 2: ply 1 'Ke8' is illegal"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(!data.exists(), "a refused run wrote records");

    let missing = tarpon(&["convert", "--out", data.to_str().unwrap(), "no/such.pgn"]);
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("cannot read no/such.pgn"));
}

/// The bench line OpenBench parses: the node count of `<nodes> nodes <nps> nps`.
fn bench_nodes(output: &str) -> u64 {
    let last = output.lines().last().expect("bench prints lines");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (words.len(), words[1], words[3]),
        (4, "nodes", "nps"),
        "{last}"
    );
    words[0].parse().expect("a node count")
}

fn run(command: &mut Command) {
    let status = command.status().expect("the command runs");
    assert!(status.success(), "{command:?} failed");
}

/// OpenBench's build from a zip of the commit: `make -j EXE=<path>` leaves the
/// binary there, `EVALFILE=<net>` embeds another net (and so another bench),
/// and two simultaneous benches agree. Builds twice from scratch (minutes):
/// `cargo test --release --test integration openbench -- --ignored`. It
/// archives HEAD, so commit first.
#[test]
#[ignore]
fn make_from_a_fresh_archive_as_openbench_builds() {
    let dir = temp_dir("openbench-make");
    let zip = dir.join("tarpon.zip");
    run(Command::new("git")
        .args(["archive", "--format=zip", "--prefix=tarpon-src/", "-o"])
        .arg(&zip)
        .arg("HEAD"));
    run(Command::new("unzip")
        .arg("-q")
        .arg(&zip)
        .arg("-d")
        .arg(dir.as_os_str()));
    let src = dir.join("tarpon-src");
    let build = |exe: &Path, evalfile: Option<&Path>| {
        let mut make = Command::new("make");
        make.current_dir(&src)
            .arg("-j")
            .arg(format!("EXE={}", exe.display()));
        if let Some(net) = evalfile {
            make.arg(format!("EVALFILE={}", net.display()));
        }
        let start = std::time::Instant::now();
        run(&mut make);
        assert!(exe.is_file(), "make left no binary at {}", exe.display());
        eprintln!(
            "built {} in {:.0} s",
            exe.display(),
            start.elapsed().as_secs_f64()
        );
    };
    let benches = |exe: &Path| {
        // Both copies start before either is waited for, as OpenBench runs them.
        let running: Vec<_> = (0..2)
            .map(|_| {
                Command::new(exe)
                    .arg("bench")
                    .stdout(Stdio::piped())
                    .spawn()
                    .expect("bench starts")
            })
            .collect();
        let copies: Vec<_> = running
            .into_iter()
            .map(|c| c.wait_with_output().expect("bench runs"))
            .collect();
        let nodes: Vec<u64> = copies
            .iter()
            .map(|o| {
                let out = stdout(o);
                eprintln!(
                    "{} bench: {}",
                    exe.display(),
                    out.lines().last().unwrap_or("")
                );
                bench_nodes(&out)
            })
            .collect();
        assert_eq!(nodes[0], nodes[1], "simultaneous benches disagree");
        nodes[0]
    };
    // The signature the README states (and `.ci/check-bench` enforces).
    let readme = std::fs::read_to_string("README.md").unwrap();
    let signature: u64 = readme
        .lines()
        .find_map(|l| l.strip_prefix("Bench: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("README.md has a 'Bench: N' line");
    let default = dir.join("tarpon-default");
    build(&default, None);
    assert_eq!(benches(&default), signature, "the default net's bench");
    let other_net = std::fs::canonicalize("nets/gen4-halfkp.nnue").unwrap();
    let with_net = dir.join("tarpon-evalfile");
    build(&with_net, Some(&other_net));
    assert_ne!(
        benches(&with_net),
        signature,
        "EVALFILE's net was not embedded"
    );
}
