//! One `go`, run on its own thread: the search, the choice of the move to
//! play (full strength or a weakened level), and the single `bestmove` line.
//!
//! Guarantees the protocol depends on, kept here in one place:
//! - exactly one `bestmove` per `go`, also when the search panics (the panic
//!   is caught, reported as `info string`, and a legal move is still played);
//! - in `infinite` and `ponder` mode `bestmove` waits for `stop` (or
//!   `ponderhit`), even if the search finished early;
//! - `bestmove 0000` when the side to move has no legal move.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use shakmaty::Move;

use crate::position::Position;
use crate::rng::SplitMix64;
use crate::search::{
    GameMemory, HistoryStore, Limits, SearchConfig, SearchControl, SearchOutcome,
    TranspositionTable, run_search_in_game,
};
use crate::uci::output::Output;
use crate::uci::strength::{Level, comparable_score};

/// Everything one search needs; the engine loop keeps only `control`.
pub struct SearchJob {
    pub position: Position,
    pub limits: Limits,
    pub config: SearchConfig,
    pub tt: Arc<TranspositionTable>,
    pub histories: Arc<Mutex<HistoryStore>>,
    pub control: Arc<SearchControl>,
    /// A weakened playing level, or `None` for full strength.
    pub level: Option<Level>,
    pub rng: SplitMix64,
    /// When the `go` line was read: time lost before the search starts
    /// (a busy machine may not schedule our threads at once) is charged to
    /// the clock.
    pub received: Instant,
}

/// The search thread's stack: deep recursion with a position per ply.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Starts the search thread. If the thread cannot be created the `bestmove`
/// is still sent (a fallback move), so the GUI is never left waiting.
pub fn spawn(job: SearchJob, out: Output) -> Option<JoinHandle<()>> {
    let shared = Arc::new(std::sync::Mutex::new(Some(job)));
    let for_thread = Arc::clone(&shared);
    let out_thread = out.clone();
    let spawned = thread::Builder::new()
        .name("search".into())
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(move || {
            let job = for_thread.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(mut job) = job {
                charge_delay(&mut job.limits, job.received.elapsed());
                let histories = Arc::clone(&job.histories);
                let tt = Arc::clone(&job.tt);
                let (position, limits, config, control) = (
                    job.position.clone(),
                    job.limits.clone(),
                    job.config.clone(),
                    Arc::clone(&job.control),
                );
                run(job, &out_thread, move |sink| {
                    // A search that panicked poisoned the lock and took its
                    // tables with it: the store is empty, not broken.
                    let mut histories = histories.lock().unwrap_or_else(|e| e.into_inner());
                    run_search_in_game(
                        &position,
                        &limits,
                        &config,
                        GameMemory {
                            tt: &tt,
                            histories: &mut histories,
                            evaluators: None,
                        },
                        &control,
                        Some(sink),
                    )
                });
            }
        });
    match spawned {
        Ok(handle) => Some(handle),
        Err(e) => {
            // Answer at once: waiting for `stop` here would block the loop.
            let job = shared.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(job) = job {
                out.info(&format!(
                    "error: cannot start the search thread ({e}); playing a fallback move"
                ));
                out.line(&bestmove_line(
                    &job.position,
                    fallback_move(&job, None),
                    None,
                ));
            }
            None
        }
    }
}

/// Takes the time already gone since `go` was read off the clocks, so the
/// search's budget counts from when the GUI started our clock, not from when
/// this thread got to run. Pondering starts its clock at `ponderhit`.
fn charge_delay(limits: &mut Limits, delay: Duration) {
    if limits.ponder {
        return;
    }
    let ms = delay.as_millis().min(i64::MAX as u128) as i64;
    for t in [&mut limits.wtime_ms, &mut limits.btime_ms]
        .into_iter()
        .flatten()
    {
        *t = (*t - ms).max(0);
    }
    if let Some(t) = &mut limits.movetime_ms {
        *t = t.saturating_sub(ms as u64).max(1);
    }
}

/// Runs `search` (which prints its `info` lines into the sink it is given),
/// then sends the one `bestmove`. The job, and with it this thread's share of
/// the hash table and histories, is dropped and `finish` signalled before
/// `bestmove` goes out: a GUI may change `Hash` the moment it reads it.
pub fn run(
    job: SearchJob,
    out: &Output,
    search: impl FnOnce(&mut dyn FnMut(&str)) -> SearchOutcome,
) {
    let mut last_pv_move: Option<String> = None;
    let result = {
        let mut forward = |line: &str| {
            if let Some(m) = first_pv_move(line) {
                last_pv_move = Some(m.to_string());
            }
            out.line(line);
        };
        catch_unwind(AssertUnwindSafe(|| search(&mut forward)))
    };
    let (best, ponder) = match &result {
        Ok(outcome) => choose_move(&job, outcome, out),
        Err(payload) => {
            out.info(&format!(
                "error: the search failed ({}); playing a fallback move",
                panic_message(payload.as_ref())
            ));
            (fallback_move(&job, last_pv_move.as_deref()), None)
        }
    };
    // A weakened level's pick, or a fallback, is not the line the search
    // reported last: say which line is played before playing it.
    if let Some(b) = best
        && last_pv_move.as_deref() != Some(job.position.uci(b).as_str())
    {
        out.line(&played_line_info(&job.position, b, result.as_ref().ok()));
    }
    wait_for_release(&job);
    let line = bestmove_line(&job.position, best, ponder);
    let control = Arc::clone(&job.control);
    drop(job);
    control.finish();
    out.line(&line);
}

/// The move to play and the move to ponder on.
fn choose_move(
    job: &SearchJob,
    outcome: &SearchOutcome,
    out: &Output,
) -> (Option<Move>, Option<Move>) {
    let (best, ponder) = match job.level {
        Some(level) if outcome.lines.len() > 1 => {
            let candidates: Vec<(i32, &[Move])> = outcome
                .lines
                .iter()
                .filter(|line| !line.pv.is_empty())
                .map(|line| (comparable_score(line.score), line.pv.as_slice()))
                .collect();
            let mut rng = job.rng.clone();
            match candidates.get(level.choose(&candidates, &mut rng)) {
                Some((_, moves)) => (moves.first().copied(), moves.get(1).copied()),
                None => (outcome.best, outcome.ponder),
            }
        }
        _ => (outcome.best, outcome.ponder),
    };
    let legal = job.position.legal_moves();
    match best {
        Some(m) if legal.contains(&m) => (
            Some(m),
            ponder.filter(|&p| legal_after(&job.position, m, p)),
        ),
        Some(m) => {
            out.info(&format!(
                "error: the search returned the illegal move {}; playing a fallback move",
                job.position.uci(m)
            ));
            (fallback_move(job, None), None)
        }
        None if !legal.is_empty() => (fallback_move(job, None), None),
        None => (None, None),
    }
}

fn legal_after(position: &Position, first: Move, second: Move) -> bool {
    let mut next = position.clone();
    next.make(first);
    next.legal_moves().contains(&second)
}

/// A legal move when the search gave none: the last PV move it reported,
/// else the first allowed move.
fn fallback_move(job: &SearchJob, last_pv_move: Option<&str>) -> Option<Move> {
    let allowed =
        |m: &Move| job.limits.searchmoves.is_empty() || job.limits.searchmoves.contains(m);
    last_pv_move
        .and_then(|text| job.position.parse_uci(text).ok())
        .filter(allowed)
        .or_else(|| job.position.legal_moves().iter().copied().find(allowed))
        .or_else(|| job.position.legal_moves().first().copied())
}

/// In `infinite` and `ponder` mode the GUI must say when it wants the move.
fn wait_for_release(job: &SearchJob) {
    if !(job.limits.infinite || job.limits.ponder) {
        return;
    }
    loop {
        let stopped = job.control.is_stopped();
        let hit = job.limits.ponder && !job.limits.infinite && job.control.is_ponderhit();
        if stopped || hit {
            return;
        }
        thread::sleep(Duration::from_millis(1));
    }
}

pub fn bestmove_line(position: &Position, best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove 0000".to_string(),
        (Some(b), None) => format!("bestmove {}", position.uci(b)),
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", position.uci(b), position.uci(p)),
    }
}

/// An `info` line whose PV starts with `played`: the search's line for that
/// move where it reported one, else the move alone.
fn played_line_info(position: &Position, played: Move, outcome: Option<&SearchOutcome>) -> String {
    let line = outcome.and_then(|o| o.lines.iter().find(|l| l.pv.first() == Some(&played)));
    let depth = outcome.map_or(0, |o| o.depth);
    let mut text = format!("info depth {depth}");
    if let Some(line) = line {
        text.push_str(&format!(" score {}", line.score.uci()));
    }
    text.push_str(" pv");
    let alone = [played];
    let moves = line.map_or(&alone[..], |l| l.pv.as_slice());
    let mut after = position.clone();
    for &m in moves {
        text.push_str(&format!(" {}", after.uci(m)));
        after.make(m);
    }
    text
}

/// The first move of the `pv` in an `info` line.
fn first_pv_move(line: &str) -> Option<&str> {
    let mut tokens = line.split_whitespace();
    if tokens.next() != Some("info") {
        return None;
    }
    // `info string` is free text: its words are no PV.
    tokens
        .by_ref()
        .take_while(|t| *t != "string")
        .find(|t| *t == "pv")?;
    tokens.next()
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::output::Captured;

    fn job(fen: Option<&str>, limits: Limits) -> SearchJob {
        let position = match fen {
            Some(f) => Position::from_fen(f, false).expect("test FEN"),
            None => Position::startpos(),
        };
        SearchJob {
            position,
            limits,
            config: SearchConfig::default(),
            tt: Arc::new(TranspositionTable::new(1)),
            histories: Arc::new(Mutex::new(HistoryStore::new())),
            control: Arc::new(SearchControl::default()),
            level: None,
            rng: SplitMix64::new(1),
            received: Instant::now(),
        }
    }

    #[test]
    fn time_lost_before_the_search_comes_off_the_clock() {
        let mut limits = Limits {
            wtime_ms: Some(1000),
            btime_ms: Some(30),
            movetime_ms: Some(100),
            ..Limits::default()
        };
        charge_delay(&mut limits, Duration::from_millis(40));
        assert_eq!((limits.wtime_ms, limits.btime_ms), (Some(960), Some(0)));
        assert_eq!(limits.movetime_ms, Some(60));
        let mut pondering = Limits {
            wtime_ms: Some(1000),
            ponder: true,
            ..Limits::default()
        };
        charge_delay(&mut pondering, Duration::from_millis(40));
        assert_eq!(pondering.wtime_ms, Some(1000));
    }

    fn quietly<R>(f: impl FnOnce() -> R) -> R {
        // The default hook would print the deliberate panic's backtrace. The
        // hook is global: one test at a time swaps it.
        static HOOK: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _guard = HOOK.lock().unwrap_or_else(|e| e.into_inner());
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = f();
        std::panic::set_hook(hook);
        r
    }

    #[test]
    fn a_panicking_search_still_plays_its_last_pv_move() {
        let captured = Captured::default();
        let out = Output::to(captured.clone());
        let job = job(None, Limits::default());
        quietly(|| {
            run(job, &out, |sink| {
                sink("info depth 1 score cp 20 pv g1f3");
                panic!("deliberate test panic")
            })
        });
        let lines = captured.lines();
        assert_eq!(lines[0], "info depth 1 score cp 20 pv g1f3");
        assert!(
            lines[1].starts_with("info string error: the search failed (deliberate test panic)")
        );
        assert_eq!(lines[2], "bestmove g1f3");
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn a_panic_before_any_pv_plays_a_legal_move() {
        let captured = Captured::default();
        let out = Output::to(captured.clone());
        let job = job(None, Limits::default());
        let position = job.position.clone();
        quietly(|| run(job, &out, |_| panic!("early")));
        let last = captured.lines().pop().expect("a bestmove line");
        let mv = last.strip_prefix("bestmove ").expect("bestmove");
        assert!(position.parse_uci(mv).is_ok(), "{last}");
    }

    #[test]
    fn no_legal_move_gives_0000() {
        let captured = Captured::default();
        let out = Output::to(captured.clone());
        // Black is checkmated (fool's mate).
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        let job = job(Some(mated), Limits::default());
        quietly(|| run(job, &out, |_| panic!("nothing to search")));
        assert_eq!(
            captured.lines().last().map(String::as_str),
            Some("bestmove 0000")
        );
    }

    #[test]
    fn infinite_waits_for_stop() {
        let captured = Captured::default();
        let out = Output::to(captured.clone());
        let job = job(
            None,
            Limits {
                infinite: true,
                ..Limits::default()
            },
        );
        let control = Arc::clone(&job.control);
        let runner = thread::spawn(move || run(job, &out, |_| panic!("finished at once")));
        thread::sleep(Duration::from_millis(50));
        assert!(
            !captured.lines().iter().any(|l| l.starts_with("bestmove")),
            "bestmove before stop"
        );
        assert!(!control.is_finished());
        control.stop();
        runner.join().expect("runner");
        assert!(control.is_finished());
        let bestmoves = captured
            .lines()
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count();
        assert_eq!(bestmoves, 1);
    }

    #[test]
    fn pv_move_is_read_from_info_lines() {
        assert_eq!(
            first_pv_move("info depth 3 score cp 1 pv e2e4 e7e5"),
            Some("e2e4")
        );
        assert_eq!(first_pv_move("info string pv is nice"), None);
        assert_eq!(first_pv_move("info depth 3"), None);
        assert_eq!(first_pv_move("bestmove e2e4"), None);
    }
}
