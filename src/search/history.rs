//! What earlier cutoffs teach move ordering: killer moves per ply, the
//! counter-move to the opponent's last move, and butterfly history scores.

use shakmaty::{Color, Move};

use super::score::MAX_PLY;

/// History scores saturate towards this bound ("gravity"), so old lessons
/// fade as new ones arrive.
pub const HISTORY_MAX: i32 = 16384;

pub struct History {
    /// Indexed by [side to move][from][to].
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// The reply that refuted a move, indexed by [mover of that move][its from][its to].
    counter: Box<[[[Option<Move>; 64]; 64]; 2]>,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
}

fn from_to(m: Move) -> (usize, usize) {
    (m.from().map_or(0, |s| s as usize), m.to() as usize)
}

impl History {
    pub fn new() -> History {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[[None; 64]; 64]; 2]),
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
        }
    }

    pub fn score(&self, turn: Color, m: Move) -> i32 {
        let (f, t) = from_to(m);
        self.butterfly[turn as usize][f][t]
    }

    fn nudge(&mut self, turn: Color, m: Move, bonus: i32) {
        let (f, t) = from_to(m);
        let h = &mut self.butterfly[turn as usize][f][t];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// A quiet move caused a beta cutoff at `depth`: reward it, punish the
    /// quiet moves tried before it, remember it as killer and counter-move.
    pub fn record_cutoff(
        &mut self,
        turn: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        previous: Option<Move>,
    ) {
        let bonus = (depth * depth * 16).min(1600);
        self.nudge(turn, best, bonus);
        for &m in tried {
            if m != best {
                self.nudge(turn, m, -bonus);
            }
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        if let Some(prev) = previous {
            let (f, t) = from_to(prev);
            self.counter[(!turn) as usize][f][t] = Some(best);
        }
    }

    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// The remembered refutation of the opponent's `previous` move.
    pub fn counter_move(&self, turn: Color, previous: Option<Move>) -> Option<Move> {
        let prev = previous?;
        let (f, t) = from_to(prev);
        self.counter[(!turn) as usize][f][t]
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn cutoffs_reward_the_move_and_punish_the_others() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let (good, bad) = (moves[0], moves[1]);
        let mut h = History::new();
        h.record_cutoff(Color::White, 3, 6, good, &[bad, good], None);
        assert!(h.score(Color::White, good) > 0);
        assert!(h.score(Color::White, bad) < 0);
        assert_eq!(h.killers(3)[0], Some(good));
        for _ in 0..10_000 {
            h.record_cutoff(Color::White, 3, 20, good, &[], None);
        }
        assert!(h.score(Color::White, good) <= HISTORY_MAX);
    }
}
