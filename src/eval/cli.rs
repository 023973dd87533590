//! `tarpon eval`: the static evaluation of one position, as a command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;

use super::nnue::Network;
use super::report::eval_report;
use crate::position::{Position, START_FEN};

/// Arguments of `tarpon eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// A net file (Stockfish 12 HalfKP or Stockfish 15.1 `.nnue`, or
    /// tarpon's format); default: the net built into the binary, if any.
    #[arg(long)]
    pub net: Option<PathBuf>,
}

/// Prints the static evaluation of one position.
pub fn run_eval(args: EvalArgs) -> ExitCode {
    let pos = match Position::from_fen(args.fen.as_deref().unwrap_or(START_FEN), false) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let net = match &args.net {
        Some(path) => match Network::load(path) {
            Ok(net) => Some(Arc::new(net)),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => Network::embedded_default(),
    };
    print!("{}", eval_report(&pos, net.as_deref()));
    ExitCode::SUCCESS
}
