//! `tarpon explain trace`: what the evaluation sees in a position, piece by
//! piece, and how the engine's search went, iteration by iteration.

pub mod eval_view;
pub mod search_view;

use std::fmt::Write as _;

use clap::Args;

use crate::explain::evaluator::{EvalArg, EvalOptions};
use crate::explain::json::Json;
use crate::position::{Position, START_FEN};
use crate::search::{Limits, SearchOutcome};

/// Take a position's evaluation apart and trace the engine's search on it.
#[derive(Args, Debug)]
pub struct TraceArgs {
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Search to this depth (default 8 when no --movetime is given).
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Only the evaluation, no search.
    #[arg(long, conflicts_with_all = ["depth", "movetime"])]
    pub no_search: bool,
    /// Evaluator to take apart (and to search with).
    #[command(flatten)]
    pub eval: EvalOptions,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Write the heat map and the search charts as one self-contained HTML
    /// page (`-`: stdout).
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    pub html: Option<std::path::PathBuf>,
}

/// The position, its evaluation piece by piece and the search's iterations.
struct Trace {
    pos: Position,
    total: i32,
    contrib: [Option<i32>; 64],
    outcome: Option<SearchOutcome>,
}

fn analyse(args: &TraceArgs) -> Result<Trace, String> {
    let pos = Position::from_fen(args.fen.as_deref().unwrap_or(START_FEN), false)
        .map_err(|e| e.to_string())?;
    let mut eval = args.eval.evaluator()?;
    let outcome = if args.no_search {
        None
    } else {
        let limits = match (args.depth, args.movetime) {
            (_, Some(ms)) => Limits {
                movetime_ms: Some(ms),
                ..Limits::default()
            },
            (depth, None) => {
                let depth = depth.unwrap_or(8);
                if !(1..=64).contains(&depth) {
                    return Err(format!("--depth {depth} out of range (1 to 64)"));
                }
                Limits {
                    depth: Some(depth),
                    ..Limits::default()
                }
            }
        };
        Some(search_view::run(&pos, limits, args.eval.choice()?)?)
    };
    let total = eval_view::white_eval(eval.as_mut(), &pos);
    let contrib = eval_view::contributions(eval.as_mut(), &pos);
    Ok(Trace {
        pos,
        total,
        contrib,
        outcome,
    })
}

fn json_doc(args: &TraceArgs, t: &Trace) -> Json {
    Json::obj([
        ("fen", Json::str(t.pos.fen())),
        ("eval", Json::str(args.eval.name())),
        ("white_eval", t.total.into()),
        ("pieces", eval_view::contributions_json(&t.pos, &t.contrib)),
        (
            "iterations",
            t.outcome
                .as_ref()
                .map_or(Json::Null, |o| search_view::json(&t.pos, o)),
        ),
    ])
}

/// The `--json` document (what the HTML page draws).
pub fn document(args: &TraceArgs) -> Result<Json, String> {
    Ok(json_doc(args, &analyse(args)?))
}

/// The text `explain trace` prints, or why it cannot.
pub fn trace(args: &TraceArgs) -> Result<String, String> {
    let t = analyse(args)?;
    if args.json {
        return Ok(format!("{}\n", json_doc(args, &t)));
    }
    let Trace {
        pos,
        total,
        contrib,
        outcome,
    } = t;
    let mut out = format!("position {}\n", pos.fen());
    let _ = writeln!(
        out,
        "static evaluation ({}): {total:+} cp for White\n",
        args.eval.name()
    );
    if args.eval.eval == EvalArg::Pst {
        out.push_str(&eval_view::pst_breakdown(&pos));
        out.push('\n');
    }
    out.push_str(
        "contribution of each piece (evaluation minus evaluation without it, White's view; \
         kings and pieces whose removal is illegal left blank):\n",
    );
    out.push_str(&eval_view::board(&pos, |sq| contrib[usize::from(sq)]));
    if let Some(o) = &outcome {
        out.push('\n');
        out.push_str(&search_view::table(&pos, o));
    }
    Ok(out)
}
