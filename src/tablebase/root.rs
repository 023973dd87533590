//! Ranking the root moves by the tables: by DTZ where the DTZ tables are
//! there, else by WDL, keeping the moves that hold the best result under the
//! fifty-move rule as set. Plain results (WDL, DTZ, a rank); what they are
//! worth as a search score is the search's business.

use shakmaty::{Move, Position as _};

use super::{ProbeSettings, Tablebase, Wdl};
use crate::position::Position;

impl Tablebase {
    /// Ranks the root moves by DTZ (or by WDL where a DTZ table is missing)
    /// so the search looks only at moves that keep the best result under
    /// `settings.rule50`. `None` when the position cannot be probed or has no
    /// legal move. `pos` is left as it was.
    pub fn rank_root_moves(
        &self,
        pos: &mut Position,
        settings: &ProbeSettings,
    ) -> Option<RootRanking> {
        if !self.can_probe(&pos.to_chess(), settings.limit) || pos.legal_moves().is_empty() {
            return None;
        }
        self.rank_by_dtz(pos, settings)
            .or_else(|| self.rank_by_wdl(pos, settings))
    }

    fn rank_by_dtz(&self, pos: &mut Position, settings: &ProbeSettings) -> Option<RootRanking> {
        let clock = pos.halfmoves();
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            pos.make(m);
            let dtz = self.root_move_dtz(pos, &m);
            pos.unmake();
            let dtz = dtz?;
            let result = result_of_dtz(dtz, clock, settings.rule50);
            moves.push(RankedMove {
                mv: m,
                result,
                dtz: Some(dtz),
                rank: rank(result, dtz),
            });
        }
        Some(RootRanking::new(moves, clock, settings.rule50))
    }

    /// DTZ of the root move that led to `pos`, from the root's point of view.
    fn root_move_dtz(&self, pos: &Position, m: &Move) -> Option<i32> {
        let chess = pos.to_chess();
        if chess.is_checkmate() {
            return Some(1);
        }
        if pos.is_repetition_draw(1) || pos.is_fifty_move_draw() {
            return Some(0);
        }
        if m.is_zeroing() {
            // The clock restarts: the WDL tables alone give the answer.
            let wdl = -self.probe_wdl_after_zeroing(&chess)?;
            return Some(dtz_before_zeroing(wdl));
        }
        let dtz = -self.probe_dtz(&chess)?;
        // One more ply: the root move itself.
        Some(dtz + dtz.signum())
    }

    fn rank_by_wdl(&self, pos: &mut Position, settings: &ProbeSettings) -> Option<RootRanking> {
        let clock = pos.halfmoves();
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            pos.make(m);
            let result = if pos.to_chess().is_checkmate() {
                Some(Wdl::Win)
            } else if pos.is_repetition_draw(1) || pos.is_fifty_move_draw() {
                Some(Wdl::Draw)
            } else {
                self.probe_wdl_after_zeroing(&pos.to_chess()).map(|w| -w)
            };
            pos.unmake();
            let result = fold_rule50(result?, settings.rule50);
            moves.push(RankedMove {
                mv: m,
                result,
                dtz: None,
                rank: rank(result, 0),
            });
        }
        Some(RootRanking::new(moves, clock, settings.rule50))
    }
}

/// A root move with its tablebase result from the root's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// The result this move keeps, the fifty-move rule applied as set.
    pub result: Wdl,
    /// Plies from the root until the halfmove clock is zeroed with best
    /// play (positive when winning); `None` when ranked by WDL only.
    pub dtz: Option<i32>,
    /// Larger is better.
    pub rank: i32,
}

/// The root moves ranked by the tables.
#[derive(Clone, Debug)]
pub struct RootRanking {
    /// Every legal move, best first.
    pub moves: Vec<RankedMove>,
    /// The first `keep` moves keep the best result: search only those.
    pub keep: usize,
}

impl RootRanking {
    fn new(mut moves: Vec<RankedMove>, clock: u32, rule50: bool) -> RootRanking {
        moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
        let best = moves[0];
        let ranked_by_dtz = best.dtz.is_some();
        let keep = moves
            .iter()
            .take_while(|m| {
                if !ranked_by_dtz {
                    return m.result == best.result;
                }
                match best.result {
                    // Wins: only the moves that zero the clock soonest. The
                    // distance to zeroing then drops every move, so the win
                    // comes within the fifty-move rule and no position can
                    // repeat on the way.
                    Wdl::Win | Wdl::CursedWin => m.rank == best.rank,
                    Wdl::Draw | Wdl::BlessedLoss => m.result == best.result,
                    // Losses: any losing move while the fifty-move rule is out
                    // of reach (the search picks the most stubborn one), the
                    // longest resistance once it comes near.
                    Wdl::Loss => {
                        let longest = best.dtz.map_or(0, i32::abs);
                        if rule50 && 2 * longest + clock as i32 >= 100 {
                            m.rank == best.rank
                        } else {
                            m.result == best.result
                        }
                    }
                }
            })
            .count();
        RootRanking { moves, keep }
    }

    /// The true result of the root position for the side to move.
    pub fn result(&self) -> Wdl {
        self.moves[0].result
    }

    /// Plies to zeroing with best play, when known.
    pub fn dtz(&self) -> Option<i32> {
        self.moves[0].dtz
    }

    /// The moves that keep the best result, best first.
    pub fn best_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[..self.keep].iter().map(|m| m.mv)
    }

    /// UCI `wdl` triple (per mille win, draw, loss) of the true result.
    pub fn wdl_permille(&self) -> (u32, u32, u32) {
        wdl_permille(self.result())
    }
}

/// UCI `wdl` triple for a tablebase result (cursed wins and blessed losses
/// are draws under the fifty-move rule).
fn wdl_permille(result: Wdl) -> (u32, u32, u32) {
    match result {
        Wdl::Win => (1000, 0, 0),
        Wdl::Loss => (0, 0, 1000),
        _ => (0, 1000, 0),
    }
}

/// Without the fifty-move rule a cursed win is a win and a blessed loss a loss.
pub fn fold_rule50(result: Wdl, rule50: bool) -> Wdl {
    match result {
        Wdl::CursedWin if !rule50 => Wdl::Win,
        Wdl::BlessedLoss if !rule50 => Wdl::Loss,
        other => other,
    }
}

/// The result of a root move `dtz` plies from zeroing when the clock
/// already stands at `clock`: a zeroing move on the hundredth ply still
/// counts.
fn result_of_dtz(dtz: i32, clock: u32, rule50: bool) -> Wdl {
    let in_time = dtz.abs() + clock as i32 <= 100;
    match dtz.signum() {
        1 if in_time || !rule50 => Wdl::Win,
        1 => Wdl::CursedWin,
        -1 if in_time || !rule50 => Wdl::Loss,
        -1 => Wdl::BlessedLoss,
        _ => Wdl::Draw,
    }
}

/// Sort key: the result first, then fewer plies to zeroing when winning and
/// more when losing.
fn rank(result: Wdl, dtz: i32) -> i32 {
    i32::from(result) * 10_000 - dtz
}

/// DTZ of a zeroing move, from the WDL it reaches (Syzygy's convention).
fn dtz_before_zeroing(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Win => 1,
        Wdl::CursedWin => 101,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -101,
        Wdl::Loss => -1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_of_dtz_respects_the_fifty_move_rule() {
        assert_eq!(result_of_dtz(5, 0, true), Wdl::Win);
        assert_eq!(result_of_dtz(5, 95, true), Wdl::Win);
        assert_eq!(result_of_dtz(5, 96, true), Wdl::CursedWin);
        assert_eq!(result_of_dtz(5, 96, false), Wdl::Win);
        assert_eq!(result_of_dtz(101, 0, true), Wdl::CursedWin);
        assert_eq!(result_of_dtz(-101, 0, true), Wdl::BlessedLoss);
        assert_eq!(result_of_dtz(-101, 0, false), Wdl::Loss);
        assert_eq!(result_of_dtz(0, 50, true), Wdl::Draw);
    }
}
