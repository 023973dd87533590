//! `tarpon explain tree`: the game tree of a fixed-depth search, printed so
//! it can be read: minimax, alpha-beta, PVS, soft alpha-beta and MCTS over
//! one small tree type, apart from the engine's own search.

pub mod classic;
pub mod mcts;
pub mod node;
pub mod ordering;
mod render;
pub mod soft;
mod walker;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use shakmaty::Move;

use crate::eval::Evaluator;
use crate::explain::evaluator::EvalOptions;
use crate::explain::json::Json;
use crate::position::{Position, START_FEN};
use classic::Classic;
use node::{NodeId, Tree, format_score};
use ordering::OrderingKind;
use render::{Limits, Shown};
use soft::Temperatures;

/// What a search counted.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Positions entered (for MCTS: nodes expanded).
    pub nodes: u64,
    /// Static evaluations at the depth limit.
    pub leaves: u64,
    /// Beta cutoffs.
    pub cutoffs: u64,
    /// PVS re-searches after a null-window fail high.
    pub researches: u64,
    /// Soft alpha-beta: nodes weighted by the product of gates on their path.
    pub weighted_nodes: Option<f64>,
}

/// The result of one explained search.
#[derive(Debug)]
pub struct Outcome {
    /// From the side to move at the root (MCTS: the best move's mean value
    /// turned back into centipawns).
    pub score: f64,
    pub best_move: Option<Move>,
    pub stats: Stats,
    pub tree: Tree,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgoArg {
    Minimax,
    Alphabeta,
    Pvs,
    Mcts,
    Soft,
    All,
}

/// One algorithm as run by the explainer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algo {
    Classic(Classic),
    Soft(Temperatures),
    Mcts { playouts: u32 },
}

impl Algo {
    pub fn name(self) -> &'static str {
        match self {
            Algo::Classic(Classic::Minimax) => "minimax",
            Algo::Classic(Classic::AlphaBeta) => "alphabeta",
            Algo::Classic(Classic::Pvs) => "pvs",
            Algo::Soft(_) => "soft",
            Algo::Mcts { .. } => "mcts",
        }
    }
}

/// Print the search tree of minimax, alpha-beta, PVS, soft alpha-beta or MCTS.
#[derive(Args, Debug)]
pub struct TreeArgs {
    /// Position to search (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies (1 to 8); MCTS ignores it.
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// Algorithms to run, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "alphabeta")]
    pub algo: Vec<AlgoArg>,
    #[command(flatten)]
    pub eval: EvalOptions,
    /// Move ordering of alpha-beta, PVS and soft alpha-beta.
    #[arg(long, value_enum, default_value = "tarpon")]
    pub order: OrderingKind,
    /// At most this many lines per tree.
    #[arg(long, default_value_t = 60)]
    pub max_lines: usize,
    /// List children of nodes up to this many plies below the focus (the
    /// principal variation is always followed to the leaves).
    #[arg(long, default_value_t = 1)]
    pub expand: usize,
    /// At most this many children per node; the rest are summarised.
    #[arg(long, default_value_t = 8)]
    pub max_children: usize,
    /// Show the subtree after these moves (SAN or UCI, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub path: Vec<String>,
    /// Machine-readable output.
    #[arg(long, conflicts_with = "dot")]
    pub json: bool,
    /// Graphviz DOT of the (single) algorithm's tree, e.g. `| dot -Tsvg`.
    #[arg(long, conflicts_with = "html")]
    pub dot: bool,
    /// Write the trees side by side as one self-contained HTML page (`-`: stdout).
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    pub html: Option<std::path::PathBuf>,
    /// Temperature of soft alpha-beta's soft max, centipawns.
    #[arg(long, default_value_t = 10.0)]
    pub tau: f64,
    /// Temperature of soft alpha-beta's pruning gates, centipawns.
    #[arg(long, default_value_t = 10.0)]
    pub gate_tau: f64,
    /// MCTS playouts.
    #[arg(long, default_value_t = 2000)]
    pub playouts: u32,
    /// Record at most this many nodes per tree (counts stay exact beyond).
    #[arg(long, default_value_t = node::DEFAULT_RECORD_LIMIT)]
    pub record_limit: usize,
    /// Instead of one position, run every FEN of this file (one per line) and
    /// print only the node counts per algorithm, e.g. the bench positions.
    #[arg(long)]
    pub bench_positions: Option<std::path::PathBuf>,
}

fn selected(args: &TreeArgs) -> Vec<Algo> {
    let soft = Algo::Soft(Temperatures {
        tau: args.tau,
        gate: args.gate_tau,
    });
    let mcts = Algo::Mcts {
        playouts: args.playouts,
    };
    let mut out: Vec<Algo> = Vec::new();
    for a in &args.algo {
        let add = match a {
            AlgoArg::Minimax => vec![Algo::Classic(Classic::Minimax)],
            AlgoArg::Alphabeta => vec![Algo::Classic(Classic::AlphaBeta)],
            AlgoArg::Pvs => vec![Algo::Classic(Classic::Pvs)],
            AlgoArg::Soft => vec![soft],
            AlgoArg::Mcts => vec![mcts],
            AlgoArg::All => vec![
                Algo::Classic(Classic::Minimax),
                Algo::Classic(Classic::AlphaBeta),
                Algo::Classic(Classic::Pvs),
                soft,
                mcts,
            ],
        };
        for x in add {
            if !out.contains(&x) {
                out.push(x);
            }
        }
    }
    out
}

/// Runs one algorithm.
pub fn explain(
    pos: &Position,
    eval: &mut dyn Evaluator,
    algo: Algo,
    order: OrderingKind,
    depth: u32,
    record_limit: usize,
) -> (Outcome, Duration) {
    let started = Instant::now();
    let outcome = match algo {
        Algo::Classic(c) => classic::search(pos, eval, c, order, depth, record_limit),
        Algo::Soft(t) => soft::search(pos, eval, t, order, depth, record_limit),
        Algo::Mcts { playouts } => mcts::search(pos, eval, playouts, record_limit),
    };
    (outcome, started.elapsed())
}

fn check_args(args: &TreeArgs) -> Result<(), String> {
    if !(1..=8).contains(&args.depth) {
        return Err(format!("--depth {} out of range (1 to 8)", args.depth));
    }
    let positive = |x: f64| x > 0.0 && x.is_finite();
    if !positive(args.tau) || !positive(args.gate_tau) {
        return Err("--tau and --gate-tau must be positive numbers".to_string());
    }
    if args.playouts == 0 {
        return Err("--playouts must be at least 1".to_string());
    }
    Ok(())
}

/// The text `explain tree` prints, or why it cannot.
pub fn report(args: &TreeArgs) -> Result<String, String> {
    check_args(args).and_then(|()| match &args.bench_positions {
        Some(file) => bench(args, file),
        None => single(args),
    })
}

/// The `--json` document of one position's trees (what the HTML page draws).
pub fn document(args: &TreeArgs) -> Result<Json, String> {
    check_args(args)?;
    if args.bench_positions.is_some() {
        return Err("--bench-positions prints a table of counts; drop it for a page".to_string());
    }
    let analysis = analyse(args)?;
    Ok(json_doc(args, &analysis))
}

fn san(pos: &Position, m: Option<Move>) -> String {
    m.map_or("-".to_string(), |m| {
        shakmaty::san::SanPlus::from_move(pos.to_chess(), m).to_string()
    })
}

struct Run {
    algo: Algo,
    outcome: Outcome,
    time: Duration,
}

/// One position searched by every selected algorithm, and the part of each
/// tree to show.
struct Analysis {
    pos: Position,
    eval: Box<dyn Evaluator>,
    runs: Vec<Run>,
    views: Vec<(NodeId, Vec<Shown>)>,
}

fn analyse(args: &TreeArgs) -> Result<Analysis, String> {
    let pos = Position::from_fen(args.fen.as_deref().unwrap_or(START_FEN), false)
        .map_err(|e| e.to_string())?;
    let mut eval = args.eval.evaluator()?;
    let algos = selected(args);
    if args.dot && algos.len() != 1 {
        return Err("--dot draws one tree: choose one --algo".to_string());
    }
    let limits = Limits {
        max_lines: args.max_lines,
        expand: args.expand,
        max_children: args.max_children,
    };
    let runs: Vec<Run> = algos
        .iter()
        .map(|&algo| {
            let (outcome, time) = explain(
                &pos,
                eval.as_mut(),
                algo,
                args.order,
                args.depth,
                args.record_limit,
            );
            Run {
                algo,
                outcome,
                time,
            }
        })
        .collect();
    let mut views = Vec::new();
    for run in &runs {
        let focus = render::find_path(&run.outcome.tree, &args.path)
            .map_err(|e| format!("{}: {e}", run.algo.name()))?;
        views.push((focus, render::select(&run.outcome.tree, focus, &limits)));
    }
    Ok(Analysis {
        pos,
        eval,
        runs,
        views,
    })
}

fn json_doc(args: &TreeArgs, analysis: &Analysis) -> Json {
    let Analysis {
        pos, runs, views, ..
    } = analysis;
    let results = runs
        .iter()
        .zip(views)
        .map(|(r, (focus, shown))| {
            let s = &r.outcome.stats;
            Json::obj([
                ("algo", Json::str(r.algo.name())),
                ("best", Json::str(san(pos, r.outcome.best_move))),
                ("score", r.outcome.score.into()),
                ("nodes", s.nodes.into()),
                ("leaves", s.leaves.into()),
                ("cutoffs", s.cutoffs.into()),
                ("researches", s.researches.into()),
                ("weighted_nodes", s.weighted_nodes.into()),
                ("time_ms", (r.time.as_secs_f64() * 1e3).into()),
                ("tree", render::json(&r.outcome.tree, *focus, shown)),
            ])
        })
        .collect();
    Json::obj([
        ("fen", Json::str(pos.fen())),
        ("depth", u64::from(args.depth).into()),
        ("results", Json::Arr(results)),
    ])
}

fn single(args: &TreeArgs) -> Result<String, String> {
    let analysis = analyse(args)?;
    if args.dot {
        let (focus, shown) = &analysis.views[0];
        return Ok(render::dot(&analysis.runs[0].outcome.tree, *focus, shown));
    }
    if args.json {
        return Ok(format!("{}\n", json_doc(args, &analysis)));
    }
    let Analysis {
        pos,
        mut eval,
        runs,
        views,
    } = analysis;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "position {}\ndepth {}, eval {}, ordering {:?}; each line: move, node type, value for the side \
         that moved [alpha, beta] from that side",
        pos.fen(),
        args.depth,
        args.eval.name(),
        args.order
    );
    for (run, (focus, shown)) in runs.iter().zip(&views) {
        let _ = writeln!(out, "\n== {}", describe(run.algo, args.depth));
        out.push_str(&render::text(&run.outcome.tree, *focus, &args.path, shown));
        if let Algo::Soft(t) = run.algo {
            out.push_str(&soft_sweep(&pos, eval.as_mut(), t, args)?);
        }
        if let Algo::Mcts { .. } = run.algo {
            out.push_str(&mcts_versus_alphabeta(
                &pos,
                eval.as_mut(),
                &run.outcome,
                args.depth,
            ));
        }
    }
    out.push('\n');
    out.push_str(&summary(&pos, &runs));
    Ok(out)
}

fn describe(algo: Algo, depth: u32) -> String {
    match algo {
        Algo::Soft(t) => format!(
            "soft alpha-beta, depth {depth}, tau {} cp, gate tau {} cp",
            t.tau, t.gate
        ),
        Algo::Mcts { playouts } => {
            format!("mcts (UCT, evaluator-valued leaves), {playouts} playouts")
        }
        _ => format!("{}, depth {depth}", algo.name()),
    }
}

fn summary(pos: &Position, runs: &[Run]) -> String {
    let minimax_nodes = runs
        .iter()
        .find(|r| r.algo == Algo::Classic(Classic::Minimax))
        .map(|r| r.outcome.stats.nodes);
    let mut out = format!(
        "{:<10} {:>10} {:>10} {:>8} {:>8} {:>8} {:>10} {:>9}\n",
        "algo", "nodes", "leaves", "cutoffs", "best", "score", "vs minimax", "time ms"
    );
    for r in runs {
        let s = &r.outcome.stats;
        let ratio = minimax_nodes.map_or("-".to_string(), |m| {
            format!("{:.2}%", 100.0 * s.nodes as f64 / m.max(1) as f64)
        });
        let _ = writeln!(
            out,
            "{:<10} {:>10} {:>10} {:>8} {:>8} {:>8} {:>10} {:>9.1}",
            r.algo.name(),
            s.nodes,
            s.leaves,
            if matches!(
                r.algo,
                Algo::Classic(Classic::Minimax) | Algo::Mcts { .. } | Algo::Soft(_)
            ) {
                "-".to_string()
            } else {
                s.cutoffs.to_string()
            },
            san(pos, r.outcome.best_move),
            format_score(r.outcome.score),
            ratio,
            r.time.as_secs_f64() * 1e3
        );
    }
    if let Some(w) = runs.iter().find_map(|r| r.outcome.stats.weighted_nodes) {
        let _ = writeln!(
            out,
            "soft alpha-beta: {w:.0} gate-weighted nodes (what the hard search keeps as the gates sharpen)"
        );
    }
    out
}

/// Soft alpha-beta's root value for shrinking τ against hard alpha-beta.
fn soft_sweep(
    pos: &Position,
    eval: &mut dyn Evaluator,
    t: Temperatures,
    args: &TreeArgs,
) -> Result<String, String> {
    let (hard, _) = explain(
        pos,
        eval,
        Algo::Classic(Classic::AlphaBeta),
        args.order,
        args.depth,
        0,
    );
    let mut out = format!(
        "as tau shrinks (gate tau {} cp) soft alpha-beta approaches alpha-beta's {}:\n{:>10} {:>12} {:>10} {:>16}\n",
        t.gate,
        format_score(hard.score),
        "tau",
        "root value",
        "|diff|",
        "weighted nodes"
    );
    let mut tau = t.tau;
    for _ in 0..6 {
        let (o, _) = explain(
            pos,
            eval,
            Algo::Soft(Temperatures { tau, gate: t.gate }),
            args.order,
            args.depth,
            0,
        );
        let _ = writeln!(
            out,
            "{tau:>10.3} {:>12.3} {:>10.3} {:>16.0}",
            o.score,
            (o.score - hard.score).abs(),
            o.stats.weighted_nodes.unwrap_or(0.0)
        );
        tau /= 4.0;
    }
    Ok(out)
}

/// Root moves by MCTS visits, next to each move's exact alpha-beta value.
fn mcts_versus_alphabeta(
    pos: &Position,
    eval: &mut dyn Evaluator,
    mcts: &Outcome,
    depth: u32,
) -> String {
    let mut out = format!(
        "root moves by visits, beside alpha-beta's exact value at depth {depth}:\n{:<8} {:>7} {:>7} {:>8} {:>10}\n",
        "move", "visits", "Q", "Q as cp", "alphabeta"
    );
    let tree = &mcts.tree;
    let Some(root) = tree.nodes.first() else {
        return out;
    };
    for &c in root.children.iter().take(12) {
        let n = &tree.nodes[c];
        let Some(m) = n.mv else { continue };
        let mut after = pos.clone();
        after.make(m);
        // Depth 0 is allowed here: the position after the move, evaluated.
        let (o, _) = explain(
            &after,
            eval,
            Algo::Classic(Classic::AlphaBeta),
            OrderingKind::Tarpon,
            depth - 1,
            0,
        );
        let exact = node::parent_view(o.score);
        let _ = writeln!(
            out,
            "{:<8} {:>7} {:>7.3} {:>8} {:>10}",
            n.san,
            n.visits,
            n.score,
            format_score(mcts::centipawns(n.score).round()),
            format_score(exact)
        );
    }
    out
}

/// `--bench-positions`: node counts per algorithm over a file of FENs.
fn bench(args: &TreeArgs, file: &std::path::Path) -> Result<String, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut eval = args.eval.evaluator()?;
    let algos: Vec<Algo> = selected(args)
        .into_iter()
        .filter(|a| matches!(a, Algo::Classic(_)))
        .collect();
    if algos.is_empty() {
        return Err(
            "--bench-positions compares minimax, alphabeta and pvs: choose some of them"
                .to_string(),
        );
    }
    let mut out = format!("{:>3} ", "#");
    for a in &algos {
        let _ = write!(out, "{:>12} {:>7}", a.name(), "score");
    }
    out.push('\n');
    let mut totals = vec![0u64; algos.len()];
    let mut disagreements = 0;
    for (i, line) in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
    {
        let pos = Position::from_fen(line, false)
            .map_err(|e| format!("{}: line {}: {e}", file.display(), i + 1))?;
        let _ = write!(out, "{:>3} ", i + 1);
        let mut scores = Vec::new();
        for (k, &algo) in algos.iter().enumerate() {
            let (o, _) = explain(&pos, eval.as_mut(), algo, args.order, args.depth, 0);
            totals[k] += o.stats.nodes;
            scores.push(o.score);
            let _ = write!(out, "{:>12} {:>7}", o.stats.nodes, format_score(o.score));
        }
        if scores.windows(2).any(|w| w[0] != w[1]) {
            disagreements += 1;
            out.push_str("  <- scores differ");
        }
        out.push('\n');
    }
    let _ = write!(out, "{:>3} ", "all");
    for t in &totals {
        let _ = write!(out, "{t:>12} {:>7}", "");
    }
    out.push('\n');
    if let Some(k) = algos
        .iter()
        .position(|&a| a == Algo::Classic(Classic::Minimax))
    {
        for (a, t) in algos.iter().zip(&totals) {
            let _ = writeln!(
                out,
                "{:<10} {:>12} nodes = {:.2}% of minimax",
                a.name(),
                t,
                100.0 * *t as f64 / totals[k].max(1) as f64
            );
        }
    }
    let _ = writeln!(out, "root scores disagree on {disagreements} positions");
    Ok(out)
}

#[cfg(test)]
mod tests;
