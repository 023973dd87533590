//! Photos of physical boards: which squares hold a piece, and of which
//! colour, once the board has been warped flat ([`super::perspective`]).
//!
//! Turned pieces are not the flat symbols the net knows, and a standing piece
//! leans over the squares behind it, so this reads no piece types. What it
//! reads is measured against one photo of the *starting position* of the same
//! board in the same light: there, ranks 3–6 show empty squares, ranks 1–2
//! white pieces and ranks 7–8 black ones, on both square colours. Each square
//! is described by a window in its upper middle as seen, which its own
//! piece covers and the piece in front of it (leaning back, away from the
//! camera) mostly does not; the square is called by the nearest of the
//! calibration's three kinds for its square colour.

use image::RgbImage;

/// Pixels a square in the flat board photos are read at.
pub const SQUARE_PX: u32 = 48;

/// What a square holds, as far as a photo can tell.
pub const OCCUPANTS: [char; 3] = ['.', 'W', 'B'];
const EMPTY: usize = 0;
const WHITE: usize = 1;
const BLACK: usize = 2;

/// The window each square is described by, as fractions of the square as
/// seen (left, right, top, bottom).
const WINDOW: [f64; 4] = [0.2, 0.8, 0.1, 0.6];

const FEATURES: usize = 5;

/// A floor on each feature's spread, so a feature that happens to be nearly
/// constant in the calibration photo cannot decide alone.
const MIN_SPREAD: [f64; FEATURES] = [0.02, 0.02, 0.02, 0.01, 0.005];

/// The calibration's kinds must stand this many spreads apart, or the start
/// photo does not tell pieces from squares (wrong corners, wrong photo).
const MIN_SEPARATION: f64 = 3.0;

/// Describes the window of displayed square (`row`, `col`) of a flat board
/// with `margin` pixels around it: mean red, green and blue, the spread of
/// brightness, and the mean brightness gradient (edges of a piece).
fn features(flat: &RgbImage, margin: u32, row: u32, col: u32) -> [f64; FEATURES] {
    let s = SQUARE_PX as f64;
    let x0 = margin + (col as f64 * s + WINDOW[0] * s) as u32;
    let x1 = margin + (col as f64 * s + WINDOW[1] * s) as u32;
    let y0 = margin + (row as f64 * s + WINDOW[2] * s) as u32;
    let y1 = margin + (row as f64 * s + WINDOW[3] * s) as u32;
    let lum = |x: u32, y: u32| {
        let p = flat.get_pixel(x, y);
        (0.299 * p[0] as f64 + 0.587 * p[1] as f64 + 0.114 * p[2] as f64) / 255.0
    };
    let (mut rgb, mut sum, mut sum2, mut grad) = ([0.0f64; 3], 0.0, 0.0, 0.0);
    let mut n = 0.0;
    for y in y0..y1 {
        for x in x0..x1 {
            let p = flat.get_pixel(x, y);
            for k in 0..3 {
                rgb[k] += p[k] as f64 / 255.0;
            }
            let l = lum(x, y);
            sum += l;
            sum2 += l * l;
            grad += (lum(x + 1, y) - l).abs() + (lum(x, y + 1) - l).abs();
            n += 1.0;
        }
    }
    let mean = sum / n;
    [
        rgb[0] / n,
        rgb[1] / n,
        rgb[2] / n,
        (sum2 / n - mean * mean).max(0.0).sqrt(),
        grad / n,
    ]
}

/// Light squares as displayed: a8 (top left with White at the bottom) and
/// h1 (top left with Black at the bottom) are both light.
fn is_light(row: u32, col: u32) -> bool {
    (row + col).is_multiple_of(2)
}

/// The flat board's margin in pixels, for a flat board made with
/// `perspective::warp_flat(…, SQUARE_PX, margin_squares)`.
pub fn margin_px(flat: &RgbImage) -> u32 {
    (flat.width().saturating_sub(8 * SQUARE_PX)) / 2
}

/// Each kind's mean features, per square colour, and the spread within kinds.
#[derive(Clone, Debug)]
pub struct Calibration {
    means: [[[f64; FEATURES]; 3]; 2],
    spread: [f64; FEATURES],
    /// Whether White was at the bottom of the start photo.
    pub white_at_bottom: bool,
}

impl Calibration {
    /// Learns the three kinds from a flat photo of the starting position;
    /// which side is at the bottom is told by the brighter pieces unless
    /// given.
    pub fn from_start(
        flat: &RgbImage,
        white_at_bottom: Option<bool>,
    ) -> Result<Calibration, String> {
        let margin = margin_px(flat);
        let described: Vec<[f64; FEATURES]> = (0..64)
            .map(|i| features(flat, margin, i / 8, i % 8))
            .collect();
        let brightness = |rows: std::ops::Range<usize>| {
            rows.flat_map(|r| (0..8).map(move |c| r * 8 + c))
                .map(|i| described[i][0] + described[i][1] + described[i][2])
                .sum::<f64>()
        };
        let white_at_bottom = white_at_bottom.unwrap_or(brightness(6..8) > brightness(0..2));
        let kind_of_row = |row: usize| match (row, white_at_bottom) {
            (2..=5, _) => EMPTY,
            (6 | 7, true) | (0 | 1, false) => WHITE,
            _ => BLACK,
        };
        let mut sums = [[[0.0f64; FEATURES]; 3]; 2];
        let mut counts = [[0.0f64; 3]; 2];
        for (i, f) in described.iter().enumerate() {
            let (row, col) = (i / 8, i % 8);
            let (light, kind) = (is_light(row as u32, col as u32) as usize, kind_of_row(row));
            counts[light][kind] += 1.0;
            for k in 0..FEATURES {
                sums[light][kind][k] += f[k];
            }
        }
        let means: [[[f64; FEATURES]; 3]; 2] = std::array::from_fn(|light| {
            std::array::from_fn(|kind| {
                std::array::from_fn(|k| sums[light][kind][k] / counts[light][kind])
            })
        });
        let mut spread = [0.0f64; FEATURES];
        for (i, f) in described.iter().enumerate() {
            let (row, col) = (i / 8, i % 8);
            let mean = &means[is_light(row as u32, col as u32) as usize][kind_of_row(row)];
            for k in 0..FEATURES {
                spread[k] += (f[k] - mean[k]).powi(2) / 64.0;
            }
        }
        for k in 0..FEATURES {
            spread[k] = spread[k].sqrt().max(MIN_SPREAD[k]);
        }
        let calibration = Calibration {
            means,
            spread,
            white_at_bottom,
        };
        let separation = calibration.least_separation();
        if separation < MIN_SEPARATION {
            return Err(format!(
                "the start photo does not tell pieces from empty squares (kinds {separation:.1} spreads apart, at least {MIN_SEPARATION} needed): \
                 is it the starting position, and are the corners right?"
            ));
        }
        Ok(calibration)
    }

    fn distance(&self, light: usize, kind: usize, f: &[f64; FEATURES]) -> f64 {
        (0..FEATURES)
            .map(|k| ((f[k] - self.means[light][kind][k]) / self.spread[k]).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    /// The closest two kinds on either square colour, in spreads.
    fn least_separation(&self) -> f64 {
        let mut least = f64::INFINITY;
        for light in 0..2 {
            for a in 0..3 {
                for b in a + 1..3 {
                    let d = self.distance(light, b, &self.means[light][a]);
                    least = least.min(d);
                }
            }
        }
        least
    }

    /// Each displayed square's probabilities of empty, white and black.
    pub fn call(&self, flat: &RgbImage) -> [[f64; 3]; 64] {
        let margin = margin_px(flat);
        std::array::from_fn(|i| {
            let (row, col) = ((i / 8) as u32, (i % 8) as u32);
            let f = features(flat, margin, row, col);
            let light = is_light(row, col) as usize;
            let log_likelihood: [f64; 3] =
                std::array::from_fn(|kind| -0.5 * self.distance(light, kind, &f).powi(2));
            let best = log_likelihood
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            let weights = log_likelihood.map(|l| (l - best).exp());
            let total: f64 = weights.iter().sum();
            weights.map(|w| w / total)
        })
    }
}

/// The likeliest occupant (an index into [`OCCUPANTS`]) of one square's
/// probabilities.
pub fn likeliest(p: &[f64; 3]) -> usize {
    (0..3)
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))
        .unwrap_or(EMPTY)
}

/// The occupancy in FEN order (a8 … h1), as indices into [`OCCUPANTS`], with
/// each call's probability.
pub fn in_fen_order(calls: &[[f64; 3]; 64], white_at_bottom: bool) -> ([usize; 64], [f64; 64]) {
    let mut kinds = [EMPTY; 64];
    let mut confidence = [0.0; 64];
    for (shown, p) in calls.iter().enumerate() {
        let i = if white_at_bottom { shown } else { 63 - shown };
        let kind = likeliest(p);
        kinds[i] = kind;
        confidence[i] = p[kind];
    }
    (kinds, confidence)
}

/// A FEN-like placement of the occupancy: `W` a white piece, `B` a black one,
/// digits for empty squares. Not a FEN: the piece types are unknown.
pub fn placement(kinds: &[usize; 64]) -> String {
    let mut out = String::new();
    for rank in 0..8 {
        let mut empty = 0;
        for file in 0..8 {
            match kinds[rank * 8 + file] {
                EMPTY => empty += 1,
                kind => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(OCCUPANTS[kind]);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank < 7 {
            out.push('/');
        }
    }
    out
}

/// The occupancy of a FEN placement field (upper case White), in FEN order.
pub fn occupancy_of_placement(placement: &str) -> Option<[usize; 64]> {
    let mut kinds = [EMPTY; 64];
    let mut i = 0;
    for c in placement.chars() {
        match c {
            '/' => {}
            '1'..='8' => i += c.to_digit(10)? as usize,
            c if c.is_ascii_alphabetic() => {
                *kinds.get_mut(i)? = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                i += 1;
            }
            _ => return None,
        }
    }
    (i == 64).then_some(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A flat board drawn by hand: squares in two tones, "pieces" as discs of
    /// ivory or ebony with a dark rim, standing on the squares of `placement`.
    fn drawn(placement: &str, white_at_bottom: bool) -> RgbImage {
        let kinds = occupancy_of_placement(placement).unwrap();
        let margin = SQUARE_PX / 2;
        let side = 8 * SQUARE_PX + 2 * margin;
        RgbImage::from_fn(side, side, |x, y| {
            if x < margin || y < margin || x >= side - margin || y >= side - margin {
                return Rgb([60, 40, 20]);
            }
            let (col, row) = ((x - margin) / SQUARE_PX, (y - margin) / SQUARE_PX);
            let shown = (row * 8 + col) as usize;
            let i = if white_at_bottom { shown } else { 63 - shown };
            let (dx, dy) = (
                ((x - margin) % SQUARE_PX) as f64 - 24.0,
                ((y - margin) % SQUARE_PX) as f64 - 20.0,
            );
            let r = (dx * dx + dy * dy).sqrt();
            match kinds[i] {
                WHITE if r < 14.0 => Rgb([235, 225, 200]),
                BLACK if r < 14.0 => Rgb([25, 20, 18]),
                WHITE | BLACK if r < 16.0 => Rgb([40, 30, 25]),
                _ if is_light(row, col) => Rgb([225, 200, 150]),
                _ => Rgb([130, 80, 45]),
            }
        })
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    const MIDDLE: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R";

    #[test]
    fn the_start_position_calibrates_and_a_middlegame_is_read() {
        for white_at_bottom in [true, false] {
            let calibration =
                Calibration::from_start(&drawn(START, white_at_bottom), None).unwrap();
            assert_eq!(calibration.white_at_bottom, white_at_bottom);
            let calls = calibration.call(&drawn(MIDDLE, white_at_bottom));
            let (kinds, _) = in_fen_order(&calls, white_at_bottom);
            assert_eq!(
                placement(&kinds),
                "B1BB1BB1/BB2BBBB/2B1BB2/3B4/2WW4/2W2W2/WW2WWWW/W2WWW1W"
            );
        }
    }

    #[test]
    fn a_start_photo_without_pieces_is_refused() {
        let empty = drawn("8/8/8/8/8/8/8/8", true);
        assert!(Calibration::from_start(&empty, None).is_err());
    }

    #[test]
    fn a_placement_becomes_its_occupancy() {
        let kinds = occupancy_of_placement(MIDDLE).unwrap();
        assert_eq!(
            placement(&kinds),
            "B1BB1BB1/BB2BBBB/2B1BB2/3B4/2WW4/2W2W2/WW2WWWW/W2WWW1W"
        );
        assert!(occupancy_of_placement("8/8").is_none());
        assert!(occupancy_of_placement("9/8/8/8/8/8/8/8/8").is_none());
    }
}
