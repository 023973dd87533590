//! `tarpon arena`: matches between engines with the arena as referee.
//!
//! - [`cli`]: the command line and the checked match plan
//! - [`engine`]: UCI and xboard engines over child processes
//! - [`clock`]: time controls and the arena's clocks
//! - [`referee`]: the rules of chess, judged by the arena
//! - [`adjudication`]: draw and resign adjudication from engine scores
//! - [`tablebase`]: Syzygy adjudication
//! - [`openings`]: EPD and PGN books
//! - [`game`]: one game
//! - [`runner`]: the match: schedule, threads, progress, SPRT stop, Ctrl-C
//! - [`outcome`]: how a match ended
//! - [`stats`]: Elo, error bars, LOS, SPRT
//! - [`faults`]: crashes, stalls, time losses, illegal moves and error reports per engine
//! - [`pgn`], [`report`]: what is written down

pub mod adjudication;
pub mod cli;
pub mod clock;
pub mod engine;
pub mod faults;
pub mod game;
pub mod openings;
pub mod outcome;
pub mod pgn;
pub mod referee;
pub mod report;
pub mod runner;
pub mod stats;
pub mod tablebase;

use std::process::ExitCode;

pub use cli::Args;

/// Run `tarpon arena`. Exit status: 0 when the match finished (or SPRT
/// stopped it), 1 on an error or, with `--fail-on-faults`, when any engine
/// crashed, stalled, lost on time, broke the rules or reported an error;
/// 130 when interrupted by Ctrl-C.
pub fn run(args: Args) -> ExitCode {
    let plan = match cli::MatchPlan::from_args(&args, &raw_command_line()) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let fail_on_faults = plan.fail_on_faults;
    match runner::run(plan) {
        Ok(outcome) if outcome.interrupted => ExitCode::from(130),
        Ok(outcome) if outcome.error.is_some() => ExitCode::FAILURE,
        Ok(outcome) if fail_on_faults && outcome.faults > 0 => {
            eprintln!(
                "error: {} engine faults (see the Faults table)",
                outcome.faults
            );
            ExitCode::FAILURE
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The process's command line as text (lossy for non-UTF-8 words).
fn raw_command_line() -> Vec<String> {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}
