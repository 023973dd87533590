//! The UCI adapter.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use shakmaty::Color;

use super::super::clock::TimeControl;
use super::super::faults::is_error_report;
use super::{
    Answer, EngineConfig, EngineError, EngineProcess, GameStart, MoveRequest, Player,
    READY_TIMEOUT, Reply, STARTUP_TIMEOUT, Score,
};

pub struct UciEngine {
    process: EngineProcess,
    /// Options the engine announced, to set UCI_Chess960 only where it exists.
    announced: Vec<String>,
    chess960: bool,
}

impl UciEngine {
    pub fn start(config: &EngineConfig, stop: &AtomicBool) -> Result<UciEngine, EngineError> {
        let mut process = EngineProcess::spawn(config)?;
        process.send("uci")?;
        let mut announced = Vec::new();
        process.wait_for(STARTUP_TIMEOUT, stop, |line| {
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                announced.push(name.to_ascii_lowercase());
            }
            (line.trim() == "uciok").then_some(())
        })?;
        for (name, value) in &config.options {
            process.send(&format!("setoption name {name} value {value}"))?;
        }
        let mut engine = UciEngine {
            process,
            announced,
            chess960: false,
        };
        engine.sync(stop)?;
        Ok(engine)
    }

    fn sync(&mut self, stop: &AtomicBool) -> Result<(), EngineError> {
        self.process.send("isready")?;
        self.process.wait_for(READY_TIMEOUT, stop, |line| {
            (line.trim() == "readyok").then_some(())
        })
    }

    fn go_command(request: &MoveRequest) -> String {
        let own = request.own;
        match &own.tc {
            TimeControl::Clock { .. } => {
                let (white, black) = match request.side {
                    Color::White => (own, request.opponent),
                    Color::Black => (request.opponent, own),
                };
                let mut go = format!(
                    "go wtime {} btime {} winc {} binc {}",
                    white.reported_ms(),
                    black.reported_ms(),
                    white.increment_ms(),
                    black.increment_ms()
                );
                if let Some(mtg) = own.moves_to_go() {
                    go.push_str(&format!(" movestogo {mtg}"));
                }
                go
            }
            TimeControl::MoveTime { ms } => format!("go movetime {ms}"),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Depth(d) => format!("go depth {d}"),
            TimeControl::Infinite => "go infinite".to_string(),
        }
    }
}

/// Score and depth from an `info` line, if it carries a main-line score.
fn parse_info(line: &str) -> (Option<Score>, Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut score = None;
    let mut depth = None;
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            // Only the first principal variation speaks for the engine.
            "multipv" if words.get(i + 1).is_some_and(|v| *v != "1") => return (None, None),
            "depth" => depth = words.get(i + 1).and_then(|v| v.parse().ok()),
            "score" => {
                let value = words.get(i + 2).and_then(|v| v.parse().ok());
                score = match (words.get(i + 1), value) {
                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
            }
            // Everything after pv or string is free text.
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
    (score, depth)
}

impl Player for UciEngine {
    fn name(&self) -> &str {
        self.process.name()
    }

    fn new_game(&mut self, game: &GameStart, stop: &AtomicBool) -> Result<(), EngineError> {
        if game.chess960 != self.chess960 {
            if game.chess960 && !self.announced.iter().any(|o| o == "uci_chess960") {
                return Err(EngineError::Protocol(
                    "engine has no UCI_Chess960 option".to_string(),
                ));
            }
            self.process.send(&format!(
                "setoption name UCI_Chess960 value {}",
                game.chess960
            ))?;
            self.chess960 = game.chess960;
        }
        self.process.send("ucinewgame")?;
        self.sync(stop)
    }

    fn request_move(
        &mut self,
        request: &MoveRequest,
        stop: &AtomicBool,
    ) -> Result<Reply, EngineError> {
        let mut position = if request.start_is_standard {
            "position startpos".to_string()
        } else {
            format!("position fen {}", request.start_fen)
        };
        if !request.uci_moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&request.uci_moves.join(" "));
        }
        self.process.send(&position)?;
        let go = Self::go_command(request);
        let started = Instant::now();
        let deadline = started + request.own.allowance();
        self.process.send(&go)?;
        let mut score = None;
        let mut depth = None;
        let mut error_reports = 0;
        loop {
            let line = self.process.recv(deadline, stop)?;
            let line = line.trim();
            if is_error_report(line) {
                error_reports += 1;
            } else if line.starts_with("info ") {
                let (s, d) = parse_info(line);
                if s.is_some() {
                    score = s;
                    depth = d.or(depth);
                }
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                let elapsed = started.elapsed();
                let answer = match rest.split_whitespace().next() {
                    None | Some("(none)") | Some("0000") => Answer::NoMove,
                    Some(m) => Answer::Move(m.to_string()),
                };
                return Ok(Reply {
                    answer,
                    score,
                    depth,
                    elapsed,
                    error_reports,
                });
            }
        }
    }

    fn game_over(&mut self, _result: &str, _reason: &str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        assert_eq!(
            parse_info("info depth 12 seldepth 20 score cp -35 nodes 100 pv e2e4"),
            (Some(Score::Cp(-35)), Some(12))
        );
        assert_eq!(
            parse_info("info depth 5 score mate 3 lowerbound pv a1a8"),
            (Some(Score::Mate(3)), Some(5))
        );
        assert_eq!(
            parse_info("info depth 5 multipv 2 score cp 10"),
            (None, None)
        );
        assert_eq!(parse_info("info string score cp 10"), (None, None));
    }
}
