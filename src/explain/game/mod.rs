//! `tarpon explain game`: a game annotated by the engine, move by move: the
//! evaluation before and after, the engine's best move, and a label by how
//! much winning probability the move gave away; written back as PGN with
//! standard NAGs and comments, plus a heat map of the contested squares.

pub mod heat;
pub mod pgn;
pub mod verdict;

use std::fmt::Write as _;

use clap::Args;
use shakmaty::Color;

use crate::eval::EvalChoice;
use crate::explain::evaluator::EvalOptions;
use crate::explain::json::Json;
use crate::explain::trace::search_view;
use crate::position::Position;
use crate::search::{Limits, Score};

/// Annotate the games of a PGN file with the engine's judgement of each move.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// The games to annotate (main lines; variations are ignored).
    #[arg(long)]
    pub pgn: std::path::PathBuf,
    /// Thinking time per position, milliseconds.
    #[arg(long, default_value_t = 200)]
    pub movetime: u64,
    /// Search each position to this depth instead (reproducible).
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    #[command(flatten)]
    pub eval: EvalOptions,
    /// Write the annotated PGN here instead of after the report.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Write the games, replayable with their evaluation graph, heat maps and
    /// annotations, as one self-contained HTML page (`-`: stdout).
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub html: Option<std::path::PathBuf>,
}

/// How a move is judged, from the win probability it lost against the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Label {
    /// Lichess's thresholds, in win probability (0..1): 5, 10 and 15 points.
    pub fn from_loss(loss: f64, played_best: bool) -> Label {
        match loss {
            _ if played_best => Label::Best,
            l if l >= 0.15 => Label::Blunder,
            l if l >= 0.10 => Label::Mistake,
            l if l >= 0.05 => Label::Inaccuracy,
            _ => Label::Good,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }

    /// The standard NAG: `?!` = 6, `?` = 2, `??` = 4.
    pub fn nag(self) -> Option<u8> {
        match self {
            Label::Inaccuracy => Some(6),
            Label::Mistake => Some(2),
            Label::Blunder => Some(4),
            Label::Best | Label::Good => None,
        }
    }
}

/// Win probability for the side the score belongs to.
pub fn win_probability(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => crate::explain::tree::mcts::win_probability(f64::from(cp)),
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

fn negate(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    }
}

/// A score as `[%eval]` writes it: pawns (or `#n`) from White's point of view.
fn eval_tag(white: Score) -> String {
    match white {
        Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// One annotated move.
#[derive(Clone, Debug)]
pub struct MoveReport {
    pub san: String,
    pub mover: Color,
    /// The engine's best move and its score, for the mover, before the move.
    pub best_san: String,
    pub before: Score,
    /// The mover's score after the move played.
    pub after: Score,
    pub loss: f64,
    pub label: Label,
}

/// How each position is searched.
#[derive(Clone, Debug)]
pub struct Engine {
    pub limits: Limits,
    pub eval: EvalChoice,
}

impl Engine {
    /// The verdict search's budget: the depth if one is set, else the time.
    fn budget(&self) -> verdict::Budget {
        match (self.limits.depth, self.limits.movetime_ms) {
            (Some(d), _) => verdict::Budget::Depth(d),
            (None, Some(ms)) => verdict::Budget::Millis(ms),
            (None, None) => verdict::Budget::Millis(200),
        }
    }
}

/// Annotates every move of `game` with the verdict `tarpon play` gives a
/// learner (`verdict::judge`: the played move re-searched from the same
/// root, the loss in winning chances).
pub fn annotate(
    game: &pgn::Game,
    engine: &Engine,
    heat: &mut [u32; 64],
) -> Result<Vec<MoveReport>, String> {
    let mut pos = game.start.clone();
    let mut reports = Vec::with_capacity(game.moves.len());
    for &m in &game.moves {
        heat::accumulate(heat, &pos);
        // One thread: a page made at a fixed depth reads the same every time.
        let v = verdict::judge(&pos, m, engine.budget(), engine.eval.clone(), 1)?;
        let best_san = v.best_line.first().map_or("-".to_string(), |&b| {
            search_view::san_line(&pos, &[b]).concat()
        });
        reports.push(MoveReport {
            san: search_view::san_line(&pos, &[m]).concat(),
            mover: pos.turn(),
            best_san,
            before: v.best_score,
            after: v.played_score,
            loss: v.loss / 100.0,
            label: v.label,
        });
        pos.make(m);
        pos.forget_undo();
    }
    heat::accumulate(heat, &pos);
    Ok(reports)
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("{cp:+}"),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// A White's-view score as the HTML page shows it: centipawns like the rest
/// of the page (PGN's `[%eval]` keeps pawns, its format's unit).
fn page_eval(white: Score) -> String {
    match white {
        Score::Cp(cp) => format!("{cp:+} cp"),
        Score::Mate(n) => format!("#{n}"),
    }
}

fn white_view(s: Score, mover: Color) -> Score {
    if mover == Color::White { s } else { negate(s) }
}

pub fn notes(reports: &[MoveReport]) -> Vec<pgn::Annotation> {
    reports
        .iter()
        .map(|r| {
            let mut comment = format!("[%eval {}]", eval_tag(white_view(r.after, r.mover)));
            if r.label != Label::Best && r.label != Label::Good {
                let _ = write!(
                    comment,
                    " {}: {} was best ({})",
                    r.label.name(),
                    r.best_san,
                    eval_tag(white_view(r.before, r.mover))
                );
            }
            pgn::Annotation {
                nag: r.label.nag(),
                comment,
            }
        })
        .collect()
}

fn report_table(game: &pgn::Game, reports: &[MoveReport]) -> String {
    let tag = |name: &str| {
        game.tags
            .iter()
            .find(|(k, _)| k == name)
            .map_or("?", |(_, v)| v.as_str())
    };
    let mut out = format!("{} - {} ({})\n", tag("White"), tag("Black"), game.result);
    let _ = writeln!(
        out,
        "{:>6} {:<8} {:>7} {:>7} {:<8} {:>6}  label   (scores for the mover)",
        "move", "played", "before", "after", "best", "loss"
    );
    let mut number = u32::from(game.start.snapshot().fullmoves());
    for r in reports {
        let num = if r.mover == Color::White {
            format!("{number}.")
        } else {
            format!("{number}...")
        };
        let _ = writeln!(
            out,
            "{num:>6} {:<8} {:>7} {:>7} {:<8} {:>5.1}%  {}",
            r.san,
            score_text(r.before),
            score_text(r.after),
            r.best_san,
            100.0 * r.loss,
            r.label.name()
        );
        if r.mover == Color::Black {
            number += 1;
        }
    }
    for color in [Color::White, Color::Black] {
        let count = |l: Label| {
            reports
                .iter()
                .filter(|r| r.mover == color && r.label == l)
                .count()
        };
        let _ = writeln!(
            out,
            "{color:?}: {} inaccuracies, {} mistakes, {} blunders",
            count(Label::Inaccuracy),
            count(Label::Mistake),
            count(Label::Blunder)
        );
    }
    out
}

/// Scores beyond this, mates included, are drawn at this height in graphs.
const GRAPH_LIMIT: i32 = 1000;

/// A White's-view score as a graph height: centipawns, mates at the edge.
fn graph_cp(white: Score) -> i32 {
    match white {
        Score::Cp(cp) => cp.clamp(-GRAPH_LIMIT, GRAPH_LIMIT),
        Score::Mate(n) if n > 0 => GRAPH_LIMIT,
        Score::Mate(_) => -GRAPH_LIMIT,
    }
}

/// A position as the page shows it: its FEN and each square's contest.
fn position_json(pos: &Position) -> Vec<(String, Json)> {
    let mut contest = [0u32; 64];
    heat::accumulate(&mut contest, pos);
    vec![
        ("fen".to_string(), Json::str(pos.fen())),
        (
            "contest".to_string(),
            Json::Arr(contest.iter().map(|&c| u64::from(c).into()).collect()),
        ),
    ]
}

/// One annotated game for the HTML page: tags, the start position and every
/// move with its judgement and the position after it.
pub fn game_json(game: &pgn::Game, reports: &[MoveReport]) -> Json {
    let mut pos = game.start.clone();
    let mut number = u32::from(game.start.snapshot().fullmoves());
    let mut moves = Vec::with_capacity(reports.len());
    for (&m, r) in game.moves.iter().zip(reports) {
        let uci = pos.uci(m);
        pos.make(m);
        pos.forget_undo();
        let white_after = white_view(r.after, r.mover);
        let mut fields = vec![
            ("number".to_string(), u64::from(number).into()),
            ("white".to_string(), (r.mover == Color::White).into()),
            ("san".to_string(), Json::str(&r.san)),
            ("uci".to_string(), Json::str(uci)),
            ("best".to_string(), Json::str(&r.best_san)),
            ("before".to_string(), Json::str(score_text(r.before))),
            ("after".to_string(), Json::str(score_text(r.after))),
            ("eval".to_string(), Json::str(page_eval(white_after))),
            ("graph_cp".to_string(), graph_cp(white_after).into()),
            ("loss".to_string(), r.loss.into()),
            ("label".to_string(), Json::str(r.label.name())),
        ];
        fields.extend(position_json(&pos));
        moves.push(Json::Obj(fields));
        if r.mover == Color::Black {
            number += 1;
        }
    }
    let start_eval = reports
        .first()
        .map_or(Score::Cp(0), |r| white_view(r.before, r.mover));
    let mut start = position_json(&game.start);
    start.push(("graph_cp".to_string(), graph_cp(start_eval).into()));
    start.push(("eval".to_string(), Json::str(page_eval(start_eval))));
    Json::obj([
        (
            "tags",
            Json::Obj(
                game.tags
                    .iter()
                    .map(|(k, v)| (k.clone(), Json::str(v)))
                    .collect(),
            ),
        ),
        ("result", Json::str(&game.result)),
        ("start", Json::Obj(start)),
        ("moves", Json::Arr(moves)),
    ])
}

fn engine(args: &GameArgs) -> Result<Engine, String> {
    let limits = match args.depth {
        Some(d) if !(1..=64).contains(&d) => {
            return Err(format!("--depth {d} out of range (1 to 64)"));
        }
        Some(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        None if args.movetime == 0 => return Err("--movetime must be at least 1".to_string()),
        None => Limits {
            movetime_ms: Some(args.movetime),
            ..Limits::default()
        },
    };
    Ok(Engine {
        limits,
        eval: args.eval.choice()?,
    })
}

/// A game and the judgement of each of its moves.
type Annotated = (pgn::Game, Vec<MoveReport>);

/// Every game of the file, annotated, with the heat summed over them all.
fn analyse(args: &GameArgs) -> Result<(Vec<Annotated>, [u32; 64]), String> {
    let text = std::fs::read_to_string(&args.pgn)
        .map_err(|e| format!("cannot read {}: {e}", args.pgn.display()))?;
    let games = pgn::read_games(&text).map_err(|e| format!("{}: {e}", args.pgn.display()))?;
    let engine = engine(args)?;
    let mut heat = [0u32; 64];
    let mut annotated = Vec::with_capacity(games.len());
    for g in games {
        let reports = annotate(&g, &engine, &mut heat)?;
        annotated.push((g, reports));
    }
    Ok((annotated, heat))
}

/// The games for the HTML page: `{games: [...]}`, one `game_json` each.
pub fn document(args: &GameArgs) -> Result<Json, String> {
    let (games, _) = analyse(args)?;
    let games = games.iter().map(|(g, r)| game_json(g, r)).collect();
    Ok(Json::obj([
        ("pgn", Json::str(args.pgn.display().to_string())),
        ("games", Json::Arr(games)),
    ]))
}

/// The text `explain game` prints, or why it cannot.
pub fn game(args: &GameArgs) -> Result<String, String> {
    let (games, heat) = analyse(args)?;
    let mut report = String::new();
    let mut annotated = String::new();
    for (g, reports) in &games {
        report.push_str(&report_table(g, reports));
        report.push('\n');
        annotated.push_str(&pgn::write(g, &notes(reports), "tarpon explain game"));
    }
    report.push_str(&heat::render(&heat));
    match &args.out {
        Some(path) => {
            std::fs::write(path, &annotated)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            let _ = writeln!(report, "annotated PGN written to {}", path.display());
        }
        None => {
            report.push('\n');
            report.push_str(&annotated);
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests;
