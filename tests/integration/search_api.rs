//! The contract the UCI loop relies on: stop, ponder, node limits, MultiPV,
//! searchmoves, threads, and reproducible bench node counts.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tarpon::bench::bench;
use tarpon::eval::EvalChoice;
use tarpon::position::Position;
use tarpon::search::{
    Limits, Score, SearchConfig, SearchControl, SearchOutcome, TranspositionTable, run_search,
};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1P/PPPBBPPP/R3K2R w KQkq - 0 1";

fn run(
    pos: &Position,
    limits: &Limits,
    config: &SearchConfig,
    control: &SearchControl,
) -> (SearchOutcome, Vec<String>) {
    let tt = TranspositionTable::new(8);
    let mut lines = Vec::new();
    let outcome = run_search(pos, limits, config, &tt, control, &mut |l| {
        lines.push(l.to_string())
    });
    (outcome, lines)
}

#[test]
fn stopped_before_it_starts_still_plays_a_legal_move() {
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    let control = SearchControl::new();
    control.stop();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let (outcome, _) = run(&pos, &limits, &SearchConfig::default(), &control);
    let best = outcome.best.expect("a move");
    assert!(pos.legal_moves().contains(&best));
}

#[test]
fn infinite_search_ends_on_stop() {
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    let control = Arc::new(SearchControl::new());
    let stopper = {
        let control = Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            control.stop();
        })
    };
    let start = Instant::now();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let (outcome, lines) = run(&pos, &limits, &SearchConfig::default(), &control);
    stopper.join().unwrap();
    assert!(start.elapsed() < Duration::from_secs(10));
    assert!(outcome.best.is_some());
    assert!(lines.iter().any(|l| l.starts_with("info depth ")));
}

#[test]
fn ponder_waits_for_ponderhit_before_the_clock_counts() {
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    let control = Arc::new(SearchControl::new());
    let hitter = {
        let control = Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            control.ponderhit();
        })
    };
    let start = Instant::now();
    let limits = Limits {
        ponder: true,
        movetime_ms: Some(50),
        ..Limits::default()
    };
    let (outcome, _) = run(&pos, &limits, &SearchConfig::default(), &control);
    hitter.join().unwrap();
    let elapsed = start.elapsed();
    assert!(elapsed >= Duration::from_millis(300), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
    assert!(outcome.best.is_some());
}

#[test]
fn node_limit_is_exact_and_reproducible_on_one_thread() {
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let control = SearchControl::new();
    let (a, _) = run(&pos, &limits, &SearchConfig::default(), &control);
    let (b, _) = run(&pos, &limits, &SearchConfig::default(), &control);
    assert_eq!(a.nodes, 20_000);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
}

#[test]
fn soft_node_limit_finishes_the_iteration_that_passes_it() {
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    let control = SearchControl::new();
    let config = SearchConfig::default();
    let soft = Limits {
        soft_nodes: Some(5_000),
        ..Limits::default()
    };
    let (a, lines) = run(&pos, &soft, &config, &control);
    let (b, _) = run(&pos, &soft, &config, &control);
    assert!(a.nodes >= 5_000, "stopped at {} nodes", a.nodes);
    assert_eq!((a.nodes, a.best), (b.nodes, b.best), "not reproducible");
    // The last info line is the completed iteration that passed the limit:
    // its node count is the search's, nothing was cut off after it.
    let last = lines
        .iter()
        .rfind(|l| l.contains(" pv "))
        .expect("an info line");
    assert!(last.contains(&format!(" nodes {} ", a.nodes)), "{last}");
    // A hard limit below the soft one still cuts the search off.
    let both = Limits {
        nodes: Some(3_000),
        soft_nodes: Some(5_000),
        ..Limits::default()
    };
    assert_eq!(run(&pos, &both, &config, &control).0.nodes, 3_000);
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    let config = SearchConfig {
        multipv: 3,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let (outcome, lines) = run(&pos, &limits, &config, &SearchControl::new());
    assert_eq!(outcome.lines.len(), 3);
    let firsts: Vec<_> = outcome.lines.iter().map(|l| l.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    let cp = |s: Score| match s {
        Score::Cp(c) => c,
        Score::Mate(m) => 100_000 * m.signum(),
    };
    assert!(cp(outcome.lines[0].score) >= cp(outcome.lines[1].score));
    assert!(cp(outcome.lines[1].score) >= cp(outcome.lines[2].score));
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 6 ") && l.contains(&format!(" multipv {k} ")))
        );
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = Position::startpos();
    let only = pos.parse_uci("a2a3").unwrap();
    let limits = Limits {
        depth: Some(5),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let (outcome, _) = run(
        &pos,
        &limits,
        &SearchConfig::default(),
        &SearchControl::new(),
    );
    assert_eq!(outcome.best, Some(only));
}

#[test]
fn info_lines_carry_the_uci_fields() {
    let pos = Position::startpos();
    let config = SearchConfig {
        show_wdl: true,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let (outcome, lines) = run(&pos, &limits, &config, &SearchControl::new());
    let last = lines.last().unwrap();
    for field in [
        " depth 5 ",
        " seldepth ",
        " multipv 1 ",
        " score cp ",
        " wdl ",
        " nodes ",
        " nps ",
        " hashfull ",
        " tbhits ",
        " time ",
        " pv ",
    ] {
        assert!(last.contains(field), "{field} missing from {last}");
    }
    assert_eq!(outcome.depth, 5);
    assert!(outcome.ponder.is_some());
}

#[test]
fn two_threads_find_the_same_mate() {
    let pos = Position::from_fen(
        "r4kr1/1b2R1n1/pq4p1/4Q3/1p4P1/5P2/PPP4P/1K2R3 w - - 1 1",
        false,
    )
    .unwrap();
    let config = SearchConfig {
        threads: 2,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let (outcome, _) = run(&pos, &limits, &config, &SearchControl::new());
    assert_eq!(outcome.lines[0].score, Score::Mate(2));
    assert_eq!(pos.uci(outcome.best.unwrap()), "e7f7");
}

#[test]
fn helpers_reach_the_depth_limit_and_the_result_is_reported_last() {
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    for threads in [2, 3] {
        let config = SearchConfig {
            threads,
            multipv: 2,
            ..SearchConfig::default()
        };
        let limits = Limits {
            depth: Some(9),
            ..Limits::default()
        };
        let (outcome, lines) = run(&pos, &limits, &config, &SearchControl::new());
        assert_eq!(outcome.depth, 9, "{threads} threads");
        assert_eq!(outcome.lines.len(), 2);
        let best = outcome.best.expect("a move");
        assert!(pos.legal_moves().contains(&best));
        // Whichever thread completed depth 9, its lines are the last ones printed.
        let last = lines.last().expect("info lines");
        assert!(
            last.starts_with("info depth 9 ") && last.contains("multipv 2"),
            "{last}"
        );
        let first = &lines[lines.len() - 2];
        assert!(first.contains("multipv 1"), "{first}");
        let pv_move = first
            .split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split(' ').next());
        assert_eq!(pv_move, Some(pos.uci(best).as_str()), "{first}");
    }
}

#[test]
fn clock_limits_are_respected() {
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    let limits = Limits {
        wtime_ms: Some(1000),
        btime_ms: Some(1000),
        winc_ms: Some(10),
        ..Limits::default()
    };
    let start = Instant::now();
    let (outcome, _) = run(
        &pos,
        &limits,
        &SearchConfig::default(),
        &SearchControl::new(),
    );
    assert!(outcome.best.is_some());
    // Hard limit is a third of what is left; generous slack for a loaded machine.
    assert!(
        start.elapsed() < Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
    // No time at all still yields a move.
    let limits = Limits {
        wtime_ms: Some(-50),
        ..Limits::default()
    };
    let (outcome, _) = run(
        &pos,
        &limits,
        &SearchConfig::default(),
        &SearchControl::new(),
    );
    assert!(outcome.best.is_some());
}

#[test]
fn bench_node_count_is_reproducible() {
    let a = bench(5, 1, 4, &EvalChoice::Pst, &mut |_| {});
    let b = bench(5, 1, 4, &EvalChoice::Pst, &mut |_| {});
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes > 0);
}

#[test]
fn absurd_hash_sizes_are_refused() {
    let mut tt = TranspositionTable::new(1);
    assert!(tt.resize(usize::MAX / 2).is_err());
    assert!(tt.resize(4).is_ok());
    assert_eq!(tt.hashfull(), 0);
}
