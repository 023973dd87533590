//! What a tablebase result is worth as a search score. The tables answer
//! in plain WDL and DTZ; this is the one place that maps them into a band
//! just below the mate scores (see [`TB_WIN`]), so a proven mate still
//! outranks any tablebase win and a tablebase win outranks any evaluation.

use super::score::{EVAL_LIMIT, MATE_BOUND, MAX_PLY as SEARCH_MAX_PLY};
use crate::tablebase::{RootRanking, Wdl, fold_rule50};

/// Plies a search can reach, as a score distance.
const MAX_PLY: i32 = SEARCH_MAX_PLY as i32;
/// A tablebase win at the root. A win proven `ply` plies from the root
/// scores `TB_WIN - ply`: the band `TB_WIN_IN_MAX_PLY ..= TB_WIN` sits just
/// below the mate scores and above every static evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at least this large (and below `MATE_BOUND`) are tablebase wins.
pub const TB_WIN_IN_MAX_PLY: i32 = TB_WIN - MAX_PLY;
// The band must stay between the evaluations and the mates of the search.
const _: () = assert!(TB_WIN_IN_MAX_PLY > EVAL_LIMIT && TB_WIN < MATE_BOUND);
/// Cursed wins and blessed losses: draws under the fifty-move rule, scored a
/// hair away from zero so the search still prefers the side with chances.
pub const CURSED_SCORE: i32 = 2;

/// The search's score for a tablebase result found `ply` plies from the
/// root: wins and losses in the tablebase band (nearer wins higher), cursed
/// wins and blessed losses nearly draws when the fifty-move rule counts and
/// plain wins or losses when it does not.
pub fn result_score(result: Wdl, ply: usize, rule50: bool) -> i32 {
    let ply = (ply as i32).min(MAX_PLY);
    match fold_rule50(result, rule50) {
        Wdl::Win => TB_WIN - ply,
        Wdl::Loss => -TB_WIN + ply,
        Wdl::CursedWin => CURSED_SCORE,
        Wdl::BlessedLoss => -CURSED_SCORE,
        Wdl::Draw => 0,
    }
}

/// The score to report for a root the tables ranked: the tablebase band for
/// wins and losses (nearer the top the closer the zeroing move), a hair
/// from zero for cursed wins and blessed losses, zero for draws.
pub fn root_score(ranking: &RootRanking) -> i32 {
    let distance = ranking.dtz().map_or(0, |d| d.abs().min(MAX_PLY));
    match ranking.result() {
        Wdl::Win => TB_WIN - distance,
        Wdl::Loss => -TB_WIN + distance,
        other => result_score(other, 0, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE, Score};

    /// Whether a score is a tablebase win or loss (and not a mate).
    fn is_tb_score(score: i32) -> bool {
        (TB_WIN_IN_MAX_PLY..=TB_WIN).contains(&score.abs())
    }

    #[test]
    fn scores_sit_below_mate_and_above_evaluations() {
        assert!(matches!(Score::from_internal(TB_WIN), Score::Cp(_)));
        let win = result_score(Wdl::Win, 3, true);
        assert!(is_tb_score(win) && win < MATE_BOUND && win > 10_000);
        assert_eq!(result_score(Wdl::Loss, 3, true), -win);
        assert!(
            result_score(Wdl::Win, 2, true) > win,
            "nearer wins score higher"
        );
        assert_eq!(result_score(Wdl::CursedWin, 3, true), CURSED_SCORE);
        assert_eq!(result_score(Wdl::CursedWin, 3, false), win);
        assert_eq!(result_score(Wdl::BlessedLoss, 3, false), -win);
        assert!(!is_tb_score(MATE - 5) && !is_tb_score(MATE_BOUND) && !is_tb_score(900));
    }
}
