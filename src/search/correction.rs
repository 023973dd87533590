//! Correction history: how far the static evaluation has recently missed
//! the search's result in positions that share a pawn structure, or share
//! one side's pieces. The net errs alike in related positions (a structure
//! it misjudges, a piece set it over- or underrates), so adding the running
//! average of its recent errors makes every decision that compares the
//! evaluation with a bound (reverse futility, null move, futility, standing
//! pat) more trustworthy. The table keeps the raw evaluation; only the
//! search's own use of it is corrected.
//!
//! The entries learn the *remaining* error: each update moves them by the
//! gap between the search's result and the already corrected evaluation, so
//! once a correction is right it stops growing.

use shakmaty::Color;

use super::params as p;
use crate::position::Snapshot;

/// Entries per table row (a power of two).
const ENTRIES: usize = 1 << 14;
/// An entry's bound; the update's own bound is a quarter of it.
const LIMIT: i32 = 1024;
/// Correction weights are out of this: an entry at [`LIMIT`] with the
/// default weight 1024 is worth 32 cp.
const WEIGHT_SCALE: i32 = 32 * LIMIT;

pub struct CorrectionHistory {
    /// Indexed by [side to move][pawn-structure hash].
    pawn: Box<[[i16; ENTRIES]; 2]>,
    /// Indexed by [side to move][colour][hash of that colour's pieces other
    /// than pawns, king included].
    non_pawn: Box<[[[i16; ENTRIES]; 2]; 2]>,
}

fn index(key: u64) -> usize {
    (key >> (64 - ENTRIES.trailing_zeros())) as usize
}

/// Zobrist keys are random bits already: their top bits index the tables.
fn pawn_index(snapshot: &Snapshot) -> usize {
    index(snapshot.board().pawn_key())
}

fn non_pawn_index(snapshot: &Snapshot, color: Color) -> usize {
    index(snapshot.board().non_pawn_key(color))
}

/// Moves `entry` towards the bound on the side of `bonus` by `bonus`, less
/// the more it is already there (the history tables' gravity).
fn nudge(entry: &mut i16, bonus: i32) {
    let e = i32::from(*entry);
    let updated = e + bonus - e * bonus.abs() / LIMIT;
    debug_assert!(updated.abs() <= LIMIT, "{updated}");
    *entry = updated as i16;
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            pawn: Box::new([[0; ENTRIES]; 2]),
            non_pawn: Box::new([[[0; ENTRIES]; 2]; 2]),
        }
    }

    /// The correction in centipawns to add to the raw static evaluation of
    /// `snapshot` (from the side to move).
    pub fn correction(&self, snapshot: &Snapshot) -> i32 {
        let stm = snapshot.turn() as usize;
        let pawn = i32::from(self.pawn[stm][pawn_index(snapshot)]);
        let non_pawn: i32 = [Color::White, Color::Black]
            .iter()
            .map(|&c| i32::from(self.non_pawn[stm][c as usize][non_pawn_index(snapshot, c)]))
            .sum();
        (pawn * p::corr_pawn_weight() + non_pawn * p::corr_non_pawn_weight()) / WEIGHT_SCALE
    }

    /// A search to `depth` ended `error` centipawns away from the corrected
    /// evaluation of `snapshot`: deeper searches teach more.
    pub fn update(&mut self, snapshot: &Snapshot, depth: i32, error: i32) {
        let bonus = (error * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let stm = snapshot.turn() as usize;
        nudge(&mut self.pawn[stm][pawn_index(snapshot)], bonus);
        for color in [Color::White, Color::Black] {
            let i = non_pawn_index(snapshot, color);
            nudge(&mut self.non_pawn[stm][color as usize][i], bonus);
        }
    }
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen, false).unwrap()
    }

    #[test]
    fn repeated_errors_pull_the_correction_towards_them_and_no_further() {
        let pos = Position::startpos();
        let mut corr = CorrectionHistory::new();
        assert_eq!(corr.correction(pos.snapshot()), 0);
        // The search keeps finding 40 cp more than the corrected evaluation
        // of a position whose raw evaluation is 0, as the search does.
        for _ in 0..200 {
            let error = 40 - corr.correction(pos.snapshot());
            corr.update(pos.snapshot(), 10, error);
        }
        let learnt = corr.correction(pos.snapshot());
        assert!((30..=40).contains(&learnt), "{learnt}");
        // Errors the other way bring it back down.
        for _ in 0..200 {
            let error = -20 - corr.correction(pos.snapshot());
            corr.update(pos.snapshot(), 10, error);
        }
        let learnt = corr.correction(pos.snapshot());
        assert!((-20..=-10).contains(&learnt), "{learnt}");
    }

    #[test]
    fn the_correction_is_bounded_however_large_the_errors() {
        let pos = Position::startpos();
        let mut corr = CorrectionHistory::new();
        for _ in 0..1000 {
            corr.update(pos.snapshot(), 30, 5000);
        }
        // One pawn entry and two non-pawn entries, each at most LIMIT.
        let most = LIMIT * (p::corr_pawn_weight() + 2 * p::corr_non_pawn_weight()) / WEIGHT_SCALE;
        assert!(corr.correction(pos.snapshot()) <= most);
        assert!(corr.correction(pos.snapshot()) > 0);
    }

    #[test]
    fn each_side_to_move_has_its_own_entries() {
        let white = Position::startpos();
        let black = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        let mut corr = CorrectionHistory::new();
        for _ in 0..50 {
            corr.update(white.snapshot(), 12, 200);
        }
        assert!(corr.correction(white.snapshot()) > 0);
        assert_eq!(corr.correction(black.snapshot()), 0);
    }

    #[test]
    fn a_pawn_move_keeps_the_non_pawn_entries_and_a_knight_move_the_pawn_entry() {
        let start = Position::startpos();
        let pawn_moved = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        let knight_moved = position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1");
        let s = start.snapshot();
        assert_ne!(pawn_index(s), pawn_index(pawn_moved.snapshot()));
        for c in [Color::White, Color::Black] {
            assert_eq!(
                non_pawn_index(s, c),
                non_pawn_index(pawn_moved.snapshot(), c)
            );
        }
        assert_eq!(pawn_index(s), pawn_index(knight_moved.snapshot()));
        assert_ne!(
            non_pawn_index(s, Color::White),
            non_pawn_index(knight_moved.snapshot(), Color::White)
        );
        assert_eq!(
            non_pawn_index(s, Color::Black),
            non_pawn_index(knight_moved.snapshot(), Color::Black)
        );
    }
}
