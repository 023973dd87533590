//! The engine's own search, iteration by iteration: what iterative deepening
//! found at each depth and how the selectivity behaved (hash hits, cutoffs on
//! the first move, null moves, late-move reductions, re-searches, aspiration
//! window failures).

use std::fmt::Write as _;

use shakmaty::Move;

use crate::eval::EvalChoice;
use crate::explain::json::Json;
use crate::position::Position;
use crate::search::stats::{IterationStats, SearchStats};
use crate::search::{
    Limits, Score, SearchConfig, SearchControl, SearchOutcome, TranspositionTable, run_search,
};

/// The main search thread keeps its move lists on the stack.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;
const HASH_MB: usize = 16;

/// Runs the engine's search (one thread, fresh 16 MB table) within `limits`.
pub fn run(pos: &Position, limits: Limits, eval: EvalChoice) -> Result<SearchOutcome, String> {
    let config = SearchConfig {
        eval,
        ..SearchConfig::default()
    };
    let pos = pos.clone();
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("tarpon-explain-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(scope, move || {
                let tt = TranspositionTable::new(HASH_MB);
                let control = SearchControl::new();
                run_search(&pos, &limits, &config, &tt, &control, &mut |_| {})
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?
            .join()
            .map_err(|_| "the search failed".to_string())
    })
}

/// Moves as SAN from `pos`.
pub fn san_line(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut chess = pos.to_chess();
    moves
        .iter()
        .map(|&m| shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut chess, m).to_string())
        .collect()
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("{cp:+}"),
        Score::Mate(n) => format!("#{n}"),
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.0}%", 100.0 * part as f64 / whole as f64)
    }
}

/// What changed during one iteration (counters are kept cumulatively).
fn delta(now: &SearchStats, before: &SearchStats) -> SearchStats {
    SearchStats {
        tt_probes: now.tt_probes - before.tt_probes,
        tt_hits: now.tt_hits - before.tt_hits,
        cutoffs: now.cutoffs - before.cutoffs,
        first_move_cutoffs: now.first_move_cutoffs - before.first_move_cutoffs,
        null_tries: now.null_tries - before.null_tries,
        null_cutoffs: now.null_cutoffs - before.null_cutoffs,
        lmr_reductions: now.lmr_reductions - before.lmr_reductions,
        lmr_researches: now.lmr_researches - before.lmr_researches,
        pvs_researches: now.pvs_researches - before.pvs_researches,
        aspiration_fails_low: now.aspiration_fails_low - before.aspiration_fails_low,
        aspiration_fails_high: now.aspiration_fails_high - before.aspiration_fails_high,
    }
}

/// Per-iteration counters (not cumulative), paired with each iteration.
fn per_iteration(iterations: &[IterationStats]) -> Vec<(&IterationStats, SearchStats)> {
    let mut before = SearchStats::default();
    iterations
        .iter()
        .map(|it| {
            let d = delta(&it.stats, &before);
            before = it.stats;
            (it, d)
        })
        .collect()
}

pub fn table(pos: &Position, outcome: &SearchOutcome) -> String {
    let mut out = String::from(
        "search trace (main thread; nodes and time cumulative, the other columns for that iteration):\n",
    );
    let _ = writeln!(
        out,
        "{:>5} {:>4} {:>7} {:>10} {:>7} {:>6} {:>7} {:>11} {:>13} {:>6} {:>7}  pv",
        "depth",
        "sel",
        "score",
        "nodes",
        "ms",
        "tthit",
        "1stcut",
        "null/cut",
        "lmr/re",
        "pvsre",
        "asp l/h"
    );
    for (it, d) in per_iteration(&outcome.iterations) {
        let _ = writeln!(
            out,
            "{:>5} {:>4} {:>7} {:>10} {:>7} {:>6} {:>7} {:>11} {:>13} {:>6} {:>7}  {}",
            it.depth,
            it.seldepth,
            score_text(it.score),
            it.nodes,
            it.time_ms,
            percent(d.tt_hits, d.tt_probes),
            percent(d.first_move_cutoffs, d.cutoffs),
            format!("{}/{}", d.null_tries, d.null_cutoffs),
            format!("{}/{}", d.lmr_reductions, d.lmr_researches),
            d.pvs_researches,
            format!("{}/{}", d.aspiration_fails_low, d.aspiration_fails_high),
            san_line(pos, &it.pv).join(" ")
        );
    }
    let best = outcome
        .best
        .map_or("(none)".to_string(), |m| san_line(pos, &[m]).join(""));
    let _ = writeln!(
        out,
        "best move {best}, {} nodes in {} ms",
        outcome.nodes, outcome.time_ms
    );
    out
}

pub fn json(pos: &Position, outcome: &SearchOutcome) -> Json {
    let rows = per_iteration(&outcome.iterations)
        .into_iter()
        .map(|(it, d)| {
            let (cp, mate) = match it.score {
                Score::Cp(cp) => (Some(cp), None),
                Score::Mate(n) => (None, Some(n)),
            };
            Json::obj([
                ("depth", u64::from(it.depth).into()),
                ("seldepth", u64::from(it.seldepth).into()),
                ("cp", cp.into()),
                ("mate", mate.into()),
                ("nodes", it.nodes.into()),
                ("time_ms", it.time_ms.into()),
                ("tt_probes", d.tt_probes.into()),
                ("tt_hits", d.tt_hits.into()),
                ("cutoffs", d.cutoffs.into()),
                ("first_move_cutoffs", d.first_move_cutoffs.into()),
                ("null_tries", d.null_tries.into()),
                ("null_cutoffs", d.null_cutoffs.into()),
                ("lmr_reductions", d.lmr_reductions.into()),
                ("lmr_researches", d.lmr_researches.into()),
                ("pvs_researches", d.pvs_researches.into()),
                ("aspiration_fails_low", d.aspiration_fails_low.into()),
                ("aspiration_fails_high", d.aspiration_fails_high.into()),
                (
                    "pv",
                    Json::Arr(san_line(pos, &it.pv).into_iter().map(Json::Str).collect()),
                ),
            ])
        })
        .collect();
    Json::Arr(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_iteration_is_reported_with_consistent_counters() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let outcome = run(
            &pos,
            Limits {
                depth: Some(7),
                ..Limits::default()
            },
            EvalChoice::Pst,
        )
        .unwrap();
        let depths: Vec<u32> = outcome.iterations.iter().map(|i| i.depth).collect();
        assert_eq!(depths, (1..=7).collect::<Vec<_>>());
        for w in outcome.iterations.windows(2) {
            assert!(w[1].nodes > w[0].nodes);
        }
        let last = outcome.iterations.last().unwrap();
        assert_eq!(last.pv.first().copied(), outcome.best);
        let s = last.stats;
        assert!(s.tt_hits <= s.tt_probes && s.first_move_cutoffs <= s.cutoffs);
        assert!(s.null_cutoffs <= s.null_tries && s.lmr_researches <= s.lmr_reductions);
        assert!(s.cutoffs > 0 && s.tt_hits > 0 && s.lmr_reductions > 0);
        let text = table(&pos, &outcome);
        assert_eq!(
            text.lines()
                .filter(|l| l.trim_start().starts_with(char::is_numeric))
                .count(),
            7
        );
        // The PV is legal: SAN conversion played every move.
        assert_eq!(san_line(&pos, &last.pv).len(), last.pv.len());
    }
}
