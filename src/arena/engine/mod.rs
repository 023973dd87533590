//! Engines as the arena sees them: a configuration (command, protocol,
//! options), and a running player that answers move requests. The UCI and
//! xboard adapters translate the same requests into each protocol.

mod process;
mod uci;
mod xboard;

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use shakmaty::{Chess, Color, Move};

use super::clock::{Clock, TimeControl};

pub use process::EngineProcess;

/// How long an engine may take to start up and answer the handshake.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(20);
/// How long an engine may take to get ready for a new game.
pub const READY_TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

/// Everything needed to start one engine, from `--engine` and `--each`.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// `option.NAME=VALUE` pairs in the order given.
    pub options: Vec<(String, String)>,
    pub tc: Option<TimeControl>,
    pub margin_ms: u64,
    pub hang_timeout: Duration,
    /// Echo the engine's input and output on stderr.
    pub debug: bool,
}

/// An engine's evaluation, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, with mates mapped beyond any real evaluation.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

/// What an engine answered when asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move in the text the engine sent (UCI or SAN); the arena checks it.
    Move(String),
    /// UCI `bestmove (none)` or `0000`: the engine says it has no legal move.
    NoMove,
    /// xboard `resign`.
    Resign,
    /// xboard result claim such as `1-0 {White mates}`.
    Claim { result: String, reason: String },
}

#[derive(Clone, Debug)]
pub struct Reply {
    pub answer: Answer,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
    /// Lines in which the engine reported an error of its own while thinking.
    pub error_reports: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No answer within the allowed time.
    Timeout,
    /// The process died or closed its pipes.
    Disconnected(String),
    /// The engine said something the protocol does not allow.
    Protocol(String),
    /// The match is being stopped (Ctrl-C or SPRT); not the engine's fault.
    Interrupted,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Timeout => f.write_str("no answer in time"),
            EngineError::Disconnected(why) => write!(f, "disconnected: {why}"),
            EngineError::Protocol(why) => write!(f, "protocol error: {why}"),
            EngineError::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// The position and clocks an engine must move in.
pub struct MoveRequest<'a> {
    /// FEN the game started from (before any book move).
    pub start_fen: &'a str,
    pub start_is_standard: bool,
    /// Every move since `start_fen`, book moves included.
    pub moves: &'a [Move],
    /// The same moves in UCI notation for this game's castling mode.
    pub uci_moves: &'a [String],
    /// The same moves in SAN.
    pub san_moves: &'a [String],
    pub position: &'a Chess,
    pub side: Color,
    pub own: &'a Clock,
    pub opponent: &'a Clock,
}

/// A game about to start, from one engine's point of view.
pub struct GameStart<'a> {
    pub start_fen: &'a str,
    pub start_is_standard: bool,
    pub chess960: bool,
    pub own: &'a Clock,
}

/// A running engine.
pub trait Player: Send {
    fn name(&self) -> &str;
    fn new_game(&mut self, game: &GameStart, stop: &AtomicBool) -> Result<(), EngineError>;
    fn request_move(
        &mut self,
        request: &MoveRequest,
        stop: &AtomicBool,
    ) -> Result<Reply, EngineError>;
    /// Tell the engine the game is over (xboard `result`); best effort.
    fn game_over(&mut self, result: &str, reason: &str);
}

/// Start the engine and complete its protocol handshake.
pub fn start(config: &EngineConfig, stop: &AtomicBool) -> Result<Box<dyn Player>, EngineError> {
    match config.protocol {
        Protocol::Uci => Ok(Box::new(uci::UciEngine::start(config, stop)?)),
        Protocol::Xboard => Ok(Box::new(xboard::XboardEngine::start(config, stop)?)),
    }
}
