//! The five named levels a player picks from, each a `Skill Level` of
//! `crate::uci::strength`, so a re-fit of the measured Elo there carries
//! over to the names here without an edit.

use crate::uci::strength::{self, Level};

/// One named level: the skill it plays at (`None`: full strength) and how
/// long it waits at least before it moves, so a weak level answers at a
/// person's pace rather than instantly.
#[derive(Clone, Copy, Debug)]
pub struct NamedLevel {
    pub name: &'static str,
    pub skill: Option<u8>,
    pub min_think_ms: u64,
}

pub const NAMED_LEVELS: [NamedLevel; 5] = [
    NamedLevel {
        name: "Beginner",
        skill: Some(0),
        min_think_ms: 1500,
    },
    NamedLevel {
        name: "Amateur",
        skill: Some(5),
        min_think_ms: 1200,
    },
    NamedLevel {
        name: "Intermediate",
        skill: Some(10),
        min_think_ms: 800,
    },
    NamedLevel {
        name: "Hard",
        skill: Some(15),
        min_think_ms: 400,
    },
    NamedLevel {
        name: "Master",
        skill: None,
        min_think_ms: 0,
    },
];

/// Thinking time of the full-strength engine without a clock.
pub const FULL_STRENGTH_MOVETIME_MS: u64 = 1000;

/// The opponent the player chose: a name, the level it plays and its Elo
/// on Stockfish's `UCI_Elo` scale (`None` at full strength: unmeasured).
#[derive(Clone, Debug)]
pub struct Opponent {
    pub name: String,
    pub level: Option<Level>,
    pub min_think_ms: u64,
}

impl Opponent {
    pub fn named(name: &str) -> Option<Opponent> {
        let named = NAMED_LEVELS
            .iter()
            .find(|l| l.name.eq_ignore_ascii_case(name))?;
        Some(Opponent {
            name: named.name.to_string(),
            level: named
                .skill
                .and_then(|s| strength::LEVELS.get(usize::from(s)).copied()),
            min_think_ms: named.min_think_ms,
        })
    }

    /// A free `UCI_Elo`, as the UCI option maps it (clamped to the range).
    pub fn from_elo(elo: i64) -> Opponent {
        let elo = elo.clamp(strength::MIN_ELO, strength::MAX_ELO);
        let level = strength::active_level(true, elo, 0);
        Opponent {
            name: format!("Elo {elo}"),
            min_think_ms: if elo < 1200 { 1200 } else { 400 },
            level,
        }
    }

    pub fn elo(&self) -> Option<i64> {
        self.level.map(|l| l.elo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_levels_climb_and_read_the_measured_table() {
        let elos: Vec<i64> = NAMED_LEVELS
            .iter()
            .filter_map(|l| Opponent::named(l.name).and_then(|o| o.elo()))
            .collect();
        assert_eq!(elos.len(), 4, "every level but Master has a measured Elo");
        assert!(elos.windows(2).all(|p| p[0] < p[1]), "{elos:?}");
        assert_eq!(elos[0], strength::MEASURED_ELO[0]);
        assert!(Opponent::named("master").is_some_and(|o| o.level.is_none()));
        assert!(Opponent::named("grandmaster").is_none());
        assert_eq!(Opponent::from_elo(0).elo(), Some(strength::MIN_ELO));
    }
}
