//! Board coordinates printed on or around the board ("a"–"h", "1"–"8"),
//! read to tell which side is at the bottom: what a person looks at first,
//! and the only sure sign where the pieces cannot say (no pawns, kings in
//! the middle).
//!
//! Each place where sites and programs print them (a corner of every square
//! along one edge, or beside the board) is cut into eight small regions; the
//! ink nearest the expected spot in each is a glyph, compared with templates
//! of the sixteen characters in a few fonts. White at the bottom means
//! "8 … 1" down the side and "a … h" along the bottom; Black at the bottom
//! the reverse. The side whose glyphs fit one reading clearly better decides.

use std::sync::OnceLock;

use super::finder::Grid;
use super::picture::{Plane, bounding_box};
use super::render::{GLYPHS, LABEL_CHARS};

/// A glyph's ink resampled to its bounding box: `COLS`×`ROWS` cells.
const COLS: usize = 8;
const ROWS: usize = 12;

/// A character's shape, independent of size and position.
#[derive(Clone, Debug)]
pub struct Glyph {
    cells: [f32; COLS * ROWS],
    /// Width over height of the ink's bounding box.
    aspect: f32,
}

impl Glyph {
    /// The glyph of an ink mask (`width`×`height`, row-major, true = ink),
    /// or `None` without ink.
    pub fn from_mask(mask: &[bool], width: usize, height: usize) -> Option<Glyph> {
        debug_assert_eq!(mask.len(), width * height);
        let inked = mask.iter().enumerate().filter(|(_, ink)| **ink);
        let [x0, y0, x1, y1] = bounding_box(inked.map(|(i, _)| (i % width, i / width)))?;
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
        // Each cell averages the pixels whose centres fall in it; a cell
        // smaller than a pixel takes the pixel under its centre.
        let mut cells = [0.0f32; COLS * ROWS];
        for (c, cell) in cells.iter_mut().enumerate() {
            let (col, row) = (c % COLS, c / COLS);
            let span = |lo: usize, n: usize, cells: usize, index: usize| {
                let scale = n as f32 / cells as f32;
                let first = (index as f32 * scale - 0.5).ceil().max(0.0) as usize;
                let end = ((index + 1) as f32 * scale - 0.5).ceil().min(n as f32) as usize;
                if first < end {
                    (lo + first, lo + end)
                } else {
                    let centre = (((index as f32 + 0.5) * scale) as usize).min(n - 1);
                    (lo + centre, lo + centre + 1)
                }
            };
            let (xs, xe) = span(x0, w, COLS, col);
            let (ys, ye) = span(y0, h, ROWS, row);
            let mut sum = 0.0;
            for y in ys..ye {
                for x in xs..xe {
                    sum += f32::from(u8::from(mask[y * width + x]));
                }
            }
            *cell = sum / ((xe - xs) * (ye - ys)) as f32;
        }
        Some(Glyph {
            cells,
            aspect: w as f32 / h as f32,
        })
    }

    /// How alike two glyphs are: the correlation of their cells, less a
    /// penalty for different proportions (a "1" is narrow in every font).
    pub fn similarity(&self, other: &Glyph) -> f32 {
        let n = (COLS * ROWS) as f32;
        let mean = |g: &Glyph| g.cells.iter().sum::<f32>() / n;
        let (ma, mb) = (mean(self), mean(other));
        let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
        for (a, b) in self.cells.iter().zip(&other.cells) {
            cov += (a - ma) * (b - mb);
            va += (a - ma) * (a - ma);
            vb += (b - mb) * (b - mb);
        }
        let correlation = if va > 0.0 && vb > 0.0 {
            cov / (va * vb).sqrt()
        } else {
            0.0
        };
        correlation - 0.5 * (self.aspect / other.aspect).ln().abs()
    }

    /// The template file's form: the aspect, then the cells as hex digits.
    fn to_line(&self) -> String {
        let cells: String = self
            .cells
            .iter()
            .map(|v| char::from_digit((v * 15.0).round() as u32, 16).unwrap_or('f'))
            .collect();
        format!("{:.3} {cells}", self.aspect)
    }

    fn from_line(aspect: &str, cells: &str) -> Option<Glyph> {
        let aspect: f32 = aspect.parse().ok()?;
        let digits: Vec<f32> = cells
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as f32 / 15.0))
            .collect::<Option<_>>()?;
        let cells: [f32; COLS * ROWS] = digits.try_into().ok()?;
        Some(Glyph { cells, aspect })
    }
}

/// Templates made from label fonts by `tarpon scan label-templates`
/// (docs/scan.md): `FONT CHAR ASPECT CELLS` per line.
const TEMPLATE_FILE: &str = include_str!("label_templates.txt");

/// One character's templates: the renderer's pixel font and every font of
/// the template file.
fn templates() -> &'static [Vec<Glyph>; 16] {
    static TEMPLATES: OnceLock<[Vec<Glyph>; 16]> = OnceLock::new();
    TEMPLATES.get_or_init(|| {
        let mut out: [Vec<Glyph>; 16] = Default::default();
        for (c, rows) in GLYPHS {
            let mask: Vec<bool> = rows
                .iter()
                .flat_map(|bits| (0..3).map(move |x| bits & (0b100 >> x) != 0))
                .collect();
            if let (Some(i), Some(glyph)) = (char_index(c), Glyph::from_mask(&mask, 3, 5)) {
                out[i].push(glyph);
            }
        }
        for line in TEMPLATE_FILE.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let [_, c, aspect, cells] = fields[..]
                && let (Some(i), Some(glyph)) = (
                    c.chars().next().and_then(char_index),
                    Glyph::from_line(aspect, cells),
                )
            {
                out[i].push(glyph);
            }
        }
        out
    })
}

fn char_index(c: char) -> Option<usize> {
    LABEL_CHARS.iter().position(|&l| l == c)
}

/// The template file's lines for one font, from its sixteen glyphs as
/// alpha masks (`LABEL_CHARS` order).
pub fn template_lines(font: &str, glyphs: &[image::GrayImage]) -> Vec<String> {
    LABEL_CHARS
        .iter()
        .zip(glyphs)
        .filter_map(|(c, image)| {
            let mask: Vec<bool> = image.pixels().map(|p| p[0] >= 128).collect();
            let glyph = Glyph::from_mask(&mask, image.width() as usize, image.height() as usize)?;
            Some(format!("{font} {c} {}", glyph.to_line()))
        })
        .collect()
}

/// What the printed coordinates say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelReading {
    pub black_at_bottom: bool,
    /// How much better the chosen reading fits than the other, summed over
    /// the glyphs (about 0.3 to 1 a glyph when clear).
    pub margin: f32,
    /// Glyphs that took part.
    pub glyphs: usize,
}

/// Below this summed margin the coordinates are not trusted: ranks and
/// files agreeing, or one of them alone.
const MIN_MARGIN: f32 = 1.0;
const MIN_MARGIN_ONE_AXIS: f32 = 1.5;
/// A glyph must look this much like one of the two characters it could be.
const MIN_LIKENESS: f32 = 0.3;
/// A place counts when this many of its eight glyphs are found.
const MIN_GLYPHS: usize = 3;

#[derive(Clone, Copy, Debug)]
enum Axis {
    /// Digits down a side: row `i` shows 8 − i with White at the bottom.
    Ranks,
    /// Letters along an edge: column `i` shows a + i with White at the bottom.
    Files,
}

/// One place coordinates are printed at: the squares of one edge row or
/// column (`line` 0 or 7), in one corner of each; or beside the board
/// (`line` −1 before the first row or column, 8 after the last).
#[derive(Clone, Copy, Debug)]
struct Place {
    axis: Axis,
    line: i32,
    /// The corner, as (right, bottom); `None` beside the board.
    corner: Option<(bool, bool)>,
}

/// Which sides of a region face away from where a label is printed: a
/// piece or a frame crossing one of them is not a label.
#[derive(Clone, Copy, Debug, Default)]
struct Edges {
    left: bool,
    right: bool,
    top: bool,
    bottom: bool,
}

/// Inside a square, labels sit in one corner: this much of the square.
const CORNER_W: f32 = 0.45;
const CORNER_H: f32 = 0.55;
/// Beside the board, within this much of a square.
const BESIDE: f32 = 0.8;

impl Place {
    /// Every place: the four corners of the squares along each edge, and
    /// beside each edge.
    fn all() -> Vec<Place> {
        let mut places = Vec::new();
        for axis in [Axis::Ranks, Axis::Files] {
            for line in [0, 7] {
                for corner in [(false, false), (false, true), (true, false), (true, true)] {
                    places.push(Place {
                        axis,
                        line,
                        corner: Some(corner),
                    });
                }
            }
            for line in [-1, 8] {
                places.push(Place {
                    axis,
                    line,
                    corner: None,
                });
            }
        }
        places
    }

    /// The region of the `i`-th label, in squares from the grid's top-left
    /// corner (x0, y0, x1, y1), and its edges facing away from the label.
    fn region(&self, i: usize) -> ([f32; 4], Edges) {
        let i = i as f32;
        let line = self.line as f32;
        let (col, row) = match self.axis {
            Axis::Ranks => (line, i),
            Axis::Files => (i, line),
        };
        match (self.corner, self.axis) {
            (Some((right, bottom)), _) => {
                let x0 = if right { col + 1.0 - CORNER_W } else { col };
                let y0 = if bottom { row + 1.0 - CORNER_H } else { row };
                let edges = Edges {
                    left: right,
                    right: !right,
                    top: bottom,
                    bottom: !bottom,
                };
                ([x0, y0, x0 + CORNER_W, y0 + CORNER_H], edges)
            }
            (None, Axis::Ranks) => {
                let before = self.line < 0;
                let x0 = if before { -BESIDE } else { 8.0 };
                let edges = Edges {
                    left: !before,
                    right: before,
                    top: true,
                    bottom: true,
                };
                ([x0, row, x0 + BESIDE, row + 1.0], edges)
            }
            (None, Axis::Files) => {
                let before = self.line < 0;
                let y0 = if before { -BESIDE } else { 8.0 };
                let edges = Edges {
                    left: true,
                    right: true,
                    top: !before,
                    bottom: before,
                };
                ([col, y0, col + 1.0, y0 + BESIDE], edges)
            }
        }
    }

    /// The character of label `i` with White (or Black) at the bottom.
    fn expected(&self, i: usize, black_at_bottom: bool) -> usize {
        let k = if black_at_bottom { 7 - i } else { i };
        match self.axis {
            Axis::Files => k,         // a..h are LABEL_CHARS[0..8]
            Axis::Ranks => 8 + 7 - k, // "8" at the top: LABEL_CHARS[15]
        }
    }
}

/// Reads the coordinates printed around `grid`: `None` where none are found
/// or they do not clearly say which side is at the bottom.
pub fn read(plane: &Plane, grid: &Grid) -> Option<LabelReading> {
    let (light, dark) = square_tones(plane, grid);
    let contrast = (light - dark).abs();
    // Per axis, the place whose glyphs look most like labels: (summed
    // likeness, summed margin for Black at the bottom, glyphs).
    let mut best: [Option<(f32, f32, usize)>; 2] = [None, None];
    for place in Place::all() {
        let (mut likeness, mut margin, mut glyphs) = (0.0, 0.0, 0);
        for i in 0..8 {
            let (rect, edges) = place.region(i);
            // In a square, ink is what stands off the square as much as the
            // other square's colour does; beside the board, the ink's own
            // contrast with the page sets it.
            let threshold = match place.corner {
                Some(_) => Threshold::Fixed((0.45 * contrast).max(0.05)),
                None => Threshold::FromRegion,
            };
            let Some(glyph) = glyph_in(plane, grid, rect, edges, threshold) else {
                continue;
            };
            let fit = |black_at_bottom: bool| {
                templates()[place.expected(i, black_at_bottom)]
                    .iter()
                    .map(|t| glyph.similarity(t))
                    .fold(f32::MIN, f32::max)
            };
            let (white, black) = (fit(false), fit(true));
            if white.max(black) < MIN_LIKENESS {
                continue;
            }
            likeness += white.max(black);
            margin += black - white;
            glyphs += 1;
        }
        let axis = place.axis as usize;
        if glyphs >= MIN_GLYPHS && best[axis].is_none_or(|(l, _, _)| likeness > l) {
            best[axis] = Some((likeness, margin, glyphs));
        }
    }
    let margins: Vec<(f32, usize)> = best.iter().flatten().map(|&(_, m, g)| (m, g)).collect();
    // Ranks and files must not contradict each other.
    if margins.len() == 2 && margins[0].0 * margins[1].0 < 0.0 {
        return None;
    }
    let margin: f32 = margins.iter().map(|m| m.0).sum();
    let glyphs = margins.iter().map(|m| m.1).sum();
    let needed = if margins.len() == 2 {
        MIN_MARGIN
    } else {
        MIN_MARGIN_ONE_AXIS
    };
    (margin.abs() >= needed).then_some(LabelReading {
        black_at_bottom: margin > 0.0,
        margin: margin.abs(),
        glyphs,
    })
}

/// The board's light and dark square tones: medians of a ring just inside
/// each square's edges (pieces stand in the middle).
fn square_tones(plane: &Plane, grid: &Grid) -> (f32, f32) {
    let mut tones = [Vec::new(), Vec::new()];
    let s = grid.square;
    for row in 0..8 {
        for col in 0..8 {
            let (x0, y0) = (grid.left + col as f32 * s, grid.top + row as f32 * s);
            let inset = (0.08 * s).max(1.0);
            let mut ring = Vec::new();
            let steps = (s as usize).max(4);
            for k in 0..steps {
                let t = inset + (s - 2.0 * inset) * k as f32 / steps as f32;
                for (x, y) in [
                    (x0 + t, y0 + inset),
                    (x0 + t, y0 + s - inset),
                    (x0 + inset, y0 + t),
                    (x0 + s - inset, y0 + t),
                ] {
                    if let Some(v) = pixel(plane, x, y) {
                        ring.push(v);
                    }
                }
            }
            if let Some(m) = median(&mut ring) {
                tones[(row + col) % 2].push(m);
            }
        }
    }
    let [mut light, mut dark] = tones;
    (
        median(&mut light).unwrap_or(1.0),
        median(&mut dark).unwrap_or(0.0),
    )
}

fn pixel(plane: &Plane, x: f32, y: f32) -> Option<f32> {
    let (x, y) = (x.floor(), y.floor());
    (x >= 0.0 && y >= 0.0 && (x as usize) < plane.width && (y as usize) < plane.height)
        .then(|| plane.at(x as usize, y as usize))
}

fn median(values: &mut [f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    let mid = values.len() / 2;
    let (_, m, _) = values.select_nth_unstable_by(mid, f32::total_cmp);
    Some(*m)
}

/// How far from a region's background a pixel must be to count as ink.
#[derive(Clone, Copy)]
enum Threshold {
    Fixed(f32),
    FromRegion,
}

/// The likeliest label in one region (`rect` in squares from the grid's
/// corner): the largest patch of ink off the region's background that is
/// the size of a label and crosses none of the `edges` facing away from it.
fn glyph_in(
    plane: &Plane,
    grid: &Grid,
    rect: [f32; 4],
    edges: Edges,
    threshold: Threshold,
) -> Option<Glyph> {
    let s = grid.square;
    let to_px = |v: f32, origin: f32, limit: usize| {
        (origin + v * s).round().clamp(0.0, limit as f32) as usize
    };
    let (x0, x1) = (
        to_px(rect[0], grid.left, plane.width),
        to_px(rect[2], grid.left, plane.width),
    );
    let (y0, y1) = (
        to_px(rect[1], grid.top, plane.height),
        to_px(rect[3], grid.top, plane.height),
    );
    let (w, h) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
    if w < 3 || h < 5 {
        return None;
    }
    let mut distance: Vec<f32> = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .map(|(x, y)| plane.at(x, y))
        .collect();
    let background = median(&mut distance.clone())?;
    for v in &mut distance {
        *v = (*v - background).abs();
    }
    let region = Region {
        distance,
        width: w,
        height: h,
        edges,
        square: s,
    };
    let patch = match threshold {
        Threshold::Fixed(t) => region.label_patch(t).0,
        Threshold::FromRegion => {
            // Half the strongest ink (98th percentile, so a stray pixel does
            // not set it), never within JPEG noise of the background. A
            // frame crossing the region can be the strongest ink: then once
            // more without it.
            let all: Vec<usize> = (0..w * h).collect();
            let (patch, crossing) = region.label_patch(region.half_strongest(&all));
            match patch {
                Some(patch) => Some(patch),
                None if !crossing.is_empty() => {
                    let mut set_aside = vec![false; w * h];
                    crossing.iter().for_each(|&p| set_aside[p] = true);
                    let rest: Vec<usize> = all.into_iter().filter(|&p| !set_aside[p]).collect();
                    region.label_patch(region.half_strongest(&rest)).0
                }
                None => None,
            }
        }
    }?;
    let mut mask = vec![false; w * h];
    for p in patch {
        mask[p] = true;
    }
    Glyph::from_mask(&mask, w, h)
}

/// One label region's pixels as distances from its background.
struct Region {
    distance: Vec<f32>,
    width: usize,
    height: usize,
    edges: Edges,
    square: f32,
}

impl Region {
    fn half_strongest(&self, pixels: &[usize]) -> f32 {
        let mut d: Vec<f32> = pixels.iter().map(|&p| self.distance[p]).collect();
        if d.is_empty() {
            return f32::INFINITY;
        }
        let k = (d.len() * 98 / 100).min(d.len() - 1);
        let (_, strong, _) = d.select_nth_unstable_by(k, f32::total_cmp);
        (0.5 * *strong).max(0.04)
    }

    /// The largest label-sized patch of ink at `threshold`, and the pixels
    /// of the patches that cross an edge facing away from the label.
    fn label_patch(&self, threshold: f32) -> (Option<Vec<usize>>, Vec<usize>) {
        let (w, h, s) = (self.width, self.height, self.square);
        let ink: Vec<bool> = self.distance.iter().map(|&d| d > threshold).collect();
        let mut seen = vec![false; w * h];
        let mut best: Option<Vec<usize>> = None;
        let mut crossing = Vec::new();
        for start in 0..w * h {
            if !ink[start] || seen[start] {
                continue;
            }
            let patch = flood(&ink, &mut seen, w, h, start);
            let [px0, py0, px1, py1] =
                bounding_box(patch.iter().map(|&p| (p % w, p / w))).expect("a patch has a pixel");
            let edges = self.edges;
            if (edges.left && px0 == 0)
                || (edges.right && px1 == w - 1)
                || (edges.top && py0 == 0)
                || (edges.bottom && py1 == h - 1)
            {
                crossing.extend_from_slice(&patch);
                continue;
            }
            let (pw, ph) = ((px1 - px0 + 1) as f32, (py1 - py0 + 1) as f32);
            let label_sized =
                ph >= (0.1 * s).max(4.0) && ph <= 0.6 * s && pw <= 0.5 * s && pw <= 1.3 * ph;
            if label_sized
                && patch.len() >= 4
                && best.as_ref().is_none_or(|b| patch.len() > b.len())
            {
                best = Some(patch);
            }
        }
        (best, crossing)
    }
}

/// The 8-connected patch of `ink` around `start`, marking it `seen`.
fn flood(ink: &[bool], seen: &mut [bool], w: usize, h: usize, start: usize) -> Vec<usize> {
    let mut patch = vec![start];
    seen[start] = true;
    let mut next = 0;
    while next < patch.len() {
        let p = patch[next];
        next += 1;
        let (x, y) = ((p % w) as i64, (p / w) as i64);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                    continue;
                }
                let q = ny as usize * w + nx as usize;
                if ink[q] && !seen[q] {
                    seen[q] = true;
                    patch.push(q);
                }
            }
        }
    }
    patch
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: u32 = 48;
    const MARGIN: u32 = 30;
    const LIGHT: [u8; 3] = [240, 217, 181];
    const DARK: [u8; 3] = [181, 136, 99];

    fn paint(image: &mut image::RgbImage, c: char, x: u32, y: u32, pixel: u32, ink: [u8; 3]) {
        let (_, rows) = GLYPHS.iter().find(|(g, _)| *g == c).expect("glyph");
        for (r, bits) in rows.iter().enumerate() {
            for col in 0..3u32 {
                if bits & (0b100 >> col) != 0 {
                    for dy in 0..pixel {
                        for dx in 0..pixel {
                            let (px, py) = (x + col * pixel + dx, y + r as u32 * pixel + dy);
                            image.put_pixel(px, py, image::Rgb(ink));
                        }
                    }
                }
            }
        }
    }

    /// An empty board with its coordinates printed inside the squares (as
    /// websites do) or beside the board, White or Black at the bottom.
    fn board(black_at_bottom: bool, inside: bool) -> (Plane, Grid) {
        let side = 8 * SQUARE + 2 * MARGIN;
        let mut image = image::RgbImage::from_pixel(side, side, image::Rgb([250, 250, 250]));
        for row in 0..8 {
            for col in 0..8 {
                let colour = if (row + col) % 2 == 1 { DARK } else { LIGHT };
                for y in 0..SQUARE {
                    for x in 0..SQUARE {
                        image.put_pixel(
                            MARGIN + col * SQUARE + x,
                            MARGIN + row * SQUARE + y,
                            image::Rgb(colour),
                        );
                    }
                }
            }
        }
        let files = if black_at_bottom {
            "hgfedcba"
        } else {
            "abcdefgh"
        };
        let ranks = if black_at_bottom {
            "12345678"
        } else {
            "87654321"
        };
        for i in 0..8u32 {
            let (file, rank) = (
                files.chars().nth(i as usize).expect("file"),
                ranks.chars().nth(i as usize).expect("rank"),
            );
            if inside {
                let pixel = SQUARE / 16;
                let other = |row: u32, col: u32| if (row + col) % 2 == 1 { LIGHT } else { DARK };
                let bottom = MARGIN + 8 * SQUARE - 6 * pixel;
                paint(
                    &mut image,
                    file,
                    MARGIN + (i + 1) * SQUARE - 4 * pixel,
                    bottom,
                    pixel,
                    other(7, i),
                );
                let y = MARGIN + i * SQUARE + pixel;
                paint(&mut image, rank, MARGIN + pixel, y, pixel, other(i, 0));
            } else {
                let pixel = 3;
                let centre = MARGIN + i * SQUARE + SQUARE / 2;
                paint(
                    &mut image,
                    file,
                    centre - pixel,
                    MARGIN + 8 * SQUARE + 4,
                    pixel,
                    [40, 40, 40],
                );
                paint(
                    &mut image,
                    rank,
                    MARGIN - 4 * pixel,
                    centre - 2 * pixel,
                    pixel,
                    [40, 40, 40],
                );
            }
        }
        let grid = Grid {
            left: MARGIN as f32,
            top: MARGIN as f32,
            square: SQUARE as f32,
            skew: 0.0,
        };
        (Plane::from_rgb(&image), grid)
    }

    #[test]
    fn printed_coordinates_say_which_side_is_at_the_bottom() {
        for inside in [true, false] {
            for black_at_bottom in [false, true] {
                let (plane, grid) = board(black_at_bottom, inside);
                let reading = read(&plane, &grid).expect("coordinates read");
                assert_eq!(reading.black_at_bottom, black_at_bottom, "inside {inside}");
                assert_eq!(reading.glyphs, 16, "both rows of labels found");
            }
        }
    }

    #[test]
    fn a_board_without_coordinates_says_nothing() {
        let (mut plane, grid) = board(false, true);
        // Paint the labels over with their squares' colours.
        let (light, dark) = square_tones(&plane, &grid);
        for y in 0..plane.height {
            for x in 0..plane.width {
                let (col, row) = (
                    (x as f32 - grid.left) / grid.square,
                    (y as f32 - grid.top) / grid.square,
                );
                if (0.0..8.0).contains(&col) && (0.0..8.0).contains(&row) {
                    let dark_square = (col as usize + row as usize) % 2 == 1;
                    plane.pixels[y * plane.width + x] = if dark_square { dark } else { light };
                }
            }
        }
        assert_eq!(read(&plane, &grid), None);
    }

    #[test]
    fn templates_hold_the_pixel_font_and_the_template_file() {
        for (c, glyphs) in LABEL_CHARS.iter().zip(templates()) {
            assert!(glyphs.len() >= 2, "{c}: {} templates", glyphs.len());
            let own = &glyphs[0];
            assert!((own.similarity(own) - 1.0).abs() < 1e-4);
        }
        let one = &templates()[8][0];
        let eight = &templates()[15][0];
        assert!(one.similarity(eight) < 0.5, "a 1 is not an 8");
    }
}
