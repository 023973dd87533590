//! Playing levels for people who learn against tarpon: `Skill Level` 0–20,
//! or `UCI_LimitStrength` with `UCI_Elo` mapped onto the same scale.
//!
//! A weakened engine searches several lines (MultiPV) under a depth and node
//! cap, then adds seeded random noise to each line's score and plays the line
//! that comes out on top. The lower the level, the shallower the search and
//! the louder the noise, so weak levels miss tactics and drift into
//! positional errors instead of playing random blunders every move.
//!
//! The Elo of each level is measured, not assumed: [`MEASURED_ELO`] comes
//! from `arena/skill_ladder.sh` (each level against a Stockfish 15.1
//! `UCI_Elo` rung, 5s+0.05s, `Eval=pst`) through `arena/skill_table.py`.

use crate::eval::EvalChoice;
use crate::rng::SplitMix64;
use crate::search::{Limits, Score, SearchConfig};

/// The strongest level: full strength, no weakening.
pub const MAX_LEVEL: u8 = 20;

/// One playing level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub skill: u8,
    /// The level's measured Elo on Stockfish 15.1's `UCI_Elo` scale: what
    /// `UCI_Elo` maps to this level.
    pub elo: i64,
    /// Deepest iteration searched.
    pub max_depth: u32,
    /// Nodes searched at most per move.
    pub max_nodes: u64,
    /// Largest noise, in centipawns, added to a line's score.
    pub noise_cp: i32,
}

/// Lines searched when choosing a weakened move.
pub const WEAK_MULTI_PV: usize = 4;

/// The ladder of weakened levels 0..=19 (level 20 is full strength).
pub const LEVELS: [Level; MAX_LEVEL as usize] = build_levels();

const fn build_levels() -> [Level; MAX_LEVEL as usize] {
    let mut levels = [Level {
        skill: 0,
        elo: 0,
        max_depth: 0,
        max_nodes: 0,
        noise_cp: 0,
    }; MAX_LEVEL as usize];
    let mut skill = 0;
    // Half as many nodes again per level: 256 at level 0, about 560k at 19.
    let mut nodes = 256;
    while skill < MAX_LEVEL as usize {
        let weakness = (MAX_LEVEL as usize - 1 - skill) as i32; // 19 .. 0
        levels[skill] = Level {
            skill: skill as u8,
            elo: MEASURED_ELO[skill],
            max_depth: 1 + skill as u32,
            max_nodes: nodes,
            // From ±15 cp at level 19 to ±300 cp at level 0, growing fast at
            // the bottom where beginners need the engine to err visibly.
            noise_cp: 15 + weakness * (weakness + 4) * 285 / (19 * 23),
        };
        skill += 1;
        nodes = nodes * 3 / 2;
    }
    levels
}

/// Each level's Elo at 5s+0.05s with the PST evaluator, on the logistic
/// scale anchored at Stockfish 15.1's `UCI_Elo` 1900, re-fitted on
/// 2026-12-05 with build [`FIT_BUILD`]: every level 100 games against a
/// Stockfish rung (levels 9–11 against two), the rungs held where the full
/// fit placed them (with their 200-game matches against each other), the
/// whole made monotone (neighbours measured out of order are pooled)
/// (`arena/skill_table.py --refit skill-2026-12-05 --rust`;
/// docs/measurements.md, "Playing levels", has the games and error bars).
pub const MEASURED_ELO: [i64; MAX_LEVEL as usize] = [
    891, 974, 1028, 1065, 1131, 1178, 1379, 1390, 1390, 1526, 1590, 1639, 1773, 1822, 1876, 1893,
    1970, 1970, 1970, 2046,
];

/// The build the levels were fitted with, and its `tarpon bench --eval pst`
/// signature: the levels search with the PST under node caps, so any change
/// to the search or the PST moves their strength, and `.ci/check-levels`
/// warns when this signature is no longer the engine's.
pub const FIT_BUILD: &str = "46cbbb7";
pub const FIT_PST_BENCH: u64 = 2685332;

pub const MIN_ELO: i64 = MEASURED_ELO[0];
/// The Elo of level 19; level 20 (full strength) is unlimited.
pub const MAX_ELO: i64 = MEASURED_ELO[MAX_LEVEL as usize - 1];
pub const DEFAULT_ELO: i64 = 1500;

/// The level a `UCI_Elo` value maps to (the nearest level at or below it).
pub fn level_for_elo(elo: i64) -> u8 {
    LEVELS
        .iter()
        .rev()
        .find(|l| l.elo <= elo)
        .map_or(0, |l| l.skill)
}

/// The level in force: `UCI_LimitStrength` with `UCI_Elo` takes precedence
/// over `Skill Level`, as in Stockfish. `None` is full strength.
pub fn active_level(limit_strength: bool, elo: i64, skill_level: i64) -> Option<Level> {
    let skill = if limit_strength {
        level_for_elo(elo)
    } else {
        skill_level.clamp(0, MAX_LEVEL as i64) as u8
    };
    LEVELS.get(skill as usize).copied()
}

impl Level {
    /// Caps a search at this level: its depth and nodes, enough lines to
    /// choose from, and the PST evaluator the levels were measured with (a
    /// net would make every level stronger than its table says).
    pub fn restrict(&self, limits: &mut Limits, config: &mut SearchConfig) {
        limits.depth = Some(
            limits
                .depth
                .map_or(self.max_depth, |d| d.min(self.max_depth)),
        );
        limits.nodes = Some(
            limits
                .nodes
                .map_or(self.max_nodes, |n| n.min(self.max_nodes)),
        );
        config.multipv = config.multipv.max(WEAK_MULTI_PV);
        config.eval = EvalChoice::Pst;
    }

    /// Picks among the searched lines, given as `(score in cp from the side
    /// to move, anything)` best first. Returns the index of the line to play.
    /// Scores come from [`comparable_score`].
    pub fn choose<T>(&self, lines: &[(i32, T)], rng: &mut SplitMix64) -> usize {
        let mut best = 0;
        let mut best_value = i64::MIN;
        for (i, (score, _)) in lines.iter().enumerate() {
            let noise = rng.below(self.noise_cp as usize + 1) as i64;
            let value = *score as i64 + noise;
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }
}

/// A line's score on one centipawn scale the noise can act on: a mate
/// counts as a large but finite advantage (sooner mates more).
pub fn comparable_score(score: Score) -> i32 {
    const DECISIVE: i32 = 2000;
    match score {
        Score::Cp(cp) => cp.clamp(-DECISIVE, DECISIVE),
        Score::Mate(n) if n > 0 => DECISIVE + 100 - n.min(100),
        Score::Mate(n) => -DECISIVE - 100 + n.unsigned_abs().min(100) as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_weaken_monotonically() {
        for pair in LEVELS.windows(2) {
            let (lo, hi) = (pair[0], pair[1]);
            assert!(lo.elo <= hi.elo);
            assert!(lo.max_depth < hi.max_depth);
            assert!(lo.max_nodes < hi.max_nodes, "{lo:?} {hi:?}");
            assert!(lo.noise_cp > hi.noise_cp);
        }
        assert_eq!(LEVELS[0].noise_cp, 300);
        assert_eq!(LEVELS[19].noise_cp, 15);
        assert_eq!(LEVELS[0].max_nodes, 256);
    }

    #[test]
    fn elo_maps_onto_levels() {
        assert_eq!(level_for_elo(0), 0);
        assert_eq!(level_for_elo(MIN_ELO), 0);
        assert!((MIN_ELO..=MAX_ELO).contains(&DEFAULT_ELO));
        // Every level is reached by its own Elo (the highest of equal ones).
        for level in LEVELS {
            let picked = level_for_elo(level.elo);
            assert_eq!(LEVELS[picked as usize].elo, level.elo);
            assert!(picked >= level.skill);
            if level.skill > 0 && LEVELS[level.skill as usize - 1].elo < level.elo {
                assert!(level_for_elo(level.elo - 1) < level.skill);
            }
        }
        assert_eq!(level_for_elo(MAX_ELO), 19);
        assert_eq!(level_for_elo(99_999), 19);
        assert_eq!(active_level(false, 800, 20), None);
        assert_eq!(active_level(false, 800, 5).map(|l| l.skill), Some(5));
        assert_eq!(active_level(true, MAX_ELO, 5).map(|l| l.skill), Some(19));
        // The check against Stockfish's own `UCI_Elo 1500` (measurements.md)
        // plays level 8 (1390; level 9 is 1526) for that reason.
        assert_eq!(level_for_elo(1500), 8);
    }

    #[test]
    fn strong_levels_keep_the_best_line_weak_levels_do_not() {
        // Best line 60 cp better than the others.
        let lines = [(60, "best"), (0, "b"), (0, "c"), (0, "d")];
        let picks = |skill: usize| {
            let mut rng = SplitMix64::new(7);
            (0..2000)
                .filter(|_| LEVELS[skill].choose(&lines, &mut rng) != 0)
                .count()
        };
        assert_eq!(picks(19), 0, "level 19 noise (15 cp) cannot bridge 60 cp");
        let weak = picks(0);
        assert!(
            weak > 1000,
            "level 0 should often leave the best line: {weak}"
        );
        assert!(picks(10) < weak);
    }

    #[test]
    fn mates_rank_above_any_centipawn_score() {
        let order = [
            Score::Mate(1),
            Score::Mate(5),
            Score::Cp(5000),
            Score::Cp(0),
            Score::Cp(-5000),
            Score::Mate(-7),
            Score::Mate(-1),
        ];
        for pair in order.windows(2) {
            assert!(
                comparable_score(pair[0]) > comparable_score(pair[1]),
                "{pair:?}"
            );
        }
    }

    #[test]
    fn choices_are_reproducible_with_a_seed() {
        let lines = [(10, ()), (5, ()), (0, ())];
        let run = || {
            let mut rng = SplitMix64::new(42);
            (0..100)
                .map(|_| LEVELS[3].choose(&lines, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }
}
