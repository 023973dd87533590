//! `tarpon explain`: how search works, in text you can read. `maze` runs the
//! classic path finders on a grid; `tree` prints the game tree of minimax,
//! alpha-beta, PVS, soft alpha-beta and MCTS on a chess position.

pub mod evaluator;
pub mod game;
pub mod json;
pub mod maze;
pub mod trace;
pub mod tree;

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

pub fn run(args: &ExplainArgs) -> ExitCode {
    let report = match &args.mode {
        Mode::Maze(a) => return maze::run(a),
        Mode::Tree(a) => tree::report(a),
        Mode::Trace(a) => trace::trace(a),
        Mode::Game(a) => game::game(a),
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
