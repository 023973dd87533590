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
    /// Speak UCI on stdin/stdout (the default when no subcommand is given).
    Uci,
    /// Search the bench positions to a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench(tarpon::bench::BenchArgs),
    /// Count leaf nodes of the legal move tree (move generator check and speed test).
    Perft(perft::cli::Args),
    /// Play matches between engines (UCI or xboard) and measure Elo.
    Arena(Box<tarpon::arena::Args>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Uci) => tarpon::uci::run(),
        Some(Command::Bench(args)) => tarpon::bench::run(args),
        Some(Command::Perft(args)) => perft::cli::run(args),
        Some(Command::Arena(args)) => tarpon::arena::run(*args),
    }
}
