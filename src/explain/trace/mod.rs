//! `tarpon explain trace`: what the evaluation sees in a position, piece by
//! piece.

pub mod eval_view;

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;

use crate::explain::json::Json;
use crate::explain::tree::{EvalArg, make_evaluator};
use crate::position::{Position, START_FEN};

/// Take a position's evaluation apart, piece by piece.
#[derive(Args, Debug)]
pub struct TraceArgs {
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Evaluator to take apart.
    #[arg(long, value_enum, default_value = "pst")]
    pub eval: EvalArg,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &TraceArgs) -> ExitCode {
    match trace(args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn trace(args: &TraceArgs) -> Result<String, String> {
    let pos = Position::from_fen(args.fen.as_deref().unwrap_or(START_FEN), false)
        .map_err(|e| e.to_string())?;
    let mut eval = make_evaluator(args.eval)?;
    let total = eval_view::white_eval(eval.as_mut(), &pos);
    let contrib = eval_view::contributions(eval.as_mut(), &pos);
    if args.json {
        let doc = Json::obj([
            ("fen", Json::str(pos.fen())),
            ("eval", Json::str(format!("{:?}", args.eval).to_lowercase())),
            ("white_eval", total.into()),
            ("pieces", eval_view::contributions_json(&pos, &contrib)),
        ]);
        return Ok(format!("{doc}\n"));
    }
    let mut out = format!("position {}\n", pos.fen());
    let _ = writeln!(
        out,
        "static evaluation ({:?}): {total:+} cp for White\n",
        args.eval
    );
    if args.eval == EvalArg::Pst {
        out.push_str(&eval_view::pst_breakdown(&pos));
        out.push('\n');
    }
    out.push_str(
        "contribution of each piece (evaluation minus evaluation without it, White's view; \
         kings and pieces whose removal is illegal left blank):\n",
    );
    out.push_str(&eval_view::board(&pos, |sq| contrib[usize::from(sq)]));
    Ok(out)
}
