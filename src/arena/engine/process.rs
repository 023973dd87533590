//! An engine running as a child process: line-based I/O with a deadline on
//! every read, and a shutdown that always reaps the child.
//!
//! A reader thread turns the engine's stdout into a channel of lines, so a
//! read can wait with a timeout and notice the stop flag (Ctrl-C, SPRT stop).
//! The child runs in its own process group: a Ctrl-C in the terminal reaches
//! only the arena, which then shuts the engines down in order instead of
//! having them die mid-write. Dropping the handle sends the quit command,
//! waits briefly, then kills and waits, so no zombie is ever left behind.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam::channel::{Receiver, RecvTimeoutError, unbounded};

use super::{EngineConfig, EngineError};

/// How long a well-behaved engine gets to exit after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(1000);
/// Granularity at which waits look at the stop flag.
const POLL: Duration = Duration::from_millis(20);

pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
    quit_command: &'static str,
    debug: bool,
    exited: bool,
}

impl EngineProcess {
    /// Start the engine of `config`. Both UCI and xboard engines are asked
    /// to leave with `quit`.
    pub fn spawn(config: &EngineConfig) -> Result<EngineProcess, EngineError> {
        let (name, cmd, debug) = (config.name.as_str(), config.cmd.as_str(), config.debug);
        let mut command = Command::new(cmd);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Disconnected(format!("cannot start '{cmd}': {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout was piped");
        let (tx, rx) = unbounded();
        let reader_name = name.to_string();
        let reader = std::thread::Builder::new()
            .name(format!("read {name}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf)
                                .trim_end_matches(['\n', '\r'])
                                .to_string();
                            if debug {
                                eprintln!("{reader_name} > {line}");
                            }
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| EngineError::Disconnected(format!("cannot start reader thread: {e}")))?;
        Ok(EngineProcess {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
            reader: Some(reader),
            quit_command: "quit",
            debug,
            exited: false,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.debug {
            eprintln!("{} < {line}", self.name);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.disconnected());
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        match ok {
            Ok(()) => Ok(()),
            Err(_) => Err(self.disconnected()),
        }
    }

    /// The next line, waiting at most until `deadline`. Returns
    /// `Interrupted` as soon as `stop` is set.
    pub fn recv(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<String, EngineError> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(EngineError::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                // A line that arrived exactly at the deadline still counts.
                return match self.lines.try_recv() {
                    Ok(line) => Ok(line),
                    Err(_) => Err(EngineError::Timeout),
                };
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(self.disconnected()),
            }
        }
    }

    /// Read lines until `accept` returns Some, within `timeout`.
    pub fn wait_for<T>(
        &mut self,
        timeout: Duration,
        stop: &AtomicBool,
        mut accept: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv(deadline, stop)?;
            if let Some(value) = accept(&line) {
                return Ok(value);
            }
        }
    }

    /// Describe why the engine stopped talking: its exit status if it died.
    fn disconnected(&mut self) -> EngineError {
        self.stdin = None;
        // Give a dying process a moment so the status is known.
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exited = true;
                    return EngineError::Disconnected(format!("engine exited ({status})"));
                }
                Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
                _ => return EngineError::Disconnected("engine closed its output".to_string()),
            }
        }
    }

    /// Ask the engine to quit, then make sure it and anything it started are
    /// gone, and reap it.
    pub fn shutdown(&mut self) {
        if !self.exited {
            let quit = self.quit_command;
            if self.stdin.is_some() {
                let _ = self.send(quit);
            }
            self.stdin = None; // closing stdin also tells most engines to exit
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline {
                match self.child.try_wait() {
                    Ok(None) => std::thread::sleep(POLL),
                    _ => break,
                }
            }
        }
        // The engine's process group: a wrapper script's children too.
        kill_process_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.exited = true;
        // The reader ends when the pipe closes; never block on it here.
        self.reader.take();
    }
}

/// SIGKILL every process in group `pgid` (the engine was started as the
/// leader of its own group). Uses kill(1) so no unsafe code is needed.
fn kill_process_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}
