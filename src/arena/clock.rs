//! Time controls and the clocks the arena keeps for each side.
//!
//! The arena measures every move itself, from the moment the `go` command is
//! written to the moment the move is read, and never trusts an engine's own
//! account of its time. A move may exceed the clock by at most the stated
//! margin (`timemargin=`, default [`DEFAULT_MARGIN_MS`]) before the game is
//! forfeited, which absorbs the pipe and scheduling latency of a busy machine.

use std::fmt;
use std::time::Duration;

/// Default tolerance for moves arriving after the clock ran out.
pub const DEFAULT_MARGIN_MS: u64 = 100;

/// How long an engine may think about one move when no clock bounds it
/// (fixed nodes or depth) before it is declared hung.
pub const DEFAULT_HANG_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Clone, Debug, PartialEq)]
pub enum TimeControl {
    /// `base+inc`, or `moves/base+inc` where the base is added again every
    /// `moves` moves.
    Clock {
        base_ms: u64,
        inc_ms: u64,
        moves: Option<u32>,
    },
    /// Fixed time per move (`st=` seconds).
    MoveTime { ms: u64 },
    /// Fixed node count per move.
    Nodes(u64),
    /// Fixed search depth per move.
    Depth(u32),
    /// No limit at all (`tc=inf`): only useful with a hang timeout.
    Infinite,
}

impl TimeControl {
    /// Parse the value of `tc=`: `5+0.05`, `40/60`, `40/60+0.5`, `1:30+1`, `inf`.
    pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
        if text == "inf" || text == "infinite" {
            return Ok(TimeControl::Infinite);
        }
        let bad = || format!("bad time control '{text}': expected like 5+0.05, 40/60 or 1:30+1");
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().map_err(|_| bad())?), r),
            None => (None, text),
        };
        if moves == Some(0) {
            return Err(bad());
        }
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = parse_clock_seconds(base).ok_or_else(bad)?;
        let inc_ms = match inc {
            Some(i) => parse_seconds(i).ok_or_else(bad)?,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            base_ms,
            inc_ms,
            moves,
        })
    }

    pub fn movetime(seconds: &str) -> Result<TimeControl, String> {
        match parse_seconds(seconds) {
            Some(ms) if ms > 0 => Ok(TimeControl::MoveTime { ms }),
            _ => Err(format!("bad st= value '{seconds}': expected seconds > 0")),
        }
    }

    /// PGN `TimeControl` tag value (standard forms where the PGN standard
    /// has one, `-` for unlimited, a readable form otherwise).
    pub fn pgn_tag(&self) -> String {
        match self {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                moves,
            } => {
                let mut s = String::new();
                if let Some(m) = moves {
                    s.push_str(&format!("{m}/"));
                }
                s.push_str(&seconds_text(*base_ms));
                if *inc_ms > 0 {
                    s.push_str(&format!("+{}", seconds_text(*inc_ms)));
                }
                s
            }
            TimeControl::MoveTime { ms } => format!("movetime={}", seconds_text(*ms)),
            TimeControl::Nodes(n) => format!("nodes={n}"),
            TimeControl::Depth(d) => format!("depth={d}"),
            TimeControl::Infinite => "-".to_string(),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pgn_tag())
    }
}

/// `1.5` → 1500 ms. Non-negative decimals only.
pub fn parse_seconds(text: &str) -> Option<u64> {
    let value: f64 = text.trim().parse().ok()?;
    if !value.is_finite() || !(0.0..=1e9).contains(&value) {
        return None;
    }
    Some((value * 1000.0).round() as u64)
}

/// `90`, `1:30` or `1:30.5` → milliseconds.
fn parse_clock_seconds(text: &str) -> Option<u64> {
    match text.split_once(':') {
        Some((m, s)) => {
            let minutes: u64 = m.parse().ok()?;
            Some(minutes * 60_000 + parse_seconds(s)?)
        }
        None => parse_seconds(text),
    }
}

/// 5000 → "5", 50 → "0.05".
fn seconds_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    pub tc: TimeControl,
    /// Time left in ms (may go negative within the margin); only for `Clock`.
    pub remaining_ms: i64,
    /// Moves this side has made so far.
    pub moves_made: u32,
    pub margin_ms: u64,
    pub hang_timeout: Duration,
}

impl Clock {
    pub fn new(tc: TimeControl, margin_ms: u64, hang_timeout: Duration) -> Clock {
        let remaining_ms = match &tc {
            TimeControl::Clock { base_ms, .. } => *base_ms as i64,
            _ => 0,
        };
        Clock {
            tc,
            remaining_ms,
            moves_made: 0,
            margin_ms,
            hang_timeout,
        }
    }

    /// Moves left until the next time control, for UCI `movestogo`.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.tc {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.moves_made % m),
            _ => None,
        }
    }

    pub fn increment_ms(&self) -> u64 {
        match self.tc {
            TimeControl::Clock { inc_ms, .. } => inc_ms,
            _ => 0,
        }
    }

    /// Time left as reported to engines: never negative.
    pub fn reported_ms(&self) -> u64 {
        self.remaining_ms.max(0) as u64
    }

    /// The longest a move may take before the side forfeits (clock-bound
    /// controls) or is declared hung (fixed nodes, depth, infinite).
    pub fn allowance(&self) -> Duration {
        match self.tc {
            TimeControl::Clock { .. } => {
                Duration::from_millis(self.remaining_ms.max(0) as u64 + self.margin_ms)
            }
            TimeControl::MoveTime { ms } => Duration::from_millis(ms + self.margin_ms),
            TimeControl::Nodes(_) | TimeControl::Depth(_) | TimeControl::Infinite => {
                self.hang_timeout
            }
        }
    }

    /// Whether running out of `allowance` is a loss on time (true) or a hang
    /// (false).
    pub fn is_timed(&self) -> bool {
        matches!(
            self.tc,
            TimeControl::Clock { .. } | TimeControl::MoveTime { .. }
        )
    }

    /// Charge a move that took `elapsed`. Returns false if it overstepped the
    /// allowance, i.e. the side lost on time.
    pub fn charge(&mut self, elapsed: Duration) -> bool {
        let within = elapsed <= self.allowance();
        self.moves_made += 1;
        if let TimeControl::Clock {
            base_ms,
            inc_ms,
            moves,
        } = self.tc
        {
            self.remaining_ms -= elapsed.as_millis() as i64;
            if within {
                self.remaining_ms += inc_ms as i64;
                if let Some(m) = moves
                    && self.moves_made.is_multiple_of(m)
                {
                    self.remaining_ms += base_ms as i64;
                }
            }
        }
        within
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(
            TimeControl::parse_tc("5+0.05").unwrap(),
            TimeControl::Clock {
                base_ms: 5000,
                inc_ms: 50,
                moves: None
            }
        );
        assert_eq!(
            TimeControl::parse_tc("40/60").unwrap(),
            TimeControl::Clock {
                base_ms: 60_000,
                inc_ms: 0,
                moves: Some(40)
            }
        );
        assert_eq!(
            TimeControl::parse_tc("1:30+1").unwrap(),
            TimeControl::Clock {
                base_ms: 90_000,
                inc_ms: 1000,
                moves: None
            }
        );
        for bad in ["", "x", "0/5", "5+", "-1+1", "0+0", "40/"] {
            assert!(TimeControl::parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(TimeControl::parse_tc("5+0.05").unwrap().pgn_tag(), "5+0.05");
        assert_eq!(TimeControl::parse_tc("40/60").unwrap().pgn_tag(), "40/60");
    }

    #[test]
    fn clock_adds_increment_and_repeating_base() {
        let tc = TimeControl::parse_tc("2/10+1").unwrap();
        let mut c = Clock::new(tc, 0, DEFAULT_HANG_TIMEOUT);
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_millis(4000)));
        assert_eq!(c.remaining_ms, 7000);
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(Duration::from_millis(2000)));
        // 7000 − 2000 + 1000 increment + 10000 for the new period.
        assert_eq!(c.remaining_ms, 16_000);
        assert!(!c.charge(Duration::from_millis(16_001)));
    }

    #[test]
    fn margin_tolerates_small_overruns() {
        let mut c = Clock::new(TimeControl::MoveTime { ms: 100 }, 50, DEFAULT_HANG_TIMEOUT);
        assert!(c.charge(Duration::from_millis(149)));
        assert!(!c.charge(Duration::from_millis(151)));
    }
}
