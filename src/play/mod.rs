//! `tarpon play`: play the engine in a browser, and learn from every move.
//!
//! A small blocking HTTP server ([`server`]) holds every game ([`game`]) by
//! id, runs the engine's replies as UCI `go` jobs ([`engine`]) and streams
//! their thinking to one self-contained page ([`page`]) as server-sent
//! events; a competitive game may be timed ([`clock`]). In learning mode each of the player's moves gets a verdict
//! (`crate::explain::game::verdict`), its first search made while the
//! learner thinks; the five named levels ([`levels`])
//! read the measured table of `crate::uci::strength`; [`tools`] serves the
//! maze and search-view pages with their controls. docs/play.md is the
//! manual.

pub mod clock;
pub mod engine;
pub mod game;
pub mod levels;
pub mod page;
pub mod server;
pub mod tools;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;

/// Play tarpon in a browser: competitive or learning mode.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8063)]
    pub port: u16,
    /// Address to listen on; the default keeps the server to this machine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default browser (`xdg-open`, `open` or `start`).
    #[arg(long)]
    pub open: bool,
    /// Thinking time of a verdict's first search, ms (the confirming search
    /// of the best and the played move takes as much again).
    #[arg(long, default_value_t = 600)]
    pub verdict_ms: u64,
    /// Threads of each verdict's searches, and of the search of the
    /// learner's position while the learner thinks [default: the cores,
    /// at most 4].
    #[arg(long)]
    pub verdict_threads: Option<usize>,
    /// Where the learner's mistakes are kept as puzzles to retry.
    #[arg(long, default_value = "tarpon-puzzles.jsonl")]
    pub puzzles: std::path::PathBuf,
}

pub fn run(args: &PlayArgs) -> ExitCode {
    if args.verdict_ms == 0 {
        eprintln!("error: --verdict-ms must be at least 1");
        return ExitCode::FAILURE;
    }
    if args
        .verdict_threads
        .is_some_and(|t| !(1..=MAX_VERDICT_THREADS).contains(&t))
    {
        eprintln!("error: --verdict-threads must be 1 to {MAX_VERDICT_THREADS}");
        return ExitCode::FAILURE;
    }
    let address = format!("{}:{}", args.host, args.port);
    let http = match tiny_http::Server::http(&address) {
        Ok(http) => http,
        Err(e) => {
            eprintln!("error: cannot listen on {address}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let url = match http.server_addr().to_ip() {
        Some(addr) => format!("http://{addr}/"),
        None => format!("http://{address}/"),
    };
    println!("tarpon play: listening on {url}");
    if args.open {
        open_browser(&url);
    }
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let settings = server::Settings {
        verdict_ms: args.verdict_ms,
        verdict_threads: args.verdict_threads.unwrap_or_else(default_verdict_threads),
        puzzles: Some(args.puzzles.clone()),
    };
    Arc::new(server::Server::new(settings, seed)).serve(http);
    ExitCode::SUCCESS
}

/// The most `--verdict-threads` accepts.
const MAX_VERDICT_THREADS: usize = 64;
/// By default no more than this: more gain a verdict little and take cores
/// from the other games a server may hold.
const DEFAULT_MAX_VERDICT_THREADS: usize = 4;

/// While a learner thinks and while a move is judged, the engine is not
/// searching its reply: the verdict may use the machine's cores.
fn default_verdict_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(DEFAULT_MAX_VERDICT_THREADS)
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("warning: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
