//! OpenBench's `genfens`: the openings of a datagen workload. The client runs
//! `tarpon "genfens N seed S book <None|FILE> [extra]" "quit"` and keeps every
//! line `info string genfens <FEN>`; fastchess then plays one game from each.
//!
//! Openings are drawn as `tarpon datagen` draws them ([`Openings`]: a book
//! line or the start position, then random plies), and an opening whose short
//! search scores it beyond `max_score` for either side is drawn again, so no
//! game starts decided. The seed fixes everything: searches run on one thread
//! with a cleared table and a node limit.
//!
//! `extra` holds `key value` pairs: `random_plies` (default 8), `max_score`
//! in centipawns (default 400) and `nodes` per check search (default 5000).

use std::path::PathBuf;
use std::process::ExitCode;

use super::openings::{MAX_RANDOM_PLIES, Openings};
use crate::eval::EvalChoice;
use crate::rng::SplitMix64;
use crate::search::{Limits, Score, SearchConfig, SearchControl, TranspositionTable, run_search};

/// Draws tried per requested opening before giving up (a book of lopsided
/// positions with a tight `max_score` could otherwise loop forever).
const TRIES_PER_OPENING: u64 = 100;
/// Table for the check searches, cleared before each.
const HASH_MB: usize = 2;

/// One `genfens` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenfensRequest {
    pub count: u64,
    pub seed: u64,
    /// `None`: the start position.
    pub book: Option<PathBuf>,
    pub random_plies: u32,
    /// Openings whose check search scores more than this (centipawns, either
    /// side) or finds a mate are rejected.
    pub max_score: i32,
    pub nodes: u64,
}

impl GenfensRequest {
    /// Parses `genfens N seed S book <None|FILE> [key value]...`.
    pub fn parse(command: &str) -> Result<GenfensRequest, String> {
        let mut tokens = command.split_whitespace();
        if tokens.next() != Some("genfens") {
            return Err(format!("not a genfens command: '{command}'"));
        }
        let count = tokens
            .next()
            .ok_or("genfens needs a count: genfens N seed S book <None|FILE>")?;
        let mut request = GenfensRequest {
            count: parse_number("N", count)?,
            seed: 0,
            book: None,
            random_plies: 8,
            max_score: 400,
            nodes: 5000,
        };
        let (mut seen_seed, mut seen_book) = (false, false);
        while let Some(key) = tokens.next() {
            let value = tokens
                .next()
                .ok_or_else(|| format!("genfens: '{key}' needs a value"))?;
            match key {
                "seed" => {
                    request.seed = parse_number(key, value)?;
                    seen_seed = true;
                }
                "book" => {
                    request.book = (!value.eq_ignore_ascii_case("none")).then(|| value.into());
                    seen_book = true;
                }
                "random_plies" => request.random_plies = parse_number(key, value)?,
                "max_score" => request.max_score = parse_number(key, value)?,
                "nodes" => request.nodes = parse_number(key, value)?,
                _ => {
                    return Err(format!(
                        "genfens: unknown option '{key}' (seed, book, random_plies, max_score, nodes)"
                    ));
                }
            }
        }
        if !seen_seed || !seen_book {
            return Err("genfens needs both 'seed S' and 'book <None|FILE>'".into());
        }
        if request.nodes == 0 || request.max_score < 0 {
            return Err("genfens: nodes must be positive and max_score not negative".into());
        }
        // Random play rarely ends a game, so a huge count would never return.
        if request.random_plies > MAX_RANDOM_PLIES {
            return Err(format!(
                "genfens: random_plies {} is more than {MAX_RANDOM_PLIES}",
                request.random_plies
            ));
        }
        Ok(request)
    }
}

fn parse_number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("genfens: '{key}' needs a non-negative integer, got '{value}'"))
}

/// Whether the check search finds the side to move neither mating nor mated
/// nor more than `max_score` ahead or behind.
fn balanced(score: Score, max_score: i32) -> bool {
    match score {
        Score::Cp(cp) => cp.abs() <= max_score,
        Score::Mate(_) => false,
    }
}

/// Sends the FEN of each of `request.count` openings to `out`, in order.
pub fn generate(request: &GenfensRequest, out: &mut dyn FnMut(&str)) -> Result<(), String> {
    let openings = Openings::load(request.book.as_deref())?;
    let mut rng = SplitMix64::new(request.seed);
    let config = SearchConfig {
        threads: 1,
        eval: EvalChoice::default(),
        ..SearchConfig::default()
    };
    let limits = Limits {
        nodes: Some(request.nodes),
        ..Limits::default()
    };
    let tt = TranspositionTable::new(HASH_MB);
    let control = SearchControl::new();
    let mut found = 0;
    let max_tries = request.count.saturating_mul(TRIES_PER_OPENING);
    let mut tries = 0;
    while found < request.count {
        if tries == max_tries {
            return Err(format!(
                "genfens: only {found} of {} openings within {} cp after {tries} draws",
                request.count, request.max_score
            ));
        }
        tries += 1;
        let pos = openings.draw(&mut rng, request.random_plies);
        tt.clear();
        let outcome = run_search(&pos, &limits, &config, &tt, &control, &mut |_| {});
        if outcome
            .lines
            .first()
            .is_some_and(|line| balanced(line.score, request.max_score))
        {
            out(&pos.fen());
            found += 1;
        }
    }
    Ok(())
}

/// The argument form OpenBench uses: each argument is one command, `genfens
/// ...` or `quit`. Openings go to stdout as `info string genfens <FEN>`;
/// a bad command stops with a message on stderr and a failure status.
pub fn run_commands(commands: &[String]) -> ExitCode {
    for command in commands {
        let command = command.trim();
        if command == "quit" {
            break;
        }
        let generated = GenfensRequest::parse(command).and_then(|request| {
            generate(&request, &mut |fen| println!("info string genfens {fen}"))
        });
        if let Err(e) = generated {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn request(count: u64, seed: u64) -> GenfensRequest {
        GenfensRequest::parse(&format!("genfens {count} seed {seed} book None nodes 500")).unwrap()
    }

    fn fens(request: &GenfensRequest) -> Vec<String> {
        let mut fens = Vec::new();
        generate(request, &mut |fen| fens.push(fen.to_string())).unwrap();
        fens
    }

    #[test]
    fn parses_openbench_commands_and_extras() {
        let r = GenfensRequest::parse("genfens 64 seed 123456 book None ").unwrap();
        assert_eq!((r.count, r.seed, r.book.clone()), (64, 123456, None));
        assert_eq!((r.random_plies, r.max_score, r.nodes), (8, 400, 5000));
        let r = GenfensRequest::parse(
            "genfens 2 seed 7 book Books/UHO_4060_v2.epd random_plies 4 max_score 150 nodes 900",
        )
        .unwrap();
        assert_eq!(r.book, Some(PathBuf::from("Books/UHO_4060_v2.epd")));
        assert_eq!((r.random_plies, r.max_score, r.nodes), (4, 150, 900));
    }

    #[test]
    fn bad_commands_are_refused_with_a_reason() {
        for (bad, reason) in [
            ("genfens", "needs a count"),
            (
                "genfens x seed 1 book None",
                "'N' needs a non-negative integer",
            ),
            ("genfens 4 seed 1", "needs both"),
            ("genfens 4 seed 1 book", "'book' needs a value"),
            ("genfens 4 seed -1 book None", "'seed' needs"),
            (
                "genfens 4 seed 1 book None plies 3",
                "unknown option 'plies'",
            ),
            (
                "genfens 4 seed 1 book None nodes 0",
                "nodes must be positive",
            ),
            ("go depth 3", "not a genfens command"),
        ] {
            let err = GenfensRequest::parse(bad).unwrap_err();
            assert!(err.contains(reason), "{bad}: {err}");
        }
        let mut r = request(1, 1);
        r.book = Some(PathBuf::from("tests/data/no-such-book.epd"));
        assert!(
            generate(&r, &mut |_| {})
                .unwrap_err()
                .contains("cannot read book")
        );
    }

    #[test]
    fn the_seed_fixes_exactly_n_legal_openings() {
        let first = fens(&request(6, 42));
        assert_eq!(first.len(), 6);
        assert_eq!(first, fens(&request(6, 42)), "same seed, same openings");
        assert_ne!(first, fens(&request(6, 43)), "another seed, other openings");
        for fen in &first {
            assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
            let pos = Position::from_fen(fen, false).expect("a legal position");
            assert!(!pos.legal_moves().is_empty(), "{fen} has no move");
            // Eight random plies from the start: white to move at move 5.
            let fields: Vec<&str> = fen.split_whitespace().collect();
            assert_eq!((fields[1], fields[5]), ("w", "5"), "{fen}");
        }
    }

    #[test]
    fn openings_beyond_the_score_limit_are_drawn_again() {
        // A book of one position, white a queen up: a limit of 300 cp
        // rejects every draw and fails cleanly, one of 3000 cp accepts it.
        let dir = crate::test_scratch::ScratchDir::new("genfens");
        let book = dir.join("lopsided.epd");
        let queen_up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        std::fs::write(&book, format!("{queen_up} hmvc 0; fmvn 1;\n")).unwrap();
        let mut r = request(2, 1);
        r.book = Some(book);
        r.random_plies = 0;
        r.max_score = 300;
        let err = generate(&r, &mut |_| {}).unwrap_err();
        assert!(err.contains("only 0 of 2 openings within 300 cp"), "{err}");
        r.max_score = 3000;
        assert_eq!(fens(&r), vec![format!("{queen_up} 0 1"); 2]);
        // The search decides: a mate is never balanced, a small edge is.
        assert!(!balanced(Score::Mate(3), 30000));
        assert!(balanced(Score::Cp(-120), 150));
        assert!(!balanced(Score::Cp(-151), 150));
    }
}
