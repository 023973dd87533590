//! The UCI protocol, tested by driving the built binary over stdin/stdout
//! like a GUI does. Every wait has a timeout, so a hang fails the test
//! instead of stalling the suite.

use std::thread;
use std::time::{Duration, Instant};

use crate::common::uci_engine::{Engine, without_clock_fields};

use tarpon::position::Position;
use tarpon::rng::SplitMix64;

fn position_after(moves: &[&str]) -> Position {
    let mut p = Position::startpos();
    for m in moves {
        let mv = p.parse_uci(m).expect("legal test move");
        p.make(mv);
    }
    p
}

#[test]
fn uci_handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until_line("uciok");
    assert!(lines[0].starts_with("id name tarpon"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "Hash type spin",
        "Threads type spin",
        "MultiPV type spin",
        "Ponder type check",
        "Move Overhead type spin",
        "Clear Hash type button",
        "Eval type combo",
        "EvalFile type string",
        "SyzygyPath type string",
        "UCI_Chess960 type check",
        "UCI_ShowWDL type check",
        "UCI_LimitStrength type check",
        "UCI_Elo type spin",
        "Skill Level type spin",
    ] {
        let wanted = format!("option name {option}");
        assert!(
            lines.iter().any(|l| l.starts_with(&wanted)),
            "missing {wanted}"
        );
    }
    assert!(e.ready().is_empty());
    e.finish();
}

#[test]
fn debug_mode_reports_the_limits() {
    let mut e = Engine::start();
    e.send("debug on");
    e.send("position startpos");
    e.send("go depth 2");
    let (lines, _) = e.bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string debug: Limits")),
        "{lines:?}"
    );
    e.send("debug off");
    e.send("go depth 2");
    let (lines, _) = e.bestmove();
    assert!(
        !lines.iter().any(|l| l.starts_with("info string debug")),
        "{lines:?}"
    );
    e.finish();
}

#[test]
fn uci_subcommand_runs_the_loop() {
    let mut e = Engine::start_with(&["uci"]);
    e.send("uci");
    e.until_line("uciok");
    e.finish();
}

#[test]
fn end_of_input_quits() {
    let mut e = Engine::start();
    e.send("isready");
    e.until_line("readyok");
    e.wait_exit();
}

#[test]
fn position_and_display() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 c7c5 g1f3");
    let lines = e.display();
    let fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    assert!(lines.contains(&format!("Fen: {fen}")), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Key: ") && l.len() == 21)
    );
    assert!(lines.contains(&" | r | n | b | q | k | b | n | r | 8".to_string()));

    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1P/PPPBBPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {kiwipete} moves e1g1"));
    let lines = e.display();
    assert!(
        lines.iter().any(|l| l
            .starts_with("Fen: r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1P/PPPBBPPP/R4RK1 b kq - 1 1")),
        "{lines:#?}"
    );

    // In check: the checker is named.
    e.send("position startpos moves e2e4 e7e5 d1h5 f7f6 h5e8");
    e.send("position startpos moves f2f3 e7e5 e1f2 d8h4");
    let lines = e.display();
    assert_eq!(lines.last().map(String::as_str), Some("Checkers: h4"));
    e.finish();
}

#[test]
fn go_with_each_limit_gives_one_legal_bestmove() {
    let mut e = Engine::start();
    let start = Position::startpos();
    e.send("position startpos");
    for go in [
        "go depth 3",
        "go nodes 5000",
        "go movetime 100",
        "go wtime 2000 btime 2000",
        "go wtime 2000 btime 2000 winc 100 binc 100",
        "go wtime 5000 btime 5000 movestogo 3",
        "go mate 2 movetime 200",
    ] {
        e.go_legal(&start, go);
        let extra = e.ready();
        assert!(
            !extra.iter().any(|l| l.starts_with("bestmove")),
            "{go}: {extra:?}"
        );
    }
    let after = position_after(&["e2e4"]);
    e.send("position startpos moves e2e4");
    e.go_legal(&after, "go btime 1000 wtime 1000 binc 10 winc 10");
    e.finish();
}

#[test]
fn searchmoves_restrict_the_root() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 4 searchmoves a2a3 h2h3");
    let (_, best) = e.bestmove();
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    assert!(mv == "a2a3" || mv == "h2h3", "{best}");
    e.finish();
}

#[test]
fn info_lines_report_the_search() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos");
    e.send("go depth 5");
    let (lines, _) = e.bestmove();
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(!infos.is_empty(), "{lines:#?}");
    for needed in [
        "depth",
        "seldepth",
        "multipv 3",
        "score",
        "wdl",
        "nodes",
        "nps",
        "time",
        "pv",
    ] {
        assert!(
            infos
                .iter()
                .any(|l| l.split(" pv ").next().unwrap_or("").contains(needed)),
            "no '{needed}' in {infos:#?}"
        );
    }
    e.finish();
}

#[test]
fn infinite_search_waits_for_stop_and_answers_isready() {
    let mut e = Engine::start();
    e.send("position startpos moves d2d4");
    e.send("go infinite");
    let early = e.quiet_for(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    // isready during the search is answered at once, without a bestmove.
    let before = e.ready();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    e.send("stop");
    let (_, best) = e.bestmove();
    let position = position_after(&["d2d4"]);
    let mv = best.split_whitespace().nth(1).expect("move");
    assert!(position.parse_uci(mv).is_ok(), "{best}");
    // Exactly one bestmove: none arrives later, a second stop is harmless.
    e.send("stop");
    let after = e.ready();
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:?}"
    );
    e.finish();
}

#[test]
fn infinite_search_of_a_mate_still_waits_for_stop() {
    let mut e = Engine::start();
    // White mates in one: the search ends at once but must not answer yet.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go infinite");
    let early = e.quiet_for(Duration::from_millis(500));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("stop");
    let (_, best) = e.bestmove();
    assert!(best.starts_with("bestmove a1a8"), "{best}");
    e.finish();
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 3000 btime 3000");
    let early = e.quiet_for(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("ponderhit");
    let (_, best) = e.bestmove();
    assert!(best.starts_with("bestmove "), "{best}");

    e.send("go ponder wtime 3000 btime 3000");
    e.quiet_for(Duration::from_millis(100));
    e.send("stop");
    e.bestmove();
    assert!(!e.ready().iter().any(|l| l.starts_with("bestmove")));
    e.finish();
}

#[test]
fn bestmove_carries_a_ponder_move() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 6");
    let (_, best) = e.bestmove();
    let words: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{best}");
    assert_eq!(words[2], "ponder");
    let after = position_after(&[words[1]]);
    assert!(after.parse_uci(words[3]).is_ok(), "{best}");
    e.finish();
}

#[test]
fn no_legal_move_gives_0000() {
    let mut e = Engine::start();
    // Checkmated (fool's mate) and stalemated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 3");
    assert_eq!(e.bestmove().1, "bestmove 0000");
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 100");
    assert_eq!(e.bestmove().1, "bestmove 0000");
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go infinite");
    e.quiet_for(Duration::from_millis(100));
    e.send("stop");
    assert_eq!(e.bestmove().1, "bestmove 0000");
    e.finish();
}

#[test]
fn go_perft_prints_divide() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    assert!(lines.contains(&"e2e4: 600".to_string()), "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        20
    );
    e.ready();
    e.finish();
}

#[test]
fn eval_prints_the_static_evaluation() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("Final evaluation"));
    // The default evaluator: the embedded net when the build carries one.
    let default = match tarpon::eval::nnue::Network::embedded_default() {
        Some(_) => "(nnue)",
        None => "(pst)",
    };
    assert!(
        lines.last().unwrap_or(&String::new()).contains(default),
        "{lines:?}"
    );
    e.finish();
}

#[test]
fn bench_in_the_loop_ends_with_nodes_and_nps() {
    let mut e = Engine::start();
    e.send("bench 2");
    let lines = e.until(|l| l.ends_with(" nps"));
    let last: Vec<&str> = lines.last().expect("last").split_whitespace().collect();
    assert_eq!(last.len(), 4, "{last:?}");
    assert!(last[0].parse::<u64>().is_ok_and(|n| n > 0));
    assert_eq!(last[1], "nodes");
    e.ready();
    e.finish();
}

#[test]
fn options_with_spaces_and_any_case() {
    let mut e = Engine::start();
    for line in [
        "setoption name Move Overhead value 50",
        "setoption name move overhead value 60",
        "setoption name Clear Hash",
        "setoption name HASH value 8",
        "setoption name Threads value 2",
        "setoption name SyzygyPath value <empty>",
        "setoption name Eval value pst",
        "setoption name UCI_ShowWDL value true",
        "setoption name Ponder value false",
    ] {
        e.send(line);
        let lines = e.ready();
        assert!(
            lines.iter().all(|l| !l.contains("error")),
            "{line}: {lines:?}"
        );
    }
    // A path with spaces reaches the loader whole; a missing net is a clear
    // error and the engine keeps serving (the NNUE issue asks for that).
    e.send("setoption name EvalFile value /no/such dir/net.nnue");
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("/no/such dir/net.nnue")),
        "{lines:?}"
    );
    e.send("ucinewgame");
    e.send("position startpos");
    e.go_legal(&Position::startpos(), "go depth 4");
    e.finish();
}

/// A search's `info depth` lines without the clock-dependent fields.
fn search_trace(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| without_clock_fields(l))
        .collect()
}

#[test]
fn searches_learn_within_a_game_and_ucinewgame_forgets() {
    // Move-ordering history and table entries carry over from one `go` to
    // the next, so a search after another differs from the same search in
    // a new game; after `ucinewgame` it is the new game's search again.
    let mut e = Engine::start();
    let after_e4_e5 = "position startpos moves e2e4 e7e5";
    let search = |e: &mut Engine| {
        e.send("go nodes 20000");
        search_trace(&e.bestmove().0)
    };
    e.send("ucinewgame");
    e.send(after_e4_e5);
    let fresh = search(&mut e);
    assert!(!fresh.is_empty());

    e.send("ucinewgame");
    e.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    search(&mut e);
    e.send(after_e4_e5);
    let with_memory = search(&mut e);
    assert_ne!(with_memory, fresh, "the earlier search left nothing behind");

    e.send("ucinewgame");
    e.send(after_e4_e5);
    assert_eq!(search(&mut e), fresh, "ucinewgame did not forget the game");
    e.finish();
}

#[test]
fn three_hundred_moves_of_history() {
    // A seeded random game of 300 plies that never ends early.
    let mut rng = SplitMix64::new(300);
    let mut position = Position::startpos();
    let mut moves = Vec::new();
    while moves.len() < 300 {
        let legal = position.legal_moves();
        let playable: Vec<_> = legal
            .iter()
            .copied()
            .filter(|&m| {
                let mut next = position.clone();
                next.make(m);
                !next.legal_moves().is_empty() && !next.is_insufficient_material()
            })
            .collect();
        assert!(!playable.is_empty(), "the random game got stuck");
        let m = playable[(rng.next_u64() % playable.len() as u64) as usize];
        moves.push(position.uci(m));
        position.make(m);
    }
    let mut e = Engine::start();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let lines = e.display();
    assert!(
        lines.contains(&format!("Fen: {}", position.fen())),
        "{lines:#?}"
    );
    assert!(lines.iter().all(|l| !l.contains("error")));
    e.go_legal(&position, "go depth 4");
    e.go_legal(&position, "go wtime 1000 btime 1000");
    e.finish();
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    // Black king and rook on their Chess960 start squares b8/a8, h8 rook
    // gone: only queenside castling for Black, both sides for White.
    let fen = "rk6/pppp4/8/8/8/8/PPPP4/R3K2R w KQA - 0 1";
    let position = Position::from_fen(fen, true).expect("960 FEN");
    e.send(&format!("position fen {fen} moves e1h1"));
    assert!(e.ready().is_empty(), "king-takes-rook castling refused");
    let lines = e.display();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: rk6/pppp4/8/8/8/8/PPPP4/R4RK1 b")),
        "{lines:#?}"
    );
    e.send(&format!("position fen {fen}"));
    e.go_legal(&position, "go depth 4");
    e.finish();
}

#[test]
fn playing_levels_still_play_legal_moves() {
    let mut e = Engine::start();
    let start = Position::startpos();
    e.send("position startpos");
    for setup in [
        "setoption name Skill Level value 0",
        "setoption name Skill Level value 10",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1200",
    ] {
        e.send(setup);
        assert!(e.ready().is_empty(), "{setup}");
        e.go_legal(&start, "go movetime 200");
        e.go_legal(&start, "go wtime 1000 btime 1000");
    }
    e.finish();
}

/// Each bad input is answered with `info string` or ignored; the engine
/// keeps answering `isready` and keeps playing legal moves.
#[test]
fn bad_input_never_kills_the_engine() {
    let mut e = Engine::start();
    let cases: &[(&str, bool)] = &[
        // (input, must it produce an `info string`?)
        ("", false),
        ("    ", false),
        ("hello world", true),
        ("xyzzy 1 2 3", true),
        ("position", true),
        ("position fen", true),
        ("position fen not/a/fen w - - 0 1", true),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            false,
        ),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", true),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            true,
        ),
        ("position fen k7/8/8/8/8/8/8/K6P w - - 0 1", true),
        ("position startpos moves e2e4 e7e5 e1e3", true),
        ("position startpos moves e2e4 zzzz", true),
        ("position startpos garbage", true),
        ("go wtime -1000 btime -1000", true),
        ("go wtime btime", true),
        ("go depth", true),
        ("go depth abc", true),
        ("go nodes -5", true),
        ("go movetime 1e3 depth 2", true),
        ("go searchmoves e2e5 depth 2", true),
        ("go perft 99", true),
        ("setoption name Hash value 99999999999", true),
        ("setoption name Hash value 1000000", true),
        ("setoption name Hash value -1", true),
        ("setoption name Threads value 0", true),
        ("setoption name Threads value many", true),
        ("setoption name MultiPV value 0", true),
        ("setoption name Ponder value maybe", true),
        ("setoption name Eval value magic", true),
        ("setoption name No Such Option value 3", true),
        ("setoption name", true),
        ("setoption", true),
        ("debug", true),
        ("bench x", true),
    ];
    for (input, must_answer) in cases {
        e.send(input);
        let lines = e.ready();
        if *must_answer {
            assert!(
                lines.iter().any(|l| l.starts_with("info string")),
                "no info string after {input:?}: {lines:?}"
            );
        }
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("info") || l.starts_with("bestmove")),
            "odd reply to {input:?}: {lines:?}"
        );
        // A `go` whose limits were all dropped searches until `stop`; each
        // bad `go` still ends with exactly one bestmove.
        if input.starts_with("go") && !input.contains("perft") {
            e.send("stop");
            if !lines.iter().any(|l| l.starts_with("bestmove")) {
                e.bestmove();
            }
            assert!(
                !e.ready().iter().any(|l| l.starts_with("bestmove")),
                "{input}"
            );
        }
    }
    // Raw bytes that are not UTF-8, and a very long line.
    e.send_bytes(b"\xff\xfe\x00garbage\x80\n");
    e.send(&"x".repeat(100_000));
    let lines = e.ready();
    assert!(lines.iter().all(|l| l.len() < 300), "{lines:?}");
    // The last good position (startpos; every bad one was rejected) plays on.
    e.send("position startpos moves e2e4 e7e5 e1e3");
    e.ready();
    e.go_legal(&Position::startpos(), "go depth 3");
    e.finish();
}

#[test]
fn a_rejected_position_keeps_the_previous_one() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("position startpos moves d2d4 d7d5 d4d5");
    let lines = e.ready();
    assert!(
        lines.iter().any(|l| l.contains("illegal move 'd4d5'")),
        "{lines:?}"
    );
    let lines = e.display();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq")),
        "{lines:#?}"
    );
    e.finish();
}

#[test]
fn commands_during_a_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.quiet_for(Duration::from_millis(100));
    // Changing the table mid-search is refused, not fatal.
    e.send("setoption name Hash value 32");
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("cannot change during a search")),
        "{lines:?}"
    );
    // A new position does not disturb the running search.
    e.send("position startpos moves e2e4");
    // A second go stops the first: each go gets its bestmove.
    e.send("go depth 3");
    let (_, first) = e.bestmove();
    let mv = first.split_whitespace().nth(1).expect("move");
    assert!(Position::startpos().parse_uci(mv).is_ok(), "{first}");
    let (_, second) = e.bestmove();
    let mv = second.split_whitespace().nth(1).expect("move");
    assert!(position_after(&["e2e4"]).parse_uci(mv).is_ok(), "{second}");
    e.send("ucinewgame");
    e.ready();
    e.send("go infinite");
    e.quiet_for(Duration::from_millis(100));
    e.send("quit");
    // quit during a search: the search stops, its bestmove comes, and the
    // process exits.
    e.bestmove();
    e.wait_exit();
}

/// `go movetime N` thinks N ms less `Move Overhead`: no early stop on a
/// stable best move, no overrun. The overhead is set to 100 ms so that a
/// loaded test machine (other tests run beside this one) has room to deliver
/// the line; the lower bound is exact, because the engine's clock starts
/// after the test's.
#[test]
fn go_movetime_uses_the_whole_time_and_no_more() {
    const OVERHEAD: u64 = 100;
    const SLACK: u64 = 30;
    let mut e = Engine::start();
    e.send(&format!("setoption name Move Overhead value {OVERHEAD}"));
    e.ready();
    let middlegame = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";
    for position in ["position startpos", &format!("position fen {middlegame}")] {
        for movetime in [300u64, 1000, 2000] {
            e.send(position);
            e.ready();
            let start = Instant::now();
            e.send(&format!("go movetime {movetime}"));
            let (_, best) = e.bestmove();
            let took = start.elapsed().as_millis() as u64;
            assert!(
                (movetime - OVERHEAD - SLACK..=movetime).contains(&took),
                "{position}, movetime {movetime}: {best} after {took} ms"
            );
        }
    }
    e.finish();
}

/// With `depth` or `nodes` beside `movetime`, whichever comes first ends it.
#[test]
fn go_movetime_with_depth_or_nodes_stops_at_the_first_limit() {
    let mut e = Engine::start();
    e.send("position startpos");
    let start = Instant::now();
    e.send("go movetime 5000 depth 2");
    let (lines, _) = e.bestmove();
    assert!(start.elapsed() < Duration::from_millis(2500), "{lines:?}");
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 3")),
        "{lines:?}"
    );
    let start = Instant::now();
    e.send("go movetime 5000 nodes 2000");
    e.bestmove();
    assert!(start.elapsed() < Duration::from_millis(2500));
    let start = Instant::now();
    e.send("go movetime 200 depth 60");
    e.bestmove();
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(150) && took < Duration::from_millis(1500),
        "{took:?}"
    );
    e.finish();
}

#[test]
fn the_engine_greets_once_and_help_lists_the_commands() {
    let mut e = Engine::start();
    let greeting = e.greeting.clone();
    assert!(greeting.starts_with("tarpon "), "{greeting}");
    for part in [" by ", "net ", "simd ", "type 'help'"] {
        assert!(greeting.contains(part), "no '{part}' in {greeting}");
    }
    e.send("help");
    let lines = e.until(|l| l.contains("tarpon --help"));
    // Every command of the table prints, with its line; the table itself is
    // checked against the parser and the usual commands in command.rs.
    for (usage, what) in tarpon::uci::command::HELP {
        assert!(
            lines.iter().any(|l| l.contains(usage) && l.contains(what)),
            "help does not print '{usage}': {lines:#?}"
        );
    }
    // Asked twice, nothing greets again.
    e.send("uci");
    let again = e.until_line("uciok");
    assert!(
        !again.iter().any(|l| l.contains("type 'help'")),
        "{again:?}"
    );
    e.finish();
}

/// The first move of the PV of the last `info` line that has one.
fn last_pv_head(lines: &[String]) -> Option<String> {
    lines.iter().rev().find_map(|l| {
        let mut words = l.split_whitespace();
        (words.next() == Some("info") && !l.contains(" string "))
            .then(|| words.skip_while(|w| *w != "pv").nth(1))
            .flatten()
            .map(str::to_string)
    })
}

fn assert_last_pv_is_played(lines: &[String], best: &str, what: &str) {
    let played = best.split_whitespace().nth(1).expect("a move");
    assert_eq!(
        last_pv_head(lines).as_deref(),
        Some(played),
        "{what}: the last PV does not start with the move played: {lines:#?}"
    );
}

#[test]
fn the_last_pv_before_bestmove_starts_with_the_move_played_whatever_stopped_it() {
    let mut e = Engine::start();
    let positions = [
        "position startpos moves e2e4 c7c5",
        "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "position fen 8/5pk1/6p1/8/3Q4/6P1/5PKP/3q4 b - - 0 40",
    ];
    for position in positions {
        e.send(position);
        // Node limits cut iterations at every point of their length.
        for nodes in [1, 37, 150, 999, 4_321, 17_777, 66_666, 123_457] {
            e.send(&format!("go nodes {nodes}"));
            let (lines, best) = e.bestmove();
            assert_last_pv_is_played(&lines, &best, &format!("{position}, nodes {nodes}"));
        }
        for go in ["go depth 7", "go movetime 40", "go wtime 300 btime 300"] {
            e.send(go);
            let (lines, best) = e.bestmove();
            assert_last_pv_is_played(&lines, &best, &format!("{position}, {go}"));
        }
        e.send("go infinite");
        thread::sleep(Duration::from_millis(60));
        e.send("stop");
        let (lines, best) = e.bestmove();
        assert_last_pv_is_played(&lines, &best, &format!("{position}, stop"));
        e.send("go ponder wtime 1000 btime 1000");
        thread::sleep(Duration::from_millis(30));
        e.send("ponderhit");
        let (lines, best) = e.bestmove();
        assert_last_pv_is_played(&lines, &best, &format!("{position}, ponderhit"));
    }
    // A weakened level plays a line of its choice, not always the first.
    e.send("setoption name Skill Level value 2");
    for seed in 0..6 {
        e.send(&format!("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 b1c3 f8e7 d2d3 d7d6 h2h3 e8g8 c1e3 c8d7 d1d2 b7b5 a4b3 c6a5 a2a{}", 3 + seed % 2));
        e.send("go nodes 2000");
        let (lines, best) = e.bestmove();
        assert_last_pv_is_played(&lines, &best, &format!("skill level 2, try {seed}"));
    }
    e.finish();
}
