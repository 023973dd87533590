//! Correction history: how far the static evaluation has missed the search's
//! result in positions sharing a pawn structure or a material balance. The
//! evaluation errs the same way in related positions (a pawn structure it
//! misjudges, an imbalance it over- or underrates), so adding the running
//! average of its recent errors makes pruning decisions that compare the
//! evaluation with a bound more trustworthy.

use shakmaty::{Bitboard, Chess, Position as _, Role};

use super::params as p;
use super::score::KNOWN_WIN;

/// Entries per side to move and table (a power of two).
const ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times this, so small updates are not lost to rounding.
const GRAIN: i32 = 256;
/// An entry's bound in centipawns: a correction is a nudge, never a verdict.
const MAX_CORRECTION: i32 = 64;
/// Update weights are out of this.
const WEIGHT_SCALE: i32 = 256;
/// The deepest searches move an entry by at most this share of the scale.
const MAX_WEIGHT: i32 = 16;

pub struct CorrectionHistory {
    /// Indexed by [side to move][pawn-structure hash].
    pawn: Box<[[i32; ENTRIES]; 2]>,
    /// Indexed by [side to move][material-count hash].
    material: Box<[[i32; ENTRIES]; 2]>,
}

/// A bitboard pair's hash: the multiply-xorshift of a 64-bit mixer, enough to
/// spread pawn structures over the table (collisions only blur averages).
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x7fb5_d329_728e_a185);
    let x = (x ^ (x >> 27)).wrapping_mul(0x81da_def4_bc2d_d44d);
    x ^ (x >> 33)
}

fn index(hash: u64) -> usize {
    (hash >> (64 - ENTRIES.trailing_zeros())) as usize
}

fn pawn_index(chess: &Chess) -> usize {
    let board = chess.board();
    let pawns = board.pawns();
    let white = (pawns & board.white()).0;
    let black = (pawns & board.black()).0;
    index(mix(white) ^ mix(black.rotate_left(32) ^ 0x9e37_79b9_7f4a_7c15))
}

/// Counts of every piece but kings, four bits each (nine queens at most fit).
fn material_index(chess: &Chess) -> usize {
    let board = chess.board();
    let mut packed = 0u64;
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        for side in [board.white(), board.black()] {
            let count: Bitboard = board.by_role(role) & side;
            packed = (packed << 4) | u64::from(count.count() as u32 & 15);
        }
    }
    index(mix(packed))
}

fn nudge(entry: &mut i32, error: i32, weight: i32) {
    let target = error.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
    *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    debug_assert!(entry.abs() <= MAX_CORRECTION * GRAIN);
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            pawn: Box::new([[0; ENTRIES]; 2]),
            material: Box::new([[0; ENTRIES]; 2]),
        }
    }

    /// Whether an evaluation or a search result is an ordinary one: known
    /// wins, tablebase results and mates are exact claims, not estimates to
    /// correct or learn from.
    fn ordinary(score: i32) -> bool {
        score.abs() < KNOWN_WIN
    }

    /// The raw static evaluation `raw` of `chess`, corrected.
    pub fn correct(&self, chess: &Chess, raw: i32) -> i32 {
        if !Self::ordinary(raw) {
            return raw;
        }
        let side = chess.turn() as usize;
        let pawn = self.pawn[side][pawn_index(chess)];
        let material = self.material[side][material_index(chess)];
        let correction =
            (pawn * p::corr_pawn_weight() + material * p::corr_material_weight()) / (GRAIN * 256);
        (raw + correction).clamp(-KNOWN_WIN + 1, KNOWN_WIN - 1)
    }

    /// A search to `depth` found `result` where the raw evaluation said
    /// `raw`: move both tables' entries towards that error, deeper searches
    /// more.
    pub fn update(&mut self, chess: &Chess, depth: i32, raw: i32, result: i32) {
        if !Self::ordinary(raw) || !Self::ordinary(result) {
            return;
        }
        let error = result - raw;
        let weight = (depth + 1).min(MAX_WEIGHT);
        let side = chess.turn() as usize;
        nudge(&mut self.pawn[side][pawn_index(chess)], error, weight);
        nudge(
            &mut self.material[side][material_index(chess)],
            error,
            weight,
        );
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

    #[test]
    fn repeated_errors_pull_the_evaluation_towards_the_results() {
        let pos = Position::startpos();
        let mut corr = CorrectionHistory::new();
        assert_eq!(corr.correct(pos.chess(), 30), 30);
        for _ in 0..200 {
            corr.update(pos.chess(), 12, 30, 80);
        }
        let corrected = corr.correct(pos.chess(), 30);
        assert!(corrected > 30 && corrected <= 80, "{corrected}");
        // The other side to move has its own entries.
        let black = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(corr.correct(black.chess(), 30), 30);
    }

    #[test]
    fn known_wins_and_mates_are_left_alone() {
        let pos = Position::startpos();
        let mut corr = CorrectionHistory::new();
        for _ in 0..200 {
            corr.update(pos.chess(), 12, 0, 500);
            corr.update(pos.chess(), 12, 0, 31_000);
        }
        assert_eq!(corr.correct(pos.chess(), KNOWN_WIN + 5), KNOWN_WIN + 5);
        // The mate result taught nothing: the entries hold the 64 cp bound.
        let corrected = corr.correct(pos.chess(), 0);
        assert!(corrected > 0 && corrected <= MAX_CORRECTION, "{corrected}");
    }

    #[test]
    fn structures_and_material_hash_apart() {
        let a = Position::startpos();
        let b = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_ne!(pawn_index(a.chess()), pawn_index(b.chess()));
        assert_eq!(material_index(a.chess()), material_index(b.chess()));
    }
}
