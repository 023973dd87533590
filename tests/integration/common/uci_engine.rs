//! A UCI engine driven over stdin/stdout like a GUI drives it. Every wait has
//! a timeout, so a hang fails the test instead of stalling the suite.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use tarpon::position::Position;

/// Generous: the machine is shared and tests run side by side.
pub const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Engine {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    /// Every line received so far, for failure messages.
    pub seen: Vec<String>,
    /// The line the engine greets with at start, before any command.
    pub greeting: String,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tarpon"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tarpon");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            seen: Vec::new(),
            greeting: String::new(),
        };
        // A GUI skips the greeting; the tests check it once, not everywhere.
        engine.greeting = engine.until(|_| true).remove(0);
        engine
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to tarpon");
        stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let finished = done(&line);
                    got.push(line);
                    if finished {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out; lines so far: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("tarpon closed its output; lines so far: {:#?}", self.seen)
                }
            }
        }
    }

    /// Lines arriving within `wait` (none expected to finish anything).
    pub fn quiet_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line.clone());
            got.push(line);
        }
        got
    }

    pub fn until_line(&mut self, exact: &str) -> Vec<String> {
        self.until(|l| l == exact)
    }

    /// `isready` must be answered; returns the lines before `readyok`.
    pub fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until_line("readyok");
        lines.pop();
        lines
    }

    /// The `d` output, up to its last line.
    pub fn display(&mut self) -> Vec<String> {
        self.send("d");
        self.until(|l| l.starts_with("Checkers:"))
    }

    pub fn bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.until(|l| l.starts_with("bestmove"));
        let best = lines.last().expect("bestmove line").clone();
        (lines, best)
    }

    /// Sends `go ...` for `position` and checks the bestmove is legal there.
    pub fn go_legal(&mut self, position: &Position, go: &str) -> String {
        self.send(go);
        let (_, best) = self.bestmove();
        let mv = best
            .split_whitespace()
            .nth(1)
            .expect("a move after bestmove");
        assert!(
            position.parse_uci(mv).is_ok(),
            "illegal bestmove '{best}' in {}",
            position.fen()
        );
        mv.to_string()
    }

    /// Closes stdin and waits for a clean exit.
    pub fn finish(mut self) {
        self.send("quit");
        self.wait_exit();
    }

    pub fn wait_exit(&mut self) {
        let status = self.exit_status();
        assert!(status.success(), "exit status {status}");
    }

    /// Closes stdin and waits for the engine to exit, however it exits.
    pub fn exit_status(&mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "tarpon did not exit");
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An engine line without the fields that depend on the clock (`time`,
/// `nps`), so two searches of the same tree compare equal.
pub fn without_clock_fields(line: &str) -> String {
    let mut kept = Vec::new();
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        if matches!(word, "time" | "nps") {
            words.next();
        } else {
            kept.push(word);
        }
    }
    kept.join(" ")
}
