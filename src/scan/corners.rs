//! A physical board's playing area found in a photo, so `tarpon scan photo`
//! needs no corners clicked. Where four squares meet, a checkerboard shows
//! an X: light and dark quarters in turn around the point. Those points are
//! found with a ring test (opposite samples alike, quarter turns unlike, as
//! the ChESS detector scores them); a lattice is grown from each point and
//! two of its neighbours (a first cell) by refitting a perspective mapping
//! to the points it predicts, outliers dropped. Each lattice's best 7×7
//! block of points is the one whose squares' tones turn light for dark
//! most clearly about each point ([`x_contrast`], signed by the step); the
//! lattice with the clearest block wins, and that block is the board's
//! inner corners: the playing area is one step further out on each side.
//! A board is kept only with 20 of its inner corners seen and 44 of its
//! squares alternating in tone.

use image::RgbImage;

use super::perspective::{Homography, Quad};
use super::picture::Plane;

/// Photos are searched at most this many pixels on their longer side.
const WORKING_SIDE: usize = 800;
/// The ring's radius in working pixels: less than half the smallest square
/// looked for (the far squares of a steep photo are about 25 pixels).
const RING: f32 = 5.0;
/// Corner candidates kept, strongest first; a lattice is grown from each
/// (the strongest can be print or wood grain beside a pale board).
const MAX_CANDIDATES: usize = 400;
/// Neighbours of a seed tried as its cell's other corners.
const NEIGHBOURS: usize = 10;
/// A predicted lattice point takes a candidate this share of a cell away.
const MATCH_SHARE: f64 = 0.22;
/// A board is found only with at least this many of its 49 inner corners.
const MIN_INNER: usize = 20;
/// And with at least this many of its squares alternating in tone.
const MIN_ALTERNATING: usize = 44;

/// The playing area's corners in `image`, or why none was found.
pub fn find_playing_area(image: &RgbImage) -> Result<Quad, String> {
    let (plane, factor) = working_plane(image);
    let candidates = x_corners(&plane);
    if candidates.len() < MIN_INNER {
        return Err(format!(
            "no board found in the photo: {} points where squares meet (at least {MIN_INNER} needed)",
            candidates.len()
        ));
    }
    let index = Index::new(&candidates, plane.width, plane.height);
    let lattice = best_lattice(&candidates, &index, &plane)
        .ok_or("no board found in the photo: the points where squares meet form no lattice")?;
    let window = lattice.window;
    let (a, b) = window;
    let inner = lattice
        .matched
        .iter()
        .filter(|((i, j), _)| (a..a + 7).contains(i) && (b..b + 7).contains(j))
        .count();
    let alternating = alternating_squares(&lattice.mapping, (a - 1, b - 1), &plane);
    if inner < MIN_INNER || alternating < MIN_ALTERNATING {
        return Err(format!(
            "no board found in the photo: {inner} of 49 inner corners and {alternating} of 64 squares alternating (at least {MIN_INNER} and {MIN_ALTERNATING})"
        ));
    }
    let corners = [
        (a - 1, b - 1),
        (a + 7, b - 1),
        (a + 7, b + 7),
        (a - 1, b + 7),
    ]
    .map(|(i, j)| {
        let (x, y) = lattice.mapping.apply(i as f64, j as f64);
        (x * factor, y * factor)
    });
    let text = corners
        .iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect::<Vec<_>>()
        .join(" ");
    Quad::parse(&text).map_err(|e| format!("the board found in the photo is not usable ({e})"))
}

/// The grey plane shrunk by a whole factor to at most [`WORKING_SIDE`],
/// lightly smoothed, and the factor (working pixels to the photo's).
fn working_plane(image: &RgbImage) -> (Plane, f64) {
    let grey = Plane::from_rgb(image);
    let factor = grey.width.max(grey.height).div_ceil(WORKING_SIDE).max(1);
    let (width, height) = (grey.width / factor, grey.height / factor);
    let mut pixels = vec![0.0f32; width * height];
    for y in 0..height {
        for x in 0..width {
            let mut sum = 0.0;
            for dy in 0..factor {
                let row = &grey.pixels[(y * factor + dy) * grey.width..];
                sum += row[x * factor..(x + 1) * factor].iter().sum::<f32>();
            }
            pixels[y * width + x] = sum / (factor * factor) as f32;
        }
    }
    let shrunk = Plane {
        width,
        height,
        pixels,
    };
    (box_blur(&box_blur(&shrunk)), factor as f64)
}

/// A 3×3 mean (edges clamped).
fn box_blur(plane: &Plane) -> Plane {
    let (w, h) = (plane.width, plane.height);
    let at = |x: isize, y: isize| {
        plane.pixels
            [(y.clamp(0, h as isize - 1) as usize) * w + x.clamp(0, w as isize - 1) as usize]
    };
    let pixels = (0..h * w)
        .map(|i| {
            let (x, y) = ((i % w) as isize, (i / w) as isize);
            let mut sum = 0.0;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    sum += at(x + dx, y + dy);
                }
            }
            sum / 9.0
        })
        .collect();
    Plane {
        width: w,
        height: h,
        pixels,
    }
}

/// Points where four squares seem to meet, strongest first, to a fraction
/// of a working pixel.
fn x_corners(plane: &Plane) -> Vec<(f64, f64)> {
    let (w, h) = (plane.width, plane.height);
    let reach = RING.ceil() as usize + 1;
    if w <= 2 * reach + 2 || h <= 2 * reach + 2 {
        return Vec::new();
    }
    let ring: [(isize, isize); 16] = std::array::from_fn(|n| {
        let angle = n as f32 * std::f32::consts::TAU / 16.0;
        (
            (RING * angle.cos()).round() as isize,
            (RING * angle.sin()).round() as isize,
        )
    });
    let mut response = vec![0.0f32; w * h];
    for y in reach..h - reach {
        for x in reach..w - reach {
            let at = |dx: isize, dy: isize| {
                plane.pixels[(y as isize + dy) as usize * w + (x as isize + dx) as usize]
            };
            let samples: [f32; 16] = std::array::from_fn(|n| at(ring[n].0, ring[n].1));
            // Opposite samples alike, quarter turns unlike: an X.
            let sum: f32 = (0..4)
                .map(|n| (samples[n] + samples[n + 8] - samples[n + 4] - samples[n + 12]).abs())
                .sum();
            let diff: f32 = (0..8).map(|n| (samples[n] - samples[n + 8]).abs()).sum();
            let ring_mean = samples.iter().sum::<f32>() / 16.0;
            let mut centre = 0.0;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    centre += at(dx, dy);
                }
            }
            let mean = (ring_mean - centre / 9.0).abs();
            response[y * w + x] = (sum - diff - 16.0 * mean).max(0.0);
        }
    }
    let strongest = response.iter().copied().fold(0.0f32, f32::max);
    if strongest <= 0.0 {
        return Vec::new();
    }
    let floor = 0.1 * strongest;
    let radius = RING as usize;
    let mut peaks: Vec<(f32, f64, f64)> = Vec::new();
    for y in reach..h - reach {
        for x in reach..w - reach {
            let r = response[y * w + x];
            if r < floor {
                continue;
            }
            let (y0, y1) = (y.saturating_sub(radius), (y + radius).min(h - 1));
            let (x0, x1) = (x.saturating_sub(radius), (x + radius).min(w - 1));
            // The first of equal maxima in reading order wins its window.
            let is_peak = (y0..=y1).all(|yy| {
                (x0..=x1).all(|xx| {
                    let other = response[yy * w + xx];
                    other < r || (other == r && (yy, xx) >= (y, x))
                })
            });
            if is_peak {
                // The response's centroid over the 3×3 about the peak.
                let (mut sx, mut sy, mut total) = (0.0f64, 0.0f64, 0.0f64);
                for dy in -1isize..=1 {
                    for dx in -1isize..=1 {
                        let v = response
                            [(y as isize + dy) as usize * w + (x as isize + dx) as usize]
                            as f64;
                        sx += v * dx as f64;
                        sy += v * dy as f64;
                        total += v;
                    }
                }
                peaks.push((r, x as f64 + 0.5 + sx / total, y as f64 + 0.5 + sy / total));
            }
        }
    }
    peaks.sort_by(|a, b| b.0.total_cmp(&a.0));
    peaks.truncate(MAX_CANDIDATES);
    peaks.into_iter().map(|(_, x, y)| (x, y)).collect()
}

/// Candidates bucketed on a coarse grid for nearest-point queries.
struct Index<'a> {
    points: &'a [(f64, f64)],
    cell: f64,
    columns: usize,
    rows: usize,
    buckets: Vec<Vec<usize>>,
}

impl<'a> Index<'a> {
    const CELL: f64 = 16.0;

    fn new(points: &'a [(f64, f64)], width: usize, height: usize) -> Index<'a> {
        let columns = (width as f64 / Self::CELL).ceil() as usize + 1;
        let rows = (height as f64 / Self::CELL).ceil() as usize + 1;
        let mut buckets = vec![Vec::new(); columns * rows];
        for (k, &(x, y)) in points.iter().enumerate() {
            let (c, r) = ((x / Self::CELL) as usize, (y / Self::CELL) as usize);
            buckets[r.min(rows - 1) * columns + c.min(columns - 1)].push(k);
        }
        Index {
            points,
            cell: Self::CELL,
            columns,
            rows,
            buckets,
        }
    }

    /// The candidate nearest (x, y) within `within`, if any.
    fn nearest(&self, (x, y): (f64, f64), within: f64) -> Option<usize> {
        if !x.is_finite() || !y.is_finite() {
            return None;
        }
        let span = |v: f64, n: usize| {
            let lo = ((v - within) / self.cell).floor().max(0.0) as usize;
            let hi = (((v + within) / self.cell).floor().max(0.0) as usize).min(n - 1);
            lo..=hi
        };
        let mut best: Option<(f64, usize)> = None;
        for r in span(y, self.rows) {
            for c in span(x, self.columns) {
                for &k in &self.buckets[r * self.columns + c] {
                    let (px, py) = self.points[k];
                    let d = (px - x).hypot(py - y);
                    if d <= within && best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, k));
                    }
                }
            }
        }
        best.map(|(_, k)| k)
    }
}

/// A lattice point (column, row) and the candidate it matched, in working
/// pixels.
type Match = ((i32, i32), (f64, f64));

/// A lattice of corners: the mapping from lattice coordinates (whole
/// numbers at corners) to working pixels, the candidates it matched, and
/// the 7×7 block of lattice points (its first column and row) that looks
/// most like a board's inner corners, with its summed [`x_contrast`].
struct Lattice {
    mapping: Homography,
    matched: Vec<Match>,
    window: (i32, i32),
    contrast: f64,
}

/// The tone of the working pixel lattice coordinates (u, v) fall in; none
/// outside the picture.
fn tone_at(mapping: &Homography, plane: &Plane, u: f64, v: f64) -> Option<f32> {
    let (x, y) = mapping.apply(u, v);
    let (x, y) = (x.floor(), y.floor());
    if x < 0.0 || y < 0.0 || x >= plane.width as f64 || y >= plane.height as f64 {
        None
    } else {
        Some(plane.pixels[y as usize * plane.width + x as usize])
    }
}

/// At lattice point (i, j), the two diagonal pairs of tones sampled 0.15
/// of a cell into each quarter about it, one pair less the other, halved:
/// where the lattice's axes run along the squares' edges, one square's
/// tone against its neighbour's (light against dark, the sign turning at
/// each step). Near the corner, the samples miss the pieces standing in
/// the squares' middles. A lattice whose axes run along a diagonal matches
/// the same points, but samples across the squares' edges, where tones
/// blur, and its signs do not turn with its steps.
fn x_contrast(mapping: &Homography, (i, j): (i32, i32), plane: &Plane) -> f64 {
    let tone = |du: f64, dv: f64| {
        tone_at(mapping, plane, i as f64 + du, j as f64 + dv).map_or(0.0, f64::from)
    };
    const Q: f64 = 0.15;
    (tone(Q, Q) + tone(-Q, -Q) - tone(Q, -Q) - tone(-Q, Q)) / 2.0
}

/// The lattice whose best 7×7 block looks most like a board's inner
/// corners ([`inner_window`]), grown from each candidate and pairs of its
/// [`NEIGHBOURS`] nearest as a first cell.
fn best_lattice(candidates: &[(f64, f64)], index: &Index, plane: &Plane) -> Option<Lattice> {
    let mut best: Option<Lattice> = None;
    for (k, &p) in candidates.iter().enumerate() {
        let mut near: Vec<(f64, usize)> = candidates
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != k)
            .map(|(other, &q)| ((q.0 - p.0).hypot(q.1 - p.1), other))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        near.truncate(NEIGHBOURS);
        for (x, &(da, qa)) in near.iter().enumerate() {
            for &(db, qb) in &near[x + 1..] {
                let (q, r) = (candidates[qa], candidates[qb]);
                let (a, b) = ((q.0 - p.0, q.1 - p.1), (r.0 - p.0, r.1 - p.1));
                let cosine = (a.0 * b.0 + a.1 * b.1) / (da * db);
                if da.max(db) > 2.5 * da.min(db) || cosine.abs() > 0.7 {
                    continue;
                }
                // The cell's fourth corner.
                let s = (q.0 + r.0 - p.0, q.1 + r.1 - p.1);
                let Some(fourth) = index.nearest(s, MATCH_SHARE * da.min(db)) else {
                    continue;
                };
                // One hand only: the mirror image is the same lattice.
                let (q, r) = if a.0 * b.1 - a.1 * b.0 > 0.0 {
                    (q, r)
                } else {
                    (r, q)
                };
                let cell = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)];
                let Some(mapping) = Homography::fit(&cell, &[p, q, r, candidates[fourth]]) else {
                    continue;
                };
                let lattice = grow(mapping, index, plane);
                if best.as_ref().is_none_or(|b| lattice.contrast > b.contrast) {
                    best = Some(lattice);
                }
            }
        }
    }
    best
}

/// The lattice from a first cell's mapping: the points it predicts within
/// 2, then 4, then 9 steps are matched to candidates and the mapping refitted
/// to all matched, each time.
fn grow(mut mapping: Homography, index: &Index, plane: &Plane) -> Lattice {
    let mut matched = Vec::new();
    for reach in [2, 4, 9, 9] {
        let mut found: Vec<Match> = Vec::new();
        let mut used = vec![false; index.points.len()];
        for i in -reach..=reach {
            for j in -reach..=reach {
                let (u, v) = (i as f64, j as f64);
                let at = mapping.apply(u, v);
                let across = mapping.apply(u + 1.0, v);
                let down = mapping.apply(u, v + 1.0);
                let cell = (across.0 - at.0)
                    .hypot(across.1 - at.1)
                    .min((down.0 - at.0).hypot(down.1 - at.1));
                if cell.is_nan() || cell <= 4.0 {
                    continue;
                }
                if let Some(k) = index.nearest(at, MATCH_SHARE * cell)
                    && !used[k]
                {
                    used[k] = true;
                    found.push(((i, j), index.points[k]));
                }
            }
        }
        let board: Vec<(f64, f64)> = found
            .iter()
            .map(|((i, j), _)| (*i as f64, *j as f64))
            .collect();
        let picture: Vec<(f64, f64)> = found.iter().map(|(_, p)| *p).collect();
        match Homography::fit(&board, &picture) {
            Some(refit) if found.len() >= matched.len() => {
                mapping = refit;
                matched = found;
            }
            _ => break,
        }
    }
    // Points a piece's outline pulled aside: off the fit by more than three
    // times the typical miss, dropped and the rest fitted again.
    let miss = |((i, j), (x, y)): &Match, mapping: &Homography| {
        let (px, py) = mapping.apply(*i as f64, *j as f64);
        (px - x).hypot(py - y)
    };
    let mut misses: Vec<f64> = matched.iter().map(|m| miss(m, &mapping)).collect();
    misses.sort_by(f64::total_cmp);
    if let Some(&median) = misses.get(misses.len() / 2) {
        let close: Vec<_> = matched
            .iter()
            .filter(|m| miss(m, &mapping) <= (3.0 * median).max(1.0))
            .copied()
            .collect();
        let board: Vec<(f64, f64)> = close
            .iter()
            .map(|((i, j), _)| (*i as f64, *j as f64))
            .collect();
        let picture: Vec<(f64, f64)> = close.iter().map(|(_, p)| *p).collect();
        if let Some(refit) = Homography::fit(&board, &picture) {
            mapping = refit;
        }
    }
    let (window, contrast) = inner_window(&mapping, &matched, plane);
    Lattice {
        mapping,
        matched,
        window,
        contrast,
    }
}

/// The 7×7 block of lattice points, near the matched ones, whose summed
/// [`x_contrast`] is greatest (sampled where the mapping puts them,
/// matched or not: an occluded corner still shows its squares), and that
/// sum. A block a row off takes in the board's edge, where one side is the
/// frame; a lattice along the squares' diagonals samples across edges.
fn inner_window(mapping: &Homography, matched: &[Match], plane: &Plane) -> ((i32, i32), f64) {
    let is = matched.iter().map(|((i, _), _)| *i);
    let js = matched.iter().map(|((_, j), _)| *j);
    let (i_lo, i_hi) = (is.clone().min().unwrap_or(0) - 1, is.max().unwrap_or(0) + 1);
    let (j_lo, j_hi) = (js.clone().min().unwrap_or(0) - 1, js.max().unwrap_or(0) + 1);
    let (columns, rows) = ((i_hi - i_lo + 1) as usize, (j_hi - j_lo + 1) as usize);
    // Summed-area table of the contrasts, one row and column of zeros first.
    let mut summed = vec![0.0f64; (columns + 1) * (rows + 1)];
    for r in 0..rows {
        for c in 0..columns {
            let (i, j) = (i_lo + c as i32, j_lo + r as i32);
            // A checkerboard's X turns light for dark at each step.
            let sign = if (i + j) % 2 == 0 { 1.0 } else { -1.0 };
            let here = sign * x_contrast(mapping, (i, j), plane);
            summed[(r + 1) * (columns + 1) + c + 1] =
                here + summed[r * (columns + 1) + c + 1] + summed[(r + 1) * (columns + 1) + c]
                    - summed[r * (columns + 1) + c];
        }
    }
    let block = |c: usize, r: usize| {
        let at = |c: usize, r: usize| summed[r * (columns + 1) + c];
        at(c + 7, r + 7) - at(c, r + 7) - at(c + 7, r) + at(c, r)
    };
    let mut best = ((i_lo, j_lo), f64::MIN);
    for r in 0..rows.saturating_sub(6) {
        for c in 0..columns.saturating_sub(6) {
            let sum = block(c, r).abs();
            if sum > best.1 {
                best = ((i_lo + c as i32, j_lo + r as i32), sum);
            }
        }
    }
    best
}

/// How many of the 64 squares from lattice corner `origin` alternate in
/// tone as a checkerboard's do: each square's tone the mean of four points
/// near its corners (pieces stand in the middle), split at the median.
fn alternating_squares(mapping: &Homography, (a, b): (i32, i32), plane: &Plane) -> usize {
    let tones: Vec<Option<f32>> = (0..64)
        .map(|k| {
            let (u, v) = ((a + k % 8) as f64, (b + k / 8) as f64);
            let near = [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)];
            let samples: Option<Vec<f32>> = near
                .iter()
                .map(|(du, dv)| tone_at(mapping, plane, u + du, v + dv))
                .collect();
            samples.map(|s| s.iter().sum::<f32>() / 4.0)
        })
        .collect();
    let mut seen: Vec<f32> = tones.iter().flatten().copied().collect();
    if seen.is_empty() {
        return 0;
    }
    seen.sort_by(f32::total_cmp);
    // Between the two middle tones: half the squares are light.
    let median = (seen[(seen.len() - 1) / 2] + seen[seen.len() / 2]) / 2.0;
    let light_on_even = tones
        .iter()
        .enumerate()
        .filter(|(k, t)| t.is_some_and(|t| (t > median) == ((k % 8 + k / 8) % 2 == 0)))
        .count();
    light_on_even.max(seen.len() - light_on_even)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A wooden-looking board seen in perspective: `quad`'s playing area,
    /// light and dark squares, a frame half a square wide, a table around,
    /// and round "pieces" on some squares.
    fn photo(quad: &Quad, width: u32, height: u32) -> RgbImage {
        let to_board = Homography::from_quad(quad)
            .and_then(|h| h.inverse())
            .expect("a mapping");
        let pieces = [
            (0, 0),
            (3, 0),
            (4, 7),
            (6, 6),
            (2, 3),
            (5, 4),
            (7, 1),
            (1, 6),
        ];
        RgbImage::from_fn(width, height, |x, y| {
            let (u, v) = to_board.apply(x as f64 + 0.5, y as f64 + 0.5);
            let (file, rank) = (u.floor() as i32, v.floor() as i32);
            if (0..8).contains(&file) && (0..8).contains(&rank) {
                let (du, dv) = (u - file as f64 - 0.5, v - rank as f64 - 0.5);
                if pieces.contains(&(file, rank)) && du.hypot(dv) < 0.3 {
                    Rgb([30, 30, 30])
                } else if (file + rank) % 2 == 0 {
                    Rgb([225, 200, 160])
                } else {
                    Rgb([140, 90, 50])
                }
            } else if (-0.5..8.5).contains(&u) && (-0.5..8.5).contains(&v) {
                Rgb([110, 70, 40])
            } else {
                Rgb([170, 120, 80])
            }
        })
    }

    fn assert_found_near(image: &RgbImage, truth: &Quad) {
        let found = find_playing_area(image).expect("a board");
        let square = truth.longest_side() / 8.0;
        for (f, t) in found.0.iter().zip(&truth.0) {
            let off = (f.0 - t.0).hypot(f.1 - t.1);
            assert!(off < 0.05 * square, "{:?} against {:?}", found.0, truth.0);
        }
    }

    #[test]
    fn a_board_seen_at_an_angle_is_found_to_a_twentieth_of_a_square() {
        let truth = Quad::parse("190,80 630,95 680,540 100,515").unwrap();
        assert_found_near(&photo(&truth, 800, 600), &truth);
        // Turned in the picture, larger than the working size.
        let truth = Quad::parse("500,60 1150,420 760,1000 90,560").unwrap();
        assert_found_near(&photo(&truth, 1280, 1040), &truth);
    }

    #[test]
    fn a_picture_without_a_board_is_refused() {
        let plain = RgbImage::from_fn(640, 480, |x, _| Rgb([(x / 3) as u8; 3]));
        assert!(find_playing_area(&plain).is_err());
        // Squares of one tone in a grid: corners, but no checkerboard.
        let tiles = RgbImage::from_fn(640, 480, |x, y| {
            if x % 60 < 4 || y % 60 < 4 {
                Rgb([20; 3])
            } else {
                Rgb([200; 3])
            }
        });
        assert!(find_playing_area(&tiles).is_err());
    }
}
