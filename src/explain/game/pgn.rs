//! Reading games from PGN (through `pgn-reader`: main line only, variations
//! and old comments skipped) and writing them back with our annotations.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{Move, Position as _};

use crate::position::{Position, START_FEN};

/// One game's main line, checked move by move.
#[derive(Clone, Debug)]
pub struct Game {
    /// Tags in file order (FEN and SetUp included).
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: String,
}

#[derive(Default)]
struct Collect;

struct Movetext {
    tags: Vec<(String, String)>,
    pos: Position,
    start: Position,
    moves: Vec<Move>,
    result: String,
    error: Option<String>,
}

impl Visitor for Collect {
    type Tags = Vec<(String, String)>;
    type Movetext = Movetext;
    type Output = Result<Game, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let fen = tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map_or(START_FEN, |(_, v)| v.as_str());
        let chess960 = tags
            .iter()
            .any(|(k, v)| k == "Variant" && v.to_lowercase().contains("960"));
        match Position::from_fen(fen, chess960) {
            Ok(pos) => ControlFlow::Continue(Movetext {
                tags,
                start: pos.clone(),
                pos,
                moves: Vec::new(),
                result: "*".to_string(),
                error: None,
            }),
            Err(e) => ControlFlow::Break(Err(format!("bad FEN tag: {e}"))),
        }
    }

    fn san(&mut self, mt: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if mt.error.is_some() {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&mt.pos.to_chess()) {
            Ok(m) => {
                mt.pos.make(m);
                mt.moves.push(m);
            }
            Err(_) => {
                mt.error = Some(format!(
                    "move {} '{san_plus}' is illegal in {}",
                    mt.moves.len() / 2 + 1,
                    mt.pos.fen()
                ));
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, mt: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        mt.result = outcome.to_string();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Self::Movetext) -> Self::Output {
        match mt.error {
            Some(e) => Err(e),
            None => Ok(Game {
                tags: mt.tags,
                start: mt.start,
                moves: mt.moves,
                result: mt.result,
            }),
        }
    }
}

/// Every game of a PGN text, or the first error (with the game's number).
pub fn read_games(text: &str) -> Result<Vec<Game>, String> {
    let mut reader = Reader::new(std::io::Cursor::new(text.as_bytes()));
    let mut games = Vec::new();
    while let Some(game) = reader
        .read_game(&mut Collect)
        .map_err(|e| format!("cannot read PGN: {e}"))?
    {
        games.push(game.map_err(|e| format!("game {}: {e}", games.len() + 1))?);
    }
    if games.is_empty() {
        return Err("no game found in the PGN".to_string());
    }
    Ok(games)
}

/// What to write after one move.
#[derive(Clone, Debug, Default)]
pub struct Annotation {
    /// Numeric annotation glyph, e.g. 2 for `?`.
    pub nag: Option<u8>,
    pub comment: String,
}

fn escape_tag(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PGN with a NAG and a `{ comment }` after each move; braces in
/// comments are replaced so the text always parses.
pub fn write(game: &Game, notes: &[Annotation], annotator: &str) -> String {
    let mut out = String::new();
    let mut tags = game.tags.clone();
    if !tags.iter().any(|(k, _)| k == "Annotator") {
        tags.push(("Annotator".to_string(), annotator.to_string()));
    }
    if !tags.iter().any(|(k, _)| k == "Result") {
        tags.push(("Result".to_string(), game.result.clone()));
    }
    for (k, v) in &tags {
        let _ = writeln!(out, "[{k} \"{}\"]", escape_tag(v));
    }
    out.push('\n');
    let mut chess = game.start.to_chess();
    let mut tokens: Vec<String> = Vec::new();
    for (i, &m) in game.moves.iter().enumerate() {
        let white = chess.turn() == shakmaty::Color::White;
        let number = u32::from(chess.fullmoves());
        // The number goes with its move, so a line never ends between them.
        let prefix = if white {
            format!("{number}. ")
        } else if i == 0 || !notes.get(i - 1).is_none_or(|n| n.comment.is_empty()) {
            format!("{number}... ")
        } else {
            String::new()
        };
        tokens.push(prefix + &SanPlus::from_move_and_play_unchecked(&mut chess, m).to_string());
        if let Some(note) = notes.get(i) {
            if let Some(nag) = note.nag {
                tokens.push(format!("${nag}"));
            }
            if !note.comment.is_empty() {
                tokens.push(format!("{{ {} }}", note.comment.replace(['{', '}'], "")));
            }
        }
    }
    tokens.push(game.result.clone());
    // Lines of at most 80 characters, as the PGN standard suggests.
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            let _ = writeln!(out, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    let _ = writeln!(out, "{line}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHOLAR: &str = "[Event \"test\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
        1. e4 e5 2. Qh5 {threat} Nc6 (2... g6) 3. Bc4 Nf6?? 4. Qxf7# 1-0\n";

    #[test]
    fn reads_the_main_line_and_writes_it_back() {
        let games = read_games(SCHOLAR).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.moves.len(), 7);
        assert_eq!(g.result, "1-0");
        let notes = vec![
            Annotation::default(),
            Annotation {
                nag: None,
                comment: "a {braced} note".into(),
            },
            Annotation::default(),
            Annotation::default(),
            Annotation::default(),
            Annotation {
                nag: Some(4),
                comment: "blunder".into(),
            },
            Annotation::default(),
        ];
        let text = write(g, &notes, "tarpon");
        assert!(text.contains("[Annotator \"tarpon\"]"), "{text}");
        assert!(
            text.contains(
                "1. e4 e5 { a braced note } 2. Qh5 Nc6 3. Bc4 Nf6 $4 { blunder } 4. Qxf7# 1-0"
            ),
            "{text}"
        );
        let again = read_games(&text).unwrap();
        assert_eq!(again[0].moves, g.moves);
    }

    #[test]
    fn bad_games_are_reported_with_their_number() {
        let err = read_games("1. e4 e5 *\n\n1. e4 e5 2. Ke3 *\n").unwrap_err();
        assert!(err.starts_with("game 2: move 2 'Ke3' is illegal"), "{err}");
        assert!(read_games("").unwrap_err().contains("no game"));
        let err = read_games("[FEN \"not a fen\"]\n\n1. e4 *\n").unwrap_err();
        assert!(err.contains("bad FEN"), "{err}");
    }
}
