//! Opening books: EPD files (one position per line) and PGN files (the
//! main line of each game), served sequentially or shuffled with a seed.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::ops::ControlFlow;
use std::path::Path;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};

use crate::rng::SplitMix64;

/// One opening: a start position and book moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Full FEN of the start position.
    pub fen: String,
    /// Book moves in UCI notation (castling as the game's mode writes it).
    pub moves: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    Epd,
    Pgn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random { seed: u64 },
}

pub fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// Parse an EPD line: the four FEN board fields, then either the two FEN
/// counters or EPD operations (`hmvc`/`fmvn` are honoured, others ignored).
pub fn parse_epd_line(line: &str, chess960: bool) -> Result<String, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("not an EPD line: '{line}'"));
    }
    let mut halfmoves = 0u32;
    let mut fullmoves = 1u32;
    let rest = fields[4..].join(" ");
    let numbers: Vec<&str> = fields[4..].iter().take(2).copied().collect();
    if numbers.len() == 2 && numbers.iter().all(|n| n.parse::<u32>().is_ok()) {
        halfmoves = numbers[0].parse().unwrap_or(0);
        fullmoves = numbers[1].parse().unwrap_or(1);
    } else {
        for op in rest.split(';') {
            let mut words = op.split_whitespace();
            match (
                words.next(),
                words.next().and_then(|v| v.parse::<u32>().ok()),
            ) {
                (Some("hmvc"), Some(v)) => halfmoves = v,
                (Some("fmvn"), Some(v)) => fullmoves = v.max(1),
                _ => {}
            }
        }
    }
    let fen = format!(
        "{} {} {} {} {halfmoves} {fullmoves}",
        fields[0], fields[1], fields[2], fields[3]
    );
    let chess = position_from_fen(&fen, chess960)?;
    if chess.is_game_over() {
        return Err(format!("game already over in '{line}'"));
    }
    Ok(Fen::from_position(&chess, shakmaty::EnPassantMode::Legal).to_string())
}

pub fn position_from_fen(fen: &str, chess960: bool) -> Result<Chess, String> {
    let parsed: Fen = fen.parse().map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    parsed
        .into_position(castling_mode(chess960))
        .map_err(|e| format!("illegal position '{fen}': {e}"))
}

/// Collects the main line of each PGN game as (start FEN, SAN moves).
struct MainLine {
    chess960: bool,
}

struct GameTags {
    fen: Option<String>,
}

impl Visitor for MainLine {
    type Tags = GameTags;
    type Movetext = (Chess, String, Vec<String>, Option<String>);
    type Output = Result<Opening, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(GameTags { fen: None })
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            tags.fen = Some(value.decode_utf8_lossy().to_string());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let start = match tags.fen {
            Some(fen) => match position_from_fen(&fen, self.chess960) {
                Ok(chess) => chess,
                Err(e) => return ControlFlow::Break(Err(e)),
            },
            None => Chess::default(),
        };
        let fen = Fen::from_position(&start, shakmaty::EnPassantMode::Legal).to_string();
        ControlFlow::Continue((start, fen, Vec::new(), None))
    }

    fn san(
        &mut self,
        movetext: &mut Self::Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Self::Output> {
        let (chess, _, moves, error) = movetext;
        if error.is_some() {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(chess) {
            Ok(m) => {
                moves.push(UciMove::from_move(m, castling_mode(self.chess960)).to_string());
                chess.play_unchecked(m);
            }
            Err(_) => *error = Some(format!("illegal move {san_plus} in PGN book")),
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
    ) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        let (chess, fen, moves, error) = movetext;
        if let Some(e) = error {
            return Err(e);
        }
        if chess.is_game_over() {
            return Err("book line ends in a finished game".to_string());
        }
        Ok(Opening { fen, moves })
    }
}

/// Load a book. Lines or games that cannot be used are skipped and counted;
/// a book with no usable opening is an error.
pub fn load(
    path: &Path,
    format: BookFormat,
    chess960: bool,
    limit: Option<usize>,
) -> Result<(Vec<Opening>, usize), String> {
    let file = File::open(path).map_err(|e| format!("cannot open book {}: {e}", path.display()))?;
    let limit = limit.unwrap_or(usize::MAX);
    let mut openings = Vec::new();
    let mut skipped = 0;
    match format {
        BookFormat::Epd => {
            for line in BufReader::new(file).lines() {
                if openings.len() >= limit {
                    break;
                }
                let line = line.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                match parse_epd_line(line, chess960) {
                    Ok(fen) => openings.push(Opening {
                        fen,
                        moves: Vec::new(),
                    }),
                    Err(_) => skipped += 1,
                }
            }
        }
        BookFormat::Pgn => {
            let mut reader = Reader::new(BufReader::new(file));
            let mut visitor = MainLine { chess960 };
            while openings.len() < limit {
                match reader.read_game(&mut visitor) {
                    Ok(Some(Ok(opening))) => openings.push(opening),
                    Ok(Some(Err(_))) => skipped += 1,
                    Ok(None) => break,
                    Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
                }
            }
        }
    }
    if openings.is_empty() {
        return Err(format!("no usable opening in {}", path.display()));
    }
    Ok((openings, skipped))
}

/// The order in which book entries are used: `count` indices into a book
/// of `len` entries, wrapping around when the book is shorter.
pub fn sequence(len: usize, count: usize, order: Order) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..len).collect();
    if let Order::Random { seed } = order {
        SplitMix64::new(seed).shuffle_unbiased(&mut indices);
    }
    (0..count).map(|k| indices[k % len]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_scratch::ScratchDir;

    #[test]
    fn epd_lines_with_and_without_counters() {
        let a = parse_epd_line(
            "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ d6",
            false,
        )
        .unwrap();
        // d6 is not a legal en passant square for White here, so it is dropped.
        assert_eq!(
            a,
            "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 1"
        );
        let b = parse_epd_line(
            "8/8/8/4k3/8/8/3QK3/8 b - - hmvc 7; fmvn 40; id \"x\";",
            false,
        )
        .unwrap();
        assert_eq!(b, "8/8/8/4k3/8/8/3QK3/8 b - - 7 40");
        assert!(parse_epd_line("8/8/8/8 w", false).is_err());
        assert!(parse_epd_line("8/8/8/8/8/8/8/8 w - -", false).is_err());
    }

    #[test]
    fn pgn_main_line_skips_variations() {
        let dir = ScratchDir::new("openings-pgn-book");
        let path = dir.join("book.pgn");
        std::fs::write(
            &path,
            "[Event \"a\"]\n\n1. e4 (1. d4 d5) e5 2. Nf3 {c} Nc6 3. Bc4 Nf6 4. O-O *\n\n\
             [Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n\n\
             [Event \"c\"]\n\n1. e5 *\n",
        )
        .unwrap();
        let (book, skipped) = load(&path, BookFormat::Pgn, false, None).unwrap();
        assert_eq!(skipped, 1);
        assert_eq!(book.len(), 2);
        assert_eq!(
            book[0].moves,
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"]
        );
        assert_eq!(book[1].fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(book[1].moves, ["e2e4", "e8d7"]);
    }

    #[test]
    fn random_order_is_a_seeded_permutation() {
        let a = sequence(10, 10, Order::Random { seed: 1 });
        let b = sequence(10, 10, Order::Random { seed: 1 });
        let c = sequence(10, 10, Order::Random { seed: 2 });
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        assert_eq!(sequence(3, 5, Order::Sequential), [0, 1, 2, 0, 1]);
    }
}
