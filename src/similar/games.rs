//! Reading master games for the index: the headers a query shows (players,
//! event, date, result, ECO) and, every N plies of the main line, the
//! position before a move together with that move. A game with an illegal
//! move or a bad FEN tag is skipped whole and the reason kept.

use std::io::Read;
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};

use super::features::{Snapshot, encode_move};

/// A game's result from White's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameResult {
    #[default]
    Unknown = 0,
    WhiteWins = 1,
    BlackWins = 2,
    Draw = 3,
}

impl GameResult {
    pub fn from_code(code: u8) -> Option<GameResult> {
        Some(match code {
            0 => GameResult::Unknown,
            1 => GameResult::WhiteWins,
            2 => GameResult::BlackWins,
            3 => GameResult::Draw,
            _ => return None,
        })
    }

    fn parse(text: &str) -> GameResult {
        match text.trim() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            GameResult::Unknown => "*",
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The score (1, ½, 0) for the side to move, if the result is known.
    pub fn score_for(self, black_to_move: bool) -> Option<f32> {
        let white = match self {
            GameResult::Unknown => return None,
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        };
        Some(if black_to_move { 1.0 - white } else { white })
    }
}

/// The headers a query prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    pub white: String,
    pub black: String,
    pub event: String,
    pub date: String,
    pub eco: String,
    pub result: GameResult,
}

impl GameInfo {
    /// The year of the date tag, when it has one.
    pub fn year(&self) -> Option<u16> {
        self.date.get(..4)?.parse().ok()
    }
}

/// One position of one game, with the move the game played from it.
#[derive(Clone, Debug)]
pub struct Sample {
    pub game: u32,
    pub ply: u16,
    pub snapshot: Snapshot,
    pub played: u16,
}

/// One game's main line: the start position and the moves.
pub struct GameLine {
    pub info: GameInfo,
    pub start: Chess,
    pub moves: Vec<shakmaty::Move>,
}

struct Collect;

struct Line {
    info: GameInfo,
    start: Chess,
    pos: Chess,
    moves: Vec<shakmaty::Move>,
    error: Option<String>,
}

fn parse_fen(text: &str) -> Result<Chess, String> {
    let fen: Fen = text.parse().map_err(|e| format!("bad FEN '{text}': {e}"))?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|e| format!("illegal FEN '{text}': {e}"))
}

impl Visitor for Collect {
    type Tags = (GameInfo, Option<String>);
    type Movetext = Line;
    type Output = Result<GameLine, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue((GameInfo::default(), None))
    }

    fn tag(
        &mut self,
        (info, fen): &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let value = value.decode_utf8_lossy().into_owned();
        match name {
            b"White" => info.white = value,
            b"Black" => info.black = value,
            b"Event" => info.event = value,
            b"Date" => info.date = value,
            b"ECO" => info.eco = value,
            b"Result" => info.result = GameResult::parse(&value),
            b"FEN" => *fen = Some(value),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(
        &mut self,
        (info, fen): Self::Tags,
    ) -> ControlFlow<Self::Output, Self::Movetext> {
        let start = match fen {
            None => Chess::default(),
            Some(text) => match parse_fen(&text) {
                Ok(c) => c,
                Err(e) => return ControlFlow::Break(Err(e)),
            },
        };
        ControlFlow::Continue(Line {
            info,
            pos: start.clone(),
            start,
            moves: Vec::new(),
            error: None,
        })
    }

    fn san(&mut self, line: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        if line.error.is_none() {
            match san.san.to_move(&line.pos) {
                Ok(m) => {
                    line.pos.play_unchecked(m);
                    line.moves.push(m);
                }
                Err(_) => {
                    line.error = Some(format!(
                        "move {} '{san}' is illegal",
                        line.moves.len() / 2 + 1
                    ))
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(
        &mut self,
        line: &mut Self::Movetext,
        outcome: Outcome,
    ) -> ControlFlow<Self::Output> {
        // The result tag wins; the movetext's result fills in a missing one.
        if line.info.result == GameResult::Unknown {
            line.info.result = GameResult::parse(&outcome.to_string());
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, line: Self::Movetext) -> Self::Output {
        match line.error {
            Some(e) => Err(e),
            None => Ok(GameLine {
                info: line.info,
                start: line.start,
                moves: line.moves,
            }),
        }
    }
}

/// Every game of a PGN stream in order: `Ok` for a good game, `Err(reason)`
/// for one to skip. An I/O error ends the reading.
pub fn read_games(
    input: impl Read,
    mut each: impl FnMut(Result<GameLine, String>),
) -> Result<(), String> {
    let mut reader = Reader::new(input);
    while let Some(game) = reader
        .read_game(&mut Collect)
        .map_err(|e| format!("cannot read PGN: {e}"))?
    {
        each(game);
    }
    Ok(())
}

/// The positions of a game to index: before ply 0, N, 2N, ... (each with
/// the move played from it; the final position has none and is left out).
pub fn samples(game: &GameLine, game_id: u32, every: usize) -> Vec<Sample> {
    let mut pos = game.start.clone();
    let mut out = Vec::new();
    for (ply, &m) in game.moves.iter().enumerate() {
        if ply % every.max(1) == 0 && ply <= usize::from(u16::MAX) {
            out.push(Sample {
                game: game_id,
                ply: ply as u16,
                snapshot: Snapshot::of(&pos),
                played: encode_move(m),
            });
        }
        pos.play_unchecked(m);
    }
    out
}

/// The position after `ply` plies of the first game of a PGN text.
pub fn position_in_game(text: &str, ply: usize) -> Result<Chess, String> {
    let mut first = None;
    let mut reader = Reader::new(std::io::Cursor::new(text.as_bytes()));
    if let Some(game) = reader
        .read_game(&mut Collect)
        .map_err(|e| format!("cannot read PGN: {e}"))?
    {
        first = Some(game);
    }
    let game = first.ok_or("no game in the PGN")??;
    if ply > game.moves.len() {
        return Err(format!(
            "--ply {ply} is past the end of the game ({} plies)",
            game.moves.len()
        ));
    }
    let mut pos = game.start;
    for &m in &game.moves[..ply] {
        pos.play_unchecked(m);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[White \"A\"]\n[Black \"B\"]\n[Date \"1886.01.11\"]\n[Result \"1-0\"]\n[ECO \"C47\"]\n\n\
        1. e4 e5 2. Nf3 Nc6 (2... d6) 3. Bb5 a6 1-0\n\n\
        [White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 2. Ke3 *\n\n\
        [White \"E\"]\n[Black \"F\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n";

    #[test]
    fn good_games_give_samples_and_bad_ones_reasons() {
        let mut good = Vec::new();
        let mut bad = Vec::new();
        read_games(TWO.as_bytes(), |g| match g {
            Ok(g) => good.push(g),
            Err(e) => bad.push(e),
        })
        .unwrap();
        assert_eq!(good.len(), 1);
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(bad[0].contains("'Ke3' is illegal"), "{bad:?}");
        assert!(bad[1].contains("FEN"), "{bad:?}");
        let g = &good[0];
        assert_eq!(g.info.year(), Some(1886));
        assert_eq!(g.info.eco, "C47");
        assert_eq!(g.info.result, GameResult::WhiteWins);
        assert_eq!(samples(g, 0, 1).len(), 6);
        let every2 = samples(g, 0, 2);
        assert_eq!(every2.iter().map(|s| s.ply).collect::<Vec<_>>(), [0, 2, 4]);
        assert!(!every2[1].snapshot.black_to_move);
        let after = position_in_game(TWO, 3).unwrap();
        assert!(after.turn().is_black());
        assert!(position_in_game(TWO, 7).is_err());
    }

    #[test]
    fn scores_are_for_the_side_to_move() {
        assert_eq!(GameResult::WhiteWins.score_for(false), Some(1.0));
        assert_eq!(GameResult::WhiteWins.score_for(true), Some(0.0));
        assert_eq!(GameResult::Draw.score_for(true), Some(0.5));
        assert_eq!(GameResult::Unknown.score_for(true), None);
    }
}
