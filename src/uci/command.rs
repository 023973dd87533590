//! Parsing one line of UCI input into a [`Command`].
//!
//! The parser is total: every input, however garbled, yields a `Command`
//! (unknown input becomes [`Command::Unknown`], a known command with bad
//! arguments [`Command::Invalid`] or a command with `warnings`). It never
//! panics and never allocates more than a small multiple of the line length,
//! which the fuzz test in `tests/uci_parser_fuzz.rs` checks on random input.

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    StartPos,
    Fen(String),
}

/// The arguments of `go`. Moves stay text here: only the engine, which knows
/// the position, can tell whether they are legal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub searchmoves: Vec<String>,
    pub ponder: bool,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub perft: Option<u32>,
    /// Arguments that were dropped (missing or non-numeric values, unknown
    /// words), one message each; the search still runs on the rest.
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        start: StartPosition,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// Stockfish's `d`: the board, FEN and key.
    Display,
    /// Stockfish's `eval`: the static evaluation of the current position.
    Eval,
    /// `bench [depth]`.
    Bench {
        depth: Option<u32>,
    },
    /// `help`: the commands the loop understands, one line each.
    Help,
    /// `scan [bottom white|black] [tomove w|b] PATH`: the position read from
    /// a picture of a board (`tarpon scan`), when the build has the reader.
    Scan(ScanRequest),
    /// A blank line: nothing to do.
    Empty,
    /// A known command with arguments that make no sense.
    Invalid {
        command: &'static str,
        reason: String,
    },
    /// A line whose first word is no command we know.
    Unknown(String),
}

/// What the `scan` command asks for: the picture and what the reader should
/// not guess (`None`: read from the position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanRequest {
    pub path: String,
    pub white_at_bottom: Option<bool>,
    pub white_to_move: Option<bool>,
}

/// What `help` prints: every command the loop understands, with one line
/// each (a test checks that each one parses as a known command).
pub const HELP: &[(&str, &str)] = &[
    (
        "uci",
        "identify the engine and list its options; answered by uciok",
    ),
    (
        "isready",
        "answered by readyok once the engine can take commands",
    ),
    (
        "setoption name <id> [value <x>]",
        "set an option listed by 'uci'",
    ),
    (
        "ucinewgame",
        "forget the game: clear the hash table and histories",
    ),
    (
        "position startpos|fen <fen> [moves <m1> ...]",
        "set the position to search",
    ),
    (
        "go [depth|nodes|movetime|mate|wtime|btime|winc|binc|movestogo <n>] [infinite] [ponder] [searchmoves <m> ...]",
        "search; ends with bestmove",
    ),
    (
        "go perft <depth>",
        "count the leaf nodes of the move tree, move by move",
    ),
    ("stop", "end the search now; bestmove follows"),
    (
        "ponderhit",
        "the opponent played the move pondered on: the search goes on in earnest",
    ),
    ("debug on|off", "report each search's limits as info string"),
    ("d", "draw the board, with its FEN and key"),
    (
        "eval",
        "the static evaluation of the position (NNUE and PST)",
    ),
    (
        "bench [depth]",
        "search the bench positions: node count signature and speed",
    ),
    (
        "scan [bottom white|black] [tomove w|b] <picture>",
        "set the position read from a picture of a board (PNG or JPEG)",
    ),
    ("help", "this list"),
    ("quit", "stop any search and exit"),
];

/// The keywords that end one `go` argument's list of values.
pub const GO_KEYWORDS: [&str; 14] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "searchmove",
];

/// Longest input echoed back in a message, so a megabyte of garbage does not
/// come back as a megabyte of `info string`.
const ECHO_LIMIT: usize = 80;

/// Parses one line of UCI input.
pub fn parse(line: &str) -> Command {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    // Some GUIs and users prefix commands with stray words; like Stockfish we
    // look only at the first token for the command.
    let Some((&first, rest)) = tokens.split_first() else {
        return Command::Empty;
    };
    match first {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "help" => Command::Help,
        "debug" => match rest.first() {
            Some(&"on") => Command::Debug(true),
            Some(&"off") => Command::Debug(false),
            _ => invalid("debug", "expected 'debug on' or 'debug off'"),
        },
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "scan" => parse_scan(rest),
        "go" => Command::Go(parse_go(rest)),
        "bench" => match rest.first() {
            None => Command::Bench { depth: None },
            Some(t) => match t.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => Command::Bench { depth: Some(d) },
                _ => invalid("bench", format!("depth '{}' is not 1..64", echo(t))),
            },
        },
        other => Command::Unknown(echo(other)),
    }
}

/// `scan [bottom white|black] [tomove w|b] PATH`: the words after the
/// options are the path (a path with spaces keeps single spaces).
fn parse_scan(mut rest: &[&str]) -> Command {
    let mut request = ScanRequest {
        path: String::new(),
        white_at_bottom: None,
        white_to_move: None,
    };
    loop {
        match rest {
            ["bottom", side, more @ ..] => {
                request.white_at_bottom = match *side {
                    "white" => Some(true),
                    "black" => Some(false),
                    "auto" => None,
                    other => {
                        return invalid(
                            "scan",
                            format!("bottom '{}': expected white, black or auto", echo(other)),
                        );
                    }
                };
                rest = more;
            }
            ["tomove", side, more @ ..] => {
                request.white_to_move = match *side {
                    "w" | "white" => Some(true),
                    "b" | "black" => Some(false),
                    other => {
                        return invalid(
                            "scan",
                            format!("tomove '{}': expected w or b", echo(other)),
                        );
                    }
                };
                rest = more;
            }
            [] => {
                return invalid(
                    "scan",
                    "expected 'scan [bottom white|black] [tomove w|b] <picture>'",
                );
            }
            _ => break,
        }
    }
    request.path = rest.join(" ");
    Command::Scan(request)
}

fn invalid(command: &'static str, reason: impl Into<String>) -> Command {
    Command::Invalid {
        command,
        reason: reason.into(),
    }
}

/// Shortens a piece of input for an error message, on a char boundary.
fn echo(text: &str) -> String {
    match text.char_indices().nth(ECHO_LIMIT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// `setoption name <words...> [value <words...>]`. Names and values may hold
/// spaces; runs of whitespace inside them collapse to one space.
fn parse_setoption(rest: &[&str]) -> Command {
    if rest.first() != Some(&"name") {
        return invalid("setoption", "expected 'setoption name <id> [value <x>]'");
    }
    let rest = &rest[1..];
    let (name, value) = match rest.iter().position(|t| *t == "value") {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return invalid("setoption", "the option name is missing");
    }
    Command::SetOption {
        name: name.join(" "),
        value,
    }
}

/// `position startpos|fen <fen> [moves <m1> ...]`. The FEN is everything
/// between `fen` and `moves`, so FENs without move counters work too.
fn parse_position(rest: &[&str]) -> Command {
    let moves_at = rest.iter().position(|t| *t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &rest[rest.len()..]),
    };
    let start = match head.split_first() {
        Some((&"startpos", [])) => StartPosition::StartPos,
        Some((&"startpos", extra)) => {
            return invalid(
                "position",
                format!("unexpected '{}' after startpos", echo(&extra.join(" "))),
            );
        }
        Some((&"fen", fen)) if !fen.is_empty() => StartPosition::Fen(fen.join(" ")),
        Some((&"fen", _)) => return invalid("position", "the FEN is missing"),
        _ => {
            return invalid(
                "position",
                "expected 'position startpos|fen <fen> [moves ...]'",
            );
        }
    };
    Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

fn parse_go(tokens: &[&str]) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let word = tokens[i];
        i += 1;
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" | "searchmove" => {
                while i < tokens.len() && !GO_KEYWORDS.contains(&tokens[i]) {
                    go.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
            }
            "wtime" => go.wtime = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "btime" => go.btime = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "winc" => go.winc = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "binc" => go.binc = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "movestogo" => go.movestogo = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "depth" => go.depth = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "nodes" => go.nodes = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "mate" => go.mate = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "movetime" => go.movetime = number(word, tokens.get(i), &mut i, &mut go.warnings),
            "perft" => go.perft = number(word, tokens.get(i), &mut i, &mut go.warnings),
            other => go
                .warnings
                .push(format!("go: ignored unknown argument '{}'", echo(other))),
        }
    }
    go
}

/// Reads the value after a `go` keyword. A missing or malformed value is
/// dropped with a warning; a value that is a keyword is left for the loop.
fn number<T: std::str::FromStr>(
    keyword: &str,
    next: Option<&&str>,
    i: &mut usize,
    warnings: &mut Vec<String>,
) -> Option<T> {
    match next {
        Some(text) if !GO_KEYWORDS.contains(text) => {
            *i += 1;
            match text.parse::<T>() {
                Ok(v) => Some(v),
                Err(_) => {
                    warnings.push(format!(
                        "go: ignored {keyword} '{}' (not a valid number)",
                        echo(text)
                    ));
                    None
                }
            }
        }
        _ => {
            warnings.push(format!("go: ignored {keyword} without a value"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_only_commands_the_parser_knows_and_all_the_usual_ones() {
        let words: Vec<&str> = HELP
            .iter()
            .map(|(usage, _)| usage.split_whitespace().next().unwrap_or(""))
            .collect();
        for word in &words {
            assert!(
                !matches!(parse(word), Command::Unknown(_) | Command::Empty),
                "help lists '{word}', which the parser does not know"
            );
        }
        for needed in [
            "uci",
            "isready",
            "setoption",
            "ucinewgame",
            "position",
            "go",
            "stop",
            "ponderhit",
            "debug",
            "d",
            "eval",
            "bench",
            "help",
            "quit",
        ] {
            assert!(words.contains(&needed), "help does not list '{needed}'");
        }
        assert!(HELP.iter().any(|(usage, _)| usage.starts_with("go perft")));
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Command::Uci);
        assert_eq!(parse("  isready  \r"), Command::IsReady);
        assert_eq!(parse(""), Command::Empty);
        assert_eq!(parse("\t "), Command::Empty);
        assert_eq!(parse("debug on"), Command::Debug(true));
        assert!(matches!(parse("debug"), Command::Invalid { .. }));
        assert_eq!(
            parse("frobnicate now"),
            Command::Unknown("frobnicate".into())
        );
    }

    #[test]
    fn setoption_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption name SyzygyPath value /a b/c:/d"),
            Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some("/a b/c:/d".into())
            }
        );
        assert_eq!(
            parse("setoption name EvalFile value"),
            Command::SetOption {
                name: "EvalFile".into(),
                value: Some(String::new())
            }
        );
        assert!(matches!(
            parse("setoption value 3"),
            Command::Invalid { .. }
        ));
        assert!(matches!(
            parse("setoption name value 3"),
            Command::Invalid { .. }
        ));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K1k5 w - -"),
            Command::Position {
                start: StartPosition::Fen("8/8/8/8/8/8/8/K1k5 w - -".into()),
                moves: vec![]
            }
        );
        assert!(matches!(parse("position"), Command::Invalid { .. }));
        assert!(matches!(parse("position fen"), Command::Invalid { .. }));
        assert!(matches!(
            parse("position fen moves e2e4"),
            Command::Invalid { .. }
        ));
        assert!(matches!(
            parse("position startpos e2e4"),
            Command::Invalid { .. }
        ));
    }

    #[test]
    fn go_arguments() {
        let Command::Go(go) = parse(
            "go wtime 1000 btime -50 winc 10 binc 10 movestogo 5 searchmoves e2e4 d2d4 ponder",
        ) else {
            panic!("not a go");
        };
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, Some(-50));
        assert_eq!(go.movestogo, Some(5));
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(go.ponder);
        assert!(go.warnings.is_empty());

        let Command::Go(go) = parse("go depth x wtime movetime 50 nodes 1e6 infinite bogus") else {
            panic!("not a go");
        };
        assert_eq!(go.depth, None);
        assert_eq!(go.wtime, None);
        assert_eq!(go.movetime, Some(50));
        assert_eq!(go.nodes, None);
        assert!(go.infinite);
        assert_eq!(go.warnings.len(), 4, "{:?}", go.warnings);
    }

    #[test]
    fn long_garbage_is_echoed_short() {
        let line = "x".repeat(10_000);
        let Command::Unknown(echoed) = parse(&line) else {
            panic!("not unknown");
        };
        assert!(echoed.len() < 100);
        // Multi-byte characters are cut on a boundary.
        let line = "é".repeat(1000);
        assert!(matches!(parse(&line), Command::Unknown(_)));
    }
}
