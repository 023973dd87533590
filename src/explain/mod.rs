//! `tarpon explain`: how search works, in text you can read. `maze` runs the
//! classic path finders on a grid; `tree` prints the game tree of minimax,
//! alpha-beta, PVS, soft alpha-beta and MCTS on a chess position.

pub mod evaluator;
pub mod game;
pub mod html;
pub mod json;
pub mod maze;
pub mod trace;
pub mod tree;

use std::path::Path;
use std::process::ExitCode;

use clap::{Args, Subcommand};

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(subcommand)]
    pub mode: Mode,
}

#[derive(Subcommand, Debug)]
pub enum Mode {
    /// Generate or read a maze and solve it with BFS, DFS, Dijkstra and A*.
    Maze(maze::MazeArgs),
    /// Print the search tree of minimax, alpha-beta, PVS, soft alpha-beta or MCTS.
    Tree(tree::TreeArgs),
    /// Take a position's evaluation apart, piece by piece.
    Trace(trace::TraceArgs),
    /// Annotate the games of a PGN file with the engine's judgement of each move.
    Game(game::GameArgs),
}

/// With `--html FILE` the page is written there; otherwise the report.
fn page_or_report(
    html_file: Option<&Path>,
    page: impl FnOnce() -> Result<String, String>,
    report: impl FnOnce() -> Result<String, String>,
) -> Result<String, String> {
    match html_file {
        Some(path) => html::write(path, &page()?),
        None => report(),
    }
}

pub fn run(args: &ExplainArgs) -> ExitCode {
    let report = match &args.mode {
        Mode::Maze(a) => page_or_report(
            a.html.as_deref(),
            || maze::document(a).map(|d| html::maze::page(&d)),
            || maze::report(a),
        ),
        Mode::Tree(a) => page_or_report(
            a.html.as_deref(),
            || tree::document(a).map(|d| html::tree::page(&d)),
            || tree::report(a),
        ),
        Mode::Trace(a) => page_or_report(
            a.html.as_deref(),
            || trace::document(a).map(|d| html::trace::page(&d)),
            || trace::trace(a),
        ),
        Mode::Game(a) => page_or_report(
            a.html.as_deref(),
            || game::document(a).map(|d| html::game::page(&d)),
            || game::game(a),
        ),
    };
    match report {
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
