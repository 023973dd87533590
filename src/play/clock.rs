//! Chess clocks for competitive games: a base time and an increment (lichess's
//! "minutes+seconds"), the side to move's time running, an increment added
//! after each move, and a flag when a side's time is out. The server checks
//! the flag whenever it touches a game; the page counts down between states.

use std::time::Instant;

use serde_json::{Value, json};
use shakmaty::Color;

/// The longest base time a game may ask for (three hours) and the largest
/// increment (a minute): anything longer is a typo.
const MAX_BASE_MS: i64 = 3 * 60 * 60 * 1000;
const MAX_INCREMENT_MS: i64 = 60 * 1000;

#[derive(Clone, Debug)]
pub struct Clock {
    pub base_ms: i64,
    pub increment_ms: i64,
    /// Time left, White's and Black's, as of the last press.
    left_ms: [i64; 2],
    /// The side whose time runs and since when; `None` once stopped.
    running: Option<(Color, Instant)>,
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clock {
    /// Reads "minutes+seconds" (`5+3`, `0.5+0`, `15+10`).
    pub fn parse(text: &str) -> Result<Clock, String> {
        let usage = || format!("clock {text:?}: minutes+seconds, e.g. 5+3");
        let (minutes, seconds) = text.trim().split_once('+').ok_or_else(usage)?;
        let minutes: f64 = minutes.trim().parse().map_err(|_| usage())?;
        let seconds: f64 = seconds.trim().parse().map_err(|_| usage())?;
        let base_ms = (minutes * 60_000.0).round();
        let increment_ms = (seconds * 1000.0).round();
        if !(1000.0..=MAX_BASE_MS as f64).contains(&base_ms)
            || !(0.0..=MAX_INCREMENT_MS as f64).contains(&increment_ms)
        {
            return Err(format!(
                "clock {text:?}: from 1 second to 180 minutes, and an increment of at most 60 seconds"
            ));
        }
        Ok(Clock {
            base_ms: base_ms as i64,
            increment_ms: increment_ms as i64,
            left_ms: [base_ms as i64; 2],
            running: None,
        })
    }

    /// Starts `side`'s time (the side to move when the game starts).
    pub fn start(&mut self, side: Color, now: Instant) {
        self.running = Some((side, now));
    }

    /// Stops both times (the game is over).
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, since)) = self.running.take() {
            self.left_ms[index(side)] -= since_ms(since, now);
        }
    }

    /// `side`'s time left at `now` (negative once flagged).
    pub fn left(&self, side: Color, now: Instant) -> i64 {
        let left = self.left_ms[index(side)];
        match self.running {
            Some((running, since)) if running == side => left - since_ms(since, now),
            _ => left,
        }
    }

    /// The side whose time ran out, if any.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        let (side, _) = self.running?;
        (self.left(side, now) <= 0).then_some(side)
    }

    /// The mover pressed the clock: their time stops, with the increment
    /// added, and the other side's starts. A mover whose time had already
    /// run out is not credited (the caller ends the game).
    pub fn press(&mut self, mover: Color, now: Instant) {
        let left = self.left(mover, now);
        self.left_ms[index(mover)] = if left > 0 {
            left + self.increment_ms
        } else {
            left
        };
        self.running = Some((mover.other(), now));
    }

    /// The times as a `go` command would give them.
    pub fn go_times(&self, now: Instant) -> [i64; 4] {
        [
            self.left(Color::White, now).max(1),
            self.left(Color::Black, now).max(1),
            self.increment_ms,
            self.increment_ms,
        ]
    }

    pub fn to_json(&self, now: Instant) -> Value {
        json!({
            "white_ms": self.left(Color::White, now).max(0),
            "black_ms": self.left(Color::Black, now).max(0),
            "increment_ms": self.increment_ms,
            "running": self.running.map(|(side, _)| if side == Color::White { "white" } else { "black" }),
        })
    }
}

fn since_ms(since: Instant, now: Instant) -> i64 {
    now.saturating_duration_since(since).as_millis() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn minutes_plus_seconds_are_read_and_nonsense_is_refused() {
        let clock = Clock::parse("5+3").unwrap();
        assert_eq!((clock.base_ms, clock.increment_ms), (300_000, 3000));
        assert_eq!(Clock::parse(" 0.5 + 0 ").unwrap().base_ms, 30_000);
        for bad in ["5", "+3", "x+1", "0+0", "500+0", "5+61", "-1+2", "5+-1"] {
            assert!(Clock::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_mover_is_charged_credited_and_flagged() {
        let t0 = Instant::now();
        let mut clock = Clock::parse("1+2").unwrap();
        clock.start(Color::White, t0);
        let t1 = t0 + Duration::from_millis(10_000);
        assert_eq!(clock.left(Color::White, t1), 50_000);
        assert_eq!(clock.left(Color::Black, t1), 60_000);
        clock.press(Color::White, t1);
        assert_eq!(clock.left(Color::White, t1), 52_000, "increment added");
        let t2 = t1 + Duration::from_millis(60_500);
        assert_eq!(clock.flagged(t2), Some(Color::Black));
        clock.press(Color::Black, t2);
        assert_eq!(
            clock.left(Color::Black, t2),
            -500,
            "no increment once flagged"
        );
        clock.stop(t2);
        assert_eq!(clock.flagged(t2 + Duration::from_secs(100)), None);
        assert_eq!(
            clock.left(Color::White, t2 + Duration::from_secs(100)),
            52_000
        );
    }
}
