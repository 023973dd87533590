//! The verdict on one move, the way a coach should give it: the move's own
//! searched score against the best move's, both from the same root and the
//! same table, and the loss measured in winning chances, not centipawns (a
//! pawn matters at equality, not when a queen up).
//!
//! Why a re-search of the played move: a fixed-depth search of the position
//! *after* the move sees one ply less and a different horizon than the search
//! before it, so a strong move can look like a blunder (8.Nc3 in the Opera
//! game at depth 8). Searching the played move with `searchmoves` from the
//! same root compares like with like.
//!
//! `tarpon play` judges every learner's move with [`judge`]; the thresholds
//! and formulas are lichess's published ones (docs/play.md).

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::Move;

use super::Label;
use crate::eval::EvalChoice;
use crate::position::Position;
use crate::search::{
    Limits, PvLine, Score, SearchConfig, SearchControl, SearchOutcome, TranspositionTable,
    run_search,
};

/// Lichess's winning chances, 0..100, for the side the score belongs to:
/// `50 + 50 · (2 / (1 + e^(−0.00368208 · cp)) − 1)`, cp clamped to ±1000
/// and a mate counted as ±1000.
pub fn win_percent(score: Score) -> f64 {
    let cp = match score {
        Score::Cp(cp) => cp.clamp(-1000, 1000),
        Score::Mate(n) if n > 0 => 1000,
        Score::Mate(_) => -1000,
    };
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0)
}

/// Lichess's analysis thresholds in Win% points: 5, 10 and 15.
pub fn label(loss: f64, played_best: bool) -> Label {
    Label::from_loss(loss / 100.0, played_best)
}

/// Lichess's move accuracy from the mover's Win% before and after the move.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Lichess's game accuracy for one side: the mean of the volatility-weighted
/// mean and the harmonic mean of its move accuracies. `white_wins` holds
/// White's Win% before the first move and after each move; `white_first`
/// says whether White made the first of those moves.
pub fn game_accuracy(white_wins: &[f64], white_first: bool, for_white: bool) -> Option<f64> {
    let moves = white_wins.len().checked_sub(1)?;
    let window = (moves / 10).clamp(2, 8);
    let mut weighted = 0.0;
    let mut weights = 0.0;
    let mut inverse_sum = 0.0;
    let mut count = 0usize;
    for ply in 0..moves {
        let white_moved = (ply % 2 == 0) == white_first;
        if white_moved != for_white {
            continue;
        }
        let mover = |w: f64| if for_white { w } else { 100.0 - w };
        let accuracy = move_accuracy(mover(white_wins[ply]), mover(white_wins[ply + 1]));
        let start = (ply + 1).saturating_sub(window);
        let slice = &white_wins[start..=(ply + 1).min(moves)];
        let weight = standard_deviation(slice).clamp(0.5, 12.0);
        weighted += accuracy * weight;
        weights += weight;
        inverse_sum += 1.0 / accuracy.max(1.0);
        count += 1;
    }
    (count > 0).then(|| (weighted / weights + count as f64 / inverse_sum) / 2.0)
}

fn standard_deviation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// What a verdict is worth: the class, and what should have been played.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub label: Label,
    /// The played move was the best and the only one that kept its class:
    /// the second-best move loses at least a class.
    pub only_move: bool,
    /// Win% points the move gave away against the best (0..100).
    pub loss: f64,
    /// The best line from the position before the move (best move first).
    pub best_line: Vec<Move>,
    pub best_score: Score,
    /// The played move followed by the line that answers it.
    pub played_line: Vec<Move>,
    pub played_score: Score,
    pub depth: u32,
}

impl Verdict {
    /// "great" for an only move, else the label's name.
    pub fn name(&self) -> &'static str {
        if self.only_move {
            "great"
        } else {
            self.label.name()
        }
    }
}

/// How hard [`judge`] looks: a depth (reproducible) or a time per search.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    Depth(u32),
    /// Milliseconds for the search of the position; the confirming search
    /// of the best and the played move gets the same again.
    Millis(u64),
}

/// The main search thread keeps its move lists on the stack.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;
const HASH_MB: usize = 16;
/// How much deeper than a fixed-depth first search the two-move
/// confirmation goes.
const CONFIRM_EXTRA_DEPTH: u32 = 2;

/// Searches `pos` with two principal variations; unless `played` is the
/// best, then searches the best and the played move alone, deeper, and
/// judges `played` by the winning chances it lost there. A time budget
/// gives each search its time; a depth `d` takes the second to `d + 2`.
/// `pos` must have `played` among its legal moves. More than one thread
/// searches deeper in the same time but makes a fixed depth's answer vary
/// from run to run.
pub fn judge(
    pos: &Position,
    played: Move,
    budget: Budget,
    eval: EvalChoice,
    threads: usize,
) -> Result<Verdict, String> {
    debug_assert!(pos.legal_moves().contains(&played));
    let pos = pos.clone();
    on_search_thread(move || {
        let tt = TranspositionTable::new(HASH_MB);
        judge_here(&pos, played, budget, &eval, threads, &tt, None)
    })
}

/// Runs `job` on a thread with the stack a search needs.
fn on_search_thread<T: Send>(job: impl FnOnce() -> Result<T, String> + Send) -> Result<T, String> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("tarpon-verdict".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(scope, job)
            .map_err(|e| format!("cannot start the search thread: {e}"))?
            .join()
            .map_err(|_| "the search failed".to_string())?
    })
}

/// A verdict's first search, started before the move is known: `tarpon
/// play` runs it on the learner's position while the learner thinks, as a
/// coach looks at the board before the move is made. [`Preparation::judge`]
/// stops it and takes its lines (and its table) as the verdict's first
/// search once it has searched at least the budget's time; the verdict then
/// costs only the confirming search.
pub struct Preparation {
    position: Position,
    eval: EvalChoice,
    threads: usize,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    started: Instant,
    search: Option<JoinHandle<SearchOutcome>>,
}

impl Preparation {
    /// Starts searching `pos` (two principal variations, on `threads`
    /// threads; the verdict uses as many) for at most `max_ms`.
    pub fn start(
        pos: &Position,
        eval: EvalChoice,
        threads: usize,
        max_ms: u64,
    ) -> Result<Preparation, String> {
        let tt = Arc::new(TranspositionTable::new(HASH_MB));
        let control = Arc::new(SearchControl::new());
        let search = {
            let (pos, eval, tt, control) = (pos.clone(), eval.clone(), tt.clone(), control.clone());
            std::thread::Builder::new()
                .name("tarpon-coach".into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn(move || {
                    let limits = Limits {
                        movetime_ms: Some(max_ms),
                        ..Limits::default()
                    };
                    let config = SearchConfig {
                        eval,
                        multipv: 2,
                        threads,
                        ..SearchConfig::default()
                    };
                    run_search(&pos, &limits, &config, &tt, &control, &mut |_| {})
                })
                .map_err(|e| format!("cannot start the search thread: {e}"))?
        };
        Ok(Preparation {
            position: pos.clone(),
            eval,
            threads,
            tt,
            control,
            started: Instant::now(),
            search: Some(search),
        })
    }

    /// The position being prepared.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Stops the preparation and judges `played`, a legal move of its
    /// position, as [`judge`] would, with the prepared lines as the first
    /// search when they had at least a time budget's time; the confirming
    /// search then searches the played move alone (the prepared best line
    /// is the deeper one already).
    pub fn judge(mut self, played: Move, budget: Budget) -> Result<Verdict, String> {
        debug_assert!(self.position.legal_moves().contains(&played));
        let searched = self.started.elapsed();
        self.control.stop();
        let prepared = self
            .search
            .take()
            .and_then(|search| search.join().ok())
            .filter(|outcome| {
                !outcome.lines.is_empty()
                    && match budget {
                        Budget::Millis(ms) => searched >= Duration::from_millis(ms),
                        Budget::Depth(d) => outcome.depth >= d,
                    }
            });
        let (pos, eval, tt) = (self.position.clone(), self.eval.clone(), self.tt.clone());
        let threads = self.threads;
        on_search_thread(move || judge_here(&pos, played, budget, &eval, threads, &tt, prepared))
    }
}

impl Drop for Preparation {
    fn drop(&mut self) {
        self.control.stop();
        if let Some(search) = self.search.take() {
            let _ = search.join();
        }
    }
}

/// The verdict's searches on `tt`; `prepared` (the position's two lines,
/// searched already) stands in for the first search.
fn judge_here(
    pos: &Position,
    played: Move,
    budget: Budget,
    eval: &EvalChoice,
    threads: usize,
    tt: &TranspositionTable,
    prepared: Option<SearchOutcome>,
) -> Result<Verdict, String> {
    let search = |limits: Limits, multipv: usize| -> SearchOutcome {
        let config = SearchConfig {
            eval: eval.clone(),
            multipv,
            threads,
            ..SearchConfig::default()
        };
        run_search(
            pos,
            &limits,
            &config,
            tt,
            &SearchControl::new(),
            &mut |_| {},
        )
    };
    let limits = match budget {
        Budget::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        Budget::Millis(ms) => Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        },
    };
    // Prepared lines cost the learner no time after the move: the
    // confirming search then gets the first search's time as well.
    let was_prepared = prepared.is_some();
    let (root, confirm_limits) = match prepared {
        Some(outcome) => {
            let mut doubled = limits.clone();
            doubled.movetime_ms = limits.movetime_ms.map(|ms| 2 * ms);
            (outcome, doubled)
        }
        None => (search(limits.clone(), 2), limits),
    };
    let best = root.lines.first().ok_or("no legal move to judge")?.clone();
    let second = root.lines.get(1).cloned();
    if best.pv.first() == Some(&played) {
        return Ok(verdict_from_lines(
            &best,
            second.as_ref(),
            &best,
            played,
            root.depth,
        ));
    }
    // The played move is not the best: search it again, from the same root
    // and with the table the first search filled, deeper than the first
    // search reached it. A loss near a class line is then settled by more
    // than one depth (a blunder whose punishment lies past the first
    // horizon, a good move that one depth misjudges).
    //
    // Without a preparation the best move is searched again beside it, so
    // that both scores come from one deeper tree. A prepared best line was
    // searched while the learner thought, longer than the confirmation
    // lasts: the played move then has the confirmation to itself, which
    // reaches about two plies deeper on it than sharing it with the best
    // (docs/play.md, "The played move alone").
    let best_move = best.pv[0];
    let confirm = Limits {
        depth: match budget {
            Budget::Depth(d) => Some(d + CONFIRM_EXTRA_DEPTH),
            Budget::Millis(_) => None,
        },
        searchmoves: if was_prepared {
            vec![played]
        } else {
            vec![best_move, played]
        },
        ..confirm_limits
    };
    let outcome = search(confirm, 2);
    let line_of = |mv: Move| {
        outcome
            .lines
            .iter()
            .find(|l| l.pv.first() == Some(&mv))
            .cloned()
    };
    let played_second = second.clone().filter(|l| l.pv.first() == Some(&played));
    let best_again = if was_prepared {
        Some(best.clone())
    } else {
        line_of(best_move)
    };
    // The played move's score comes from the confirmation, unless it
    // stayed shallower than a first search that had the played move as its
    // second line; the best's from the same search when it searched both.
    let (best, played_line, depth) = match (best_again, line_of(played), played_second) {
        (_, _, Some(played_second)) if outcome.depth < root.depth => {
            (best, played_second, root.depth)
        }
        (Some(best_again), Some(played_again), _) => (best_again, played_again, outcome.depth),
        (_, _, Some(played_second)) => (best, played_second, root.depth),
        // No line for the played move (a search stopped before its first
        // iteration): no loss can be claimed.
        _ => {
            let unknown = PvLine {
                score: best.score,
                pv: vec![played],
            };
            (best, unknown, root.depth)
        }
    };
    Ok(verdict_from_lines(
        &best,
        second.as_ref(),
        &played_line,
        played,
        depth,
    ))
}

/// The verdict from the searched lines: the best, the second best (if any)
/// and the played move's own line.
pub fn verdict_from_lines(
    best: &PvLine,
    second: Option<&PvLine>,
    played_line: &PvLine,
    played: Move,
    depth: u32,
) -> Verdict {
    let played_best = best.pv.first() == Some(&played);
    // The played move searched alone can come out above the best line's
    // score (search noise): then it is the best.
    let best_win = win_percent(best.score).max(win_percent(played_line.score));
    let loss = (best_win - win_percent(played_line.score)).max(0.0);
    let class = if played_best {
        Label::Best
    } else {
        move_label(best.score, played_line.score, loss)
    };
    let only_move = played_best
        && second.is_some_and(|s| {
            let second_loss = (best_win - win_percent(s.score)).max(0.0);
            label_rank(move_label(best.score, s.score, second_loss)) > label_rank(Label::Good)
        });
    Verdict {
        label: class,
        only_move,
        loss,
        best_line: best.pv.clone(),
        best_score: best.score,
        played_line: played_line.pv.clone(),
        played_score: played_line.score,
        depth,
    }
}

/// The label of a move that is not the best: a forced mate allowed or
/// thrown away is judged by the other side's score (lichess's `MateAdvice`:
/// a blunder, a mistake when that score is past 700 cp, an inaccuracy past
/// 999 cp), since winning chances count a mate as only 1000 cp; anything
/// else by `loss`, the Win% points lost. Scores are the mover's.
pub fn move_label(best: Score, played: Score, loss: f64) -> Label {
    let by_other_score = |cp: i32| match cp {
        c if c > 999 => Label::Inaccuracy,
        c if c > 700 => Label::Mistake,
        _ => Label::Blunder,
    };
    match (best, played) {
        // Had a forced mate, now gets mated.
        (Score::Mate(b), Score::Mate(p)) if b > 0 && p <= 0 => Label::Blunder,
        // Allowed a forced mate: how lost was it already?
        (Score::Cp(cp), Score::Mate(p)) if p <= 0 => by_other_score(-cp),
        // Let a forced mate go: how won is it still?
        (Score::Mate(b), Score::Cp(cp)) if b > 0 => by_other_score(cp),
        _ => label(loss, false),
    }
}

/// Labels from best (0) to blunder (4).
pub fn label_rank(label: Label) -> u8 {
    match label {
        Label::Best => 0,
        Label::Good => 1,
        Label::Inaccuracy => 2,
        Label::Mistake => 3,
        Label::Blunder => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_follow_lichess() {
        assert!((win_percent(Score::Cp(0)) - 50.0).abs() < 1e-9);
        // 100 cp is about 59.1 % (lichess.org/page/accuracy).
        assert!((win_percent(Score::Cp(100)) - 59.1).abs() < 0.1);
        assert_eq!(win_percent(Score::Mate(3)), win_percent(Score::Cp(5000)));
        assert!(win_percent(Score::Mate(-2)) < 3.0);
    }

    #[test]
    fn accuracy_is_full_without_loss_and_falls_with_it() {
        assert_eq!(move_accuracy(60.0, 70.0), 100.0);
        let small = move_accuracy(60.0, 55.0);
        let big = move_accuracy(60.0, 20.0);
        assert!(small > big && big >= 0.0 && small < 100.0, "{small} {big}");
        // White keeps 50 %, Black throws the game away.
        let wins = [50.0, 50.0, 80.0, 80.0, 95.0];
        let white = game_accuracy(&wins, true, true).unwrap();
        let black = game_accuracy(&wins, true, false).unwrap();
        assert!(white > 99.0 && black < 60.0, "{white} {black}");
    }

    #[test]
    fn thresholds_are_lichess_analysis_ones() {
        assert_eq!(label(4.9, false), Label::Good);
        assert_eq!(label(5.0, false), Label::Inaccuracy);
        assert_eq!(label(10.0, false), Label::Mistake);
        assert_eq!(label(15.0, false), Label::Blunder);
        assert_eq!(label(30.0, true), Label::Best);
    }

    #[test]
    fn a_forced_mate_allowed_or_lost_is_judged_by_the_other_score() {
        let loss = |best, played| (win_percent(best) - win_percent(played)).max(0.0);
        let judge = |best, played| move_label(best, played, loss(best, played));
        // Allowing mate from −6 is a blunder, though it costs only a few
        // winning chances (about 7 Win% points: an inaccuracy by loss alone).
        assert_eq!(
            label(loss(Score::Cp(-600), Score::Mate(-3)), false),
            Label::Inaccuracy
        );
        assert_eq!(judge(Score::Cp(-600), Score::Mate(-3)), Label::Blunder);
        assert_eq!(judge(Score::Cp(-800), Score::Mate(-3)), Label::Mistake);
        assert_eq!(judge(Score::Cp(-1200), Score::Mate(-3)), Label::Inaccuracy);
        // Letting a mate go: by how much is still won.
        assert_eq!(judge(Score::Mate(4), Score::Cp(1500)), Label::Inaccuracy);
        assert_eq!(judge(Score::Mate(4), Score::Cp(800)), Label::Mistake);
        assert_eq!(judge(Score::Mate(4), Score::Cp(300)), Label::Blunder);
        assert_eq!(judge(Score::Mate(4), Score::Mate(-5)), Label::Blunder);
        // A longer mate, a quicker defeat, or no mate at all: Win% decides.
        assert_eq!(judge(Score::Mate(2), Score::Mate(6)), Label::Good);
        assert_eq!(judge(Score::Mate(-6), Score::Mate(-2)), Label::Good);
        assert_eq!(judge(Score::Cp(300), Score::Cp(-300)), Label::Blunder);
    }
}
