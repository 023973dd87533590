//! Finding the board in a 2D picture (screenshot, diagram): a board is nine
//! evenly spaced lines across and nine down, the seven inner ones strong
//! wherever light and dark squares meet. The column profile (the summed
//! horizontal gradient of each column) and the row profile are searched for
//! such a comb, first over the whole picture, then again over the band the
//! other axis found, so page text beside the board weighs less; the lines are
//! then placed to a fraction of a pixel and fitted by least squares. A found
//! grid must show alternating square colours, or there is no board.

use std::fmt;

use super::picture::Plane;

/// The fitted grid: the board's top-left corner and square size, in pixels
/// (pixel edges: a board starting at pixel column 10 has `left` 10.0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub left: f32,
    pub top: f32,
    pub square: f32,
}

#[derive(Debug)]
pub enum FindError {
    NoGrid,
    NoCheckerboard,
}

impl fmt::Display for FindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindError::NoGrid => write!(
                f,
                "no chess board found: no 8x8 grid of evenly spaced lines"
            ),
            FindError::NoCheckerboard => write!(
                f,
                "no chess board found: the best grid does not show alternating light and dark squares"
            ),
        }
    }
}

impl std::error::Error for FindError {}

/// The smallest square searched for, in pixels.
const MIN_SQUARE: f32 = 10.0;

pub fn find(plane: &Plane) -> Result<Grid, FindError> {
    let (w, h) = (plane.width, plane.height);
    let max_square = (w.min(h) as f32 - 1.0) / 8.0;
    if max_square < MIN_SQUARE {
        return Err(FindError::NoGrid);
    }
    let columns = column_profile(plane, 0, h);
    let rows = row_profile(plane, 0, w);
    let xs = best_combs(&columns, MIN_SQUARE, max_square);
    let ys = best_combs(&rows, MIN_SQUARE, max_square);
    if xs.is_empty() || ys.is_empty() {
        return Err(FindError::NoGrid);
    }
    // Page text and frames can outscore the board on one axis over the whole
    // picture, so the few best combs of each axis are paired and each pair
    // settled; the pair whose squares alternate best wins.
    let mut best: Option<(usize, Grid)> = None;
    for &x in &xs {
        for &y in &ys {
            let Some(candidate) = settle(plane, x, y, max_square) else {
                continue;
            };
            if best.is_none_or(|b| candidate.0 > b.0) {
                best = Some(candidate);
            }
        }
    }
    match best {
        Some((agreeing, grid)) if agreeing >= 52 => Ok(grid),
        _ => Err(FindError::NoCheckerboard),
    }
}

/// From one comb per axis: each axis searched again over the band the other
/// found (page text beside the board drops out of the profile), and every
/// grid on the way, with its one-square shifts, scored by how many squares
/// alternate (a comb one square off still matches seven lines, the board's
/// edge standing in for the eighth).
fn settle(
    plane: &Plane,
    mut x: (f32, f32),
    mut y: (f32, f32),
    max_square: f32,
) -> Option<(usize, Grid)> {
    let (w, h) = (plane.width, plane.height);
    let mut tried = vec![(x, y)];
    for _ in 0..2 {
        let (band_rows, band_columns) = (band(y, h), band(x, w));
        let columns = column_profile(plane, band_rows.0, band_rows.1);
        let rows = row_profile(plane, band_columns.0, band_columns.1);
        // The same combs placed precisely, and the combs found afresh.
        tried.push((refine(&columns, x), refine(&rows, y)));
        x = refine(
            &columns,
            *best_combs(&columns, MIN_SQUARE, max_square).first()?,
        );
        y = refine(&rows, *best_combs(&rows, MIN_SQUARE, max_square).first()?);
        tried.push((x, y));
    }
    let mut best: Option<(usize, Grid)> = None;
    for (x, y) in tried {
        let square = (x.1 + y.1) / 2.0;
        for (dx, dy) in [
            (0, 0),
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (-1, 1),
            (1, -1),
            (1, 1),
        ] {
            let grid = Grid {
                left: x.0 + dx as f32 * x.1,
                top: y.0 + dy as f32 * y.1,
                square,
            };
            let agreeing = checkerboard_agreement(plane, &grid);
            if best.is_none_or(|b| agreeing > b.0) {
                best = Some((agreeing, grid));
            }
        }
    }
    best
}

/// The pixel range a comb covers along one axis, clamped.
fn band((offset, step): (f32, f32), len: usize) -> (usize, usize) {
    let lo = offset.max(0.0) as usize;
    let hi = ((offset + 8.0 * step).ceil() as usize).min(len);
    (lo, hi.max(lo + 1).min(len))
}

/// `profile[x]`: summed |I(x+1, y) − I(x, y)| over rows `y0..y1`; the edge it
/// measures lies at pixel edge x + 1.
fn column_profile(plane: &Plane, y0: usize, y1: usize) -> Vec<f32> {
    let mut profile = vec![0.0; plane.width.saturating_sub(1)];
    for y in y0..y1 {
        let row = &plane.pixels[y * plane.width..(y + 1) * plane.width];
        for (p, pair) in profile.iter_mut().zip(row.windows(2)) {
            *p += (pair[1] - pair[0]).abs();
        }
    }
    profile
}

fn row_profile(plane: &Plane, x0: usize, x1: usize) -> Vec<f32> {
    (0..plane.height.saturating_sub(1))
        .map(|y| {
            let a = &plane.pixels[y * plane.width + x0..y * plane.width + x1];
            let b = &plane.pixels[(y + 1) * plane.width + x0..(y + 1) * plane.width + x1];
            a.iter().zip(b).map(|(p, q)| (q - p).abs()).sum()
        })
        .collect()
}

/// The best few combs of nine lines (offset, step) with steps in `lo..=hi` (quarter
/// pixels) that best matches `profile`: each line strong against the
/// midpoints beside it. Scores are logarithms, so seven faint lines of a
/// low-contrast board beat two strong edges of a frame or a page.
/// Offsets and steps are pixel edges; the best comb first.
fn best_combs(profile: &[f32], lo: f32, hi: f32) -> Vec<(f32, f32)> {
    const KEEP: usize = 3;
    let n = profile.len();
    if n == 0 {
        return Vec::new();
    }
    let floor = 0.05 * profile.iter().sum::<f32>() / n as f32 + 1e-3;
    // A little tolerance for lines between whole-pixel positions.
    let wide: Vec<f32> = (0..n)
        .map(|i| {
            let peak = profile[i.saturating_sub(1)..(i + 2).min(n)]
                .iter()
                .copied()
                .fold(0.0, f32::max);
            (peak + floor).ln()
        })
        .collect();
    // The best few (score, offset, step), no two alike.
    let mut best: Vec<(f32, f32, f32)> = Vec::with_capacity(KEEP + 1);
    let mut step = lo.max(2.0);
    while step <= hi {
        let span = 8.0 * step;
        let mut offset = 0.0f32;
        while offset + span <= (n - 1) as f32 {
            let at = |k: f32| wide[(offset + k * step).round() as usize];
            let mut score = 0.5 * (at(0.0) + at(8.0));
            for k in 1..8 {
                score += at(k as f32);
            }
            for k in 0..8 {
                score -= at(k as f32 + 0.5);
            }
            if score > 0.0 && (best.len() < KEEP || score > best[best.len() - 1].0) {
                let alike = |b: &(f32, f32, f32)| {
                    (b.1 - offset).abs() < b.2 / 4.0 && (b.2 - step).abs() < b.2 / 16.0
                };
                match best.iter().position(alike) {
                    Some(i) if best[i].0 >= score => {}
                    Some(i) => best[i] = (score, offset, step),
                    None => best.push((score, offset, step)),
                }
                best.sort_by(|a, b| b.0.total_cmp(&a.0));
                best.truncate(KEEP);
            }
            offset += 1.0;
        }
        step += 0.25;
    }
    best.into_iter()
        .map(|(_, offset, step)| (offset + 1.0, step))
        .collect()
}

/// Places each of the seven inner lines at its local gradient peak (parabolic
/// sub-pixel fit) and fits offset and step to them by least squares. The
/// outer two are left out: frames, coordinates and page text crowd them.
fn refine(profile: &[f32], (offset, step): (f32, f32)) -> (f32, f32) {
    let reach = (step / 6.0).max(2.0) as isize;
    let mut points = Vec::with_capacity(7);
    for k in 1..=7 {
        let predicted = (offset - 1.0 + k as f32 * step).round() as isize;
        let range =
            (predicted - reach).max(1)..=(predicted + reach).min(profile.len() as isize - 2);
        let Some(peak) = range
            .clone()
            .max_by(|&a, &b| profile[a as usize].total_cmp(&profile[b as usize]))
        else {
            continue;
        };
        let (l, c, r) = (
            profile[peak as usize - 1],
            profile[peak as usize],
            profile[peak as usize + 1],
        );
        let curvature = l - 2.0 * c + r;
        let shift = if curvature < 0.0 {
            (0.5 * (l - r) / curvature).clamp(-0.5, 0.5)
        } else {
            0.0
        };
        points.push((k as f32, peak as f32 + shift + 1.0, c));
    }
    // Lines far fainter than the typical one are pieces or noise: left out.
    let mut strengths: Vec<f32> = points.iter().map(|p| p.2).collect();
    strengths.sort_by(f32::total_cmp);
    let typical = strengths.get(strengths.len() / 2).copied().unwrap_or(0.0);
    let points: Vec<(f32, f32, f32)> = points
        .into_iter()
        .map(|(k, x, c)| (k, x, if c >= 0.3 * typical { 1.0 } else { 0.0 }))
        .collect();
    let weight: f32 = points.iter().map(|p| p.2).sum();
    if weight < 5.0 {
        return (offset, step);
    }
    let mean_k = points.iter().map(|p| p.0 * p.2).sum::<f32>() / weight;
    let mean_x = points.iter().map(|p| p.1 * p.2).sum::<f32>() / weight;
    let covariance: f32 = points
        .iter()
        .map(|p| p.2 * (p.0 - mean_k) * (p.1 - mean_x))
        .sum();
    let variance: f32 = points
        .iter()
        .map(|p| p.2 * (p.0 - mean_k) * (p.0 - mean_k))
        .sum();
    let fitted_step = covariance / variance;
    // A refit that moves far from the comb found a piece's edge, not a line.
    if variance <= 0.0 || (fitted_step - step).abs() > step * 0.05 {
        return (offset, step);
    }
    (mean_x - fitted_step * mean_k, fitted_step)
}

/// How many of the grid's squares fit the light/dark alternation: their
/// corner patches (where pieces rarely reach) fall on the side of a threshold
/// the checkerboard pattern says. 0 for a grid outside the picture or with no
/// light/dark difference.
fn checkerboard_agreement(plane: &Plane, grid: &Grid) -> usize {
    let right = grid.left + 8.0 * grid.square;
    let bottom = grid.top + 8.0 * grid.square;
    if grid.left < -0.5
        || grid.top < -0.5
        || right > plane.width as f32 + 0.5
        || bottom > plane.height as f32 + 0.5
    {
        return 0;
    }
    let patch = (grid.square * 0.12).max(1.0);
    let mut means = [0.0f32; 64];
    for (i, mean) in means.iter_mut().enumerate() {
        let (x0, y0) = (
            grid.left + (i % 8) as f32 * grid.square,
            grid.top + (i / 8) as f32 * grid.square,
        );
        let mut sum = 0.0;
        let mut count = 0;
        for (cx, cy) in [
            (0.15, 0.15),
            (0.85 - 0.12, 0.15),
            (0.15, 0.85 - 0.12),
            (0.85 - 0.12, 0.85 - 0.12),
        ] {
            let (px, py) = (x0 + cx * grid.square, y0 + cy * grid.square);
            let mut y = py;
            while y < py + patch {
                let mut x = px;
                while x < px + patch {
                    let (xi, yi) = (x as usize, y as usize);
                    if xi < plane.width && yi < plane.height {
                        sum += plane.at(xi, yi);
                        count += 1;
                    }
                    x += 1.0;
                }
                y += 1.0;
            }
        }
        *mean = if count > 0 { sum / count as f32 } else { 0.0 };
    }
    let median = |parity: usize| {
        let mut v: Vec<f32> = (0..64)
            .filter(|i| (i / 8 + i % 8) % 2 == parity)
            .map(|i| means[i])
            .collect();
        v.sort_by(f32::total_cmp);
        v[v.len() / 2]
    };
    let (light, dark) = (median(0), median(1));
    if (light - dark).abs() < 0.03 {
        return 0;
    }
    let threshold = (light + dark) / 2.0;
    (0..64)
        .filter(|i| {
            let even = (i / 8 + i % 8) % 2 == 0;
            (means[*i] > threshold) == (even == (light > threshold))
        })
        .count()
}
