//! Property test of the UCI command parser: about 100k random inputs (token
//! soups built from the protocol's own words, numbers at the edges of their
//! types, and raw byte garbage) must each parse without a panic, and the
//! parse must be deterministic and keep its echoes short.
//!
//! The generator is seeded, so a failure is reproducible: the assertion
//! message names the seed and the input.

use tarpon::rng::SplitMix64;
use tarpon::uci::command::{Command, GO_KEYWORDS, parse};

/// Protocol words besides `go`'s keywords, edge numbers, odd characters.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "setoption",
    "name",
    "value",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "debug",
    "on",
    "off",
    "Hash",
    "Threads",
    "Clear",
    "Move",
    "Overhead",
    "e2e4",
    "e7e5",
    "e1g1",
    "a7a8q",
    "0000",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "0",
    "1",
    "-1",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "4294967295",
    "1e9",
    "NaN",
    "<empty>",
    "é",
    "\u{0}",
    "\t",
    "\r",
];

fn random_word(rng: &mut SplitMix64) -> &'static str {
    let n = (WORDS.len() + GO_KEYWORDS.len()) as u64;
    let i = (rng.next_u64() % n) as usize;
    WORDS
        .get(i)
        .copied()
        .unwrap_or_else(|| GO_KEYWORDS[i - WORDS.len()])
}

fn token_soup(rng: &mut SplitMix64) -> String {
    let n = rng.next_u64() % 24;
    let mut line = String::new();
    for _ in 0..n {
        let word = random_word(rng);
        line.push_str(word);
        // Mostly single spaces, sometimes none or odd whitespace.
        line.push_str([" ", " ", " ", "  ", "\t", ""][(rng.next_u64() % 6) as usize]);
    }
    line
}

fn byte_garbage(rng: &mut SplitMix64) -> String {
    let n = (rng.next_u64() % 200) as usize;
    let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
    // The reader thread decodes stdin lossily, so the parser sees exactly this.
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A valid command with one byte flipped or one token cut short.
fn mutated_command(rng: &mut SplitMix64) -> String {
    let base = [
        "position startpos moves e2e4 e7e5 g1f3",
        "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves e7e5",
        "go wtime 300000 btime 300000 winc 2000 binc 2000 movestogo 40",
        "setoption name Move Overhead value 100",
        "go searchmoves e2e4 d2d4 depth 10 nodes 100000",
    ][(rng.next_u64() % 5) as usize];
    let mut bytes = base.as_bytes().to_vec();
    let at = (rng.next_u64() % bytes.len() as u64) as usize;
    if rng.next_u64().is_multiple_of(2) {
        bytes[at] = rng.next_u64() as u8;
    } else {
        bytes.truncate(at);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn parser_survives_100k_random_inputs() {
    let seed = 0x7a4b_2026;
    let mut rng = SplitMix64::new(seed);
    let mut kinds = [0usize; 3];
    for i in 0..100_000 {
        let kind = (rng.next_u64() % 3) as usize;
        kinds[kind] += 1;
        let input = match kind {
            0 => token_soup(&mut rng),
            1 => byte_garbage(&mut rng),
            _ => mutated_command(&mut rng),
        };
        let parsed = std::panic::catch_unwind(|| parse(&input))
            .unwrap_or_else(|_| panic!("seed {seed:#x} input #{i} panicked: {input:?}"));
        assert_eq!(
            parsed,
            parse(&input),
            "parse is not deterministic on {input:?}"
        );
        match &parsed {
            Command::Unknown(word) => assert!(word.chars().count() <= 83, "{input:?}"),
            Command::Invalid { reason, .. } => assert!(reason.len() < 400, "{input:?}"),
            Command::Go(go) => assert!(go.warnings.iter().all(|w| w.len() < 400), "{input:?}"),
            _ => {}
        }
    }
    // The generator really mixes the three kinds of input.
    assert!(kinds.iter().all(|&k| k > 30_000), "{kinds:?}");
}

#[test]
fn long_and_odd_lines_parse() {
    let long_moves = format!("position startpos moves {}", "e2e4 ".repeat(50_000));
    assert!(matches!(parse(&long_moves), Command::Position { moves, .. } if moves.len() == 50_000));
    for line in [
        "\u{feff}uci",
        "go \u{0}",
        "setoption name \u{200b} value x",
        "position fen \u{fffd}",
    ] {
        let _ = parse(line);
    }
}
