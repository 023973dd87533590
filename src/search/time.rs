//! Time management: how long to think about one move.
//!
//! From the clock, increment and moves to go (minus `Move Overhead`) come a
//! soft limit, checked between iterations and scaled by how stable the best
//! move has been, and a hard limit the search never exceeds. `go movetime N`
//! gets N ms less the overhead as its hard limit and no soft limit.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::Limits;
use super::params::{tm_node_base, tm_node_scale};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start another iteration after this (before stability scaling).
    pub soft_ms: u64,
    /// Stop the search at once after this.
    pub hard_ms: u64,
}

/// When no `movestogo` is given, plan as if this many moves remain. At 30
/// tarpon ended its games with a sixth of its clock unspent (Stockfish a
/// twentieth); 20 spent it sooner and passed its SPRT at 2s+0.02s. At 20 it
/// still spent only 84 % against Ethereal's 97 %; 15 passed again
/// (docs/search.md, "Techniques by SPRT").
const DEFAULT_MOVES_TO_GO: i64 = 15;

/// The budget for the side to move, or `None` when no time limit applies
/// (depth, nodes, mate, infinite).
pub fn budget(limits: &Limits, turn: Color, overhead_ms: u64) -> Option<TimeBudget> {
    // Clamp every input to a year of milliseconds: absurd values from a GUI
    // must not overflow the arithmetic below.
    const CAP: i64 = 365 * 24 * 3600 * 1000;
    let clamp_u = |v: u64| i64::try_from(v).unwrap_or(CAP).min(CAP);
    let overhead = clamp_u(overhead_ms);
    if let Some(mt) = limits.movetime_ms {
        let ms = (clamp_u(mt) - overhead).max(1) as u64;
        return Some(TimeBudget {
            soft_ms: ms,
            hard_ms: ms,
        });
    }
    let (time, inc) = match turn {
        Color::White => (limits.wtime_ms, limits.winc_ms),
        Color::Black => (limits.btime_ms, limits.binc_ms),
    };
    let time = time?.clamp(0, CAP);
    let inc = inc.unwrap_or(0).clamp(0, CAP);
    let mtg = limits
        .movestogo
        .map_or(DEFAULT_MOVES_TO_GO, |m| i64::from(m.clamp(1, 50)));
    // Keep the overhead in reserve for every move still to be played before
    // the next time control, plus one.
    let reserve = overhead * (mtg.min(10) + 1);
    let usable = (time - reserve).max(0);
    let soft = usable / mtg + inc * 3 / 4;
    // The hard limit never takes more than a share of what is left: with one
    // move to go most of it, otherwise at most a third.
    let hard_cap = if mtg == 1 {
        usable * 9 / 10
    } else {
        usable / 3
    };
    let hard = (soft * 4).min(hard_cap).max(1);
    let soft = soft.min(hard).max(1);
    Some(TimeBudget {
        soft_ms: soft as u64,
        hard_ms: hard as u64,
    })
}

/// Scale for the soft limit from how the search is going: a best move that
/// keeps changing earns more time, one that has stood for many iterations
/// less; a falling score earns more; so does a best move that took a small
/// share of the root's nodes (`best_node_share`, 0 to 1), because its rivals
/// were hard to refute.
pub fn soft_scale(
    best_move_changes: f64,
    stable_iterations: u32,
    score_drop: i32,
    best_node_share: f64,
) -> f64 {
    debug_assert!(
        (0.0..=1.0).contains(&best_node_share),
        "node share {best_node_share}"
    );
    let instability = 1.0 + best_move_changes.min(3.0) * 0.35;
    let stability = match stable_iterations {
        0..=2 => 1.0,
        3..=5 => 0.8,
        _ => 0.6,
    };
    let falling = 1.0 + (f64::from(score_drop.clamp(0, 100)) / 200.0);
    let effort = (f64::from(tm_node_base()) - best_node_share * 100.0) * f64::from(tm_node_scale())
        / 10_000.0;
    (instability * stability * falling * effort).clamp(0.4, 2.5)
}

/// A running stopwatch that starts counting for time limits either at once or,
/// when pondering, from `ponderhit`.
pub struct Clock {
    start: Instant,
}

impl Clock {
    pub fn start() -> Clock {
        Clock {
            start: Instant::now(),
        }
    }

    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: i64, inc: i64, mtg: Option<u32>) -> Limits {
        Limits {
            wtime_ms: Some(time),
            btime_ms: Some(time),
            winc_ms: Some(inc),
            binc_ms: Some(inc),
            movestogo: mtg,
            ..Limits::default()
        }
    }

    #[test]
    fn limits_stay_inside_the_clock() {
        for time in [0, 1, 10, 50, 100, 1000, 10_000, 60_000, 600_000] {
            for inc in [0, 10, 100, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let b = budget(&clock(time, inc, mtg), Color::White, 10).unwrap();
                    assert!(b.soft_ms <= b.hard_ms, "{time} {inc} {mtg:?}: {b:?}");
                    assert!(
                        b.hard_ms as i64 <= (time - 10).max(1),
                        "{time} {inc} {mtg:?}: {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn negative_clock_and_no_clock() {
        let b = budget(&clock(-500, -5, None), Color::Black, 10).unwrap();
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 1,
                hard_ms: 1
            }
        );
        assert_eq!(budget(&Limits::default(), Color::White, 10), None);
        let mt = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        assert_eq!(budget(&mt, Color::White, 30).unwrap().hard_ms, 970);
    }

    #[test]
    fn absurd_values_do_not_overflow() {
        let huge = Limits {
            wtime_ms: Some(i64::MAX),
            winc_ms: Some(i64::MAX),
            movestogo: Some(u32::MAX),
            ..Limits::default()
        };
        let b = budget(&huge, Color::White, u64::MAX).unwrap();
        assert!(b.soft_ms <= b.hard_ms);
        let mt = Limits {
            movetime_ms: Some(u64::MAX),
            ..Limits::default()
        };
        assert!(budget(&mt, Color::White, 10).unwrap().hard_ms > 1_000_000);
    }

    #[test]
    fn a_best_move_that_took_most_nodes_gets_less_time() {
        let settled = soft_scale(0.0, 0, 0, 0.95);
        let contested = soft_scale(0.0, 0, 0, 0.3);
        assert!(settled < 1.0 && contested > 1.0, "{settled} {contested}");
        for share in [0.0, 0.5, 1.0] {
            for changes in [0.0, 5.0] {
                let s = soft_scale(changes, 7, 400, share);
                assert!((0.4..=2.5).contains(&s), "{share} {changes}: {s}");
            }
        }
    }

    #[test]
    fn increments_are_spent() {
        let a = budget(&clock(10_000, 0, None), Color::White, 10).unwrap();
        let b = budget(&clock(10_000, 100, None), Color::White, 10).unwrap();
        assert!(b.soft_ms > a.soft_ms);
    }
}
