use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tarpon::perft;

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
    Perft(perft::cli::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            eprintln!("the UCI loop is not built yet");
            ExitCode::FAILURE
        }
        Some(Command::Perft(args)) => perft::cli::run(args),
    }
}
