//! `tarpon explain game`: a game annotated by the engine, move by move: the
//! evaluation before and after, the engine's best move, and a label by how
//! much winning probability the move gave away; written back as PGN with
//! standard NAGs and comments, plus a heat map of the contested squares.

pub mod heat;
pub mod pgn;

use std::fmt::Write as _;

use clap::Args;
use shakmaty::{Color, Move, Position as _};

use crate::eval::EvalChoice;
use crate::explain::evaluator::EvalOptions;
use crate::explain::trace::search_view;
use crate::position::Position;
use crate::search::{Limits, Score, SearchOutcome};

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

/// The opponent's score after a move, seen by the side that made it: a mate
/// against the opponent in n of its moves is a mate in n + 1 counted from
/// the move just made (so delivering mate is "mate in 1").
fn for_mover(opponent: Score) -> Score {
    match opponent {
        Score::Mate(n) if n <= 0 => Score::Mate(1 - n),
        other => negate(other),
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

/// The position's score for its side to move; a finished game scores by rule.
fn judge(pos: &Position, engine: &Engine) -> Result<(Score, Option<Move>), String> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok((
            if pos.is_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            },
            None,
        ));
    }
    if pos.is_fifty_move_draw() || pos.is_insufficient_material() || pos.repetitions() >= 2 {
        return Ok((Score::Cp(0), None));
    }
    let outcome: SearchOutcome = search_view::run(pos, engine.limits.clone(), engine.eval.clone())?;
    let score = outcome.lines.first().map_or(Score::Cp(0), |l| l.score);
    Ok((score, outcome.best))
}

/// Annotates every move of `game`.
pub fn annotate(
    game: &pgn::Game,
    engine: &Engine,
    heat: &mut [u32; 64],
) -> Result<Vec<MoveReport>, String> {
    let mut pos = game.start.clone();
    let mut reports = Vec::with_capacity(game.moves.len());
    let mut current = judge(&pos, engine)?;
    for &m in &game.moves {
        heat::accumulate(heat, &pos);
        let mover = pos.turn();
        let (before, best) = current;
        let best_san = best.map_or("-".to_string(), |b| {
            search_view::san_line(&pos, &[b]).join("")
        });
        let san = search_view::san_line(&pos, &[m]).join("");
        pos.make(m);
        pos.forget_undo();
        current = judge(&pos, engine)?;
        let after = for_mover(current.0);
        let played_best = best == Some(m);
        // The played move cannot be better than the best by more than search
        // noise; a negative loss is no loss.
        let loss = (win_probability(before) - win_probability(after)).max(0.0);
        reports.push(MoveReport {
            san,
            mover,
            best_san,
            before,
            after,
            loss,
            label: Label::from_loss(loss, played_best),
        });
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
    let mut number = u32::from(game.start.chess().fullmoves());
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

/// The text `explain game` prints, or why it cannot.
pub fn game(args: &GameArgs) -> Result<String, String> {
    let text = std::fs::read_to_string(&args.pgn)
        .map_err(|e| format!("cannot read {}: {e}", args.pgn.display()))?;
    let games = pgn::read_games(&text).map_err(|e| format!("{}: {e}", args.pgn.display()))?;
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
    let engine = Engine {
        limits,
        eval: args.eval.choice()?,
    };
    let mut report = String::new();
    let mut annotated = String::new();
    let mut heat = [0u32; 64];
    for g in &games {
        let reports = annotate(g, &engine, &mut heat)?;
        report.push_str(&report_table(g, &reports));
        report.push('\n');
        annotated.push_str(&pgn::write(g, &notes(&reports), "tarpon explain game"));
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
