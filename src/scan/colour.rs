//! Whose piece each piece is, judged across the whole board. The net reads
//! every square standardised on its own, so that board colours matter less
//! than shapes; that also hides how light a piece is beside the others, and
//! on art it never saw (Black's pieces in gold, White's in silver) it takes
//! one side's pieces for the other's. On one board, pieces of one kind on
//! squares of one tone differ only in colour: where such a group splits
//! clearly into lighter and darker pieces, the lighter ones are White's, and
//! the other colour of each becomes less likely.

use super::{Displayed, EMPTY, finder::Grid, picture::Plane};

/// A square is resampled to this many tones a side.
const TONES: usize = 16;
/// Squares whose backgrounds differ by less than this are of one tone.
const SAME_BACKGROUND: f32 = 0.05;
/// The least difference in tone that tells two pieces' colours apart...
const MIN_GAP: f32 = 0.04;
/// ... and it must be this many times the spread on either side of it.
const GAP_OVER_SPREAD: f32 = 3.0;
/// How much less likely (log) a piece's other colour becomes: a net call
/// surer than e⁴ ≈ 55 to 1 still stands.
const OTHER_COLOUR_COST: f32 = 4.0;

/// One piece as the picture shows it.
#[derive(Clone, Copy, Debug)]
struct Seen {
    square: usize,
    /// The kind of piece the net calls it (0 pawn … 5 king).
    role: usize,
    /// The square's own tone, from its edge.
    background: f32,
    /// The mean tone inside the square, less the background.
    tone: f32,
}

/// The background (median of the outer ring) and the mean tone inside it.
fn measure(tones: &[f32]) -> (f32, f32) {
    debug_assert_eq!(tones.len(), TONES * TONES);
    let on_edge = |i: usize| {
        let (row, col) = (i / TONES, i % TONES);
        row == 0 || col == 0 || row == TONES - 1 || col == TONES - 1
    };
    let mut ring: Vec<f32> = (0..tones.len())
        .filter(|&i| on_edge(i))
        .map(|i| tones[i])
        .collect();
    ring.sort_unstable_by(f32::total_cmp);
    let background = ring[ring.len() / 2];
    let inner: Vec<f32> = (0..tones.len())
        .filter(|&i| {
            let (row, col) = (i / TONES, i % TONES);
            (2..TONES - 2).contains(&row) && (2..TONES - 2).contains(&col)
        })
        .map(|i| tones[i])
        .collect();
    let mean = inner.iter().sum::<f32>() / inner.len() as f32;
    (background, mean - background)
}

/// Where `tones` (sorted) split into two clear groups: the index of the
/// first of the upper group.
fn clear_split(tones: &[f32]) -> Option<usize> {
    debug_assert!(tones.windows(2).all(|w| w[0] <= w[1]));
    let n = tones.len();
    let (gap, at) = (1..n)
        .map(|k| (tones[k] - tones[k - 1], k))
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    let spread = (tones[at - 1] - tones[0]).max(tones[n - 1] - tones[at]);
    (gap >= MIN_GAP && gap >= GAP_OVER_SPREAD * spread).then_some(at)
}

/// Makes each piece's other colour less likely where its group on the
/// board (same kind of piece, same background tone) splits into lighter
/// and darker pieces. `plane` is the picture turned upright.
pub fn harmonise(plane: &Plane, grid: &Grid, probs: &mut Displayed<[f32; 13]>) {
    let mut pieces: Vec<Seen> = (0..64)
        .filter_map(|square| {
            let call = (0..13).max_by(|&a, &b| probs[square][a].total_cmp(&probs[square][b]))?;
            if call == EMPTY {
                return None;
            }
            let (left, top) = grid.corner(square);
            let (background, tone) = measure(&plane.square_tones::<TONES>(left, top, grid.square));
            Some(Seen {
                square,
                role: (call - 1) % 6,
                background,
                tone,
            })
        })
        .collect();
    // Backgrounds in runs of close tones: light squares, dark ones,
    // highlighted ones, each side of a shadow's edge.
    pieces.sort_unstable_by(|a, b| a.background.total_cmp(&b.background));
    let mut runs: Vec<Vec<Seen>> = Vec::new();
    for piece in pieces {
        match runs.last_mut() {
            Some(run) if piece.background - run[run.len() - 1].background < SAME_BACKGROUND => {
                run.push(piece)
            }
            _ => runs.push(vec![piece]),
        }
    }
    for run in &runs {
        for role in 0..6 {
            let mut group: Vec<Seen> = run.iter().copied().filter(|p| p.role == role).collect();
            group.sort_unstable_by(|a, b| a.tone.total_cmp(&b.tone));
            let tones: Vec<f32> = group.iter().map(|p| p.tone).collect();
            let Some(at) = clear_split(&tones) else {
                continue;
            };
            for (k, piece) in group.iter().enumerate() {
                let darker = k < at;
                penalise_side(&mut probs[piece.square], darker);
            }
        }
    }
}

/// Divides the probabilities of White's pieces (`whites`) or Black's by
/// e^[`OTHER_COLOUR_COST`] and renormalises.
fn penalise_side(p: &mut [f32; 13], whites: bool) {
    let factor = (-OTHER_COLOUR_COST).exp();
    let range = if whites { 1..7 } else { 7..13 };
    for c in range {
        p[c] *= factor;
    }
    let sum: f32 = p.iter().sum();
    if sum > 0.0 {
        for v in p.iter_mut() {
            *v /= sum;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_gap_splits_and_a_blur_of_tones_does_not() {
        assert_eq!(clear_split(&[-0.30, -0.29, -0.05, -0.04, -0.04]), Some(2));
        assert_eq!(clear_split(&[-0.10, -0.08, -0.06, -0.04, -0.02]), None);
        // One group only, or too small a difference to be a colour.
        assert_eq!(clear_split(&[-0.05]), None);
        assert_eq!(clear_split(&[-0.05, -0.03]), None);
    }

    /// A board of light grey squares with pawns drawn as discs: White's
    /// silver (0.85), Black's gold (0.65), all of them called white pawns
    /// with 0.8 by a net that cannot tell the two apart.
    #[test]
    fn darker_pawns_of_a_group_become_blacks() {
        let side = 40usize;
        let (width, height) = (8 * side, 8 * side);
        let mut pixels = vec![0.9f32; width * height];
        let pawn_at = |square: usize| -> (usize, usize) {
            (square % 8 * side + side / 2, square / 8 * side + side / 2)
        };
        let mut empty = [0.0; 13];
        empty[EMPTY] = 1.0;
        let mut probs: Displayed<[f32; 13]> = [empty; 64];
        // Black's pawns on the second row, White's on the seventh, only
        // on squares of one colour.
        let black: Vec<usize> = (8..16).filter(|s| (s / 8 + s % 8) % 2 == 0).collect();
        let white: Vec<usize> = (48..56).filter(|s| (s / 8 + s % 8) % 2 == 0).collect();
        for (squares, tone) in [(&black, 0.65f32), (&white, 0.85f32)] {
            for &square in squares {
                let (cx, cy) = pawn_at(square);
                for y in cy - 10..cy + 10 {
                    for x in cx - 10..cx + 10 {
                        if (x as i32 - cx as i32).pow(2) + (y as i32 - cy as i32).pow(2) < 100 {
                            pixels[y * width + x] = tone;
                        }
                    }
                }
                probs[square] = [0.0; 13];
                probs[square][1] = 0.8; // 'P'
                probs[square][7] = 0.2; // 'p'
            }
        }
        let plane = Plane {
            width,
            height,
            pixels,
        };
        let grid = Grid {
            left: 0.0,
            top: 0.0,
            square: side as f32,
            skew: 0.0,
        };
        harmonise(&plane, &grid, &mut probs);
        for &square in &black {
            assert!(
                probs[square][7] > probs[square][1],
                "{square}: {:?}",
                probs[square]
            );
        }
        for &square in &white {
            assert!(probs[square][1] > 0.99, "{square}: {:?}", probs[square]);
        }
        // Empty squares are left alone.
        assert_eq!(probs[27][EMPTY], 1.0);
    }
}
