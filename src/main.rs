use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tarpon::perft;

/// tarpon: a UCI chess engine. With no subcommand it speaks UCI on stdin/stdout.
#[derive(Parser)]
#[command(name = "tarpon", version = tarpon::eval::nnue::version_line(), about, long_about = None)]
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
    /// Show how search algorithms work: maze solvers and chess search trees.
    Explain(tarpon::explain::ExplainArgs),
    /// Find the master games that reached a position like this one (index and query).
    Similar(tarpon::similar::SimilarArgs),
    /// Print the static evaluation of a position (NNUE, PST and the feature set in use).
    Eval(tarpon::eval::cli::EvalArgs),
    /// Write a seeded random net (for benchmarks and tests, not for play).
    RandomNet(tarpon::eval::nnue::cli::RandomNetArgs),
    /// Write out the Stockfish 15.1 net embedded in a Stockfish binary.
    ExtractNet(tarpon::eval::nnue::extract::ExtractArgs),
    /// Play matches between engines (UCI or xboard) and measure Elo.
    Arena(Box<tarpon::arena::Args>),
    /// Generate training data: self-play games at a fixed node budget per move.
    Datagen(tarpon::train::datagen::DatagenArgs),
    /// Turn fastchess PGNs (OpenBench datagen) into training records.
    Convert(tarpon::train::convert::ConvertArgs),
    /// Train an NNUE (HalfKP, HalfKAv2_hm or Chess768) on datagen records and export it.
    Train(tarpon::train::trainer::TrainArgs),
    /// Write the weight-by-weight mean of nets of one architecture (a candidate to match).
    AverageNets(tarpon::train::average::AverageArgs),
    /// Play tarpon in a browser: competitive or learning mode (docs/play.md).
    Play(tarpon::play::PlayArgs),
    /// Read a chess board from a picture: its FEN, confidence and analysis
    /// (`tarpon scan train|eval|render|bench` are its tools).
    #[cfg(feature = "scan")]
    Scan(Box<tarpon::scan::cli::ScanArgs>),
    /// Print the search parameters as SPSA input (`name, int, default, min, max, c_end, r_end`);
    /// only a build with `--features tune` can set them as UCI options.
    Params,
}

/// What the UCI loop's `scan` command reads pictures with, in a build that
/// has the reader.
fn picture_reader() -> Option<tarpon::uci::engine::PictureReader> {
    #[cfg(feature = "scan")]
    return Some(tarpon::scan::cli::read_for_engine);
    #[cfg(not(feature = "scan"))]
    return None;
}

fn main() -> ExitCode {
    // OpenBench's datagen passes commands as arguments:
    // `tarpon "genfens N seed S book <None|FILE>" "quit"`.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if args
        .first()
        .is_some_and(|a| a.split_whitespace().next() == Some("genfens"))
    {
        return tarpon::train::genfens::run_commands(&args);
    }
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Uci) => tarpon::uci::run(picture_reader()),
        Some(Command::Explain(args)) => tarpon::explain::run(&args),
        Some(Command::Play(args)) => tarpon::play::run(&args),
        Some(Command::Similar(args)) => tarpon::similar::run(&args),
        Some(Command::Bench(args)) => tarpon::bench::run(args),
        Some(Command::Perft(args)) => perft::cli::run(args),
        Some(Command::Eval(args)) => tarpon::eval::cli::run_eval(args),
        Some(Command::RandomNet(args)) => tarpon::eval::nnue::cli::run_random_net(args),
        Some(Command::ExtractNet(args)) => tarpon::eval::nnue::extract::run(args),
        Some(Command::Arena(args)) => tarpon::arena::run(*args),
        Some(Command::Datagen(args)) => tarpon::train::datagen::run(args),
        Some(Command::Convert(args)) => tarpon::train::convert::run(args),
        Some(Command::Train(args)) => tarpon::train::trainer::run(args),
        Some(Command::AverageNets(args)) => tarpon::train::average::run(args),
        #[cfg(feature = "scan")]
        Some(Command::Scan(args)) => tarpon::scan::cli::run(&args),
        Some(Command::Params) => {
            if !cfg!(feature = "tune") {
                eprintln!("note: this build lacks the tune feature; its parameters are constants");
            }
            print!("{}", tarpon::search::params::spsa_input());
            ExitCode::SUCCESS
        }
    }
}
