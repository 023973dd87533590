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
    /// Where the learner's mistakes are kept as puzzles to retry.
    #[arg(long, default_value = "tarpon-puzzles.jsonl")]
    pub puzzles: std::path::PathBuf,
}

pub fn run(args: &PlayArgs) -> ExitCode {
    if args.verdict_ms == 0 {
        eprintln!("error: --verdict-ms must be at least 1");
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
        puzzles: Some(args.puzzles.clone()),
    };
    Arc::new(server::Server::new(settings, seed)).serve(http);
    ExitCode::SUCCESS
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
