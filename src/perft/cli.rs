//! `tarpon perft`: the command-line face of [`super::run`].

use std::io::{self, Write};
use std::process::ExitCode;

use super::Settings;
use crate::position::{Position, START_FEN};

/// Count the leaf nodes of the legal move tree: a move generator check
/// (compare with `go perft` of any engine) and speed test.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth in plies (1 to 12).
    pub depth: u32,
    /// Position to start from, in FEN; castling may be KQkq, X-FEN or
    /// Shredder-FEN (default: the standard start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Chess960 castling rules and notation (chosen anyway when the castling
    /// rights only make sense in Chess960).
    #[arg(long)]
    pub chess960: bool,
    /// Print the count below each root move, in the format of Stockfish's
    /// `go perft`, so the two can be diffed.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Size of the shared perft hash table in MB; 0 disables it and measures
    /// the raw move generator [default: sized to the position and depth, at
    /// most 256].
    #[arg(long, value_name = "MB")]
    pub hash: Option<usize>,
}

pub fn run(args: Args) -> ExitCode {
    match perft_command(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn perft_command(args: &Args) -> Result<(), String> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let pos = Position::from_fen(fen, args.chess960).map_err(|e| e.to_string())?;
    let settings = Settings {
        threads: args.threads.unwrap_or_else(|| Settings::default().threads),
        hash_mb: args.hash,
    };
    let result = super::run(&pos, args.depth, &settings).map_err(|e| e.to_string())?;

    let mut out = io::stdout().lock();
    let written = if args.divide {
        result.write_stockfish_format(&mut out)
    } else {
        writeln!(out, "Nodes searched: {}", result.nodes)
    };
    written
        .and_then(|()| {
            writeln!(
                out,
                "time {:.3} s, {:.1} Mnps ({} thread{}, {})",
                result.elapsed.as_secs_f64(),
                result.mnps(),
                settings.threads,
                if settings.threads == 1 { "" } else { "s" },
                match result.hash_mb {
                    0 => "no hash".to_string(),
                    mb => format!("hash {mb} MB"),
                }
            )
        })
        .map_err(|e| format!("cannot write output: {e}"))
}
