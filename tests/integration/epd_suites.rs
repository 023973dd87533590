//! Test suites scored like a human would read them: Bratko–Kopec at one
//! second a position. Slow and machine-dependent, so ignored by default:
//! `cargo test --release --test epd_suites -- --ignored --nocapture`.

use shakmaty::san::San;
use tarpon::position::Position;
use tarpon::search::{Limits, SearchConfig, SearchControl, TranspositionTable, run_search};

/// Best moves of an EPD line (`bm Qd1+;` or several, `bm Nd5 a4;`), as legal moves.
fn best_moves(pos: &Position, epd: &str) -> Vec<shakmaty::Move> {
    let Some(start) = epd.find(" bm ") else {
        return Vec::new();
    };
    let rest = &epd[start + 4..];
    let list = &rest[..rest.find(';').unwrap_or(rest.len())];
    list.split_whitespace()
        .filter_map(|san| {
            San::from_ascii(san.as_bytes())
                .ok()?
                .to_move(&pos.to_chess())
                .ok()
        })
        .collect()
}

fn movetime_ms() -> u64 {
    std::env::var("TARPON_MOVETIME_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

#[test]
#[ignore]
fn bratko_kopec() {
    let text = std::fs::read_to_string("tests/data/positions/bratko_kopec_test.epd").unwrap();
    let threads = std::env::var("TARPON_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let config = SearchConfig {
        threads,
        ..SearchConfig::default()
    };
    let mut solved = 0;
    let mut total = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen: String = line
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        let pos = Position::from_fen(&fen, false).unwrap();
        let wanted = best_moves(&pos, line);
        assert!(!wanted.is_empty(), "no bm in {line}");
        let tt = TranspositionTable::new(64);
        let limits = Limits {
            movetime_ms: Some(movetime_ms()),
            ..Limits::default()
        };
        let outcome = run_search(
            &pos,
            &limits,
            &config,
            &tt,
            &SearchControl::new(),
            &mut |_| {},
        );
        let best = outcome.best.unwrap();
        let ok = wanted.contains(&best);
        solved += usize::from(ok);
        total += 1;
        let id = line
            .split("id ")
            .nth(1)
            .unwrap_or("")
            .trim_matches(|c| c == '"' || c == ';');
        println!(
            "{id:8} {} played {:6} depth {:2} {}",
            if ok { "ok  " } else { "miss" },
            pos.uci(best),
            outcome.depth,
            fen
        );
    }
    println!(
        "Bratko-Kopec: {solved}/{total} at {} ms a position, {threads} thread(s)",
        movetime_ms()
    );
    assert!(total == 24);
}
