//! Lazy SMP: the main thread and `Threads - 1` helpers search the same root
//! with one shared transposition table. Helpers skip some iterations
//! (Stockfish 9's skip-size/skip-phase pattern, counted back from the depth
//! limit) so they work ahead of the main thread and fill the table with
//! deeper entries. The main thread reports and decides when to stop; the
//! search reaches a depth limit as soon as any thread completes an iteration
//! of that depth, and the deepest completed iteration of any thread is the
//! result (ties go to the main thread).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::score::Score;
use super::searcher::{CompletedIteration, Searcher, Shared, ThreadCounter, Timer};
use super::time::{Clock, budget};
use super::{
    GameMemory, Limits, PvLine, SearchConfig, SearchControl, SearchOutcome, TranspositionTable,
};
use crate::eval::Evaluator;
use crate::position::Position;

/// Helper threads get a generous stack: every ply of the search keeps its
/// move list on the stack.
const HELPER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Most threads a search will start, whatever `Threads` says.
pub const MAX_THREADS: usize = 1024;

/// Stockfish 9's depth-skipping pattern: helper `i` (from 1, cycling every
/// 20) skips iterations in alternating runs of `SKIP_SIZE` depths, shifted by
/// `SKIP_PHASE`, so helpers spread over the depths just ahead of the main thread.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether thread `id` leaves out the iteration at `depth` on its way to
/// `max_depth`. The main thread iterates every depth (it reports each one);
/// nobody skips the last. The pattern is counted back from `max_depth`, so
/// the first helper searches the depths of the limit's parity and arrives at
/// the limit from two plies below while the main thread is one ply below:
/// measured on the bench at depth 13, per-thread nodes to depth 0.58x of one
/// thread's against 0.63x with every thread iterating every depth.
pub fn helper_skips_depth(id: usize, depth: i32, max_depth: i32) -> bool {
    if id == 0 || depth >= max_depth {
        return false;
    }
    let i = (id - 1) % SKIP_SIZE.len();
    ((max_depth - depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

/// Searches `root` with one thread per evaluator in `evals` (the first is the
/// main thread's) and returns the outcome with the evaluators, for the
/// game's next search.
pub fn search_with<E: Evaluator>(
    root: &Position,
    limits: &Limits,
    config: &SearchConfig,
    memory: GameMemory<'_>,
    control: &SearchControl,
    mut out: Option<&mut dyn FnMut(&str)>,
    evals: Vec<E>,
) -> (SearchOutcome, Vec<E>) {
    let started = std::time::Instant::now();
    let GameMemory { tt, histories, .. } = memory;
    let legal = root.legal_moves();
    if legal.is_empty() {
        // Mate or stalemate at the root: report it as Stockfish does.
        let score = if root.is_check() { "mate 0" } else { "cp 0" };
        if let Some(out) = out.as_mut() {
            out(&format!("info depth 0 score {score}"));
        }
        let outcome = SearchOutcome {
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
        return (outcome, evals);
    }
    tt.new_search();
    let threads = evals.len();
    debug_assert!((1..=MAX_THREADS).contains(&threads));
    let shared = Shared {
        tt,
        control,
        limits,
        config,
        abort: AtomicBool::new(false),
        nodes: (0..threads).map(|_| ThreadCounter::default()).collect(),
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

    let mut tables = histories.take(threads).into_iter();
    let main_history = tables.next().unwrap_or_default();
    let mut evals = evals.into_iter();
    let Some(mut main_eval) = evals.next() else {
        unreachable!("one evaluator a thread, at least one thread");
    };
    let (main, depth, iterations, tables, evals) = std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for ((id, history), mut eval) in (1..threads).zip(tables).zip(evals) {
            let shared = &shared;
            let spawned = std::thread::Builder::new()
                .name(format!("tarpon-helper-{id}"))
                .stack_size(HELPER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    eval.reset(root);
                    let mut helper = Searcher::new(id, shared, root, eval, history, None, None);
                    helper.iterative_deepening();
                    helper.publish_nodes();
                    (helper.completed, helper.history, helper.eval)
                });
            match spawned {
                Ok(handle) => helpers.push(handle),
                // A helper that cannot start costs strength, not correctness.
                Err(_) => break,
            }
        }
        main_eval.reset(root);
        let mut main = Searcher::new(0, &shared, root, main_eval, main_history, Some(timer), out);
        let mut depth = main.iterative_deepening();
        main.publish_nodes();
        shared.abort.store(true, Relaxed);
        let mut helper_tables = Vec::with_capacity(helpers.len());
        let mut helper_evals = Vec::with_capacity(helpers.len());
        let mut deepest: Option<CompletedIteration> = None;
        for handle in helpers {
            let (completed, history, eval) = handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            helper_tables.push(history);
            helper_evals.push(eval);
            // Of equally deep helpers the last one counts.
            if deepest.as_ref().is_none_or(|d| completed.depth >= d.depth) {
                deepest = Some(completed);
            }
        }
        // A helper that completed a deeper iteration than the main thread
        // (it reached the depth limit first, or was ahead when time ran out)
        // knows more: its result is the search's, reported as the last line.
        if let Some(helper) = deepest
            && helper.depth > depth
            && !helper.root_moves.is_empty()
        {
            depth = helper.depth;
            main.root_moves = helper.root_moves;
            let multipv = config.multipv.clamp(1, main.root_moves.len());
            main.report_lines(depth, multipv);
        }
        // Stopped inside an iteration (time, nodes, `stop`) with another best
        // move than the last line sent: the lines of the iteration in
        // progress, as Stockfish sends them, so the last PV a GUI shows
        // starts with the move played.
        let best = main.root_moves.first().map(|rm| rm.mv);
        if best.is_some() && best != main.reported_best {
            let multipv = config.multipv.clamp(1, main.root_moves.len());
            main.report_lines(main.root_depth.max(1), multipv);
        }
        let iterations = std::mem::take(&mut main.iterations);
        let (root_moves, seldepth, main_table, main_eval) = main.into_summary();
        // Thread 0's table and evaluator first, as the next search expects.
        let tables = std::iter::once(main_table).chain(helper_tables).collect();
        let evals: Vec<E> = std::iter::once(main_eval).chain(helper_evals).collect();
        ((root_moves, seldepth), depth, iterations, tables, evals)
    });
    histories.put_back(tables);

    let nodes = shared.total_nodes();
    let main_thread_nodes = shared.nodes[0].0.load(Relaxed);
    let (root_moves, seldepth) = main;
    let multipv = config.multipv.clamp(1, root_moves.len());
    let lines = root_moves
        .iter()
        .take(multipv)
        .map(|rm| PvLine {
            score: Score::from_internal(rm.latest_score()),
            pv: rm.pv.clone(),
        })
        .collect();
    let best = root_moves.first().map(|rm| rm.mv);
    let ponder = root_moves
        .first()
        .and_then(|rm| rm.pv.get(1).copied())
        .or_else(|| best.and_then(|b| ponder_from_table(root, b, tt)));
    let outcome = SearchOutcome {
        best,
        ponder,
        lines,
        depth: depth.max(0) as u32,
        seldepth: seldepth as u32,
        nodes,
        main_thread_nodes,
        time_ms: started.elapsed().as_millis() as u64,
        iterations,
    };
    (outcome, evals)
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

#[cfg(test)]
mod tests {
    use super::helper_skips_depth;

    fn searched(id: usize, max_depth: i32) -> Vec<i32> {
        (1..=max_depth)
            .filter(|&d| !helper_skips_depth(id, d, max_depth))
            .collect()
    }

    #[test]
    fn the_main_thread_iterates_every_depth() {
        assert_eq!(searched(0, 9), (1..=9).collect::<Vec<_>>());
    }

    #[test]
    fn the_first_helper_searches_the_depths_of_the_limits_parity() {
        assert_eq!(searched(1, 9), vec![1, 3, 5, 7, 9]);
        assert_eq!(searched(1, 8), vec![2, 4, 6, 8]);
    }

    #[test]
    fn every_helper_reaches_the_limit_and_skips_some_depths() {
        for id in 2..=40 {
            let depths = searched(id, 20);
            assert_eq!(depths.last(), Some(&20), "helper {id}");
            assert!(depths.len() < 20, "helper {id} skips nothing");
        }
        // The second helper takes the other parity.
        assert_eq!(searched(2, 9), vec![2, 4, 6, 8, 9]);
    }
}
