//! The xboard/CECP adapter (protocol version 2, with fallbacks for engines
//! that lack `setboard`, `usermove`, `ping` or `san`).
//!
//! Between its own moves the engine is kept in `force` mode: on its turn it
//! is sent the moves it has not seen yet, then `time`/`otim` and `go`; when
//! its move arrives it is put back in `force`. This keeps the engine's idea
//! of whose turn it is in step with the arena's, whatever happened before.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role, Square, fen::Fen};

use super::super::clock::TimeControl;
use super::{
    Answer, EngineConfig, EngineError, EngineProcess, GameStart, MoveRequest, Player,
    READY_TIMEOUT, Reply, STARTUP_TIMEOUT, Score,
};

/// Protocol version 1 engines announce no features; the protocol says to
/// wait about two seconds for `feature` before assuming version 1.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

#[derive(Default, Debug)]
struct Features {
    setboard: bool,
    san: bool,
    usermove: bool,
    ping: bool,
    variants: Vec<String>,
}

pub struct XboardEngine {
    process: EngineProcess,
    features: Features,
    /// Moves of the current game the engine has been told or has played.
    known_moves: usize,
    chess960: bool,
    ping_counter: u32,
}

/// Split `feature a=1 b="x y" c=z` into key/value pairs.
fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut rest = line.trim_start_matches("feature").trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, remainder) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (quoted[..end].to_string(), &quoted[end + 1..]),
                None => (quoted.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        pairs.push((key, value));
        rest = remainder.trim_start();
    }
    pairs
}

/// Thinking output `ply score time nodes pv...`: score and depth.
fn parse_thinking(line: &str) -> Option<(Score, u32)> {
    let mut words = line.split_whitespace();
    let depth: u32 = words.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i32 = words.next()?.parse().ok()?;
    // Both fields must be followed by time and nodes to be thinking output.
    words.next()?.parse::<i64>().ok()?;
    // xboard's mate convention: 100000 + moves to mate.
    let score = if score.abs() >= 99_000 && score.abs() < 101_000 {
        let n = score.abs() - 100_000;
        Score::Mate(if score > 0 { n.max(1) } else { -n.max(1) })
    } else {
        Score::Cp(score)
    };
    Some((score, depth))
}

/// A move in coordinate notation as xboard engines expect it: `e2e4`,
/// `e7e8q`, castling as the king's two-square move (`O-O` in Chess960).
fn coordinate(m: &Move, chess960: bool) -> String {
    if let Move::Castle { king, rook } = m {
        if chess960 {
            return if rook.file() > king.file() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let to_file = if rook.file() > king.file() {
            shakmaty::File::G
        } else {
            shakmaty::File::C
        };
        return format!("{}{}", king, Square::from_coords(to_file, king.rank()));
    }
    let mut s = format!("{}{}", m.from().expect("not a drop"), m.to());
    if let Some(role) = m.promotion() {
        s.push(role.char());
    }
    s
}

/// The `edit` commands that set up `chess` on a protocol-1 style engine.
fn edit_commands(chess: &Chess) -> Vec<String> {
    let mut commands = vec!["edit".to_string(), "#".to_string()];
    for color in [Color::White, Color::Black] {
        if color == Color::Black {
            commands.push("c".to_string());
        }
        for square in chess.board().by_color(color) {
            let role = chess.board().role_at(square).unwrap_or(Role::Pawn);
            commands.push(format!("{}{}", role.upper_char(), square));
        }
    }
    commands.push(".".to_string());
    commands
}

impl XboardEngine {
    pub fn start(config: &EngineConfig, stop: &AtomicBool) -> Result<XboardEngine, EngineError> {
        let mut process = EngineProcess::spawn(config)?;
        process.send("xboard")?;
        process.send("protover 2")?;
        let mut features = Features::default();
        let mut deadline = Instant::now() + FEATURE_WAIT;
        loop {
            let line = match process.recv(deadline, stop) {
                Ok(line) => line,
                // No `done=1` within the wait: a protocol 1 engine.
                Err(EngineError::Timeout) => break,
                Err(e) => return Err(e),
            };
            if !line.starts_with("feature ") {
                continue;
            }
            let mut done = false;
            for (key, value) in parse_features(&line) {
                let on = value == "1";
                match key.as_str() {
                    "setboard" => features.setboard = on,
                    "san" => features.san = on,
                    "usermove" => features.usermove = on,
                    "ping" => features.ping = on,
                    "variants" => {
                        features.variants = value.split(',').map(|v| v.trim().to_string()).collect()
                    }
                    "done" if on => done = true,
                    "done" => deadline = Instant::now() + STARTUP_TIMEOUT,
                    _ => {}
                }
                process.send(&format!("accepted {key}"))?;
            }
            if done {
                break;
            }
        }
        for (name, value) in &config.options {
            process.send(&format!("option {name}={value}"))?;
        }
        let mut engine = XboardEngine {
            process,
            features,
            known_moves: 0,
            chess960: false,
            ping_counter: 0,
        };
        engine.sync(stop)?;
        Ok(engine)
    }

    /// Wait until the engine has processed everything sent so far.
    fn sync(&mut self, stop: &AtomicBool) -> Result<(), EngineError> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping_counter += 1;
        let expected = format!("pong {}", self.ping_counter);
        self.process.send(&format!("ping {}", self.ping_counter))?;
        self.process.wait_for(READY_TIMEOUT, stop, |line| {
            (line.trim() == expected).then_some(())
        })
    }

    fn time_control_commands(tc: &TimeControl) -> Result<Vec<String>, EngineError> {
        Ok(match tc {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                moves,
            } => {
                // Sub-second parts of the base are dropped here; the arena's
                // own clock, sent with `time`, stays exact.
                let seconds = base_ms / 1000;
                let base = format!("{}:{:02}", seconds / 60, seconds % 60);
                let inc = *inc_ms as f64 / 1000.0;
                vec![format!("level {} {base} {inc}", moves.unwrap_or(0))]
            }
            // `st` takes whole seconds; a shorter limit still binds through
            // the arena's clock.
            TimeControl::MoveTime { ms } => vec![format!("st {}", (ms / 1000).max(1))],
            TimeControl::Depth(d) => vec![format!("sd {d}")],
            TimeControl::Infinite => vec![],
            TimeControl::Nodes(_) => {
                return Err(EngineError::Protocol(
                    "xboard engines cannot play a fixed node count".to_string(),
                ));
            }
        })
    }

    fn move_text(&self, request: &MoveRequest, index: usize) -> String {
        let m = if self.features.san {
            request.san_moves[index].clone()
        } else {
            coordinate(&request.moves[index], self.chess960)
        };
        if self.features.usermove {
            format!("usermove {m}")
        } else {
            m
        }
    }
}

impl Player for XboardEngine {
    fn name(&self) -> &str {
        self.process.name()
    }

    fn new_game(&mut self, game: &GameStart, stop: &AtomicBool) -> Result<(), EngineError> {
        self.process.send("new")?;
        if game.chess960 {
            if !self.features.variants.iter().any(|v| v == "fischerandom") {
                return Err(EngineError::Protocol(
                    "engine does not play variant fischerandom".to_string(),
                ));
            }
            self.process.send("variant fischerandom")?;
        }
        self.chess960 = game.chess960;
        self.process.send("force")?;
        if !game.start_is_standard {
            if self.features.setboard {
                self.process.send(&format!("setboard {}", game.start_fen))?;
            } else {
                let mode = if game.chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                let chess: Chess = game
                    .start_fen
                    .parse::<Fen>()
                    .ok()
                    .and_then(|f| f.into_position(mode).ok())
                    .ok_or_else(|| EngineError::Protocol("bad start position".to_string()))?;
                // The protocol's idiom for a black-to-move set-up: a dummy
                // white move first, since `edit` keeps the side to move.
                if chess.turn() == Color::Black {
                    self.process.send("a2a3")?;
                }
                for command in edit_commands(&chess) {
                    self.process.send(&command)?;
                }
            }
        }
        for command in Self::time_control_commands(&game.own.tc)? {
            self.process.send(&command)?;
        }
        self.process.send("post")?;
        self.process.send("easy")?;
        self.process.send("computer")?;
        self.known_moves = 0;
        self.sync(stop)
    }

    fn request_move(
        &mut self,
        request: &MoveRequest,
        stop: &AtomicBool,
    ) -> Result<Reply, EngineError> {
        for index in self.known_moves..request.moves.len() {
            let text = self.move_text(request, index);
            self.process.send(&text)?;
        }
        self.known_moves = request.moves.len();
        // Clocks in centiseconds.
        self.process
            .send(&format!("time {}", request.own.reported_ms() / 10))?;
        self.process
            .send(&format!("otim {}", request.opponent.reported_ms() / 10))?;
        let started = Instant::now();
        let deadline = started + request.own.allowance();
        self.process.send("go")?;
        let mut score = None;
        let mut depth = None;
        let answer = loop {
            let line = self.process.recv(deadline, stop)?;
            let line = line.trim();
            if let Some(m) = line
                .strip_prefix("move ")
                .or_else(|| line.strip_prefix("My move is: "))
                .or_else(|| line.strip_prefix("my move is "))
            {
                break Answer::Move(m.trim().to_string());
            }
            if line == "resign" || line.starts_with("resign ") {
                break Answer::Resign;
            }
            if let Some(result) = ["1-0", "0-1", "1/2-1/2"]
                .into_iter()
                .find(|r| line.starts_with(&format!("{r} ")) || line == *r)
            {
                let reason = line[result.len()..]
                    .trim()
                    .trim_matches(['{', '}'])
                    .to_string();
                break Answer::Claim {
                    result: result.to_string(),
                    reason,
                };
            }
            if line.starts_with("Illegal move") {
                return Err(EngineError::Protocol(format!(
                    "engine rejected a legal move: {line}"
                )));
            }
            if let Some((s, d)) = parse_thinking(line) {
                score = Some(s);
                depth = Some(d);
            }
        };
        let elapsed = started.elapsed();
        if matches!(answer, Answer::Move(_)) {
            self.known_moves += 1;
            self.process.send("force")?;
        }
        Ok(Reply {
            answer,
            score,
            depth,
            elapsed,
            // The xboard protocol has no error report an engine could send.
            error_reports: 0,
        })
    }

    fn game_over(&mut self, result: &str, reason: &str) {
        let _ = self.process.send(&format!("result {result} {{{reason}}}"));
        let _ = self.process.send("force");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines() {
        let f = parse_features(r#"feature myname="Fairy-Max 5.0b" setboard=0 ping=1 done=0"#);
        assert_eq!(
            f,
            vec![
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("setboard".to_string(), "0".to_string()),
                ("ping".to_string(), "1".to_string()),
                ("done".to_string(), "0".to_string()),
            ]
        );
    }

    #[test]
    fn thinking_lines() {
        assert_eq!(
            parse_thinking(" 6      2       56     224418 c2c4 d7d6"),
            Some((Score::Cp(2), 6))
        );
        assert_eq!(parse_thinking("move e2e4"), None);
        assert_eq!(
            parse_thinking("12 100003 10 100 a1a8"),
            Some((Score::Mate(3), 12))
        );
    }

    #[test]
    fn castling_in_coordinates() {
        let chess: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let texts: Vec<String> = chess
            .legal_moves()
            .iter()
            .filter(|m| m.is_castle())
            .map(|m| coordinate(m, false))
            .collect();
        assert!(texts.contains(&"e1g1".to_string()) && texts.contains(&"e1c1".to_string()));
    }
}
