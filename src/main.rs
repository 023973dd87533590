use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tarpon::eval::nnue::cli as nnue_cli;
use tarpon::position::{Position, START_FEN, perft};

/// tarpon: a UCI chess engine. With no subcommand it speaks UCI on stdin/stdout.
#[derive(Parser)]
#[command(name = "tarpon", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree (move generator check and speed test).
    Perft {
        /// Depth in plies (1 to 12).
        depth: u32,
        /// Position to start from (default: the standard start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move, as Stockfish's `go perft` does.
        #[arg(long)]
        divide: bool,
    },
    /// Print the static evaluation of a position (NNUE and its feature set).
    Eval(nnue_cli::EvalArgs),
    /// Write a seeded random net (for benchmarks and tests, not for play).
    RandomNet(nnue_cli::RandomNetArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            eprintln!("the UCI loop is not built yet");
            ExitCode::FAILURE
        }
        Some(Command::Eval(args)) => nnue_cli::run_eval(args),
        Some(Command::RandomNet(args)) => nnue_cli::run_random_net(args),
        Some(Command::Perft { depth, fen, divide }) => {
            let mut pos = match Position::from_fen(fen.as_deref().unwrap_or(START_FEN), false) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let start = std::time::Instant::now();
            let total = if divide {
                let rows = perft::divide(&mut pos, depth);
                for (m, n) in &rows {
                    println!("{}: {n}", pos.uci(*m));
                }
                println!();
                rows.iter().map(|r| r.1).sum()
            } else {
                perft::perft(&mut pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            println!("Nodes searched: {total}");
            println!(
                "time {:.3} s, {:.1} Mnps",
                secs,
                total as f64 / secs.max(1e-9) / 1e6
            );
            ExitCode::SUCCESS
        }
    }
}
