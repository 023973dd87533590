//! A long-running engine must not leak: a GUI or lichess-bot keeps one
//! process for hundreds of games.

use std::time::Duration;

use crate::common::uci_engine::Engine;

/// Resident memory of the engine process in KiB, from /proc.
fn resident_kib(engine: &Engine) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.child.id()))
        .expect("read /proc/<pid>/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS line")
}

/// One short game: `ucinewgame`, then ten plies of the engine's own moves.
fn play_game(engine: &mut Engine) {
    engine.send("ucinewgame");
    engine.ready();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..10 {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        engine.send("go nodes 300");
        let (_, best) = engine.bestmove();
        match best.split_whitespace().nth(1) {
            Some(m) if m != "0000" => moves.push(m.to_string()),
            _ => break,
        }
    }
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "reads /proc")]
fn resident_memory_does_not_grow_over_300_games() {
    let mut engine = Engine::start();
    engine.send("setoption name Hash value 1");
    engine.send("setoption name Threads value 2");
    // The first games fault in the tables, the net and the thread stacks.
    for _ in 0..20 {
        play_game(&mut engine);
    }
    std::thread::sleep(Duration::from_millis(50));
    let warm = resident_kib(&engine);
    for _ in 0..300 {
        play_game(&mut engine);
    }
    std::thread::sleep(Duration::from_millis(50));
    let after = resident_kib(&engine);
    // A leak of one small allocation per search would add ~3000 of them; a
    // leaked search thread stack or history table per game far more. Allow
    // some allocator slack.
    assert!(
        after <= warm + 2048,
        "resident memory grew from {warm} KiB to {after} KiB over 300 games"
    );
    eprintln!("resident memory: {warm} KiB after 20 games, {after} KiB after 320");
    engine.finish();
}
