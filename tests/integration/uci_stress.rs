//! Races between the engine loop and its search threads, provoked the way a
//! GUI provokes them: commands sent the moment `bestmove` arrives, `stop`
//! after a few milliseconds, `quit` mid-search, at Threads 2 and 4.
//! Everything must hold every time: exactly one legal `bestmove` per `go`,
//! no option refused once the engine is idle, no error line, a clean exit.

use std::thread;
use std::time::Duration;

use tarpon::position::Position;
use tarpon::rng::SplitMix64;

use crate::common::uci_engine::Engine;

/// A position a few moves into a game, so ponder moves exist.
const MOVES: &str = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6";

fn position() -> Position {
    let mut p = Position::startpos();
    for m in MOVES.split_whitespace() {
        let mv = p.parse_uci(m).expect("legal test move");
        p.make(mv);
    }
    p
}

/// Waits for the one `bestmove` of a `go`, checks it is legal, and returns
/// every line seen up to it.
fn one_bestmove(e: &mut Engine, position: &Position, what: &str) -> Vec<String> {
    let (lines, best) = e.bestmove();
    let mv = best
        .split_whitespace()
        .nth(1)
        .expect("a move after bestmove");
    assert!(position.parse_uci(mv).is_ok(), "{what}: illegal '{best}'");
    lines
}

/// `isready` after the `bestmove`: nothing but `readyok` may come, in
/// particular no second `bestmove` and no error.
fn idle_and_clean(e: &mut Engine, what: &str) {
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("bestmove") && !l.contains("error")),
        "{what}: {lines:?}"
    );
}

fn no_error(lines: &[String], what: &str) {
    assert!(
        lines.iter().all(|l| !l.contains("error")),
        "{what}: {lines:?}"
    );
}

/// The reproduction from the issue: search, and the moment `bestmove`
/// arrives change `Hash` or clear it. Before the fix one try in six to
/// three was refused ("cannot change during a search").
fn hash_right_after_bestmove(threads: u32, tries: usize) {
    let position = position();
    let mut e = Engine::start();
    e.send(&format!("setoption name Threads value {threads}"));
    e.send(&format!("position startpos moves {MOVES}"));
    e.ready();
    for i in 0..tries {
        e.send("go depth 4");
        let lines = one_bestmove(&mut e, &position, "go depth 4");
        no_error(&lines, "go depth 4");
        let option = match i % 3 {
            0 => "setoption name Hash value 32",
            1 => "setoption name Clear Hash",
            _ => "setoption name Hash value 16",
        };
        e.send(option);
        idle_and_clean(&mut e, &format!("try {i}, Threads {threads}: {option}"));
    }
    e.finish();
}

#[test]
fn hash_and_clear_hash_right_after_bestmove_at_two_threads() {
    hash_right_after_bestmove(2, 1000);
}

#[test]
fn hash_and_clear_hash_right_after_bestmove_at_four_threads() {
    hash_right_after_bestmove(4, 1000);
}

/// Every kind of search start and end a GUI produces, in random order.
fn mixed_cycles(threads: u32, cycles: usize, seed: u64) {
    let position = position();
    let mut rng = SplitMix64::new(seed);
    let mut e = Engine::start();
    e.send(&format!("setoption name Threads value {threads}"));
    e.send(&format!("position startpos moves {MOVES}"));
    idle_and_clean(&mut e, "setup");
    for cycle in 0..cycles {
        let what = format!("cycle {cycle}, Threads {threads}");
        let lines = match rng.next_u64() % 5 {
            0 => {
                e.send("go infinite");
                thread::sleep(Duration::from_millis(rng.next_u64() % 6));
                e.send("stop");
                one_bestmove(&mut e, &position, &format!("{what}: infinite/stop"))
            }
            1 => {
                e.send("go ponder wtime 10000 btime 10000");
                thread::sleep(Duration::from_millis(rng.next_u64() % 6));
                e.send("ponderhit");
                e.send("stop");
                one_bestmove(&mut e, &position, &format!("{what}: ponder/ponderhit/stop"))
            }
            2 => {
                e.send("go movetime 5");
                one_bestmove(&mut e, &position, &format!("{what}: movetime 5"))
            }
            3 => {
                e.send("go depth 3");
                e.send("stop");
                one_bestmove(&mut e, &position, &format!("{what}: depth 3/stop"))
            }
            _ => {
                e.send("go depth 2");
                let lines = one_bestmove(&mut e, &position, &format!("{what}: depth 2"));
                e.send("ucinewgame");
                e.send(&format!("position startpos moves {MOVES}"));
                lines
            }
        };
        no_error(&lines, &what);
        // Options right after `bestmove`, as an analysis GUI sends them.
        let option = match rng.next_u64() % 5 {
            0 => format!("setoption name Hash value {}", 1 + rng.next_u64() % 16),
            1 => "setoption name Clear Hash".to_string(),
            2 => format!("setoption name Threads value {threads}"),
            3 => format!("setoption name MultiPV value {}", 1 + rng.next_u64() % 3),
            _ => "setoption name MultiPV value 1".to_string(),
        };
        e.send(&option);
        idle_and_clean(&mut e, &format!("{what}: {option}"));
    }
    e.finish();
}

#[test]
fn mixed_search_cycles_at_two_threads() {
    mixed_cycles(2, 300, 2);
}

#[test]
fn mixed_search_cycles_at_four_threads() {
    mixed_cycles(4, 300, 4);
}

/// `quit` while the search runs: the process ends cleanly, every time.
#[test]
fn quit_mid_search_exits_cleanly() {
    let mut rng = SplitMix64::new(7);
    for i in 0..20 {
        let mut e = Engine::start();
        e.send(&format!("setoption name Threads value {}", 2 + (i % 2) * 2));
        e.send(&format!("position startpos moves {MOVES}"));
        e.send(if i % 2 == 0 {
            "go infinite"
        } else {
            "go depth 30"
        });
        thread::sleep(Duration::from_millis(rng.next_u64() % 6));
        e.finish();
    }
}
