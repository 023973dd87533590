//! `tarpon bench`: a fixed-depth search of 47 varied positions, each with a
//! fresh hash table on one thread. The total node count is deterministic and
//! identifies the search (it goes in every commit message that changes the
//! search); the speed goes in the last line, `<nodes> nodes <nps> nps`, as
//! OpenBench expects.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::eval::nnue::{Kernels, Network, SimdPath};
use crate::eval::{EvalChoice, endgame};
use crate::position::Position;
use crate::search::{Limits, SearchConfig, SearchControl, TranspositionTable, run_search};

/// The positions: Stockfish 15.1's bench set with its `moves` suffixes applied.
pub const BENCH_FENS: &str = include_str!("bench-fens.txt");
/// Depth that takes a few seconds in a release build.
pub const DEFAULT_DEPTH: u32 = 11;
pub const DEFAULT_HASH_MB: usize = 16;

/// The bench positions and every position one legal move after each: what
/// the exhaustive tests of move-level shortcuts walk.
#[cfg(test)]
pub fn positions_and_children() -> Vec<Position> {
    let mut positions = Vec::new();
    for line in BENCH_FENS.lines().filter(|l| !l.trim().is_empty()) {
        let root = Position::from_fen(line.trim(), false).unwrap();
        for m in root.legal_moves() {
            let mut child = root.clone();
            child.make(m);
            positions.push(child);
        }
        positions.push(root);
    }
    positions
}

#[derive(Clone, Debug)]
pub struct BenchResult {
    pub nodes: u64,
    /// Nodes of the main thread alone (equals `nodes` on one thread).
    pub main_thread_nodes: u64,
    pub elapsed_ms: u64,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.elapsed_ms.max(1)
    }
}

/// Runs the bench, sending one line per position and a summary to `out`; the
/// last line is `<nodes> nodes <nps> nps`.
pub fn bench(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    eval: &EvalChoice,
    out: &mut dyn FnMut(&str),
) -> BenchResult {
    let config = SearchConfig {
        threads: threads.max(1),
        eval: eval.clone(),
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let control = SearchControl::new();
    let fens: Vec<&str> = BENCH_FENS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut nodes = 0;
    let mut main_thread_nodes = 0;
    // Every position starts from an empty table, as if in a new game, but
    // only the searches are timed: allocating and clearing the table is not
    // searching (Stockfish's bench likewise stops its clock for `ucinewgame`).
    let tt = TranspositionTable::new(hash_mb);
    // Tables built once per process are not searching either.
    endgame::prepare();
    let mut searching = Duration::ZERO;
    for (i, fen) in fens.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen, false) else {
            out(&format!("skipping unreadable bench position {fen}"));
            continue;
        };
        tt.clear();
        let start = Instant::now();
        let outcome = run_search(&pos, &limits, &config, &tt, &control, &mut |_| {});
        searching += start.elapsed();
        nodes += outcome.nodes;
        main_thread_nodes += outcome.main_thread_nodes;
        let best = outcome.best.map_or("0000".to_string(), |m| pos.uci(m));
        out(&format!(
            "position {:2}/{}  bestmove {best:6} nodes {:10}  {fen}",
            i + 1,
            fens.len(),
            outcome.nodes
        ));
    }
    let result = BenchResult {
        nodes,
        main_thread_nodes,
        elapsed_ms: searching.as_millis() as u64,
    };
    out("===========================");
    out(&format!("Total time (ms) : {}", result.elapsed_ms));
    out(&format!("Nodes searched  : {}", result.nodes));
    if threads > 1 {
        out(&format!("Main thread     : {}", result.main_thread_nodes));
    }
    out(&format!("Nodes/second    : {}", result.nps()));
    out(&format!("{} nodes {} nps", result.nodes, result.nps()));
    result
}

/// Command line of `tarpon bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Search threads (more than one makes the node count vary; use it to
    /// measure Lazy SMP time to depth).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Hash table size in MB, fresh for every position.
    #[arg(long, default_value_t = DEFAULT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Evaluator: `pst` or `nnue` (the net of --net, else the embedded one).
    /// Default: `nnue` with --net, else the engine's default evaluator (the
    /// embedded net when the binary carries one), so a plain `bench` measures
    /// what the engine plays with.
    #[arg(long)]
    pub eval: Option<String>,
    /// Net file for `--eval nnue`.
    #[arg(long)]
    pub net: Option<std::path::PathBuf>,
    /// Run the bench with the PST first, then with the chosen evaluator, and
    /// print both speeds and their ratio (measured side by side).
    #[arg(long)]
    pub vs_pst: bool,
    /// Force the net's kernels onto one instruction set (`scalar`, `sse4.1`,
    /// `avx2`, `avx-vnni`, `avx512`, `neon`) instead of the fastest: every path must
    /// give the same node count.
    #[arg(long)]
    pub simd: Option<SimdPath>,
}

/// The evaluator `--eval` and `--net` ask for: `nnue` (the net of `--net`,
/// else the embedded one) when `--net` alone is given, the engine's default
/// evaluator when neither is.
fn chosen_evaluator(eval: Option<&str>, net_file: Option<&Path>) -> Result<EvalChoice, String> {
    let net = match net_file {
        Some(path) => Some(Arc::new(
            Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => Network::embedded_default(),
    };
    let name = match eval {
        Some(name) => name,
        None if net_file.is_some() => "nnue",
        None => return Ok(EvalChoice::default()),
    };
    match name {
        "pst" => Ok(EvalChoice::Pst),
        "nnue" => net.map(EvalChoice::Nnue).ok_or_else(|| {
            "--eval nnue: this binary has no built-in net; give one with --net FILE".to_string()
        }),
        other => Err(format!("unknown evaluator '{other}' (pst or nnue)")),
    }
}

pub fn run(args: BenchArgs) -> ExitCode {
    if let Some(Err(e)) = args.simd.map(Kernels::force) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    // A bench of a binary whose built-in net is broken would print a PST
    // signature that looks like any other: refuse it.
    if args.net.is_none()
        && let Some(e) = Network::embedded_default_error()
    {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let eval = match chosen_evaluator(args.eval.as_deref(), args.net.as_deref()) {
        Ok(eval) => eval,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let run_with = |eval: &EvalChoice| {
        bench(
            args.depth,
            args.threads as usize,
            args.hash as usize,
            eval,
            &mut |line| println!("{line}"),
        )
    };
    if args.vs_pst {
        let pst = run_with(&EvalChoice::Pst);
        let chosen = run_with(&eval);
        println!(
            "pst {} nps, {} {} nps: {:.1}% of pst",
            pst.nps(),
            eval.name(),
            chosen.nps(),
            100.0 * chosen.nps() as f64 / pst.nps().max(1) as f64
        );
    } else {
        run_with(&eval);
    }
    ExitCode::SUCCESS
}
