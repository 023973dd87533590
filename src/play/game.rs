//! One game as the server keeps it: the moves, whose side the player is, the
//! verdicts and hints of learning mode, and how the game ended. No threads
//! and no HTTP here: the server locks a game, calls these methods and sends
//! back [`Game::state`].

use std::time::Instant;

use serde_json::{Value, json};
use shakmaty::{Color, Move, Position as _};

use super::clock::Clock;
use super::levels::Opponent;
use crate::explain::game::heat;
use crate::explain::game::verdict::{Verdict, game_accuracy, win_percent};
use crate::explain::game::{Label, pgn};
use crate::explain::trace::search_view::san_line;
use crate::position::Position;
use crate::search::Score;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// No help: no verdicts, hints, evaluation or undo.
    Competitive,
    Learning,
}

/// Why a request cannot be done; the server answers it as a 4xx.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    BadRequest(String),
    /// Allowed in general, not now (finished game, not your turn, busy).
    Conflict(String),
    /// Not in this mode (help in a competitive game, undo switched off).
    Forbidden(String),
    /// No such game, page or action.
    NotFound(String),
    /// A request body over the limit (in bytes) of its route.
    TooLarge(usize),
}

pub type Outcome<T> = Result<T, Refusal>;

/// A 400 with its reason: the refusal every request module makes most.
pub(super) fn bad(text: impl Into<String>) -> Refusal {
    Refusal::BadRequest(text.into())
}

/// How a finished game ended.
#[derive(Clone, Debug)]
pub struct GameEnd {
    pub result: &'static str,
    pub reason: &'static str,
}

/// A move of the game and, for the learner's moves, its verdict.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub mv: Move,
    pub verdict: Option<Verdict>,
    /// White's Win% after the move, where a search gave one.
    pub white_win: Option<f64>,
}

/// The search's view while the engine thinks (or after it moved).
#[derive(Clone, Debug, Default)]
pub struct Thinking {
    pub depth: u32,
    pub score: Option<Score>,
    pub pv: Vec<String>,
}

/// The hints asked for in the current position, in stages.
#[derive(Clone, Debug, Default)]
pub struct Hint {
    /// 0: none yet, 1: the threat, 2: the piece, 3: the move.
    pub stage: u8,
    pub ply: usize,
    pub threat: Option<String>,
    pub best: Option<Move>,
}

pub struct Game {
    pub mode: Mode,
    pub player: Color,
    pub opponent: Opponent,
    pub undo_allowed: bool,
    pub start: Position,
    pub tags: Vec<(String, String)>,
    pub moves: Vec<PlayedMove>,
    pub position: Position,
    pub end: Option<GameEnd>,
    pub thinking: Option<Thinking>,
    /// The engine is searching its reply (or a verdict is being made).
    pub busy: bool,
    /// Bumped by every change that makes a running search's answer stale
    /// (undo, resign): a reply for an older generation is dropped.
    pub generation: u64,
    /// Bumped on every change the page should see.
    pub version: u64,
    pub hint: Hint,
    pub hints_used: u32,
    /// White's Win% at the start, once a search gave one.
    pub start_white_win: Option<f64>,
    /// The chess clock of a timed game.
    pub clock: Option<Clock>,
}

impl Game {
    pub fn new(
        mode: Mode,
        player: Color,
        opponent: Opponent,
        start: Position,
        prefix: Vec<Move>,
    ) -> Game {
        let mut game = Game {
            mode,
            player,
            opponent,
            undo_allowed: mode == Mode::Learning,
            position: start.clone(),
            start,
            tags: Vec::new(),
            moves: Vec::new(),
            end: None,
            thinking: None,
            busy: false,
            generation: 0,
            version: 0,
            hint: Hint::default(),
            hints_used: 0,
            start_white_win: None,
            clock: None,
        };
        for mv in prefix {
            game.push(mv, None, None);
        }
        game.end = game.end_by_rule();
        game
    }

    pub fn is_player_turn(&self) -> bool {
        self.end.is_none() && self.position.turn() == self.player
    }

    pub fn engine_to_move(&self) -> bool {
        self.end.is_none() && self.position.turn() != self.player
    }

    /// Reads a move typed or sent by the page: UCI (`e7e8q`) or SAN (`Nf3`).
    pub fn parse_move(&self, text: &str) -> Outcome<Move> {
        let text = text.trim();
        if text.is_empty() || text.len() > 12 {
            return Err(bad("a move is 2 to 12 characters of UCI or SAN"));
        }
        if let Ok(mv) = self.position.parse_uci(text) {
            return Ok(mv);
        }
        let san: shakmaty::san::San = text
            .parse()
            .map_err(|_| bad(format!("{text:?} is neither UCI nor SAN")))?;
        san.to_move(&self.position.to_chess())
            .map_err(|_| bad(format!("{text} is not legal here")))
    }

    /// Checks that the player may move now, before anything is searched.
    pub fn check_player_may_move(&self) -> Outcome<()> {
        if self.end.is_some() {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        if self.busy {
            return Err(Refusal::Conflict("the engine is thinking".into()));
        }
        if !self.is_player_turn() {
            return Err(Refusal::Conflict("it is not your turn".into()));
        }
        Ok(())
    }

    /// Times the game: the side to move's time starts now.
    pub fn set_clock(&mut self, mut clock: Clock) {
        if self.end.is_none() {
            clock.start(self.position.turn(), Instant::now());
        }
        self.clock = Some(clock);
        self.version += 1;
    }

    /// Ends the game if the side to move's time has run out: a loss, or a
    /// draw when the other side has no mating material left. True if it
    /// ended now. The server calls it whenever it touches the game.
    pub fn check_time(&mut self) -> bool {
        let now = Instant::now();
        let Some(flagged) = self.clock.as_ref().and_then(|c| c.flagged(now)) else {
            return false;
        };
        if self.end.is_some() {
            return false;
        }
        let (result, reason) = if self
            .position
            .to_chess()
            .has_insufficient_material(flagged.other())
        {
            ("1/2-1/2", "timeout vs insufficient material")
        } else if flagged == Color::White {
            ("0-1", "time forfeit")
        } else {
            ("1-0", "time forfeit")
        };
        self.finish(GameEnd { result, reason }).is_ok()
    }

    /// Plays `mv` (legal, checked by the caller) and ends the game if a rule says so.
    pub fn push(&mut self, mv: Move, verdict: Option<Verdict>, white_win: Option<f64>) {
        debug_assert!(self.position.legal_moves().contains(&mv));
        let mover = self.position.turn();
        self.position.make(mv);
        self.position.forget_undo();
        self.moves.push(PlayedMove {
            mv,
            verdict,
            white_win,
        });
        self.end = self.end_by_rule();
        if let Some(clock) = &mut self.clock {
            let now = Instant::now();
            clock.press(mover, now);
            if self.end.is_some() {
                clock.stop(now);
            }
        }
        self.hint = Hint::default();
        self.version += 1;
    }

    fn end_by_rule(&self) -> Option<GameEnd> {
        let pos = &self.position;
        let (result, reason) = if pos.legal_moves().is_empty() {
            if pos.is_check() {
                let winner = if pos.turn() == Color::White {
                    "0-1"
                } else {
                    "1-0"
                };
                (winner, "checkmate")
            } else {
                ("1/2-1/2", "stalemate")
            }
        } else if pos.repetitions() >= 2 {
            ("1/2-1/2", "threefold repetition")
        } else if pos.is_fifty_move_draw() {
            ("1/2-1/2", "fifty-move rule")
        } else if pos.is_insufficient_material() {
            ("1/2-1/2", "insufficient material")
        } else {
            return None;
        };
        Some(GameEnd { result, reason })
    }

    /// Ends the game by the player's choice.
    pub fn finish(&mut self, end: GameEnd) -> Outcome<()> {
        if self.end.is_some() {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        self.end = Some(end);
        if let Some(clock) = &mut self.clock {
            clock.stop(Instant::now());
        }
        self.generation += 1;
        self.busy = false;
        self.thinking = None;
        self.version += 1;
        Ok(())
    }

    pub fn resign(&mut self) -> Outcome<()> {
        let result = if self.player == Color::White {
            "0-1"
        } else {
            "1-0"
        };
        self.finish(GameEnd {
            result,
            reason: "resignation",
        })
    }

    /// The engine accepts a draw unless it thinks it is better by more than
    /// 10 Win% points (from the last search it made).
    pub fn offer_draw(&mut self) -> Outcome<bool> {
        if self.end.is_some() {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        let white_win = self.latest_white_win().unwrap_or(50.0);
        let engine_win = if self.player == Color::White {
            100.0 - white_win
        } else {
            white_win
        };
        if engine_win > 60.0 {
            return Ok(false);
        }
        self.finish(GameEnd {
            result: "1/2-1/2",
            reason: "agreed draw",
        })?;
        Ok(true)
    }

    /// Takes back the engine's reply and the player's move before it, so the
    /// player is to move again. Stops a running search (via `generation`).
    pub fn undo(&mut self) -> Outcome<()> {
        if !self.undo_allowed {
            return Err(Refusal::Forbidden(
                "undo is switched off in this game".into(),
            ));
        }
        if self.end.as_ref().is_some_and(|e| e.reason == "resignation") {
            return Err(Refusal::Conflict("the game was resigned".into()));
        }
        let first = self.start.turn();
        let mover = |index: usize| {
            if index.is_multiple_of(2) {
                first
            } else {
                first.other()
            }
        };
        let Some(keep) = (0..self.moves.len())
            .rev()
            .find(|&i| mover(i) == self.player)
        else {
            return Err(Refusal::Conflict("none of your moves to take back".into()));
        };
        self.moves.truncate(keep);
        self.replay();
        Ok(())
    }

    /// Rebuilds the position from the start after the move list changed.
    fn replay(&mut self) {
        let moves: Vec<PlayedMove> = std::mem::take(&mut self.moves);
        self.position = self.start.clone();
        self.end = None;
        for played in moves {
            self.position.make(played.mv);
            self.position.forget_undo();
            self.moves.push(played);
        }
        self.end = self.end_by_rule();
        self.generation += 1;
        self.busy = false;
        self.thinking = None;
        self.hint = Hint::default();
        self.version += 1;
    }

    /// The latest White's Win% any search gave.
    pub fn latest_white_win(&self) -> Option<f64> {
        self.moves
            .iter()
            .rev()
            .find_map(|m| m.white_win)
            .or(self.start_white_win)
    }

    /// White's Win% before the first move and after each, where known;
    /// gaps are filled with the last known value.
    fn white_wins(&self) -> Vec<f64> {
        let mut last = self.start_white_win.unwrap_or(50.0);
        let mut out = vec![last];
        for m in &self.moves {
            if let Some(w) = m.white_win {
                last = w;
            }
            out.push(last);
        }
        out
    }

    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    fn moves_only(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// The game as PGN, the learner's verdicts as NAGs and comments.
    pub fn pgn(&self) -> String {
        let mut tags = vec![
            ("Event".to_string(), "tarpon play".to_string()),
            ("Site".to_string(), "localhost".to_string()),
        ];
        let (white, black) = if self.player == Color::White {
            (
                "Player".to_string(),
                format!("tarpon ({})", self.opponent.name),
            )
        } else {
            (
                format!("tarpon ({})", self.opponent.name),
                "Player".to_string(),
            )
        };
        tags.push(("White".to_string(), white));
        tags.push(("Black".to_string(), black));
        tags.extend(self.tags.iter().cloned());
        let result = self.end.as_ref().map_or("*", |e| e.result).to_string();
        let game = pgn::Game {
            tags,
            start: self.start.clone(),
            moves: self.moves_only(),
            result,
        };
        let mut pos = self.start.clone();
        let notes: Vec<pgn::Annotation> = self
            .moves
            .iter()
            .map(|m| {
                let note = match &m.verdict {
                    Some(v) => pgn::Annotation {
                        nag: if v.only_move { Some(3) } else { v.label.nag() },
                        comment: verdict_comment(&pos, v),
                    },
                    None => pgn::Annotation {
                        nag: None,
                        comment: String::new(),
                    },
                };
                pos.make(m.mv);
                pos.forget_undo();
                note
            })
            .collect();
        pgn::write(&game, &notes, "tarpon play")
    }

    /// Everything the page draws, as JSON. In competitive mode nothing that
    /// would help the player is in it.
    pub fn state(&self, id: &str) -> Value {
        let learning = self.mode == Mode::Learning;
        let pos = &self.position;
        let mut replay = self.start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut fens = vec![replay.fen()];
        let mut summed = [0u32; 64];
        heat::accumulate(&mut summed, &replay);
        for m in &self.moves {
            let san = san_line(&replay, &[m.mv]).concat();
            let uci = replay.uci(m.mv);
            let verdict = m
                .verdict
                .as_ref()
                .filter(|_| learning)
                .map(|v| verdict_json(&replay, v));
            replay.make(m.mv);
            replay.forget_undo();
            heat::accumulate(&mut summed, &replay);
            fens.push(replay.fen());
            moves.push(json!({ "san": san, "uci": uci, "verdict": verdict }));
        }
        let mut live = [0u32; 64];
        heat::accumulate(&mut live, pos);
        let legal: Vec<String> = if self.is_player_turn() && !self.busy {
            pos.legal_moves().iter().map(|&m| pos.uci(m)).collect()
        } else {
            Vec::new()
        };
        let check = pos
            .is_check()
            .then(|| pos.snapshot().board().king_of(pos.turn()))
            .flatten()
            .map(|sq| sq.to_string());
        let wins = self.white_wins();
        let accuracy = (learning && self.end.is_some()).then(|| {
            let white_first = self.start.turn() == Color::White;
            json!({
                "white": game_accuracy(&wins, white_first, true),
                "black": game_accuracy(&wins, white_first, false),
            })
        });
        let thinking = self.thinking.as_ref().map(|t| {
            json!({
                "depth": t.depth,
                "score": t.score.filter(|_| learning).map(|s| s.uci()),
                "pv": if learning { t.pv.clone() } else { Vec::new() },
            })
        });
        json!({
            "id": id,
            "mode": if learning { "learning" } else { "competitive" },
            "player": color_name(self.player),
            "opponent": { "name": self.opponent.name, "elo": self.opponent.elo() },
            "undo_allowed": self.undo_allowed,
            "clock": self.clock.as_ref().map(|c| c.to_json(Instant::now())),
            "start_fen": fens[0],
            "fens": fens,
            "fen": pos.fen(),
            "turn": color_name(pos.turn()),
            "moves": moves,
            "legal": legal,
            "check": check,
            "busy": self.busy,
            "result": self.end.as_ref().map(|e| json!({ "result": e.result, "reason": e.reason })),
            "thinking": thinking,
            "white_win": if learning { self.latest_white_win() } else { None },
            "heat": if learning { json!({ "live": live.to_vec(), "summed": summed.to_vec() }) } else { Value::Null },
            "hint": if learning { self.hint_json() } else { Value::Null },
            "hints_used": self.hints_used,
            "accuracy": accuracy,
            "version": self.version,
        })
    }

    fn hint_json(&self) -> Value {
        let h = &self.hint;
        let pos = &self.position;
        json!({
            "stage": h.stage,
            "threat": (h.stage >= 1).then(|| h.threat.clone()).flatten(),
            "piece": h.best.filter(|_| h.stage >= 2).map(|m| m.from().map(|s| s.to_string())),
            "move": h.best.filter(|_| h.stage >= 3).map(|m| pos.uci(m)),
            "move_san": h.best.filter(|_| h.stage >= 3).map(|m| san_line(pos, &[m]).concat()),
        })
    }
}

pub fn color_name(color: Color) -> &'static str {
    if color == Color::White {
        "white"
    } else {
        "black"
    }
}

/// A verdict as the page shows it; `before` is the position the move was played in.
pub fn verdict_json(before: &Position, v: &Verdict) -> Value {
    let best = v.best_line.first().copied();
    json!({
        "class": v.name(),
        "loss": (v.loss * 10.0).round() / 10.0,
        "best_uci": best.map(|m| before.uci(m)),
        "best_san": best.map(|m| san_line(before, &[m]).concat()),
        "best_line": san_line(before, &v.best_line),
        "refutation": san_line(before, &v.played_line),
        "best_score": v.best_score.uci(),
        "played_score": v.played_score.uci(),
        "depth": v.depth,
    })
}

/// The PGN comment of a verdict: the class, and for a loss the better move
/// and the line that punishes the one played.
fn verdict_comment(before: &Position, v: &Verdict) -> String {
    let mut text = format!("{} ({:.1}% lost)", v.name(), v.loss);
    if v.label != Label::Best
        && v.label != Label::Good
        && let Some(&best) = v.best_line.first()
    {
        text.push_str(&format!(
            ". {} was better; after the move: {}",
            san_line(before, &[best]).concat(),
            san_line(before, &v.played_line).join(" ")
        ));
    }
    text
}

/// White's Win% from a score for the side to move in `pos`.
pub fn white_win(turn: Color, score: Score) -> f64 {
    let w = win_percent(score);
    if turn == Color::White { w } else { 100.0 - w }
}
