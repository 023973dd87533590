//! Draw and resign adjudication from the engines' own scores, with the
//! semantics of cutechess-cli's `-draw` and `-resign` options.
//!
//! - Draw: from full move `movenumber` on, once both engines' scores have
//!   stayed within `score` centipawns of zero for `movecount` consecutive
//!   moves each (2·movecount plies).
//! - Resign: once an engine's score has been at or below `-score` for
//!   `movecount` consecutive moves of its own; with `twosided=true` the
//!   opponent must also have scored at least `+score` for as many moves.

use shakmaty::Color;

use super::engine::Score;
use super::referee::{GameEnd, GameResult, Termination, color_name};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Consecutive plies with |score| within the draw band.
    quiet_plies: u32,
    /// Per colour (white, black): consecutive own moves at or below -score.
    losing: [u32; 2],
    /// Per colour: consecutive own moves at or above +score.
    winning: [u32; 2],
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Adjudicator {
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            ..Adjudicator::default()
        }
    }

    /// Record the score `mover`'s engine gave for the move just played at
    /// full move `move_number`, and say whether the game is adjudicated.
    pub fn record(
        &mut self,
        mover: Color,
        score: Option<Score>,
        move_number: u32,
    ) -> Option<GameEnd> {
        let cp = score.map(Score::as_cp);
        if let Some(rule) = self.draw {
            match cp {
                Some(cp) if cp.abs() <= rule.score => self.quiet_plies += 1,
                _ => self.quiet_plies = 0,
            }
            if move_number >= rule.move_number && self.quiet_plies >= 2 * rule.move_count {
                return Some(GameEnd {
                    result: GameResult::Draw,
                    termination: Termination::Adjudication,
                    reason: "Draw by adjudication".to_string(),
                });
            }
        }
        if let Some(rule) = self.resign {
            let i = index(mover);
            self.losing[i] = match cp {
                Some(cp) if cp <= -rule.score => self.losing[i] + 1,
                _ => 0,
            };
            self.winning[i] = match cp {
                Some(cp) if cp >= rule.score => self.winning[i] + 1,
                _ => 0,
            };
            for loser in [mover, !mover] {
                let lost = self.losing[index(loser)] >= rule.move_count;
                let agreed = !rule.two_sided || self.winning[index(!loser)] >= rule.move_count;
                if lost && agreed {
                    return Some(GameEnd {
                        result: GameResult::win_for(!loser),
                        termination: Termination::Adjudication,
                        reason: format!("{} resigns by adjudication", color_name(loser)),
                    });
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_needs_move_number_and_both_sides_quiet() {
        let rule = DrawRule {
            move_number: 40,
            move_count: 2,
            score: 10,
        };
        let mut a = Adjudicator::new(Some(rule), None);
        // Quiet from move 38 on: four quiet plies are reached at move 39,
        // but the move number rule holds it back until move 40.
        for (n, c) in [
            (38, Color::White),
            (38, Color::Black),
            (39, Color::White),
            (39, Color::Black),
        ] {
            assert!(a.record(c, Some(Score::Cp(5)), n).is_none());
        }
        let end = a.record(Color::White, Some(Score::Cp(-3)), 40).unwrap();
        assert_eq!(end.result, GameResult::Draw);
        // A loud score resets the count.
        let mut a = Adjudicator::new(Some(rule), None);
        for (i, cp) in [5, 5, 50, 5, 5, 5, 5].into_iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let r = a.record(c, Some(Score::Cp(cp)), 50);
            assert_eq!(r.is_some(), i == 6, "ply {i}");
        }
    }

    #[test]
    fn resign_one_and_two_sided() {
        let one = ResignRule {
            move_count: 3,
            score: 600,
            two_sided: false,
        };
        let mut a = Adjudicator::new(None, Some(one));
        for _ in 0..2 {
            assert!(a.record(Color::Black, Some(Score::Cp(-700)), 30).is_none());
        }
        let end = a.record(Color::Black, Some(Score::Mate(-5)), 31).unwrap();
        assert_eq!(end.result, GameResult::WhiteWins);

        let two = ResignRule {
            two_sided: true,
            ..one
        };
        let mut a = Adjudicator::new(None, Some(two));
        for _ in 0..3 {
            // White thinks it is only a little better: no agreement yet.
            assert!(a.record(Color::White, Some(Score::Cp(200)), 30).is_none());
            assert!(a.record(Color::Black, Some(Score::Cp(-700)), 30).is_none());
        }
        for _ in 0..2 {
            assert!(a.record(Color::White, Some(Score::Cp(650)), 30).is_none());
            assert!(a.record(Color::Black, Some(Score::Cp(-700)), 30).is_none());
        }
        let end = a.record(Color::White, Some(Score::Cp(650)), 30).unwrap();
        assert_eq!(end.result, GameResult::WhiteWins);
    }
}
