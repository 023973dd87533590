//! The rules of chess as the arena judges them, independent of what any
//! engine says: checkmate, stalemate, insufficient material, the fifty-move
//! rule and threefold repetition.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// Points scored by `color` (1, ½ or 0).
    pub fn points_for(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// The PGN `Termination` tag values used (from the PGN standard).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Normal,
    Adjudication,
    TimeForfeit,
    RulesInfraction,
    /// The engine crashed, disconnected or stopped answering.
    Abandoned,
}

impl Termination {
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub result: GameResult,
    pub termination: Termination,
    /// For people: "White mates", "Black loses on time", ...
    pub reason: String,
}

/// The reasons of the draws a winning side can steer away from.
pub const FIFTY_MOVES: &str = "Draw by fifty moves rule";
pub const REPETITION: &str = "Draw by 3-fold repetition";

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The game position plus the keys needed to see repetitions.
pub struct Referee {
    chess: Chess,
    /// Keys of the positions since the last capture or pawn move, current last.
    keys: Vec<u64>,
}

fn key(chess: &Chess) -> u64 {
    chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl Referee {
    pub fn new(chess: Chess) -> Referee {
        let keys = vec![key(&chess)];
        Referee { chess, keys }
    }

    pub fn chess(&self) -> &Chess {
        &self.chess
    }

    /// Play a legal move.
    pub fn play(&mut self, m: Move) {
        self.chess.play_unchecked(m);
        if self.chess.halfmoves() == 0 {
            self.keys.clear();
        }
        self.keys.push(key(&self.chess));
    }

    /// How often the current position has occurred (at least 1).
    pub fn repetitions(&self) -> usize {
        let current = *self.keys.last().expect("never empty");
        self.keys.iter().filter(|&&k| k == current).count()
    }

    /// Whether the game is over by the rules, and how.
    pub fn verdict(&self) -> Option<GameEnd> {
        let chess = &self.chess;
        let draw = |reason: &str| {
            Some(GameEnd {
                result: GameResult::Draw,
                termination: Termination::Normal,
                reason: reason.to_string(),
            })
        };
        if chess.is_checkmate() {
            let winner = !chess.turn();
            return Some(GameEnd {
                result: GameResult::win_for(winner),
                termination: Termination::Normal,
                reason: format!("{} mates", color_name(winner)),
            });
        }
        if chess.is_stalemate() {
            return draw("Draw by stalemate");
        }
        if chess.is_insufficient_material() {
            return draw("Draw by insufficient mating material");
        }
        if chess.halfmoves() >= 100 {
            return draw(FIFTY_MOVES);
        }
        if self.repetitions() >= 3 {
            return draw(REPETITION);
        }
        None
    }

    /// The result when `loser` forfeits: a draw instead when the opponent
    /// could never mate (FIDE rule for flag falls, applied to every forfeit).
    pub fn forfeit(&self, loser: Color, termination: Termination, reason: String) -> GameEnd {
        if self.chess.has_insufficient_material(!loser) {
            return GameEnd {
                result: GameResult::Draw,
                termination,
                reason: format!("{reason}; {} cannot mate: draw", color_name(!loser)),
            };
        }
        GameEnd {
            result: GameResult::win_for(!loser),
            termination,
            reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    fn referee(fen: &str) -> Referee {
        let chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Referee::new(chess)
    }

    fn play(r: &mut Referee, uci: &str) {
        let m = uci.parse::<UciMove>().unwrap().to_move(r.chess()).unwrap();
        r.play(m);
    }

    #[test]
    fn mate_stalemate_material_fifty_repetition() {
        let mut r = referee("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        play(&mut r, "a1a8");
        assert_eq!(r.verdict().unwrap().result, GameResult::WhiteWins);

        let mut r = referee("7k/8/6Q1/8/8/8/8/6K1 w - - 0 1");
        play(&mut r, "g6f7");
        assert_eq!(r.verdict().unwrap().reason, "Draw by stalemate");

        let mut r = referee("7k/8/8/8/8/8/6r1/5NK1 w - - 0 1");
        play(&mut r, "g1g2");
        assert_eq!(
            r.verdict().unwrap().reason,
            "Draw by insufficient mating material"
        );

        let mut r = referee("7k/8/8/8/8/8/8/R5K1 w - - 99 80");
        assert!(r.verdict().is_none());
        play(&mut r, "a1a2");
        assert_eq!(r.verdict().unwrap().reason, "Draw by fifty moves rule");

        let mut r = referee("7k/8/8/8/8/8/8/R5K1 w - - 0 1");
        for m in ["g1f1", "h8g8", "f1g1", "g8h8", "g1f1", "h8g8", "f1g1"] {
            assert!(r.verdict().is_none(), "{m}");
            play(&mut r, m);
        }
        assert!(r.verdict().is_none(), "twofold only");
        play(&mut r, "g8h8");
        assert_eq!(r.verdict().unwrap().reason, "Draw by 3-fold repetition");
    }

    #[test]
    fn mate_on_the_hundredth_halfmove_is_mate() {
        let mut r = referee("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
        play(&mut r, "a1a8");
        assert_eq!(r.verdict().unwrap().result, GameResult::WhiteWins);
    }

    #[test]
    fn forfeit_against_a_bare_king_is_a_draw() {
        let r = referee("7k/8/8/8/8/8/8/R5K1 b - - 0 1");
        let end = r.forfeit(Color::White, Termination::TimeForfeit, "x".to_string());
        assert_eq!(end.result, GameResult::Draw);
        let end = r.forfeit(Color::Black, Termination::TimeForfeit, "x".to_string());
        assert_eq!(end.result, GameResult::WhiteWins);
    }
}
