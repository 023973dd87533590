//! One game between two running engines: the arena's clocks, the referee's
//! rules, adjudication, and forfeits for engines that misbehave.

use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

use super::adjudication::Adjudicator;
use super::clock::Clock;
use super::engine::{Answer, EngineError, GameStart, MoveRequest, Player, Reply, Score};
use super::faults::{DECISIVE_CP, DRAWN_AHEAD_MOVES, Faults};
use super::openings::{Opening, castling_mode, position_from_fen};
use super::referee::{
    FIFTY_MOVES, GameEnd, GameResult, REPETITION, Referee, Termination, color_name,
};
use super::tablebase::Tablebases;

pub const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A move as it goes into the PGN.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub san: String,
    /// `book`, or score/depth/time like `+0.35/12 0.52s`; may be empty.
    pub comment: String,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    pub start_fen: String,
    pub start_is_standard: bool,
    pub chess960: bool,
    pub moves: Vec<PlayedMove>,
    pub end: GameEnd,
    /// Time control tag per side (white, black).
    pub time_controls: [String; 2],
    pub started: SystemTime,
    /// Which engines (white, black) misbehaved and should be restarted.
    pub faulty: [bool; 2],
    /// What each engine (white, black) did wrong in this game.
    pub faults: [Faults; 2],
}

pub struct GameSettings<'a> {
    pub opening: &'a Opening,
    pub chess960: bool,
    /// White's and Black's clocks, fresh.
    pub clocks: [Clock; 2],
    pub adjudicator: Adjudicator,
    pub tablebases: Option<&'a Tablebases>,
}

/// The game was stopped from outside (Ctrl-C, SPRT) before it ended.
#[derive(Debug)]
pub struct Interrupted;

/// Whether an engine's score for its own side says it is winning clearly.
fn is_decisive(score: Option<Score>) -> bool {
    match score {
        Some(Score::Cp(cp)) => cp > DECISIVE_CP,
        Some(Score::Mate(n)) => n > 0,
        None => false,
    }
}

/// A draw the winning side could have steered away from.
fn is_avoidable_draw(end: &GameEnd) -> bool {
    end.result == GameResult::Draw
        && end.termination == Termination::Normal
        && (end.reason == FIFTY_MOVES || end.reason == REPETITION)
}

fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Read an engine's move: UCI notation first, SAN as xboard engines may use.
/// Chess960 castling arrives as king-takes-rook, which `UciMove` handles.
pub fn parse_move(chess: &Chess, text: &str) -> Option<Move> {
    if let Ok(uci) = text.parse::<UciMove>()
        && let Ok(m) = uci.to_move(chess)
    {
        return Some(m);
    }
    text.parse::<San>().ok()?.to_move(chess).ok()
}

/// `+0.35/12 0.52s`, mates as `+M3`; score from the mover's point of view.
pub fn move_comment(reply: &Reply) -> String {
    let mut parts = String::new();
    if let Some(score) = reply.score {
        match score {
            Score::Cp(cp) => parts.push_str(&format!("{:+.2}", cp as f64 / 100.0)),
            Score::Mate(n) if n >= 0 => parts.push_str(&format!("+M{n}")),
            Score::Mate(n) => parts.push_str(&format!("-M{}", -n)),
        }
        if let Some(depth) = reply.depth {
            parts.push_str(&format!("/{depth}"));
        }
        parts.push(' ');
    }
    parts.push_str(&format!("{:.2}s", reply.elapsed.as_secs_f64()));
    parts
}

/// Moves so far in the three notations the adapters need.
struct MoveList {
    moves: Vec<Move>,
    uci: Vec<String>,
    san: Vec<String>,
    played: Vec<PlayedMove>,
}

impl MoveList {
    fn push(&mut self, chess: &Chess, m: Move, chess960: bool, comment: String) {
        let san = SanPlus::from_move(chess.clone(), m).to_string();
        self.uci
            .push(UciMove::from_move(m, castling_mode(chess960)).to_string());
        self.san.push(san.clone());
        self.moves.push(m);
        self.played.push(PlayedMove { san, comment });
    }
}

/// The forfeit for an engine that failed, counted in its `faults`.
fn engine_failure(
    referee: &Referee,
    side: Color,
    clock: &Clock,
    error: &EngineError,
    faults: &mut Faults,
) -> GameEnd {
    let who = color_name(side);
    let (count, termination, reason) = match error {
        EngineError::Timeout if clock.is_timed() => (
            &mut faults.time_losses,
            Termination::TimeForfeit,
            format!("{who} loses on time"),
        ),
        EngineError::Timeout => (
            &mut faults.stalls,
            Termination::Abandoned,
            format!(
                "{who}'s engine hangs: no move within {:.0}s",
                clock.hang_timeout.as_secs_f64()
            ),
        ),
        EngineError::Disconnected(why) => (
            &mut faults.crashes,
            Termination::Abandoned,
            format!("{who}'s engine disconnects: {why}"),
        ),
        EngineError::Protocol(why) => (
            &mut faults.illegal,
            Termination::RulesInfraction,
            format!("{who}'s engine breaks the protocol: {why}"),
        ),
        EngineError::Interrupted => unreachable!("handled by the caller"),
    };
    *count += 1;
    referee.forfeit(side, termination, reason)
}

/// Play one game. Engines are given to it already running.
pub fn play(
    players: [&mut dyn Player; 2],
    settings: GameSettings,
    stop: &AtomicBool,
) -> Result<GameRecord, Interrupted> {
    let [white, black] = players;
    let mut players: [&mut dyn Player; 2] = [white, black];
    let GameSettings {
        opening,
        chess960,
        mut clocks,
        mut adjudicator,
        tablebases,
    } = settings;
    let started = SystemTime::now();
    let start = position_from_fen(&opening.fen, chess960).expect("book positions are checked");
    let start_is_standard = !chess960 && opening.fen == STANDARD_FEN;
    let mut referee = Referee::new(start);
    let mut list = MoveList {
        moves: Vec::new(),
        uci: Vec::new(),
        san: Vec::new(),
        played: Vec::new(),
    };
    for text in &opening.moves {
        let m = parse_move(referee.chess(), text).expect("book moves are checked");
        list.push(referee.chess(), m, chess960, "book".to_string());
        referee.play(m);
    }
    let mut faulty = [false, false];
    let mut faults = [Faults::default(); 2];
    // Each side's run of decisive scores up to its latest move.
    let mut decisive_run = [0u32; 2];
    let time_controls = [clocks[0].tc.pgn_tag(), clocks[1].tc.pgn_tag()];

    let mut end = referee.verdict();
    for color in [Color::White, Color::Black] {
        if end.is_some() {
            break;
        }
        let i = side_index(color);
        let game = GameStart {
            start_fen: &opening.fen,
            start_is_standard,
            chess960,
            own: &clocks[i],
        };
        match players[i].new_game(&game, stop) {
            Ok(()) => {}
            Err(EngineError::Interrupted) => return Err(Interrupted),
            Err(e) => {
                faulty[i] = true;
                end = Some(engine_failure(
                    &referee,
                    color,
                    &clocks[i],
                    &e,
                    &mut faults[i],
                ));
            }
        }
    }

    while end.is_none() {
        let side = referee.chess().turn();
        let i = side_index(side);
        let who = color_name(side);
        let reply = {
            let request = MoveRequest {
                start_fen: &opening.fen,
                start_is_standard,
                moves: &list.moves,
                uci_moves: &list.uci,
                san_moves: &list.san,
                position: referee.chess(),
                side,
                own: &clocks[i],
                opponent: &clocks[1 - i],
            };
            players[i].request_move(&request, stop)
        };
        let reply = match reply {
            Ok(reply) => reply,
            Err(EngineError::Interrupted) => return Err(Interrupted),
            Err(e) => {
                faulty[i] = true;
                end = Some(engine_failure(
                    &referee,
                    side,
                    &clocks[i],
                    &e,
                    &mut faults[i],
                ));
                break;
            }
        };
        faults[i].error_reports += reply.error_reports;
        decisive_run[i] = if is_decisive(reply.score) {
            decisive_run[i] + 1
        } else {
            0
        };
        if !clocks[i].charge(reply.elapsed) {
            faulty[i] = true;
            let (termination, reason) = if clocks[i].is_timed() {
                faults[i].time_losses += 1;
                (Termination::TimeForfeit, format!("{who} loses on time"))
            } else {
                faults[i].stalls += 1;
                (Termination::Abandoned, format!("{who}'s engine hangs"))
            };
            end = Some(referee.forfeit(side, termination, reason));
            break;
        }
        let text = match &reply.answer {
            Answer::Move(text) => text.clone(),
            Answer::Resign => {
                end = Some(GameEnd {
                    result: GameResult::win_for(!side),
                    termination: Termination::Normal,
                    reason: format!("{who} resigns"),
                });
                break;
            }
            Answer::NoMove => {
                faults[i].illegal += 1;
                end = Some(referee.forfeit(
                    side,
                    Termination::RulesInfraction,
                    format!("{who} makes a false claim: no legal move, but there are legal moves"),
                ));
                break;
            }
            Answer::Claim { result, reason } => {
                // The game is not over (else it would have ended before this
                // request), so any result claim is false.
                faults[i].illegal += 1;
                end = Some(referee.forfeit(
                    side,
                    Termination::RulesInfraction,
                    format!("{who} makes a false claim: {result} ({reason})"),
                ));
                break;
            }
        };
        let Some(m) = parse_move(referee.chess(), &text) else {
            faulty[i] = true;
            faults[i].illegal += 1;
            end = Some(referee.forfeit(
                side,
                Termination::RulesInfraction,
                format!("{who} makes an illegal move: {text}"),
            ));
            break;
        };
        let move_number = referee.chess().fullmoves().get();
        list.push(referee.chess(), m, chess960, move_comment(&reply));
        referee.play(m);
        end = referee
            .verdict()
            .or_else(|| tablebases.and_then(|tb| tb.verdict(referee.chess())))
            .or_else(|| adjudicator.record(side, reply.score, move_number));
    }
    let end = end.expect("loop ends with a result");
    if is_avoidable_draw(&end) {
        for (side, run) in faults.iter_mut().zip(decisive_run) {
            if run >= DRAWN_AHEAD_MOVES {
                side.drawn_ahead += 1;
            }
        }
    }
    for player in players.iter_mut() {
        player.game_over(end.result.pgn(), &end.reason);
    }
    Ok(GameRecord {
        white: players[0].name().to_string(),
        black: players[1].name().to_string(),
        start_fen: opening.fen.clone(),
        start_is_standard,
        chess960,
        moves: list.played,
        end,
        time_controls,
        started,
        faulty,
        faults,
    })
}
