//! Score conventions: centipawns from the side to move, mates as distance
//! from the root, and their UCI spelling.

/// Deepest ply the search goes (extensions included).
pub const MAX_PLY: usize = 128;
/// Score of delivering mate at the root; mate at ply p scores `MATE - p`.
pub const MATE: i32 = 32000;
/// Larger than any score.
pub const INFINITE: i32 = 32001;
/// Scores at or beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Static evaluations are clamped inside this so they never look like mates.
pub const EVAL_LIMIT: i32 = MATE_BOUND - 1000;
/// Static evaluations from this on are wins the evaluation knows about
/// without a search (mating material against a bare king, a won KPK; see
/// `eval::endgame`), but not mates: they lie between ordinary
/// evaluations and [`EVAL_LIMIT`].
pub use crate::eval::endgame::KNOWN_WIN;
const _: () = assert!(crate::eval::endgame::MAX_KNOWN_WIN < EVAL_LIMIT);
pub const DRAW: i32 = 0;

/// Whether a node's search result is a score at all: no line scores more
/// than mating at once or less than being mated at once (`-INFINITE` and
/// `INFINITE` are window edges, never results below the root).
pub fn is_node_score(score: i32) -> bool {
    (-MATE..=MATE).contains(&score)
}

pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// A known win or loss: beyond every ordinary evaluation, short of the
/// tablebase and mate scores.
pub fn is_known_win(score: i32) -> bool {
    (KNOWN_WIN..=EVAL_LIMIT).contains(&score.abs())
}

/// Whether static pruning may compare the static evaluation `eval` with
/// `bound`. Not when only the bound is a known win: an ordinary evaluation
/// against such a bound (say, an alternative that wins into K+Q against
/// K) says nothing about what matters there, a mate a few quiet moves
/// away. Two known-win scores compare well: their progress terms are what
/// the search improves.
pub fn eval_can_judge(eval: i32, bound: i32) -> bool {
    is_known_win(eval) || !is_known_win(bound)
}

/// Being mated at `ply`.
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the engine's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: the engine is mated).
    Mate(i32),
}

impl Score {
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }

    /// `cp 35` or `mate -3`.
    pub fn uci(self) -> String {
        match self {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        }
    }

    /// Win/draw/loss in permille, from a logistic model of the centipawn score
    /// (PST scale: +150 cp is about an even chance of winning).
    pub fn wdl(self) -> (u32, u32, u32) {
        match self {
            Score::Mate(n) if n > 0 => (1000, 0, 0),
            Score::Mate(_) => (0, 0, 1000),
            Score::Cp(cp) => {
                let p = |x: f64| 1.0 / (1.0 + ((150.0 - x) / 60.0).exp());
                let w = (1000.0 * p(f64::from(cp))).round() as u32;
                let l = (1000.0 * p(f64::from(-cp))).round() as u32;
                let w = w.min(1000);
                let l = l.min(1000 - w);
                (w, 1000 - w - l, l)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_bands_are_ordered() {
        const { assert!(KNOWN_WIN < EVAL_LIMIT && EVAL_LIMIT < MATE_BOUND) };
        assert!(is_known_win(KNOWN_WIN) && is_known_win(-EVAL_LIMIT));
        assert!(!is_known_win(KNOWN_WIN - 1) && !is_known_win(MATE - 5));
        assert!(eval_can_judge(KNOWN_WIN + 500, KNOWN_WIN + 600));
        assert!(eval_can_judge(KNOWN_WIN + 500, 300));
        assert!(eval_can_judge(300, MATE - 5));
        assert!(!eval_can_judge(-900, -KNOWN_WIN - 950));
    }

    #[test]
    fn mate_distances_in_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(MATE - 7), Score::Mate(4));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_internal(57).uci(), "cp 57");
    }

    #[test]
    fn wdl_sums_to_1000_and_is_symmetric() {
        for cp in [-2000, -300, -10, 0, 10, 300, 2000] {
            let (w, d, l) = Score::Cp(cp).wdl();
            assert_eq!(w + d + l, 1000);
            let (w2, _, l2) = Score::Cp(-cp).wdl();
            assert_eq!((w, l), (l2, w2));
        }
    }
}
