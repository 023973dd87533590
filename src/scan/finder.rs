//! Finding the board in a 2D picture (screenshot, diagram): a board is nine
//! evenly spaced lines across and nine down, whose squares alternate.
//!
//! 1. Line evidence: the column profile (each column's horizontal gradients
//!    summed over the rows, each capped, so a faint line crossing every row
//!    outweighs a bold piece outline) and the row profile.
//! 2. Candidates: for each square size in half pixels, each axis's three best
//!    combs of nine lines against their midpoints, paired, and each pair
//!    scored by how cleanly its squares split into two kinds, in tone or in
//!    texture (hatched diagram squares); text has lines but no alternation.
//! 3. Settling the best few: each axis searched again over the band the
//!    other covers, the grid and its one-square shifts ranked by how many
//!    squares alternate (by one threshold and against their neighbours,
//!    the two counts added), then the inner lines placed to a fraction of a
//!    pixel near the squares' corners (where pieces rarely reach), on tone,
//!    smoothed tone or texture, and fitted by least squares, outliers
//!    refitted without.
//!
//! A found grid must alternate on at least 52 of 64 squares (56 where its
//! inner lines could not be placed), each square judged by its four
//! corners' mean or by their middle two's, or there is no
//! board: by one threshold over the whole board, or (for a board partly in
//! shadow) 56 squares each standing out from all its neighbours the
//! checkerboard's way. A board turned a little ([`skew`]) is turned back
//! first.

use std::fmt;
use std::ops::Range;

use super::picture::Plane;

/// The fitted grid: the board's top-left corner and square size, in pixels
/// (pixel edges: a board starting at pixel column 10 has `left` 10.0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub left: f32,
    pub top: f32,
    pub square: f32,
    /// Degrees the board is turned clockwise in the picture (about the
    /// picture's centre); `left` and `top` are in the picture turned back
    /// upright ([`Plane::upright`]).
    pub skew: f32,
}

impl Grid {
    /// Whether every edge of `other` lies within `fraction` of a square of
    /// this grid's (skews alike).
    pub fn near(&self, other: &Grid, fraction: f32) -> bool {
        let edges = |g: &Grid| {
            [
                g.left,
                g.top,
                g.left + 8.0 * g.square,
                g.top + 8.0 * g.square,
            ]
        };
        edges(self)
            .into_iter()
            .zip(edges(other))
            .all(|(a, b)| (a - b).abs() <= fraction * self.square)
    }

    /// Whether the two boards share more than a quarter of the smaller's
    /// area (skews ignored: boards found in one picture turn alike).
    pub fn overlaps(&self, other: &Grid) -> bool {
        let span = |g: &Grid| {
            (
                g.left,
                g.top,
                g.left + 8.0 * g.square,
                g.top + 8.0 * g.square,
            )
        };
        let (a, b) = (span(self), span(other));
        let across = (a.2.min(b.2) - a.0.max(b.0)).max(0.0);
        let down = (a.3.min(b.3) - a.1.max(b.1)).max(0.0);
        let smaller = (8.0 * self.square.min(other.square)).powi(2);
        across * down > 0.25 * smaller
    }

    /// Whether all of `other` lies inside one of this grid's squares (give
    /// or take a twentieth of it: the lines are a pixel or two wide).
    fn has_within_one_square(&self, other: &Grid) -> bool {
        const MARGIN: f32 = 0.05;
        let u = (other.left - self.left) / self.square;
        let v = (other.top - self.top) / self.square;
        let side = 8.0 * other.square / self.square;
        let (column, row) = ((u + MARGIN).floor(), (v + MARGIN).floor());
        (0.0..8.0).contains(&column)
            && (0.0..8.0).contains(&row)
            && u + side <= column + 1.0 + MARGIN
            && v + side <= row + 1.0 + MARGIN
    }

    /// The top-left corner of displayed square `i` (row `i / 8` from the
    /// top, column `i % 8` from the left).
    pub fn corner(&self, i: usize) -> (f32, f32) {
        debug_assert!(i < 64);
        (
            self.left + (i % 8) as f32 * self.square,
            self.top + (i / 8) as f32 * self.square,
        )
    }
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

/// A grid is a board only where at least this many of its 64 squares
/// alternate as a checkerboard's do.
const BOARD_AGREEMENT: usize = 52;

/// A grid whose inner lines could not be placed is a board only where this
/// many squares alternate: word-like blocks on a lattice alternate on 53 by
/// the corners' middle two, and a board's lines place.
const UNPLACED_AGREEMENT: usize = 56;

/// The smallest square searched for, in pixels.
const MIN_SQUARE: f32 = 10.0;

pub fn find(plane: &Plane) -> Result<Grid, FindError> {
    find_scored(plane).map(|found| found.grid)
}

/// A grid [`find_scored`] found, and how far to trust it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    pub grid: Grid,
    /// How many of the grid's 64 squares alternate as a checkerboard's do
    /// (at least [`BOARD_AGREEMENT`]).
    pub agreeing: usize,
    /// Whether the inner lines were placed to a fraction of a pixel; false
    /// where that fell apart and the grid is a comb's, a pixel or two off.
    pub placed: bool,
}

/// [`find`], with how far to trust the grid.
pub fn find_scored(plane: &Plane) -> Result<Found, FindError> {
    let (w, h) = (plane.width, plane.height);
    let max_square = (w.min(h) as f32 - 1.0) / 8.0;
    if max_square < MIN_SQUARE {
        return Err(FindError::NoGrid);
    }
    let columns = LineStrength::new(
        &column_profile(plane, std::slice::from_ref(&(0..h)), EVIDENCE_CAP),
        2,
    );
    let rows = LineStrength::new(
        &row_profile(plane, std::slice::from_ref(&(0..w)), EVIDENCE_CAP),
        2,
    );
    let integral = Integral::new(plane);
    let surfaces = Surfaces {
        texture: texture(plane),
        smooth: smooth(plane),
    };
    let candidates = square_combs(&integral, &columns, &rows, MIN_SQUARE, max_square);
    if candidates.is_empty() {
        return Err(FindError::NoGrid);
    }
    // Page text and frames can outscore the board at some step, so the few
    // best steps are each settled; the grid whose squares alternate best wins.
    // A grid inside one square of a board is that square's hatching or
    // pattern, not a board.
    let settled: Vec<Found> = candidates
        .into_iter()
        .map(|(x, y)| settle(plane, &surfaces, &integral, x, y))
        .collect();
    let boards: Vec<&Grid> = settled
        .iter()
        .filter(|found| found.agreeing >= BOARD_AGREEMENT)
        .map(|found| &found.grid)
        .collect();
    let mut best: Option<Found> = None;
    for &candidate in &settled {
        if boards
            .iter()
            .any(|board| board.has_within_one_square(&candidate.grid))
        {
            continue;
        }
        if best.is_none_or(|b| candidate.agreeing > b.agreeing) {
            best = Some(candidate);
        }
    }
    match best {
        Some(found)
            if found.agreeing >= BOARD_AGREEMENT
                && (found.placed || found.agreeing >= UNPLACED_AGREEMENT) =>
        {
            Ok(found)
        }
        _ => Err(FindError::NoCheckerboard),
    }
}

/// The planes besides the tone plane that the lines are placed on.
struct Surfaces {
    /// How busy each pixel's neighbourhood is ([`texture`]).
    texture: Plane,
    /// The tone plane smoothed ([`smooth`]).
    smooth: Plane,
}

/// A comb along one axis: the first line's position and the spacing, in
/// pixel edges.
type Comb = (f32, f32);

/// From one comb per axis: each axis searched again, near the step found,
/// over the band the other axis covers (page text beside the board drops out
/// of the profile), the inner lines placed precisely, and the grid and its
/// one-square shifts ranked by how many squares alternate ([`Rank`]; a comb
/// one square off still matches seven lines, the board's edge standing in
/// for the eighth). The rank's tie-break decides between shifts of one
/// comb pair only: between two pairs of slightly different steps it would
/// favour the one whose corner patches miss the lines, not the truer one.
fn settle(plane: &Plane, surfaces: &Surfaces, integral: &Integral, x: Comb, y: Comb) -> Found {
    let (w, h) = (plane.width, plane.height);
    let near = |profile: &[f32], comb: Comb| {
        LineStrength::new(profile, 1)
            .best_offset(comb.1 * 0.97, comb.1 * 1.03, 0.125)
            .map_or(comb, |(_, found)| found)
    };
    let fine_x = near(&column_profile(plane, &[band(y, h)], EVIDENCE_CAP), x);
    let fine_y = near(&row_profile(plane, &[band(x, w)], EVIDENCE_CAP), y);
    // Each comb pair's best shift; of the two pairs, the one whose best
    // shift alternates on more squares (the combs found in the band first:
    // ties keep them).
    let best_shift = |(x, y): (Comb, Comb)| {
        [
            (0, 0),
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (-1, 1),
            (1, -1),
            (1, 1),
        ]
        .into_iter()
        .map(|(dx, dy)| ((x.0 + dx as f32 * x.1, x.1), (y.0 + dy as f32 * y.1, y.1)))
        .map(|shifted| (integral.rank(&grid_of(shifted)), shifted))
        .fold((Rank::default(), (x, y)), |best, next| {
            if next.0 > best.0 { next } else { best }
        })
    };
    let fine = best_shift((fine_x, fine_y));
    let coarse = best_shift((x, y));
    let best = if coarse.0.agreement > fine.0.agreement {
        coarse
    } else {
        fine
    };
    // Each axis's lines placed where the other axis's lines cross them: near
    // the squares' corners, where pieces rarely reach, so a piece's flat
    // base a few pixels above a line does not pull it. Raw gradients there,
    // for the shape of each peak: of tone; of smoothed tone where a diagram
    // hatches its dark squares more darkly (the hatching's own edges drown
    // the raw ones); of texture where it hatches them on a white ground (often
    // as light as the light squares); whichever stands out most at the axis's
    // lines.
    let (mut x, mut y) = best.1;
    let mut placed = false;
    for _ in 0..2 {
        let placed_x = place(plane, surfaces, Lines::Columns, x, y);
        x = placed_x.unwrap_or(x);
        let placed_y = place(plane, surfaces, Lines::Rows, y, x);
        y = placed_y.unwrap_or(y);
        placed = placed_x.is_some() && placed_y.is_some();
    }
    // Agreement counts whole squares, sampled near their corners: a grid
    // moved by a pixel may lose a square or two to a highlight or a
    // coordinate. The refined lines are the better measurement unless the
    // pattern fell apart.
    let refined = integral.agreement(&grid_of((x, y)));
    if refined + 4 >= best.0.agreement {
        Found {
            grid: grid_of((x, y)),
            agreeing: refined,
            placed,
        }
    } else {
        Found {
            grid: grid_of(best.1),
            agreeing: best.0.agreement,
            placed: false,
        }
    }
}

/// Which of a grid's lines: the columns' (placed along x) or the rows'.
#[derive(Clone, Copy)]
enum Lines {
    Columns,
    Rows,
}

/// One axis's inner lines placed ([`refine`]) near where the other axis's
/// lines cross them, on whichever of tone, smoothed tone and texture shows
/// them clearest.
fn place(
    plane: &Plane,
    surfaces: &Surfaces,
    lines: Lines,
    comb: Comb,
    other: Comb,
) -> Option<Comb> {
    let profiles = match lines {
        Lines::Columns => {
            let zones = corner_zones(other, plane.height);
            [
                column_profile(plane, &zones, f32::MAX),
                column_profile(&surfaces.smooth, &zones, f32::MAX),
                signed_column_profile(&surfaces.texture, &half_zones(other, plane.height)),
            ]
        }
        Lines::Rows => {
            let zones = corner_zones(other, plane.width);
            [
                row_profile(plane, &zones, f32::MAX),
                row_profile(&surfaces.smooth, &zones, f32::MAX),
                signed_row_profile(&surfaces.texture, &half_zones(other, plane.width)),
            ]
        }
    };
    refine(&clearest(profiles, comb), comb)
}

/// The grid two combs make; squares are square, so their steps are averaged.
fn grid_of((x, y): (Comb, Comb)) -> Grid {
    Grid {
        left: x.0,
        top: y.0,
        square: (x.1 + y.1) / 2.0,
        skew: 0.0,
    }
}

/// The largest skew looked for, in degrees: a board photographed or scanned
/// a little crooked, not a picture on its side.
const MAX_SKEW: f32 = 5.0;
/// Below this a skew is left alone: the grid fit absorbs it.
const MIN_SKEW: f32 = 0.3;
const SKEW_STEP: f32 = 0.1;
/// A turned reading must line the edges up this much better than upright.
const SKEW_GAIN: f32 = 1.05;
/// Edge pixels the skew is measured on, at most.
const MAX_SKEW_EDGES: usize = 30_000;
/// An edge pixel whose smaller difference is at least this share of its
/// larger one runs diagonally (the ratio is tan 26.6°) and says nothing
/// about the board's lines: hatching, a piece's outline.
const DIAGONAL_EDGE_RATIO: f32 = 0.5;
/// How far the skew's differences are averaged along their edge, each way
/// (twice: a triangle about 4·SKEW_REACH + 1 pixels long).
const SKEW_REACH: usize = 2;

/// How far a board's lines are turned from the picture's axes, in degrees
/// clockwise, or 0 when they are not (or nothing says so clearly).
///
/// The edges are projected across the picture at each angle tried: at the
/// board's own angle its lines fall on few rows and columns, so the sum of
/// the squared projections peaks. (Per-pixel gradient directions do not
/// work: beside a rasterised, slightly turned line most pixels see a step
/// straight up.)
pub fn skew(plane: &Plane) -> f32 {
    let (w, h) = (plane.width, plane.height);
    if w < 3 || h < 3 {
        return 0.0;
    }
    // (x, y, weight across rows, weight across columns) of every edge pixel.
    // Every pixel, not every other: a sparser lattice of samples projects
    // most sharply upright whatever the board's angle.
    let mut edges: Vec<(f32, f32, f32, f32)> = Vec::new();
    // JPEG's 8×8 blocks leave faint steps at their borders, lined up
    // across the whole picture: differences that straddle them are left out.
    let clear_of_blocks = |i: usize| !matches!(i % 8, 0 | 7);
    // Each difference is averaged with its neighbours along the edge it
    // measures (about SKEW_REACH pixels either side, twice): a board line
    // turned a few degrees stays one edge, while the fine stripes of a
    // hatched square, which cross that span, cancel.
    let mut across_columns = vec![0.0f32; w * h];
    let mut across_rows = vec![0.0f32; w * h];
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let i = y * w + x;
            if clear_of_blocks(x) {
                across_columns[i] = plane.pixels[i + 1] - plane.pixels[i - 1];
            }
            if clear_of_blocks(y) {
                across_rows[i] = plane.pixels[i + w] - plane.pixels[i - w];
            }
        }
    }
    let across_columns = means_in_turn(across_columns, w, SKEW_REACH, &[Along::Columns; 2]);
    let across_rows = means_in_turn(across_rows, w, SKEW_REACH, &[Along::Rows; 2]);
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let gx = across_columns[y * w + x].abs();
            let gy = across_rows[y * w + x].abs();
            // Stripes at 45° that survive the sums are alike both ways; a
            // board line within MAX_SKEW of an axis steps across one far
            // more than the other.
            if gx.max(gy) >= 0.04 && gx.min(gy) < DIAGONAL_EDGE_RATIO * gx.max(gy) {
                edges.push((x as f32, y as f32, gy.min(0.3), gx.min(0.3)));
            }
        }
    }
    if edges.is_empty() {
        return 0.0;
    }
    // The strongest edges are the board's lines and the pieces' outlines;
    // keeping only those keeps a big picture's cost near a small one's.
    if edges.len() > MAX_SKEW_EDGES {
        edges.select_nth_unstable_by(MAX_SKEW_EDGES, |a, b| (b.2 + b.3).total_cmp(&(a.2 + a.3)));
        edges.truncate(MAX_SKEW_EDGES);
    }
    let span = (w + h) as f32;
    let mut rows = vec![0.0f32; 2 * (w + h) + 2];
    let mut columns = vec![0.0f32; 2 * (w + h) + 2];
    let mut sharpness = |degrees: f32| {
        let tan = degrees.to_radians().tan();
        rows.fill(0.0);
        columns.fill(0.0);
        for &(x, y, across_rows, across_columns) in &edges {
            // A horizontal line turned clockwise keeps y - x·tan; a vertical
            // one keeps x + y·tan.
            rows[(y - x * tan + span) as usize] += across_rows;
            columns[(x + y * tan + span) as usize] += across_columns;
        }
        rows.iter().chain(&columns).map(|v| v * v).sum::<f32>()
    };
    let steps = (MAX_SKEW / SKEW_STEP).round() as i32;
    let scores: Vec<(f32, f32)> = (-steps..=steps)
        .map(|k| {
            let degrees = k as f32 * SKEW_STEP;
            (degrees, sharpness(degrees))
        })
        .collect();
    let upright = scores[steps as usize].1;
    let Some(best) = (0..scores.len()).max_by(|&a, &b| scores[a].1.total_cmp(&scores[b].1)) else {
        return 0.0;
    };
    let (degrees, score) = scores[best];
    if degrees.abs() < MIN_SKEW || score < SKEW_GAIN * upright {
        return 0.0;
    }
    // A parabola through the peak and its neighbours, for a fraction of a step.
    if best == 0 || best + 1 == scores.len() {
        return degrees;
    }
    let (before, after) = (scores[best - 1].1, scores[best + 1].1);
    let curve = before - 2.0 * score + after;
    let shift = if curve < 0.0 {
        (0.5 * (before - after) / curve).clamp(-0.5, 0.5)
    } else {
        0.0
    };
    degrees + shift * SKEW_STEP
}

/// Each pixel's gradient counts at most this much (grey levels 0..1) while
/// the grid is searched: a board line is an edge in every row it crosses,
/// however faint (a low-contrast board's is about 0.1), while a piece's
/// black outline is strong but short. Capped, the profile counts rows more
/// than it weighs contrast, so eight faint squares outvote one bold piece.
const EVIDENCE_CAP: f32 = 0.05;

/// The pixel range a comb covers along one axis, clamped.
fn band((offset, step): Comb, len: usize) -> Range<usize> {
    let lo = offset.max(0.0) as usize;
    let hi = ((offset + 8.0 * step).ceil() as usize).min(len);
    lo..hi.max(lo + 1).min(len)
}

/// The pixels within an eighth of a square of each of a comb's nine lines.
fn corner_zones((offset, step): Comb, len: usize) -> Vec<Range<usize>> {
    let reach = (step / 8.0).max(1.0);
    (0..9)
        .map(|k| {
            let line = offset + k as f32 * step;
            let lo = (line - reach).max(0.0) as usize;
            lo.min(len)..((line + reach).max(0.0) as usize).min(len)
        })
        .collect()
}

/// How busy the picture is around each pixel: |∂I/∂x| + |∂I/∂y| (central
/// differences: one-sided ones would move every edge half a pixel),
/// averaged over 5×5 pixels twice. A hatched square is evenly busy and a
/// plain one quiet, so the edge between them is an edge of this plane; two
/// box means make that edge an even ramp whose steepest point is the
/// edge (one box leaves a flat-topped slope with no one steepest point).
fn texture(plane: &Plane) -> Plane {
    let (w, h) = (plane.width, plane.height);
    let row = |y: usize| &plane.pixels[y * w..(y + 1) * w];
    let mut busy = vec![0.0f32; w * h];
    for y in 0..h {
        let (up, here, down) = (row(y.saturating_sub(1)), row(y), row((y + 1).min(h - 1)));
        let out = &mut busy[y * w..(y + 1) * w];
        for x in 0..w {
            let across = here[(x + 1).min(w - 1)] - here[x.saturating_sub(1)];
            out[x] = across.abs() + (down[x] - up[x]).abs();
        }
    }
    Plane {
        width: w,
        height: h,
        pixels: means_in_turn(busy, w, 2, &BOX_MEAN_TWICE),
    }
}

/// The tone plane averaged over 5×5 pixels twice, as [`texture`] is: a
/// hatching's stripes average out to one grey, and the edge between a
/// hatched square and a plain one becomes an even ramp centred on it.
fn smooth(plane: &Plane) -> Plane {
    Plane {
        width: plane.width,
        height: plane.height,
        pixels: means_in_turn(plane.pixels.clone(), plane.width, 2, &BOX_MEAN_TWICE),
    }
}

/// Which way a pass of running means runs.
#[derive(Clone, Copy)]
enum Along {
    Rows,
    Columns,
}

/// A box mean over 5×5 pixels (reach 2) taken twice, as passes.
const BOX_MEAN_TWICE: [Along; 4] = [Along::Rows, Along::Columns, Along::Rows, Along::Columns];

/// `values` (rows of `w`) averaged by each pass in turn over `reach` values
/// either side ([`row_means`], [`column_means`]). Each pass writes over the
/// buffer the pass before it read, so any number of passes needs one buffer
/// besides `values`: a megapixel's fresh buffer costs the kernel a thousand
/// page faults.
fn means_in_turn(mut values: Vec<f32>, w: usize, reach: usize, passes: &[Along]) -> Vec<f32> {
    let mut scratch = vec![0.0f32; values.len()];
    for pass in passes {
        match pass {
            Along::Rows => row_means(&values, w, reach, &mut scratch),
            Along::Columns => column_means(&values, w, reach, &mut scratch),
        }
        std::mem::swap(&mut values, &mut scratch);
    }
    values
}

/// Rows of `w` values, each value the mean of those `reach` either side of
/// it in its row, written to `out`.
fn row_means(values: &[f32], w: usize, reach: usize, out: &mut [f32]) {
    debug_assert_eq!(values.len(), out.len());
    // A running sum is one long chain of additions; eight rows side by side
    // are eight independent chains, which the processor overlaps.
    let mut rows = values.chunks_exact(w * ROWS_AT_ONCE);
    let mut outs = out.chunks_exact_mut(w * ROWS_AT_ONCE);
    for (rows, out) in (&mut rows).zip(&mut outs) {
        running_means::<ROWS_AT_ONCE>(rows, w, reach, out);
    }
    for (row, out) in rows
        .remainder()
        .chunks_exact(w)
        .zip(outs.into_remainder().chunks_exact_mut(w))
    {
        running_means::<1>(row, w, reach, out);
    }
}

const ROWS_AT_ONCE: usize = 8;

/// Rows of `w` values, each value the mean of those `reach` rows above and
/// below it in its column, written to `out`: a running sum of whole rows
/// down the picture.
fn column_means(values: &[f32], w: usize, reach: usize, out: &mut [f32]) {
    debug_assert_eq!(values.len(), out.len());
    let h = values.len() / w;
    let row = |y: usize| &values[y * w..(y + 1) * w];
    let mut sum = vec![0.0f32; w];
    let (mut lo, mut hi) = (0usize, 0usize);
    for y in 0..h {
        let (want_lo, want_hi) = (y.saturating_sub(reach), (y + reach + 1).min(h));
        while hi < want_hi {
            for (s, v) in sum.iter_mut().zip(row(hi)) {
                *s += v;
            }
            hi += 1;
        }
        while lo < want_lo {
            for (s, v) in sum.iter_mut().zip(row(lo)) {
                *s -= v;
            }
            lo += 1;
        }
        let count = (hi - lo) as f32;
        for (o, s) in out[y * w..(y + 1) * w].iter_mut().zip(&sum) {
            *o = s / count;
        }
    }
}

/// For each of `R` rows of `w` values: `out[i]` = the mean of
/// `row[i − reach ..= i + reach]` (clipped to the row).
fn running_means<const R: usize>(rows: &[f32], w: usize, reach: usize, out: &mut [f32]) {
    debug_assert_eq!(rows.len(), R * w);
    let mut sum = [0.0f32; R];
    let (mut lo, mut hi) = (0usize, 0usize);
    for i in 0..w {
        let (want_lo, want_hi) = (i.saturating_sub(reach), (i + reach + 1).min(w));
        while hi < want_hi {
            for (r, s) in sum.iter_mut().enumerate() {
                *s += rows[r * w + hi];
            }
            hi += 1;
        }
        while lo < want_lo {
            for (r, s) in sum.iter_mut().enumerate() {
                *s -= rows[r * w + lo];
            }
            lo += 1;
        }
        let count = (hi - lo) as f32;
        for (r, s) in sum.iter().enumerate() {
            out[r * w + i] = s / count;
        }
    }
}

/// Of several profiles along one axis, the one whose peaks near the comb's
/// seven inner lines stand highest over its mean between them (the first on
/// a tie).
fn clearest<const N: usize>(profiles: [Vec<f32>; N], comb: Comb) -> Vec<f32> {
    let mut best: Option<(f32, Vec<f32>)> = None;
    for profile in profiles {
        let score = prominence(&profile, comb);
        if best.as_ref().is_none_or(|(top, _)| score > *top) {
            best = Some((score, profile));
        }
    }
    best.map(|(_, profile)| profile).unwrap_or_default()
}

/// The mean of a profile's peaks near a comb's inner lines over its mean
/// across the span they cover (0 when the span is off the profile).
fn prominence(profile: &[f32], (offset, step): Comb) -> f32 {
    let reach = (step / 6.0).max(2.0) as isize;
    let at = |k: usize| (offset - 1.0 + k as f32 * step).round() as isize;
    let (lo, hi) = (at(1) - reach, at(7) + reach);
    if lo < 0 || hi >= profile.len() as isize {
        return 0.0;
    }
    let peaks: f32 = (1..=7)
        .map(|k| {
            profile[(at(k) - reach) as usize..=(at(k) + reach) as usize]
                .iter()
                .copied()
                .fold(0.0, f32::max)
        })
        .sum::<f32>()
        / 7.0;
    let span = &profile[lo as usize..=hi as usize];
    let mean = span.iter().sum::<f32>() / span.len() as f32;
    if mean > 0.0 { peaks / mean } else { 0.0 }
}

/// [`corner_zones`] cut in two at their lines: on either side of a line the
/// squares' edges across it all change tone the same way.
fn half_zones(comb: Comb, len: usize) -> Vec<Range<usize>> {
    corner_zones(comb, len)
        .into_iter()
        .enumerate()
        .flat_map(|(k, zone)| {
            let line = ((comb.0 + k as f32 * comb.1).round().max(0.0) as usize)
                .clamp(zone.start, zone.end);
            [zone.start..line, line..zone.end]
        })
        .filter(|zone| !zone.is_empty())
        .collect()
}

/// `profile[x]`: |Σ (I(x+1, y) − I(x, y))| over the rows of each of `zones`,
/// summed over the zones. Signed within a zone, so an edge across all its
/// rows adds up and what rises and falls within it (a piece, the ripple
/// left of a hatching) cancels; used on the [`texture`] plane, whose square
/// edges change the same way on either side of a line ([`half_zones`]).
fn signed_column_profile(plane: &Plane, zones: &[Range<usize>]) -> Vec<f32> {
    let width = plane.width;
    let mut profile = vec![0.0; width.saturating_sub(1)];
    let mut sums = vec![0.0f32; width.saturating_sub(1)];
    for zone in zones {
        sums.iter_mut().for_each(|s| *s = 0.0);
        for y in zone.clone() {
            let row = &plane.pixels[y * width..(y + 1) * width];
            for (s, pair) in sums.iter_mut().zip(row.windows(2)) {
                *s += pair[1] - pair[0];
            }
        }
        for (p, s) in profile.iter_mut().zip(&sums) {
            *p += s.abs();
        }
    }
    profile
}

/// `profile[y]`: as [`signed_column_profile`], across rows, over the
/// columns of each of `zones`.
fn signed_row_profile(plane: &Plane, zones: &[Range<usize>]) -> Vec<f32> {
    let width = plane.width;
    (0..plane.height.saturating_sub(1))
        .map(|y| {
            zones
                .iter()
                .map(|zone| {
                    let a = &plane.pixels[y * width + zone.start..y * width + zone.end];
                    let b = &plane.pixels[(y + 1) * width + zone.start..(y + 1) * width + zone.end];
                    a.iter().zip(b).map(|(p, q)| q - p).sum::<f32>().abs()
                })
                .sum()
        })
        .collect()
}

/// `profile[x]`: summed min(|I(x+1, y) − I(x, y)|, cap) over the rows in
/// `rows`; the edge it measures lies at pixel edge x + 1.
fn column_profile(plane: &Plane, rows: &[Range<usize>], cap: f32) -> Vec<f32> {
    let mut profile = vec![0.0; plane.width.saturating_sub(1)];
    for y in rows.iter().flat_map(|r| r.clone()) {
        let row = &plane.pixels[y * plane.width..(y + 1) * plane.width];
        for (p, pair) in profile.iter_mut().zip(row.windows(2)) {
            *p += (pair[1] - pair[0]).abs().min(cap);
        }
    }
    profile
}

/// `profile[y]`: summed min(|I(x, y+1) − I(x, y)|, cap) over the columns in
/// `columns`.
fn row_profile(plane: &Plane, columns: &[Range<usize>], cap: f32) -> Vec<f32> {
    // One sum a row is one long chain of additions, each waiting for the
    // one before; eight running sums side by side are independent, and the
    // compiler makes them one vector.
    const LANES: usize = 8;
    (0..plane.height.saturating_sub(1))
        .map(|y| {
            let mut lanes = [0.0f32; LANES];
            let mut rest = 0.0f32;
            for r in columns {
                let a = &plane.pixels[y * plane.width + r.start..y * plane.width + r.end];
                let b =
                    &plane.pixels[(y + 1) * plane.width + r.start..(y + 1) * plane.width + r.end];
                let (a, b) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
                rest += a
                    .remainder()
                    .iter()
                    .zip(b.remainder())
                    .map(|(p, q)| (q - p).abs().min(cap))
                    .sum::<f32>();
                for (a, b) in a.zip(b) {
                    for k in 0..LANES {
                        lanes[k] += (b[k] - a[k]).abs().min(cap);
                    }
                }
            }
            lanes.iter().sum::<f32>() + rest
        })
        .collect()
}

/// The level below which a profile counts as empty, as a fraction of its
/// mean: without it an empty stretch of page would score a comb's midpoints
/// as strongly "not a line" as a real line scores "a line".
const FLOOR: f32 = 0.5;

/// A gradient profile made ready for comb scoring: the logarithm of each
/// position's strongest neighbour (a little tolerance for lines between
/// whole pixels). Logarithms, so seven faint lines of a low-contrast board
/// beat two strong edges of a frame or a page.
struct LineStrength {
    log: Vec<f32>,
}

/// Where a comb of one step puts its nine lines and the eight midpoints
/// between them, in whole pixels from its first line: the same for every
/// offset, so worked out once a step.
struct CombOffsets {
    lines: [usize; 9],
    midpoints: [usize; 8],
    /// The comb's length, plus the half pixel rounding may add.
    span: f32,
}

impl CombOffsets {
    fn new(step: f32) -> CombOffsets {
        // Truncation after +0.5 rounds: positions are never negative.
        let at = |k: f32| (k * step + 0.5) as usize;
        CombOffsets {
            lines: std::array::from_fn(|k| at(k as f32)),
            midpoints: std::array::from_fn(|k| at(k as f32 + 0.5)),
            span: 8.0 * step + 0.5,
        }
    }
}

impl LineStrength {
    fn new(profile: &[f32], tolerance: usize) -> LineStrength {
        let n = profile.len();
        let floor = FLOOR * profile.iter().sum::<f32>() / n.max(1) as f32 + 1e-3;
        let log = (0..n)
            .map(|i| {
                let peak = profile[i.saturating_sub(tolerance)..(i + tolerance + 1).min(n)]
                    .iter()
                    .copied()
                    .fold(0.0, f32::max);
                (peak + floor).ln()
            })
            .collect();
        LineStrength { log }
    }

    /// Nine lines strong against the eight midpoints between them; the first
    /// and last count half (frames and coordinates crowd them). Whole-pixel
    /// offsets; `None` past the end.
    fn score(&self, offset: usize, comb: &CombOffsets) -> Option<f32> {
        if offset as f32 + comb.span >= self.log.len() as f32 {
            return None;
        }
        let log = &self.log[offset..];
        let mut score = 0.5 * (log[comb.lines[0]] + log[comb.lines[8]]);
        for k in 1..8 {
            score += log[comb.lines[k]] - log[comb.midpoints[k - 1]];
        }
        Some(score - log[comb.midpoints[7]])
    }

    /// The three best-scoring combs at one step, no two within a quarter
    /// square of each other, with positive scores only.
    fn best_offsets(&self, step: f32) -> Vec<Comb> {
        let mut best: Vec<(f32, usize)> = Vec::with_capacity(4);
        let comb = CombOffsets::new(step);
        for offset in 0.. {
            let Some(score) = self.score(offset, &comb) else {
                break;
            };
            if score <= 0.0 || (best.len() == 3 && score <= best[2].0) {
                continue;
            }
            match best
                .iter()
                .position(|b| (b.1 as f32 - offset as f32).abs() < step / 4.0)
            {
                Some(i) if best[i].0 >= score => continue,
                Some(i) => best[i] = (score, offset),
                None => best.push((score, offset)),
            }
            best.sort_by(|a, b| b.0.total_cmp(&a.0));
            best.truncate(3);
        }
        best.into_iter()
            .map(|(_, offset)| (offset as f32 + 1.0, step))
            .collect()
    }

    /// The best-scoring comb with its step in `lo..=hi` (in increments of
    /// `increment` pixels), and its score.
    fn best_offset(&self, lo: f32, hi: f32, increment: f32) -> Option<(f32, Comb)> {
        let mut best: Option<(f32, Comb)> = None;
        let mut step = lo;
        while step <= hi {
            let comb = CombOffsets::new(step);
            for offset in 0.. {
                let Some(score) = self.score(offset, &comb) else {
                    break;
                };
                if best.is_none_or(|b| score > b.0) {
                    best = Some((score, (offset as f32, step)));
                }
            }
            step += increment;
        }
        best.map(|(score, (offset, step))| (score, (offset + 1.0, step)))
    }
}

/// Squares are square and alternate: for every step in half pixels from
/// `lo` to `hi`, each axis's few best combs at that step are paired, and each
/// pair is scored by how cleanly its squares split into two colours
/// ([`Integral::separation`]). Text has lines at its own spacing, but no
/// light/dark alternation; the few best pairs, no two steps within 4 % of
/// each other, are returned, the best first.
fn square_combs(
    plane: &Integral,
    columns: &LineStrength,
    rows: &LineStrength,
    lo: f32,
    hi: f32,
) -> Vec<(Comb, Comb)> {
    const KEEP: usize = 4;
    let mut scored: Vec<(f32, Comb, Comb)> = Vec::new();
    let mut step = lo.max(2.0);
    while step <= hi {
        for x in columns.best_offsets(step) {
            for y in rows.best_offsets(step) {
                let separation = plane.separation(&grid_of((x, y)));
                scored.push((separation, x, y));
            }
        }
        step += 0.5;
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut kept: Vec<(Comb, Comb)> = Vec::with_capacity(KEEP);
    for (separation, x, y) in scored {
        if separation <= 0.0 || kept.len() == KEEP {
            break;
        }
        if kept.iter().all(|(k, _)| (k.1 - x.1).abs() > 0.04 * k.1) {
            kept.push((x, y));
        }
    }
    kept
}

/// Sums of the grey plane and of its square over rectangles in constant time
/// (summed-area tables, in `f64`: a megapixel's sum needs more than `f32`'s
/// digits). The squares give each patch's texture: a book diagram's hatched
/// dark squares have about the light squares' mean tone, but not their
/// smoothness.
struct Integral {
    width: usize,
    height: usize,
    /// `sums[y * (width + 1) + x]`: (Σ v, Σ v²) over the pixels left of x and
    /// above y.
    sums: Vec<(f64, f64)>,
}

/// Which of the checkerboard's two colours displayed square `i` (row-major
/// from the top left) has: 0 for the top-left square's, 1 for the other.
fn colour_of(i: usize) -> usize {
    (i / 8 + i % 8) % 2
}

/// The two ways a square can look light or dark: its mean tone, and its
/// texture (the spread of its pixels).
const FEATURES: usize = 2;
/// Each feature measured over a square's four corners two ways
/// ([`Integral::corners`]); a grid is judged by whichever splits best.
const VIEWS: usize = 2 * FEATURES;

impl Integral {
    fn new(plane: &Plane) -> Integral {
        let stride = plane.width + 1;
        let mut sums = vec![(0.0f64, 0.0f64); stride * (plane.height + 1)];
        for y in 0..plane.height {
            let mut row = (0.0f64, 0.0f64);
            for x in 0..plane.width {
                let v = plane.at(x, y) as f64;
                row = (row.0 + v, row.1 + v * v);
                let above = sums[y * stride + x + 1];
                sums[(y + 1) * stride + x + 1] = (above.0 + row.0, above.1 + row.1);
            }
        }
        Integral {
            width: plane.width,
            height: plane.height,
            sums,
        }
    }

    /// Each square's tone and texture, measured in its four corners (where
    /// pieces rarely reach), each two ways ([`VIEWS`]): the mean of all four,
    /// and the mean of the middle two, so that a printed coordinate or a
    /// piece's edge in one corner does not move it. `None` for a grid outside
    /// the picture.
    fn corners(&self, grid: &Grid) -> Option<[[f64; 64]; VIEWS]> {
        let s = grid.square;
        if grid.left < -0.5
            || grid.top < -0.5
            || grid.left + 8.0 * s > self.width as f32 + 0.5
            || grid.top + 8.0 * s > self.height as f32 + 0.5
        {
            return None;
        }
        let patch = (0.14 * s).max(1.0);
        let (near, far) = (0.08 * s, 0.92 * s - patch);
        // Along one axis, the near and the far patch of each line of
        // squares: patch `2 * line + far`.
        let spans = |origin: f32, size: usize| -> [(usize, usize); 16] {
            std::array::from_fn(|j| {
                let start = origin + (j / 2) as f32 * s + if j % 2 == 0 { near } else { far };
                patch_span(start, start + patch, size)
            })
        };
        let (xs, ys) = (spans(grid.left, self.width), spans(grid.top, self.height));
        // Every table entry the patches read, gathered row by row before any
        // arithmetic: the table is megabytes and nearly every read misses the
        // cache, so independent reads in a row overlap where reads
        // interleaved with the arithmetic waited one by one.
        let stride = self.width + 1;
        let mut lattice = [[(0.0f64, 0.0f64); 32]; 32];
        for (row, y) in lattice.iter_mut().zip(ys.iter().flat_map(|&(a, b)| [a, b])) {
            let line = &self.sums[y * stride..(y + 1) * stride];
            for (entry, x) in row.iter_mut().zip(xs.iter().flat_map(|&(a, b)| [a, b])) {
                *entry = line[x];
            }
        }
        // The mean and the standard deviation over one patch.
        let measure = |jx: usize, jy: usize| -> [f64; FEATURES] {
            let ((x0, x1), (y0, y1)) = (xs[jx], ys[jy]);
            let at = |kx: usize, ky: usize| lattice[2 * jy + ky][2 * jx + kx];
            let (a, b, c, d) = (at(1, 1), at(0, 1), at(1, 0), at(0, 0));
            let n = ((x1 - x0) * (y1 - y0)) as f64;
            let mean = (a.0 - b.0 - c.0 + d.0) / n;
            let square = (a.1 - b.1 - c.1 + d.1) / n;
            [mean, (square - mean * mean).max(0.0).sqrt()]
        };
        let squares: [[f64; VIEWS]; 64] = std::array::from_fn(|i| {
            let (col, row) = (i % 8, i / 8);
            let measured = [(0, 0), (1, 0), (0, 1), (1, 1)]
                .map(|(far_x, far_y)| measure(2 * col + far_x, 2 * row + far_y));
            // (all four's mean, the middle two's mean) of one feature.
            let both = |f: usize| {
                let [a, b, c, d] = measured.map(|m| m[f]);
                let mean = (a + b + c + d) / 4.0;
                (mean, middle_two_mean(a, b, c, d))
            };
            let ((tone, tone_middle), (texture, texture_middle)) = (both(0), both(1));
            [tone, texture, tone_middle, texture_middle]
        });
        let values = std::array::from_fn(|view| std::array::from_fn(|i| squares[i][view]));
        Some(values)
    }

    /// How cleanly a grid's squares split into two kinds in the checkerboard
    /// pattern: the difference of the two kinds' means over their spread, in
    /// tone or in texture, whichever splits better. 0 for a grid outside the
    /// picture.
    fn separation(&self, grid: &Grid) -> f32 {
        let Some(values) = self.corners(grid).map(|v| v.map(|f| local_contrast(&f))) else {
            return 0.0;
        };
        values
            .iter()
            .map(|feature| {
                let mut sums = [0.0f64; 2];
                let mut squares = [0.0f64; 2];
                for (i, v) in feature.iter().enumerate() {
                    let parity = colour_of(i);
                    sums[parity] += v;
                    squares[parity] += v * v;
                }
                let means = [sums[0] / 32.0, sums[1] / 32.0];
                let variance = (squares[0] / 32.0 - means[0] * means[0] + squares[1] / 32.0
                    - means[1] * means[1])
                    / 2.0;
                ((means[0] - means[1]).abs() / (variance.max(0.0).sqrt() + 0.01)) as f32
            })
            .fold(0.0, f32::max)
    }

    /// How many of the grid's squares fit the alternation: on the side of
    /// the threshold between the two kinds' medians that the checkerboard
    /// says, in tone or in texture, whichever fits more. 0 for a grid outside
    /// the picture or whose two kinds barely differ.
    fn agreement(&self, grid: &Grid) -> usize {
        self.rank(grid).agreement
    }

    /// A grid's [`Rank`] among its one-square shifts.
    fn rank(&self, grid: &Grid) -> Rank {
        let Some(values) = self.corners(grid) else {
            return Rank::default();
        };
        // Against its neighbours a square alternates in a shadow too, but
        // text alternates that way more easily than by one threshold: that
        // count must clear a higher bar.
        let local = values.iter().map(standing_out).max().unwrap_or(0);
        let alternating = Self::alternating(&values);
        Rank {
            both_ways: alternating + local,
            agreement: alternating.max(local.saturating_sub(LOCAL_HANDICAP)),
        }
    }

    /// The agreement of one set of features (see [`Integral::agreement`]).
    fn alternating(values: &[[f64; 64]]) -> usize {
        values
            .iter()
            .map(|feature| {
                let median = |parity: usize| {
                    let mut v: Vec<f64> = (0..64)
                        .filter(|&i| colour_of(i) == parity)
                        .map(|i| feature[i])
                        .collect();
                    v.sort_by(f64::total_cmp);
                    v[v.len() / 2]
                };
                let (even, odd) = (median(0), median(1));
                if (even - odd).abs() < 0.025 {
                    return 0;
                }
                let threshold = (even + odd) / 2.0;
                (0..64)
                    .filter(|&i| {
                        let is_even = colour_of(i) == 0;
                        (feature[i] > threshold) == (is_even == (even > threshold))
                    })
                    .count()
            })
            .max()
            .unwrap_or(0)
    }
}

/// How a grid ranks against its own one-square shifts ([`settle`]): first by
/// its squares counted both ways, by the threshold over the board and
/// against their neighbours, then by [`Integral::agreement`]. On a board lit
/// unevenly the grid a square off, with the page's edge or the text beside
/// the board standing in for a missing row, can alternate by one threshold
/// on as many squares as the true grid or more; but only the true grid's
/// squares all stand out from their neighbours, and the sum then favours it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    both_ways: usize,
    agreement: usize,
}

/// A patch's pixels along one axis, lo..hi, clamped to the picture's `size`
/// and at least one pixel wide.
fn patch_span(lo: f32, hi: f32, size: usize) -> (usize, usize) {
    let lo = (lo.max(0.0) as usize).min(size - 1);
    (lo, (hi.max(0.0) as usize).clamp(lo + 1, size))
}

/// The mean of the middle two of four values (none NaN): the larger of the
/// two pairs' lesser values and the lesser of their larger ones. No sort:
/// the finder takes this a quarter-million times a picture.
fn middle_two_mean(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let (low_ab, high_ab) = (a.min(b), a.max(b));
    let (low_cd, high_cd) = (c.min(d), c.max(d));
    let (second, third) = (low_ab.max(low_cd), high_ab.min(high_cd));
    (second.min(third) + second.max(third)) / 2.0
}

/// Squares alternating against their neighbours that count as one
/// alternating by the picture-wide threshold fewer.
const LOCAL_HANDICAP: usize = 4;

/// How many squares stand out from every one of their neighbours the way
/// the checkerboard says (above them all, or below them all, by at least a
/// little): true of a board's squares in a shadow or out of it, and of a
/// column beside the board only by chance, since it must also differ from
/// the squares above and below it.
fn standing_out(feature: &[f64; 64]) -> usize {
    const MARGIN: f64 = 0.01;
    let neighbours = |i: usize| {
        let (row, col) = (i / 8, i % 8);
        [
            (row > 0).then(|| i - 8),
            (row < 7).then(|| i + 8),
            (col > 0).then(|| i - 1),
            (col < 7).then(|| i + 1),
        ]
        .into_iter()
        .flatten()
    };
    // Which kind of square is the lighter (or the more textured) one.
    let even_higher = (0..64)
        .filter(|&i| colour_of(i) == 0)
        .map(|i| neighbours(i).map(|j| feature[i] - feature[j]).sum::<f64>())
        .sum::<f64>()
        > 0.0;
    (0..64)
        .filter(|&i| {
            let higher = (colour_of(i) == 0) == even_higher;
            neighbours(i).all(|j| {
                let step = feature[i] - feature[j];
                if higher {
                    step > MARGIN
                } else {
                    step < -MARGIN
                }
            })
        })
        .count()
}

/// Each square's value less the mean of its (up to four) neighbours': a
/// checkerboard's light squares stand above their neighbours and its dark
/// ones below, in a shadow or out of it, where a split of all 64 by one
/// threshold fails once a shadow darkens light squares to a dark square's
/// tone.
fn local_contrast(feature: &[f64; 64]) -> [f64; 64] {
    std::array::from_fn(|i| {
        let (row, col) = (i / 8, i % 8);
        // Summed in place, not gathered: this runs for every square of
        // every candidate grid.
        let (sum, count) = [
            (row > 0).then(|| feature[i - 8]),
            (row < 7).then(|| feature[i + 8]),
            (col > 0).then(|| feature[i - 1]),
            (col < 7).then(|| feature[i + 1]),
        ]
        .into_iter()
        .flatten()
        .fold((0.0f64, 0usize), |(sum, count), v| (sum + v, count + 1));
        feature[i] - sum / count as f64
    })
}

/// Places each of the seven inner lines at its local gradient peak (parabolic
/// sub-pixel fit) and fits offset and step to them by least squares. The
/// outer two are left out: frames, coordinates and page text crowd them.
/// `None` where the lines do not fit one comb near the one given.
fn refine(profile: &[f32], (offset, step): (f32, f32)) -> Option<Comb> {
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
    let (first, fitted_step) = fit_line(&points)?;
    // A line far off the fit is a piece's edge or a frame: fitted again
    // without it.
    let tolerance = (step * 0.02).max(1.0);
    let points: Vec<(f32, f32, f32)> = points
        .into_iter()
        .map(|(k, x, w)| {
            let off = (x - first - fitted_step * k).abs() > tolerance;
            (k, x, if off { 0.0 } else { w })
        })
        .collect();
    let (first, fitted_step) = fit_line(&points)?;
    // A refit that moves far from the comb found a piece's edge, not a line.
    if (fitted_step - step).abs() > step * 0.05 {
        return None;
    }
    Some((first, fitted_step))
}

/// Least squares through weighted (line number, position, weight) points:
/// the position of line 0 and the step; `None` with fewer than five lines.
fn fit_line(points: &[(f32, f32, f32)]) -> Option<(f32, f32)> {
    let weight: f32 = points.iter().map(|p| p.2).sum();
    if weight < 5.0 {
        return None;
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
    if variance <= 0.0 {
        return None;
    }
    let fitted_step = covariance / variance;
    Some((mean_x - fitted_step * mean_k, fitted_step))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board at (left, top) with `square`-pixel squares on a plain page:
    /// light squares `light`, dark ones drawn by `dark(x, y)` (a tone or a
    /// hatching), a bold "piece" (a black disc) on a few squares.
    fn board_plane(
        size: (usize, usize),
        (left, top, square): (f32, f32, f32),
        light: f32,
        dark: impl Fn(usize, usize) -> f32,
    ) -> Plane {
        let (width, height) = size;
        let mut pixels = vec![0.97; width * height];
        for y in 0..height {
            for x in 0..width {
                let (u, v) = (
                    (x as f32 + 0.5 - left) / square,
                    (y as f32 + 0.5 - top) / square,
                );
                if !(0.0..8.0).contains(&u) || !(0.0..8.0).contains(&v) {
                    continue;
                }
                let (column, row) = (u as usize, v as usize);
                let (du, dv) = (u.fract() - 0.5, v.fract() - 0.5);
                pixels[y * width + x] = if (column + row) % 3 == 0 && du * du + dv * dv < 0.09 {
                    0.05
                } else if (column + row) % 2 == 0 {
                    light
                } else {
                    dark(x, y)
                };
            }
        }
        Plane {
            width,
            height,
            pixels,
        }
    }

    fn assert_found(plane: &Plane, (left, top, square): (f32, f32, f32)) {
        let grid = find(plane).expect("a board");
        let error = [
            grid.left - left,
            grid.top - top,
            grid.left + 8.0 * grid.square - left - 8.0 * square,
            grid.top + 8.0 * grid.square - top - 8.0 * square,
        ]
        .into_iter()
        .fold(0.0f32, |m, e| m.max(e.abs()));
        assert!(
            error <= 0.03 * square,
            "found {grid:?}, expected left {left} top {top} square {square}"
        );
    }

    #[test]
    fn a_plain_board_is_found_to_a_fraction_of_a_pixel() {
        let truth = (37.0, 21.0, 30.0);
        assert_found(&board_plane((320, 290), truth, 0.85, |_, _| 0.45), truth);
    }

    #[test]
    fn a_low_contrast_board_is_found() {
        let truth = (12.0, 40.0, 23.0);
        assert_found(&board_plane((230, 250), truth, 0.78, |_, _| 0.69), truth);
    }

    #[test]
    fn hatched_dark_squares_are_found_by_their_texture() {
        // Diagonal hatching whose mean tone is the light squares'.
        let truth = (20.0, 15.0, 40.0);
        let hatch = |x: usize, y: usize| if (x + y) % 5 < 1 { 0.2 } else { 0.95 };
        assert_found(&board_plane((370, 360), truth, 0.8, hatch), truth);
    }

    #[test]
    fn a_small_hatched_diagram_in_a_frame_is_found_to_a_fraction_of_a_square() {
        // A book diagram: one-pixel hatching every fourth diagonal on white,
        // light squares of the hatching's mean tone, a frame line a pixel
        // outside the board: the frame must not pull the outer lines.
        let truth = (25.0, 28.0, 27.0);
        let hatch = |x: usize, y: usize| if (x + y).is_multiple_of(4) { 0.24 } else { 1.0 };
        let mut plane = board_plane((260, 270), truth, 0.81, hatch);
        let (left, top, side) = (24, 27, 8 * 27 + 2);
        for i in 0..side {
            for (x, y) in [
                (left + i, top),
                (left + i, top + side - 1),
                (left, top + i),
                (left + side - 1, top + i),
            ] {
                plane.pixels[y * plane.width + x] = 0.3;
            }
        }
        assert_found(&plane, truth);
    }

    #[test]
    fn hatched_diagrams_between_whole_pixels_are_found_to_a_fraction_of_a_square() {
        // Texture locates these lines: a slope with a flat top (one box
        // mean instead of two) put them a pixel off.
        let hatch = |x: usize, y: usize| if (x + y).is_multiple_of(4) { 0.24 } else { 1.0 };
        for truth in [(25.4, 28.6, 26.7), (12.3, 27.8, 22.4), (16.7, 14.2, 29.59)] {
            assert_found(&board_plane((270, 280), truth, 0.81, hatch), truth);
        }
    }

    /// `upright` (with a board at `truth`) is measured upright, and turned
    /// by each of `angles` it is measured within 0.15° and found once
    /// turned back.
    fn assert_turns_measured(upright: &Plane, truth: (f32, f32, f32), angles: &[f32]) {
        assert_eq!(skew(upright), 0.0);
        for &degrees in angles {
            let turned = upright.rotated(degrees);
            let measured = skew(&turned);
            assert!(
                (measured - degrees).abs() < 0.15,
                "turned {degrees}°, measured {measured}°"
            );
            assert_found(&turned.upright(measured), truth);
        }
    }

    #[test]
    fn a_turned_board_is_measured_and_found_once_turned_back() {
        let truth = (50.0, 45.0, 30.0);
        let upright = board_plane((340, 330), truth, 0.85, |_, _| 0.45);
        assert_turns_measured(&upright, truth, &[-3.0, -1.2, 0.8, 2.5]);
    }

    #[test]
    fn a_turned_hatched_diagram_is_measured_and_found_once_turned_back() {
        // The stripes are edges at 45° all over the dark squares; they
        // must not drown the board's own lines.
        let truth = (40.0, 36.0, 28.0);
        let hatch = |x: usize, y: usize| if (x + y).is_multiple_of(4) { 0.24 } else { 1.0 };
        let upright = board_plane((310, 300), truth, 0.81, hatch);
        assert_turns_measured(&upright, truth, &[-2.7, -1.1, 1.3, 2.2]);
    }

    /// The middle two of four values without a sort, against a sort.
    #[test]
    fn middle_two_mean_is_the_mean_of_the_sorted_middle_two() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for _ in 0..1000 {
            // Few distinct values, so that ties are common.
            let mut v: [f64; 4] = std::array::from_fn(|_| (rng.symmetric_f32(3.0).round()) as f64);
            let got = middle_two_mean(v[0], v[1], v[2], v[3]);
            v.sort_by(f64::total_cmp);
            assert_eq!(got, (v[1] + v[2]) / 2.0, "{v:?}");
        }
    }

    /// Eight rows at a time and the rows left over give each row's plain
    /// running mean.
    #[test]
    fn row_means_are_each_rows_mean_of_its_neighbours() {
        let (w, h, reach) = (23, 13, 2);
        let mut rng = crate::rng::SplitMix64::new(11);
        let values: Vec<f32> = (0..w * h).map(|_| rng.symmetric_f32(1.0)).collect();
        let mut means = vec![0.0; values.len()];
        row_means(&values, w, reach, &mut means);
        for y in 0..h {
            for x in 0..w {
                let (lo, hi) = (x.saturating_sub(reach), (x + reach + 1).min(w));
                let row = &values[y * w..(y + 1) * w];
                let expected = row[lo..hi].iter().sum::<f32>() / (hi - lo) as f32;
                let got = means[y * w + x];
                assert!(
                    (got - expected).abs() < 1e-5,
                    "({x}, {y}): {got} against {expected}"
                );
            }
        }
    }

    #[test]
    fn a_page_without_a_board_is_refused() {
        // Rows of word-like blocks: lines at their own spacing, no squares.
        let (width, height) = (300, 260);
        let pixels = (0..width * height)
            .map(|i| {
                let (x, y) = (i % width, i / width);
                let word = (x / 7 + y / 11 * 3) % 5 != 0;
                if y % 11 < 7 && word { 0.1 } else { 0.95 }
            })
            .collect();
        let plane = Plane {
            width,
            height,
            pixels,
        };
        assert!(find(&plane).is_err());
        let blank = Plane {
            width,
            height,
            pixels: vec![0.5; width * height],
        };
        assert!(find(&blank).is_err());
    }
}
