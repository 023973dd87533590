//! `tarpon convert`: games that fastchess played and wrote as PGN (OpenBench's
//! datagen archives) become training records, as if `tarpon datagen` had
//! played them.
//!
//! fastchess writes after each searched move a comment that starts with the
//! mover's score and depth: `{+0.35/12 0.123s, n=5000, sd=15}`, `{-1.20/9
//! ...}`, `{0.00/14 ...}`, mate in plies as `{+M5/30 ...}` and `{-M4/...}`
//! (OpenBench's upload may shorten it to `{+0.35/12}`). Book moves
//! (`{book}`) and moves without a score are not searched positions and
//! give no record. The others pass datagen's filter
//! ([`datagen::training_position`]): not in check, the move played neither a
//! capture nor a promotion, no mate or known-win score. Each record gets
//! the result of the game's `Result` tag from its side to move's view;
//! unfinished games (`*`) give none.
//!
//! A file that does not read as such PGN (a bad FEN tag, an illegal move, a
//! game with no result, no game at all) is refused whole: every file is
//! checked before any record is written.

use std::fs::File;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Color, Move};

use super::data::{GameResult, PackedPosition, RecordWriter, TrainingPosition};
use super::datagen;
use crate::position::{Position, START_FEN};
use crate::search::Score;

/// Arguments of `tarpon convert`.
#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// PGN files written by fastchess (OpenBench's datagen PGNs, decompressed).
    #[arg(required = true)]
    pub pgns: Vec<PathBuf>,
    /// File to append the records to (created if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// What a conversion found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvertReport {
    /// Games with a result, whose positions were used.
    pub games: u64,
    /// Games marked `*` (unfinished), skipped.
    pub unfinished: u64,
    /// Moves with a score in their comment.
    pub scored_moves: u64,
    /// Records: scored moves that passed the filter.
    pub positions: u64,
}

/// The mover's score at the start of a fastchess move comment (`+0.35/12`,
/// `-M4/20`), or `None` when the comment carries none (`book`, `ERR/0`).
pub fn comment_score(comment: &str) -> Option<Score> {
    let first = comment
        .trim_start()
        .split(|c: char| c.is_whitespace() || c == ',')
        .next()?;
    let (score, depth) = first.split_once('/')?;
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (negative, unsigned) = match score.as_bytes().first()? {
        b'+' => (false, &score[1..]),
        b'-' => (true, &score[1..]),
        _ => (false, score),
    };
    if let Some(plies) = unsigned.strip_prefix('M') {
        let plies: u32 = plies.parse().ok()?;
        let moves = i32::try_from(plies.div_ceil(2)).ok()?;
        return Some(Score::Mate(if negative { -moves } else { moves }));
    }
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let pawns: f64 = unsigned.parse().ok()?;
    let cp = (pawns * 100.0).round();
    if cp > f64::from(i32::MAX / 2) {
        return None;
    }
    Some(Score::Cp(if negative { -cp as i32 } else { cp as i32 }))
}

/// The winner a result string names: `Some(winner)` for `1-0`, `0-1` and
/// `1/2-1/2` (`None`: drawn), `None` for `*`.
fn winner_of(result: &str) -> Result<Option<Option<Color>>, String> {
    match result {
        "1-0" => Ok(Some(Some(Color::White))),
        "0-1" => Ok(Some(Some(Color::Black))),
        "1/2-1/2" => Ok(Some(None)),
        "*" => Ok(None),
        other => Err(format!("bad result '{other}'")),
    }
}

/// One game's kept positions (results still unset) and how it ended.
struct ConvertedGame {
    positions: Vec<TrainingPosition>,
    scored_moves: u64,
    /// `None`: unfinished.
    winner: Option<Option<Color>>,
}

/// Tags that matter here.
#[derive(Default)]
struct Tags {
    fen: Option<String>,
    result: Option<String>,
    chess960: bool,
}

/// The state of a game being read.
struct Game {
    pos: Position,
    /// The position before the last move and that move, until the comment
    /// after it (if any) has been read.
    last_move: Option<(Position, Move)>,
    plies: usize,
    converted: ConvertedGame,
    result_tag: Option<String>,
    result_token: Option<String>,
    error: Option<String>,
}

/// The `pgn-reader` visitor that turns one game into positions.
struct GameConverter;

impl Visitor for GameConverter {
    type Tags = Tags;
    type Movetext = Game;
    type Output = Result<ConvertedGame, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let value = value.decode_utf8_lossy().into_owned();
        match name {
            b"FEN" => tags.fen = Some(value),
            b"Result" => tags.result = Some(value),
            b"Variant" => tags.chess960 = value.to_lowercase().contains("960"),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Game> {
        let fen = tags.fen.as_deref().unwrap_or(START_FEN);
        match Position::from_fen(fen, tags.chess960) {
            Ok(pos) => ControlFlow::Continue(Game {
                pos,
                last_move: None,
                plies: 0,
                converted: ConvertedGame {
                    positions: Vec::new(),
                    scored_moves: 0,
                    winner: None,
                },
                result_tag: tags.result,
                result_token: None,
                error: None,
            }),
            Err(e) => ControlFlow::Break(Err(format!("bad FEN tag '{fen}': {e}"))),
        }
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if game.error.is_some() {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&game.pos.to_chess()) {
            Ok(m) => {
                game.last_move = Some((game.pos.clone(), m));
                game.pos.make(m);
                game.pos.forget_undo();
                game.plies += 1;
            }
            Err(_) => {
                game.error = Some(format!(
                    "ply {} '{san_plus}' is illegal in {}",
                    game.plies + 1,
                    game.pos.fen()
                ));
            }
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut Game, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        // Only the first comment after a move speaks for it.
        let Some((before, m)) = game.last_move.take() else {
            return ControlFlow::Continue(());
        };
        let Some(score) = comment_score(&String::from_utf8_lossy(comment.as_bytes())) else {
            return ControlFlow::Continue(());
        };
        game.converted.scored_moves += 1;
        game.converted
            .positions
            .extend(datagen::training_position(&before, &m, score));
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut Game, outcome: Outcome) -> ControlFlow<Self::Output> {
        game.result_token = Some(match outcome {
            Outcome::Known(KnownOutcome::Decisive { winner }) => {
                if winner == Color::White { "1-0" } else { "0-1" }.to_string()
            }
            Outcome::Known(KnownOutcome::Draw) => "1/2-1/2".to_string(),
            Outcome::Unknown => "*".to_string(),
        });
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Game) -> Self::Output {
        if let Some(e) = game.error {
            return Err(e);
        }
        // The tag says how the game ended; the token after the moves stands
        // in for a missing tag.
        let result = game
            .result_tag
            .or(game.result_token)
            .ok_or("no result (neither a Result tag nor one after the moves)")?;
        let mut converted = game.converted;
        converted.winner = winner_of(&result)?;
        Ok(converted)
    }
}

/// Reads every game of a PGN stream and hands each record to `sink`; the
/// first malformed game stops it with its number in the message.
pub fn convert_games(
    input: impl Read,
    sink: &mut dyn FnMut(&PackedPosition) -> Result<(), String>,
) -> Result<ConvertReport, String> {
    let mut reader = Reader::new(input);
    let mut report = ConvertReport::default();
    let mut number = 0;
    while let Some(game) = reader
        .read_game(&mut GameConverter)
        .map_err(|e| format!("cannot read PGN: {e}"))?
    {
        number += 1;
        let game = game.map_err(|e| format!("game {number}: {e}"))?;
        let Some(winner) = game.winner else {
            report.unfinished += 1;
            continue;
        };
        report.games += 1;
        report.scored_moves += game.scored_moves;
        for mut p in game.positions {
            p.result = GameResult::for_side(p.turn, winner);
            let record = PackedPosition::pack(&p).map_err(|e| format!("game {number}: {e}"))?;
            sink(&record)?;
            report.positions += 1;
        }
    }
    if number == 0 {
        return Err("no game found".into());
    }
    Ok(report)
}

/// [`convert_games`] on a file, its name in any error.
pub fn convert_file(
    path: &Path,
    sink: &mut dyn FnMut(&PackedPosition) -> Result<(), String>,
) -> Result<ConvertReport, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    convert_games(BufReader::new(file), sink).map_err(|e| format!("{}: {e}", path.display()))
}

/// `tarpon convert`: checks every file, then appends their records to `--out`.
pub fn run(args: ConvertArgs) -> ExitCode {
    match convert(&args) {
        Ok(r) => {
            println!(
                "{} games ({} unfinished skipped), {} scored moves, {} positions appended to {}",
                r.games,
                r.unfinished,
                r.scored_moves,
                r.positions,
                args.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn convert(args: &ConvertArgs) -> Result<ConvertReport, String> {
    // A first pass only reads, so a bad file leaves `--out` untouched.
    for path in &args.pgns {
        convert_file(path, &mut |_| Ok(()))?;
    }
    let mut writer = RecordWriter::append(&args.out)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let mut total = ConvertReport::default();
    for path in &args.pgns {
        let report = convert_file(path, &mut |record| {
            writer
                .write(record)
                .map_err(|e| format!("writing {}: {e}", args.out.display()))
        })?;
        total.games += report.games;
        total.unfinished += report.unfinished;
        total.scored_moves += report.scored_moves;
        total.positions += report.positions;
    }
    writer
        .flush()
        .map_err(|e| format!("writing {}: {e}", args.out.display()))?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fastchess_scores() {
        assert_eq!(
            comment_score("+0.35/12 0.123s, n=5000, sd=15"),
            Some(Score::Cp(35))
        );
        assert_eq!(comment_score("-1.20/9 0.050s"), Some(Score::Cp(-120)));
        assert_eq!(comment_score("0.00/14 0.010s"), Some(Score::Cp(0)));
        assert_eq!(comment_score("+0.07/3"), Some(Score::Cp(7)));
        assert_eq!(comment_score("+12.34/20, line=x"), Some(Score::Cp(1234)));
        assert_eq!(comment_score("+M5/30 0.2s"), Some(Score::Mate(3)));
        assert_eq!(comment_score("-M4/30 0.2s"), Some(Score::Mate(-2)));
        assert_eq!(comment_score("+M4294967293/1"), Some(Score::Mate(i32::MAX)));
        assert_eq!(comment_score("+M4294967295/1"), None);
        assert_eq!(comment_score("+M4294967296/1"), None);
        for none in [
            "book",
            "unknown",
            "ERR/0 0.001s",
            "/0 0.001s",
            "+0.35",
            "nan/3",
            "+0.3/x",
        ] {
            assert_eq!(comment_score(none), None, "{none}");
        }
    }

    #[test]
    fn results_come_from_the_tag_and_unfinished_games_give_nothing() {
        let pgn = "[Result \"0-1\"]\n\n1. e4 {+0.30/10 0.1s} e5 {-0.25/10 0.1s} 0-1\n\n\
                   [Result \"*\"]\n\n1. d4 {+0.20/10 0.1s} *\n";
        let mut records = Vec::new();
        let report = convert_games(pgn.as_bytes(), &mut |r| {
            records.push(*r);
            Ok(())
        })
        .unwrap();
        assert_eq!(
            report,
            ConvertReport {
                games: 1,
                unfinished: 1,
                scored_moves: 2,
                positions: 2
            }
        );
        let first = records[0].unpack().unwrap();
        assert_eq!(
            (first.turn, first.score, first.result),
            (Color::White, 30, GameResult::Loss)
        );
        let second = records[1].unpack().unwrap();
        assert_eq!(
            (second.turn, second.score, second.result),
            (Color::Black, -25, GameResult::Win)
        );
    }

    #[test]
    fn reads_openbench_uploads_without_move_numbers() {
        // What OpenBench's client uploads (pgn_util.py, compact): no move
        // numbers, comments cut to `score/depth`, `unknown` where none.
        let pgn = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\
                   [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\
                   [SetUp \"1\"]\n\nNf3 {+0.12/9} d5 {unknown} g3 {+0.20/9} 1-0\n";
        let mut records = 0;
        let report = convert_games(pgn.as_bytes(), &mut |_| {
            records += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!((report.games, report.scored_moves, records), (1, 2, 2));
    }

    #[test]
    fn malformed_games_are_refused_with_their_number() {
        for (pgn, reason) in [
            ("", "no game found"),
            (
                "[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n",
                "game 1: ply 3 'Ke3' is illegal",
            ),
            (
                "[FEN \"8/8/8 w\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n",
                "game 1: bad FEN tag",
            ),
            (
                "[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"2-0\"]\n\n1. e4 1-0\n",
                "game 2: bad result '2-0'",
            ),
            ("[Event \"x\"]\n\n1. e4 e5\n", "game 1: no result"),
        ] {
            let err = convert_games(pgn.as_bytes(), &mut |_| Ok(())).unwrap_err();
            assert!(err.contains(reason), "{pgn:?}: {err}");
        }
    }
}
