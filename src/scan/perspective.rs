//! A board seen at an angle (a photo of a physical board, of a screen or of a
//! page): its four corners, given by the user, define a perspective mapping
//! from the flat board to the picture, and the board is resampled flat.

use image::{Rgb, RgbImage};

use super::picture::sample_rgb;

/// The playing area's four corners in picture pixels, in the order
/// top-left, top-right, bottom-right, bottom-left as seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad(pub [(f64, f64); 4]);

/// The smallest area, in square pixels, of a quadrilateral taken for a board.
const MIN_AREA: f64 = 64.0 * 64.0;

impl Quad {
    /// Reads `x,y x,y x,y x,y` (or eight numbers separated by commas or
    /// spaces), in any order around the board: they are sorted by angle about
    /// their centre, starting from the one nearest the picture's top-left.
    pub fn parse(text: &str) -> Result<Quad, String> {
        let numbers: Vec<f64> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or(format!("--corners: not a number: {s:?}"))
            })
            .collect::<Result<_, _>>()?;
        if numbers.len() != 8 {
            return Err(format!(
                "--corners wants four points, x,y x,y x,y x,y (got {} numbers)",
                numbers.len()
            ));
        }
        let points: Vec<(f64, f64)> = numbers.chunks(2).map(|p| (p[0], p[1])).collect();
        Quad::around(&points)
    }

    fn around(points: &[(f64, f64)]) -> Result<Quad, String> {
        debug_assert_eq!(points.len(), 4);
        let cx = points.iter().map(|p| p.0).sum::<f64>() / 4.0;
        let cy = points.iter().map(|p| p.1).sum::<f64>() / 4.0;
        let mut sorted = points.to_vec();
        // Picture y grows downwards, so increasing atan2 goes clockwise as seen.
        sorted.sort_by(|a, b| {
            let angle = |p: &(f64, f64)| (p.1 - cy).atan2(p.0 - cx);
            angle(a).total_cmp(&angle(b))
        });
        let first = (0..4)
            .min_by(|&a, &b| (sorted[a].0 + sorted[a].1).total_cmp(&(sorted[b].0 + sorted[b].1)))
            .unwrap_or(0);
        sorted.rotate_left(first);
        let quad = Quad([sorted[0], sorted[1], sorted[2], sorted[3]]);
        if !quad.is_convex() {
            return Err("--corners: the four points do not make a convex quadrilateral".into());
        }
        if quad.area() < MIN_AREA {
            return Err(format!(
                "--corners: the board they outline is too small ({:.0} square pixels; at least {MIN_AREA:.0})",
                quad.area()
            ));
        }
        Ok(quad)
    }

    fn cross(&self, i: usize) -> f64 {
        let [a, b, c] = [self.0[i], self.0[(i + 1) % 4], self.0[(i + 2) % 4]];
        (b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0)
    }

    fn is_convex(&self) -> bool {
        (0..4).all(|i| self.cross(i) > 0.0) || (0..4).all(|i| self.cross(i) < 0.0)
    }

    /// The shoelace area.
    pub fn area(&self) -> f64 {
        let p = &self.0;
        (0..4)
            .map(|i| p[i].0 * p[(i + 1) % 4].1 - p[(i + 1) % 4].0 * p[i].1)
            .sum::<f64>()
            .abs()
            / 2.0
    }

    /// The longest side, in pixels: the resolution the flat board keeps.
    pub fn longest_side(&self) -> f64 {
        (0..4)
            .map(|i| {
                let (a, b) = (self.0[i], self.0[(i + 1) % 4]);
                (a.0 - b.0).hypot(a.1 - b.1)
            })
            .fold(0.0, f64::max)
    }
}

/// The perspective mapping from board coordinates (`u` across, `v` down,
/// both 0..8 over the playing area as seen) to picture pixels.
#[derive(Clone, Copy, Debug)]
pub struct Homography([f64; 9]);

impl Homography {
    /// The mapping taking the board's corners (0,0), (8,0), (8,8), (0,8) to
    /// the quad's, solved as the usual eight linear equations.
    pub fn from_quad(quad: &Quad) -> Option<Homography> {
        let board = [(0.0, 0.0), (8.0, 0.0), (8.0, 8.0), (0.0, 8.0)];
        let mut rows = [[0.0f64; 9]; 8];
        for (k, (&(u, v), &(x, y))) in board.iter().zip(&quad.0).enumerate() {
            rows[2 * k] = [u, v, 1.0, 0.0, 0.0, 0.0, -u * x, -v * x, x];
            rows[2 * k + 1] = [0.0, 0.0, 0.0, u, v, 1.0, -u * y, -v * y, y];
        }
        let h = solve8(rows)?;
        Some(Homography([
            h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0,
        ]))
    }

    /// The mapping that best takes each `board` point to its `picture`
    /// point (least squares on the usual linear equations, picture points
    /// centred and scaled first so the products stay comparable); `None`
    /// with fewer than four pairs or when they are degenerate.
    pub fn fit(board: &[(f64, f64)], picture: &[(f64, f64)]) -> Option<Homography> {
        debug_assert_eq!(board.len(), picture.len());
        if board.len() < 4 {
            return None;
        }
        let n = picture.len() as f64;
        let cx = picture.iter().map(|p| p.0).sum::<f64>() / n;
        let cy = picture.iter().map(|p| p.1).sum::<f64>() / n;
        let spread = picture
            .iter()
            .map(|p| (p.0 - cx).hypot(p.1 - cy))
            .sum::<f64>()
            / n;
        let scale = if spread > 1e-9 {
            1.0 / spread
        } else {
            return None;
        };
        // The normal equations AᵀA h = Aᵀb, as augmented rows for solve8.
        let mut normal = [[0.0f64; 9]; 8];
        for (&(u, v), &(x, y)) in board.iter().zip(picture) {
            let (x, y) = ((x - cx) * scale, (y - cy) * scale);
            for (row, target) in [
                ([u, v, 1.0, 0.0, 0.0, 0.0, -u * x, -v * x], x),
                ([0.0, 0.0, 0.0, u, v, 1.0, -u * y, -v * y], y),
            ] {
                for i in 0..8 {
                    for j in 0..8 {
                        normal[i][j] += row[i] * row[j];
                    }
                    normal[i][8] += row[i] * target;
                }
            }
        }
        let h = solve8(normal)?;
        // Undo the centring and scaling: picture = T⁻¹ · H' · board.
        let s = 1.0 / scale;
        Some(Homography([
            s * h[0] + cx * h[6],
            s * h[1] + cx * h[7],
            s * h[2] + cx,
            s * h[3] + cy * h[6],
            s * h[4] + cy * h[7],
            s * h[5] + cy,
            h[6],
            h[7],
            1.0,
        ]))
    }

    /// The mapping the other way, picture pixels to board coordinates: the
    /// adjugate of the 3×3 matrix (a homography's scale does not matter).
    pub fn inverse(&self) -> Option<Homography> {
        let [a, b, c, d, e, f, g, h, i] = self.0;
        let adjugate = [
            e * i - f * h,
            c * h - b * i,
            b * f - c * e,
            f * g - d * i,
            a * i - c * g,
            c * d - a * f,
            d * h - e * g,
            b * g - a * h,
            a * e - b * d,
        ];
        let determinant = a * adjugate[0] + b * adjugate[3] + c * adjugate[6];
        (determinant.abs() > 1e-12).then_some(Homography(adjugate))
    }

    pub fn apply(&self, u: f64, v: f64) -> (f64, f64) {
        let h = &self.0;
        let w = h[6] * u + h[7] * v + h[8];
        (
            (h[0] * u + h[1] * v + h[2]) / w,
            (h[3] * u + h[4] * v + h[5]) / w,
        )
    }
}

/// Gaussian elimination with partial pivoting on an 8×8 system given as
/// augmented rows; `None` when it is singular (three corners in a line).
fn solve8(mut rows: [[f64; 9]; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&a, &b| rows[a][col].abs().total_cmp(&rows[b][col].abs()))?;
        if rows[pivot][col].abs() < 1e-12 {
            return None;
        }
        rows.swap(col, pivot);
        let pivot_row = rows[col];
        for (r, row) in rows.iter_mut().enumerate() {
            if r != col {
                let factor = row[col] / pivot_row[col];
                for (value, &p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *value -= factor * p;
                }
            }
        }
    }
    Some(std::array::from_fn(|i| rows[i][8] / rows[i][i]))
}

/// The board resampled flat: `square` pixels a square, with `margin` squares
/// of the surroundings on every side (where printed coordinates are), so the
/// playing area starts at pixel `margin * square` on both axes.
pub fn warp_flat(image: &RgbImage, mapping: &Homography, square: u32, margin: f64) -> RgbImage {
    let side = ((8.0 + 2.0 * margin) * square as f64).round() as u32;
    let scale = 1.0 / square as f64;
    RgbImage::from_fn(side, side, |x, y| {
        let u = (x as f64 + 0.5) * scale - margin;
        let v = (y as f64 + 0.5) * scale - margin;
        let (px, py) = mapping.apply(u, v);
        sample_rgb(image, px as f32 - 0.5, py as f32 - 0.5).unwrap_or(Rgb([128, 128, 128]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corners_are_put_in_order_whatever_order_they_come_in() {
        let quad = Quad::parse("752,190 57,587 249,173 871,632").unwrap();
        assert_eq!(
            quad.0,
            [
                (249.0, 173.0),
                (752.0, 190.0),
                (871.0, 632.0),
                (57.0, 587.0)
            ]
        );
        assert!(Quad::parse("0,0 100,0 100,100").is_err());
        assert!(Quad::parse("0,0 100,0 100,100 0,x").is_err());
        assert!(Quad::parse("0,0 100,0 100,100 0,nan").is_err());
        assert!(Quad::parse("0,0 10,0 10,10 0,10").is_err(), "too small");
        // A bow tie: sorted by angle it becomes convex again, which is the
        // user's intent whatever order they clicked in; three points in a
        // line are not a board.
        assert!(Quad::parse("0,0 200,0 400,0 0,300").is_err());
    }

    #[test]
    fn the_mapping_takes_the_board_corners_to_the_given_ones() {
        let quad = Quad::parse("249,173 752,190 871,632 57,587").unwrap();
        let h = Homography::from_quad(&quad).unwrap();
        for (corner, &(x, y)) in [(0.0, 0.0), (8.0, 0.0), (8.0, 8.0), (0.0, 8.0)]
            .iter()
            .zip(&quad.0)
        {
            let (px, py) = h.apply(corner.0, corner.1);
            assert!((px - x).abs() < 1e-6 && (py - y).abs() < 1e-6);
        }
        let back = h.inverse().unwrap();
        let (u, v) = back.apply(h.apply(3.25, 6.5).0, h.apply(3.25, 6.5).1);
        assert!((u - 3.25).abs() < 1e-9 && (v - 6.5).abs() < 1e-9);
        // Lines stay lines: the middle of the far edge is on it.
        let (mx, my) = h.apply(4.0, 0.0);
        let t = (mx - 249.0) / (752.0 - 249.0);
        assert!((my - (173.0 + t * 17.0)).abs() < 1e-6);
    }

    /// Fitted to many points of a known mapping (a little noise on each),
    /// the fit is that mapping; through exactly four it is from_quad's.
    #[test]
    fn a_mapping_fitted_to_its_points_is_found_again() {
        let quad = Quad::parse("249,173 752,190 871,632 57,587").unwrap();
        let truth = Homography::from_quad(&quad).unwrap();
        let board: Vec<(f64, f64)> = (0..9)
            .flat_map(|i| (0..9).map(move |j| (i as f64, j as f64)))
            .collect();
        let picture: Vec<(f64, f64)> = board
            .iter()
            .enumerate()
            .map(|(k, &(u, v))| {
                let (x, y) = truth.apply(u, v);
                let wobble = if k % 2 == 0 { 0.3 } else { -0.3 };
                (x + wobble, y - wobble)
            })
            .collect();
        let fitted = Homography::fit(&board, &picture).unwrap();
        for &(u, v) in &[(0.0, 0.0), (8.0, 8.0), (3.5, 6.25), (-1.0, 9.0)] {
            let (a, b) = (fitted.apply(u, v), truth.apply(u, v));
            assert!(
                (a.0 - b.0).abs() < 0.5 && (a.1 - b.1).abs() < 0.5,
                "{a:?} {b:?}"
            );
        }
        let corners = [(0.0, 0.0), (8.0, 0.0), (8.0, 8.0), (0.0, 8.0)];
        let four = Homography::fit(&corners, &quad.0).unwrap();
        for &(u, v) in &corners {
            let (a, b) = (four.apply(u, v), truth.apply(u, v));
            assert!((a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6);
        }
        assert!(Homography::fit(&corners[..3], &quad.0[..3]).is_none());
    }

    #[test]
    fn an_axis_aligned_board_warps_to_itself() {
        // A checkerboard 80 px a square at (20, 30): the flat board at 10 px a
        // square shows each square's colour in its middle.
        let image = RgbImage::from_fn(700, 700, |x, y| {
            let (c, r) = (
                (x as i32 - 20).div_euclid(80),
                (y as i32 - 30).div_euclid(80),
            );
            if (r + c) % 2 == 0 {
                Rgb([240, 220, 180])
            } else {
                Rgb([90, 60, 30])
            }
        });
        let quad = Quad::parse("20,30 660,30 660,670 20,670").unwrap();
        let flat = warp_flat(&image, &Homography::from_quad(&quad).unwrap(), 10, 0.5);
        assert_eq!(flat.width(), 90);
        for r in 0..8 {
            for c in 0..8 {
                let p = flat.get_pixel(5 + c * 10 + 5, 5 + r * 10 + 5);
                let light = (r + c) % 2 == 0;
                assert_eq!(p[0] > 160, light, "square row {r} column {c}");
            }
        }
    }
}
