//! Lazy SMP: the main thread and `Threads - 1` helpers search the same root
//! with one shared transposition table; helpers only fill the table (their
//! own move-ordering histories and timing make them diverge from the main
//! thread), the main thread reports and decides. Measured with one helper,
//! all threads iterating every depth beat Stockfish 9's depth-skipping
//! pattern (main-thread nodes to depth 0.64x against 0.80x).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use super::score::Score;
use super::searcher::{Searcher, Shared, Timer};
use super::time::{Clock, budget};
use super::{Limits, PvLine, SearchConfig, SearchControl, SearchOutcome, TranspositionTable};
use crate::eval::Evaluator;
use crate::position::Position;

/// Helper threads get a generous stack: every ply of the search keeps its
/// move list on the stack.
const HELPER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Most threads a search will start, whatever `Threads` says.
pub const MAX_THREADS: usize = 1024;

pub fn search_with<E: Evaluator, F: Fn() -> E + Sync>(
    root: &Position,
    limits: &Limits,
    config: &SearchConfig,
    tt: &TranspositionTable,
    control: &SearchControl,
    out: &mut dyn FnMut(&str),
    make_eval: F,
) -> SearchOutcome {
    let started = std::time::Instant::now();
    let legal = root.legal_moves();
    if legal.is_empty() {
        // Mate or stalemate at the root: report it as Stockfish does.
        let score = if root.is_check() { "mate 0" } else { "cp 0" };
        out(&format!("info depth 0 score {score}"));
        return SearchOutcome {
            lines: vec![PvLine {
                score: if root.is_check() {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                },
                pv: Vec::new(),
            }],
            ..SearchOutcome::default()
        };
    }
    tt.new_search();
    let threads = config.threads.clamp(1, MAX_THREADS);
    let shared = Shared {
        tt,
        control,
        limits,
        config,
        abort: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
    };
    let timer = Timer {
        clock: Clock::start(),
        budget: if limits.infinite {
            None
        } else {
            budget(limits, root.turn(), config.move_overhead_ms)
        },
        pondering: limits.ponder,
    };

    let (main, depth, iterations) = std::thread::scope(|scope| {
        for id in 1..threads {
            let shared = &shared;
            let make_eval = &make_eval;
            let spawned = std::thread::Builder::new()
                .name(format!("tarpon-helper-{id}"))
                .stack_size(HELPER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut eval = make_eval();
                    eval.reset(root);
                    let mut helper = Searcher::new(id, shared, root, eval, None, None);
                    helper.iterative_deepening();
                    helper.publish_nodes();
                });
            // A helper that cannot start costs strength, not correctness.
            if spawned.is_err() {
                break;
            }
        }
        let mut eval = make_eval();
        eval.reset(root);
        let mut main = Searcher::new(0, &shared, root, eval, Some(timer), Some(out));
        let depth = main.iterative_deepening();
        main.publish_nodes();
        shared.abort.store(true, Relaxed);
        let iterations = std::mem::take(&mut main.iterations);
        (main.into_summary(), depth, iterations)
    });

    let nodes = shared.total_nodes();
    let main_thread_nodes = shared.nodes[0].load(Relaxed);
    let (root_moves, seldepth) = main;
    let multipv = config.multipv.clamp(1, root_moves.len());
    let lines = root_moves
        .iter()
        .take(multipv)
        .map(|rm| PvLine {
            score: Score::from_internal(if rm.score == -super::score::INFINITE {
                rm.prev_score
            } else {
                rm.score
            }),
            pv: rm.pv.clone(),
        })
        .collect();
    let best = root_moves.first().map(|rm| rm.mv);
    let ponder = root_moves
        .first()
        .and_then(|rm| rm.pv.get(1).copied())
        .or_else(|| best.and_then(|b| ponder_from_table(root, b, tt)));
    SearchOutcome {
        best,
        ponder,
        lines,
        depth: depth.max(0) as u32,
        seldepth: seldepth as u32,
        nodes,
        main_thread_nodes,
        time_ms: started.elapsed().as_millis() as u64,
        iterations,
    }
}

/// A reply to ponder on when the PV is one move long: the table's best move
/// after `best`.
fn ponder_from_table(
    root: &Position,
    best: shakmaty::Move,
    tt: &TranspositionTable,
) -> Option<shakmaty::Move> {
    let mut pos = root.clone();
    pos.make(best);
    let hit = tt.probe(pos.key(), 1)?;
    super::tt::unpack_move(hit.packed_move, &pos.legal_moves())
}
