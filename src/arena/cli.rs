//! The `tarpon arena` command line, in the cutechess-cli/fastchess style:
//! each option takes `key=value` tokens. This module turns them into a
//! checked [`MatchPlan`]; nothing here starts a process.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ArgAction;

use super::adjudication::{DrawRule, ResignRule};
use super::clock::{DEFAULT_HANG_TIMEOUT, DEFAULT_MARGIN_MS, TimeControl};
use super::engine::{EngineConfig, Protocol};
use super::openings::{self, BookFormat, Opening, Order};
use super::stats::{EloModel, Sprt};

/// Play matches between engines (UCI or xboard) with tarpon's own referee.
///
/// Example: tarpon arena --engine tarpon:pst --engine cmd=/usr/games/toga2 name=Toga
/// --each tc=5+0.05 --openings file=arena/openings/uho.epd order=random seed=1
/// --games 2 --rounds 50 --pgn out.pgn
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// An engine: `cmd=PATH [name=NAME] [proto=uci|xboard] [args="..."] [dir=DIR]
    /// [option.NAME=VALUE ...] [tc=...|st=...|nodes=N|depth=N] [timemargin=MS]
    /// [timeout=S]`, or a shortcut `tarpon:pst`, `tarpon:nnue`, `tarpon:nnue=NET`,
    /// `tarpon:PATH` (another tarpon binary), optionally followed by more keys.
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append, required = true)]
    pub engine: Vec<String>,
    /// Keys applied to every engine (an engine's own keys win), e.g. `tc=5+0.05`.
    /// Time controls: tc=BASE+INC, tc=MOVES/BASE[+INC], tc=inf, st=SECONDS per move,
    /// nodes=N, depth=N; timemargin=MS tolerance on the clock (default 100);
    /// timeout=S longest wait for a move without a clock (default 60).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,
    /// Opening book: `file=PATH [format=epd|pgn] [order=sequential|random] [seed=N]
    /// [limit=N]`. Each opening is played twice, colours swapped.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub openings: Vec<String>,
    /// Games per pairing in each round (default 2: one opening, both colours).
    #[arg(long, default_value_t = 2)]
    pub games: u64,
    /// Rounds; games per pairing = games × rounds.
    #[arg(long, default_value_t = 1)]
    pub rounds: u64,
    /// Games played at the same time (each engine uses its own process).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Append finished games to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Write the final table and the exact command as Markdown to this file.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Stop early: `elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=logistic|normalized]`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Vec<String>,
    /// Draw adjudication: `movenumber=N movecount=M score=CP`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub draw: Vec<String>,
    /// Resign adjudication: `movecount=M score=CP [twosided=true|false]`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub resign: Vec<String>,
    /// Adjudicate by Syzygy tablebases in these directories (`:`-separated).
    #[arg(long, value_name = "PATH")]
    pub tb: Option<String>,
    /// The first engine plays every other engine (the default is round-robin).
    #[arg(long, conflicts_with = "round_robin")]
    pub gauntlet: bool,
    /// Every engine plays every other engine (the default).
    #[arg(long)]
    pub round_robin: bool,
    /// `standard` or `fischerandom` (Chess960: engines get UCI_Chess960).
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// The PGN Event tag.
    #[arg(long, default_value = "tarpon arena")]
    pub event: String,
    /// Echo every line sent to and received from the engines on stderr.
    #[arg(long)]
    pub debug: bool,
    /// Exit with status 1 if any engine crashed, stalled, lost on time, broke
    /// the rules or printed an `info string error` line (a CI gate).
    #[arg(long)]
    pub fail_on_faults: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    RoundRobin,
    Gauntlet,
}

pub struct MatchPlan {
    pub engines: Vec<EngineConfig>,
    /// Time control of each engine (resolved from --each and --engine).
    pub time_controls: Vec<TimeControl>,
    pub openings: Vec<Opening>,
    pub book_name: String,
    /// Which opening each game pair uses.
    pub opening_sequence: Vec<usize>,
    pub games_per_pairing: u64,
    pub concurrency: usize,
    pub pgn: Option<PathBuf>,
    pub report: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub tb: Option<String>,
    pub schedule: Schedule,
    pub chess960: bool,
    pub event: String,
    pub fail_on_faults: bool,
}

/// The `--engine` tokens grouped per engine. clap (without its unstable
/// `Vec<Vec<_>>` support) hands them over flattened, so the groups are read
/// again from the raw command line, split the way clap splits them: each
/// `--engine` takes the words up to the next word starting with `--`.
pub fn group_engine_tokens(
    raw: &[String],
    flattened: &[String],
) -> Result<Vec<Vec<String>>, String> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut in_engine = false;
    for word in raw {
        if word == "--engine" {
            groups.push(Vec::new());
            in_engine = true;
        } else if let Some(first) = word.strip_prefix("--engine=") {
            groups.push(vec![first.to_string()]);
            in_engine = true;
        } else if word.starts_with("--") {
            in_engine = false;
        } else if in_engine && let Some(group) = groups.last_mut() {
            group.push(word.clone());
        }
    }
    let regrouped: Vec<String> = groups.concat();
    if regrouped != flattened || groups.iter().any(Vec::is_empty) {
        return Err("cannot tell the --engine groups apart on this command line".to_string());
    }
    Ok(groups)
}

/// Split `key=value` tokens; a token without `=` is an error.
fn key_values(tokens: &[String], what: &str) -> Result<Vec<(String, String)>, String> {
    tokens
        .iter()
        .map(|t| match t.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(format!("{what}: expected key=value, got '{t}'")),
        })
        .collect()
}

fn number<T: std::str::FromStr>(key: &str, value: &str, what: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{what}: bad value for {key}: '{value}'"))
}

/// A fresh engine configuration before any key is applied.
fn blank_engine(debug: bool) -> EngineConfig {
    EngineConfig {
        name: String::new(),
        cmd: String::new(),
        args: Vec::new(),
        dir: None,
        protocol: Protocol::Uci,
        options: Vec::new(),
        tc: None,
        margin_ms: DEFAULT_MARGIN_MS,
        hang_timeout: DEFAULT_HANG_TIMEOUT,
        debug,
    }
}

fn set_option(config: &mut EngineConfig, name: &str, value: &str) {
    config.options.retain(|(n, _)| n != name);
    config.options.push((name.to_string(), value.to_string()));
}

/// `tarpon:pst`, `tarpon:nnue`, `tarpon:nnue=NET`, `tarpon:PATH`.
fn apply_shortcut(config: &mut EngineConfig, spec: &str) -> Result<(), String> {
    let exe = || {
        std::env::current_exe()
            .map(|p| p.display().to_string())
            .map_err(|e| format!("cannot find the tarpon executable: {e}"))
    };
    match spec {
        "nnue" if crate::eval::nnue::Network::embedded_default().is_none() => {
            return Err(
                "tarpon:nnue: this build embeds no default net (nets/default.nnue); \
                 name one with tarpon:nnue=NET"
                    .to_string(),
            );
        }
        "pst" | "nnue" => {
            config.cmd = exe()?;
            config.name = format!("tarpon-{spec}");
            set_option(config, "Eval", spec);
        }
        _ if spec.starts_with("nnue=") => {
            let net = &spec["nnue=".len()..];
            // The engine would fall back to another evaluator with only an
            // `info string`, so a bad net must stop the match here instead.
            crate::eval::nnue::Network::load(net).map_err(|e| format!("tarpon:nnue={net}: {e}"))?;
            // Absolute, so an engine started in another `dir=` finds it too.
            let absolute =
                std::fs::canonicalize(net).map_err(|e| format!("tarpon:nnue={net}: {e}"))?;
            config.cmd = exe()?;
            config.name = format!(
                "tarpon-{}",
                Path::new(net)
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_else(|| "nnue".to_string())
            );
            set_option(config, "Eval", "nnue");
            set_option(config, "EvalFile", &absolute.display().to_string());
        }
        "" => return Err("empty tarpon: shortcut".to_string()),
        path => {
            config.cmd = path.to_string();
            config.name = Path::new(path)
                .file_name()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| path.to_string());
        }
    }
    config.protocol = Protocol::Uci;
    Ok(())
}

/// Apply one engine key to `config`; time-control keys go to `tc`.
fn apply_engine_key(config: &mut EngineConfig, key: &str, value: &str) -> Result<(), String> {
    let what = "--engine";
    match key {
        "cmd" => config.cmd = value.to_string(),
        "name" => config.name = value.to_string(),
        "args" => config.args = value.split_whitespace().map(str::to_string).collect(),
        "dir" => config.dir = Some(PathBuf::from(value)),
        "proto" => {
            config.protocol = match value {
                "uci" => Protocol::Uci,
                "xboard" | "cecp" => Protocol::Xboard,
                _ => {
                    return Err(format!(
                        "{what}: proto must be uci or xboard, not '{value}'"
                    ));
                }
            }
        }
        "tc" => config.tc = Some(TimeControl::parse_tc(value)?),
        "st" => config.tc = Some(TimeControl::movetime(value)?),
        "nodes" => config.tc = Some(TimeControl::Nodes(number(key, value, what)?)),
        "depth" => config.tc = Some(TimeControl::Depth(number(key, value, what)?)),
        "timemargin" => config.margin_ms = number(key, value, what)?,
        "timeout" => {
            let secs: f64 = number(key, value, what)?;
            if !(secs > 0.0 && secs < 1e6) {
                return Err(format!("{what}: timeout must be positive seconds"));
            }
            config.hang_timeout = Duration::from_secs_f64(secs);
        }
        _ => match key.strip_prefix("option.") {
            Some(name) if !name.is_empty() => set_option(config, name, value),
            _ => return Err(format!("{what}: unknown key '{key}'")),
        },
    }
    Ok(())
}

pub fn engine_config(
    each: &[String],
    tokens: &[String],
    debug: bool,
) -> Result<EngineConfig, String> {
    let mut config = blank_engine(debug);
    for token in each.iter().chain(tokens) {
        if let Some(spec) = token.strip_prefix("tarpon:") {
            apply_shortcut(&mut config, spec)?;
            continue;
        }
        let pairs = key_values(std::slice::from_ref(token), "--engine")?;
        let (key, value) = &pairs[0];
        apply_engine_key(&mut config, key, value)?;
    }
    if config.cmd.is_empty() {
        return Err(format!("--engine {}: no cmd= given", tokens.join(" ")));
    }
    if config.name.is_empty() {
        config.name = Path::new(&config.cmd)
            .file_name()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| config.cmd.clone());
    }
    Ok(config)
}

fn parse_sprt(tokens: &[String]) -> Result<Option<Sprt>, String> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    };
    for (key, value) in key_values(tokens, "--sprt")? {
        match key.as_str() {
            "elo0" => sprt.elo0 = number(&key, &value, "--sprt")?,
            "elo1" => sprt.elo1 = number(&key, &value, "--sprt")?,
            "alpha" => sprt.alpha = number(&key, &value, "--sprt")?,
            "beta" => sprt.beta = number(&key, &value, "--sprt")?,
            "model" => {
                sprt.model = match value.as_str() {
                    "logistic" => EloModel::Logistic,
                    "normalized" => EloModel::Normalized,
                    _ => {
                        return Err(format!(
                            "--sprt: model must be logistic or normalized, not '{value}'"
                        ));
                    }
                }
            }
            _ => return Err(format!("--sprt: unknown key '{key}'")),
        }
    }
    let probability = |p: f64| p > 0.0 && p < 0.5;
    if !(sprt.elo0.is_finite() && sprt.elo1.is_finite() && sprt.elo1 > sprt.elo0) {
        return Err("--sprt: needs elo0 < elo1".to_string());
    }
    if !(probability(sprt.alpha) && probability(sprt.beta)) {
        return Err("--sprt: alpha and beta must be in (0, 0.5)".to_string());
    }
    Ok(Some(sprt))
}

fn parse_draw(tokens: &[String]) -> Result<Option<DrawRule>, String> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut rule = DrawRule {
        move_number: 0,
        move_count: 0,
        score: 0,
    };
    for (key, value) in key_values(tokens, "--draw")? {
        match key.as_str() {
            "movenumber" => rule.move_number = number(&key, &value, "--draw")?,
            "movecount" => rule.move_count = number(&key, &value, "--draw")?,
            "score" => rule.score = number(&key, &value, "--draw")?,
            _ => return Err(format!("--draw: unknown key '{key}'")),
        }
    }
    if rule.move_count == 0 || rule.score < 0 {
        return Err("--draw: needs movecount >= 1 and score >= 0".to_string());
    }
    Ok(Some(rule))
}

fn parse_resign(tokens: &[String]) -> Result<Option<ResignRule>, String> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut rule = ResignRule {
        move_count: 0,
        score: 0,
        two_sided: false,
    };
    for (key, value) in key_values(tokens, "--resign")? {
        match key.as_str() {
            "movecount" => rule.move_count = number(&key, &value, "--resign")?,
            "score" => rule.score = number(&key, &value, "--resign")?,
            "twosided" => rule.two_sided = number(&key, &value, "--resign")?,
            _ => return Err(format!("--resign: unknown key '{key}'")),
        }
    }
    if rule.move_count == 0 || rule.score <= 0 {
        return Err("--resign: needs movecount >= 1 and score > 0".to_string());
    }
    Ok(Some(rule))
}

/// The book and the order its openings are used in; the standard start
/// position when no book is given.
fn parse_openings(
    tokens: &[String],
    chess960: bool,
    pairs_needed: usize,
) -> Result<(Vec<Opening>, String, Vec<usize>), String> {
    if tokens.is_empty() {
        if chess960 {
            return Err(
                "--variant fischerandom needs --openings with Chess960 positions".to_string(),
            );
        }
        let start = Opening {
            fen: super::game::STANDARD_FEN.to_string(),
            moves: Vec::new(),
        };
        return Ok((
            vec![start],
            "start position".to_string(),
            vec![0; pairs_needed],
        ));
    }
    let mut file = None;
    let mut format = None;
    let mut random = false;
    let mut seed = 1u64;
    let mut limit = None;
    for (key, value) in key_values(tokens, "--openings")? {
        match key.as_str() {
            "file" => file = Some(PathBuf::from(value)),
            "format" => {
                format = Some(match value.as_str() {
                    "epd" => BookFormat::Epd,
                    "pgn" => BookFormat::Pgn,
                    _ => {
                        return Err(format!(
                            "--openings: format must be epd or pgn, not '{value}'"
                        ));
                    }
                })
            }
            "order" => {
                random = match value.as_str() {
                    "random" => true,
                    "sequential" => false,
                    _ => {
                        return Err(format!(
                            "--openings: order must be sequential or random, not '{value}'"
                        ));
                    }
                }
            }
            "seed" => seed = number(&key, &value, "--openings")?,
            "limit" => limit = Some(number(&key, &value, "--openings")?),
            _ => return Err(format!("--openings: unknown key '{key}'")),
        }
    }
    let file = file.ok_or("--openings: file= is required")?;
    let format = match format {
        Some(f) => f,
        None if file.extension().is_some_and(|e| e == "pgn") => BookFormat::Pgn,
        None => BookFormat::Epd,
    };
    let (book, skipped) = openings::load(&file, format, chess960, limit)?;
    if skipped > 0 {
        eprintln!(
            "note: skipped {skipped} unusable entries in {}",
            file.display()
        );
    }
    let order = if random {
        Order::Random { seed }
    } else {
        Order::Sequential
    };
    let sequence = openings::sequence(book.len(), pairs_needed, order);
    let name = file
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    Ok((book, name, sequence))
}

/// xboard has no node limit, and its `st` command takes whole seconds.
fn check_protocol_supports(engine: &EngineConfig, tc: &TimeControl) -> Result<(), String> {
    if engine.protocol != Protocol::Xboard {
        return Ok(());
    }
    match tc {
        TimeControl::Nodes(_) => Err(format!(
            "engine {}: xboard engines cannot play a fixed node count",
            engine.name
        )),
        TimeControl::MoveTime { ms } if !ms.is_multiple_of(1000) => Err(format!(
            "engine {}: xboard's st takes whole seconds",
            engine.name
        )),
        _ => Ok(()),
    }
}

impl MatchPlan {
    /// `raw` is the whole command line, to group the `--engine` tokens.
    pub fn from_args(args: &Args, raw: &[String]) -> Result<MatchPlan, String> {
        let engines = group_engine_tokens(raw, &args.engine)?
            .iter()
            .map(|tokens| engine_config(&args.each, tokens, args.debug))
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err("a match needs at least two --engine".to_string());
        }
        let mut names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
        names.sort();
        if names.windows(2).any(|w| w[0] == w[1]) {
            return Err("engine names must differ: give name= to tell them apart".to_string());
        }
        let time_controls = engines
            .iter()
            .map(|e| {
                e.tc.clone().ok_or_else(|| {
                    format!(
                        "engine {}: no time control (tc=, st=, nodes= or depth=)",
                        e.name
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        for (engine, tc) in engines.iter().zip(&time_controls) {
            check_protocol_supports(engine, tc)?;
        }
        let chess960 = match args.variant.as_str() {
            "standard" => false,
            "fischerandom" | "chess960" => true,
            v => {
                return Err(format!(
                    "--variant must be standard or fischerandom, not '{v}'"
                ));
            }
        };
        if args.games == 0 || args.rounds == 0 {
            return Err("--games and --rounds must be at least 1".to_string());
        }
        let games_per_pairing = args
            .games
            .checked_mul(args.rounds)
            .filter(|&n| n <= 10_000_000)
            .ok_or("--games × --rounds is too large")?;
        if args.concurrency == 0 || args.concurrency > 256 {
            return Err("--concurrency must be between 1 and 256".to_string());
        }
        let pairs_needed = games_per_pairing.div_ceil(2) as usize;
        let (openings, book_name, opening_sequence) =
            parse_openings(&args.openings, chess960, pairs_needed)?;
        let sprt = parse_sprt(&args.sprt)?;
        if sprt.is_some() && engines.len() != 2 {
            return Err("--sprt needs exactly two engines".to_string());
        }
        Ok(MatchPlan {
            engines,
            time_controls,
            openings,
            book_name,
            opening_sequence,
            games_per_pairing,
            concurrency: args.concurrency,
            pgn: args.pgn.clone(),
            report: args.report.clone(),
            sprt,
            draw: parse_draw(&args.draw)?,
            resign: parse_resign(&args.resign)?,
            tb: args.tb.clone(),
            schedule: if args.gauntlet {
                Schedule::Gauntlet
            } else {
                Schedule::RoundRobin
            },
            chess960,
            event: args.event.clone(),
            fail_on_faults: args.fail_on_faults,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn engine_keys_and_each() {
        let each = tokens("tc=5+0.05 option.Hash=16");
        let e = engine_config(
            &each,
            &tokens("cmd=/usr/games/toga2 name=Toga option.Hash=64 proto=uci timemargin=50"),
            false,
        )
        .unwrap();
        assert_eq!(e.name, "Toga");
        assert_eq!(e.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(e.margin_ms, 50);
        assert_eq!(e.tc, Some(TimeControl::parse_tc("5+0.05").unwrap()));
        let f = engine_config(
            &[],
            &tokens("cmd=/usr/games/fairymax proto=xboard st=1"),
            false,
        )
        .unwrap();
        assert_eq!(f.name, "fairymax");
        assert_eq!(f.protocol, Protocol::Xboard);
        assert!(engine_config(&[], &tokens("name=x"), false).is_err());
        assert!(engine_config(&[], &tokens("cmd=x bogus=1"), false).is_err());
        assert!(engine_config(&[], &tokens("cmd=x proto=winboard"), false).is_err());
        assert!(engine_config(&[], &tokens("cmd=x nodes=-5"), false).is_err());
    }

    #[test]
    fn engine_groups_from_the_raw_command_line() {
        let raw = tokens(
            "tarpon arena --engine tarpon:pst name=a --each tc=1+0.1 --engine=cmd=x args=-v --games 2",
        );
        let flat = tokens("tarpon:pst name=a cmd=x args=-v");
        let groups = group_engine_tokens(&raw, &flat).unwrap();
        assert_eq!(
            groups,
            vec![tokens("tarpon:pst name=a"), tokens("cmd=x args=-v")]
        );
        assert!(group_engine_tokens(&raw, &tokens("tarpon:pst")).is_err());
    }

    #[test]
    fn xboard_limits_are_checked_up_front() {
        let xboard = engine_config(&[], &tokens("cmd=x proto=xboard"), false).unwrap();
        assert!(check_protocol_supports(&xboard, &TimeControl::Nodes(100)).is_err());
        assert!(check_protocol_supports(&xboard, &TimeControl::MoveTime { ms: 500 }).is_err());
        assert!(check_protocol_supports(&xboard, &TimeControl::MoveTime { ms: 2000 }).is_ok());
        let uci = engine_config(&[], &tokens("cmd=x"), false).unwrap();
        assert!(check_protocol_supports(&uci, &TimeControl::Nodes(100)).is_ok());
    }

    #[test]
    fn tarpon_shortcuts() {
        let e = engine_config(&[], &tokens("tarpon:pst"), false).unwrap();
        assert_eq!(e.name, "tarpon-pst");
        assert_eq!(e.options, vec![("Eval".to_string(), "pst".to_string())]);
        let n = engine_config(
            &[],
            &tokens("tarpon:nnue=nets/gen4-halfkp.nnue name=g1"),
            false,
        )
        .unwrap();
        assert_eq!(n.name, "g1");
        let net = std::fs::canonicalize("nets/gen4-halfkp.nnue").unwrap();
        assert!(
            n.options
                .contains(&("EvalFile".to_string(), net.display().to_string()))
        );
        // A net that cannot be loaded stops the match before it starts.
        let missing = engine_config(&[], &tokens("tarpon:nnue=nets/missing.nnue"), false);
        assert!(missing.unwrap_err().contains("nets/missing.nnue"));
        let not_a_net = engine_config(&[], &tokens("tarpon:nnue=Cargo.toml"), false);
        assert!(not_a_net.unwrap_err().contains("Cargo.toml"));
        let b = engine_config(&[], &tokens("tarpon:builds/old-tarpon"), false).unwrap();
        assert_eq!(
            (b.cmd.as_str(), b.name.as_str()),
            ("builds/old-tarpon", "old-tarpon")
        );
    }

    #[test]
    fn adjudication_and_sprt_options() {
        assert_eq!(
            parse_draw(&tokens("movenumber=40 movecount=8 score=10")).unwrap(),
            Some(DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            })
        );
        assert!(
            parse_resign(&tokens("movecount=3 score=600 twosided=true"))
                .unwrap()
                .unwrap()
                .two_sided
        );
        assert!(parse_resign(&tokens("movecount=3 score=600 twosided=maybe")).is_err());
        assert!(parse_sprt(&tokens("elo0=5 elo1=0")).is_err());
        let s = parse_sprt(&tokens("elo0=0 elo1=5 model=normalized"))
            .unwrap()
            .unwrap();
        assert_eq!(s.model, EloModel::Normalized);
    }
}
