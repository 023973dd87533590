//! The UCI protocol layer: parsing commands, the option table, playing
//! levels, and the engine loop that ties them to the search.
//!
//! Data flow: a reader thread turns stdin lines into [`command::Command`]s on
//! a channel; the engine loop ([`engine::Engine`]) answers each one and runs
//! searches on their own thread ([`search_job`]); every line out goes through
//! one [`output::Output`].

pub mod command;
mod display;
pub mod engine;
pub mod loaded_net;
pub mod options;
pub mod output;
pub mod search_job;
pub mod strength;

use std::io::BufRead;
use std::process::ExitCode;
use std::thread;
use std::time::Instant;

use crossbeam::channel;

use command::Command;
use engine::Engine;
use output::Output;

/// Runs the UCI loop on stdin/stdout until `quit` or the end of input;
/// `scan` reads pictures with `picture_reader` where the build has one.
pub fn run(picture_reader: Option<engine::PictureReader>) -> ExitCode {
    let (sender, receiver) = channel::unbounded::<(Command, Instant)>();
    let reader = thread::Builder::new()
        .name("uci-reader".into())
        .spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match stdin.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let received = Instant::now();
                        // Invalid UTF-8 is garbage like any other, not a reason to stop.
                        let command = command::parse(&String::from_utf8_lossy(&bytes));
                        let quit = command == Command::Quit;
                        if sender.send((command, received)).is_err() || quit {
                            break;
                        }
                    }
                }
            }
        });
    if let Err(e) = reader {
        eprintln!("error: cannot start the UCI input thread: {e}");
        return ExitCode::FAILURE;
    }
    let mut engine = Engine::new(Output::stdout());
    if let Some(reader) = picture_reader {
        engine = engine.with_picture_reader(reader);
    }
    engine.greet();
    // The channel closes when stdin ends: treat that as `quit`.
    for (command, received) in receiver {
        if !engine.handle(command, received) {
            return if engine.failed() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    }
    engine.shutdown();
    ExitCode::SUCCESS
}
