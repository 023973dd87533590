//! A board printed on a page. A scanned or rastered book page is mostly
//! blank paper, and over that much paper the finder's floor for "empty"
//! sinks until lines of text outscore the board: it finds nothing. Where
//! the whole picture shows no board, the page's printed blocks (everything
//! printed, and each connected block of print) are each tried as a
//! picture of their own, the largest first.

use super::finder::Grid;
use super::picture::Plane;

/// A rectangle of the picture, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub left: usize,
    pub top: usize,
    pub width: usize,
    pub height: usize,
}

impl Block {
    fn area(&self) -> usize {
        self.width * self.height
    }

    fn right(&self) -> usize {
        self.left + self.width
    }

    fn bottom(&self) -> usize {
        self.top + self.height
    }
}

/// A page is a picture at least this share of which is paper (within
/// [`PAPER_BAND`] of its commonest tone); on anything else, a screenshot
/// or a photo, there are no blocks to try.
const PAPER_SHARE: f32 = 0.5;
/// Tones this close to the paper's count as paper.
const PAPER_BAND: f32 = 0.06;
/// A pixel this much darker or lighter than the paper is print.
const INK_CONTRAST: f32 = 0.25;
/// The coarse cells blocks are joined on, as a share of the picture's
/// shorter side (a cell holding any print is printed).
const CELL_SHARE: f32 = 1.0 / 300.0;
/// Print this many cells apart is joined into one block at the fine join
/// (a board's frame and hatching) and at the coarse join (a diagram with
/// its coordinates, caption and lines of text nearby).
const JOINS: [usize; 2] = [1, 4];
/// A block smaller than this on either side cannot hold eight readable
/// squares.
const MIN_BLOCK: usize = 64;
/// Blocks longer than this many times their width (or wider) are lines
/// of text or rules, not boards with their captions.
const MAX_ASPECT: usize = 3;
/// A block grows by this share of its longer side on each side (and at
/// least [`MIN_MARGIN`] pixels): the coordinates printed beside a board
/// and a margin of paper for the finder.
const MARGIN_SHARE: f32 = 1.0 / 12.0;
const MIN_MARGIN: usize = 8;
/// At most this many blocks are tried: each costs a search of its own.
const MAX_BLOCKS: usize = 8;

/// The blocks of print on `plane` worth trying as pictures of their own,
/// largest first, each grown by a margin; none where `plane` is not mostly
/// paper or a block would be about the whole picture.
pub fn printed_blocks(plane: &Plane) -> Vec<Block> {
    let Some(paper) = paper_tone(plane) else {
        return Vec::new();
    };
    let cell = ((plane.width.min(plane.height) as f32 * CELL_SHARE) as usize).max(1);
    let (columns, rows) = (plane.width.div_ceil(cell), plane.height.div_ceil(cell));
    let mut printed = vec![false; columns * rows];
    for (y, row) in plane.pixels.chunks(plane.width).enumerate() {
        for (x, &tone) in row.iter().enumerate() {
            if (tone - paper).abs() > INK_CONTRAST {
                printed[(y / cell) * columns + x / cell] = true;
            }
        }
    }
    let mut blocks: Vec<Block> = Vec::new();
    let mut add = |cells: Block| {
        let block = grown(in_pixels(cells, cell, plane), plane);
        let whole = plane.width * plane.height;
        if block.width >= MIN_BLOCK
            && block.height >= MIN_BLOCK
            && block.width <= MAX_ASPECT * block.height
            && block.height <= MAX_ASPECT * block.width
            && (block.area() as f32) < 0.9 * whole as f32
            && !blocks.contains(&block)
        {
            blocks.push(block);
        }
    };
    if let Some(all) = bounding(printed.iter().enumerate().filter(|(_, p)| **p), columns) {
        add(all);
    }
    for join in JOINS {
        for cells in components(&printed, columns, rows, join) {
            add(cells);
        }
    }
    blocks.sort_by_key(|b| std::cmp::Reverse(b.area()));
    blocks.truncate(MAX_BLOCKS);
    blocks
}

/// The paper's tone: the commonest of 64 tone bins, where at least
/// [`PAPER_SHARE`] of the picture lies within [`PAPER_BAND`] of it.
fn paper_tone(plane: &Plane) -> Option<f32> {
    const BINS: usize = 64;
    let bin = |tone: f32| ((tone.clamp(0.0, 1.0) * (BINS - 1) as f32).round()) as usize;
    let mut counts = [0usize; BINS];
    for &tone in &plane.pixels {
        counts[bin(tone)] += 1;
    }
    let commonest = (0..BINS).max_by_key(|&b| counts[b])?;
    let paper = commonest as f32 / (BINS - 1) as f32;
    let near = plane
        .pixels
        .iter()
        .filter(|&&tone| (tone - paper).abs() <= PAPER_BAND)
        .count();
    (near as f32 >= PAPER_SHARE * plane.pixels.len() as f32).then_some(paper)
}

/// The bounding box, in cells, of the cells `marked` yields (index,
/// marked) on a grid `columns` wide.
fn bounding<'a>(marked: impl Iterator<Item = (usize, &'a bool)>, columns: usize) -> Option<Block> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (i, _) in marked {
        let (x, y) = (i % columns, i / columns);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    (x0 <= x1).then(|| Block {
        left: x0,
        top: y0,
        width: x1 - x0 + 1,
        height: y1 - y0 + 1,
    })
}

/// The bounding boxes, in cells, of the printed cells joined where they
/// are at most `join` cells apart (Chebyshev distance): a flood fill over
/// the grid.
fn components(printed: &[bool], columns: usize, rows: usize, join: usize) -> Vec<Block> {
    debug_assert_eq!(printed.len(), columns * rows);
    let mut seen = vec![false; printed.len()];
    let mut boxes = Vec::new();
    let mut stack = Vec::new();
    for start in 0..printed.len() {
        if !printed[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut members = Vec::new();
        while let Some(i) = stack.pop() {
            members.push(i);
            let (x, y) = (i % columns, i / columns);
            for ny in y.saturating_sub(join)..(y + join + 1).min(rows) {
                for nx in x.saturating_sub(join)..(x + join + 1).min(columns) {
                    let n = ny * columns + nx;
                    if printed[n] && !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
        }
        let marked = members.iter().map(|&i| (i, &true));
        boxes.extend(bounding(marked, columns));
    }
    boxes
}

/// A block of cells in pixels, clipped to the picture.
fn in_pixels(cells: Block, cell: usize, plane: &Plane) -> Block {
    let (left, top) = (cells.left * cell, cells.top * cell);
    Block {
        left,
        top,
        width: (cells.right() * cell).min(plane.width) - left,
        height: (cells.bottom() * cell).min(plane.height) - top,
    }
}

/// `block` grown by its margin on every side, clipped to the picture.
fn grown(block: Block, plane: &Plane) -> Block {
    let margin = ((block.width.max(block.height) as f32 * MARGIN_SHARE) as usize).max(MIN_MARGIN);
    let (left, top) = (
        block.left.saturating_sub(margin),
        block.top.saturating_sub(margin),
    );
    Block {
        left,
        top,
        width: (block.right() + margin).min(plane.width) - left,
        height: (block.bottom() + margin).min(plane.height) - top,
    }
}

/// A grid found in the picture cut to `block` (a `block.width` ×
/// `block.height` picture), in the whole `width` × `height` picture's
/// terms. Each picture is turned upright about its own centre, so a
/// crooked grid moves by more than the block's offset: where a point `u` of
/// the cut picture turned upright lies in the whole picture turned upright
/// is `u + o + (A − I) d`, `o` the block's offset, `d` from the whole
/// picture's centre to the block's, `A` the turn by the skew.
pub fn in_whole_picture(grid: Grid, block: Block, width: usize, height: usize) -> Grid {
    let (sin, cos) = grid.skew.to_radians().sin_cos();
    let (ox, oy) = (block.left as f32, block.top as f32);
    let dx = ox + block.width as f32 / 2.0 - width as f32 / 2.0;
    let dy = oy + block.height as f32 / 2.0 - height as f32 / 2.0;
    Grid {
        left: grid.left + ox + (cos * dx + sin * dy) - dx,
        top: grid.top + oy + (-sin * dx + cos * dy) - dy,
        ..grid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(width: usize, height: usize) -> Plane {
        Plane {
            width,
            height,
            pixels: vec![0.97; width * height],
        }
    }

    fn ink(plane: &mut Plane, left: usize, top: usize, width: usize, height: usize) {
        for y in top..top + height {
            for x in left..left + width {
                plane.pixels[y * plane.width + x] = 0.1;
            }
        }
    }

    #[test]
    fn a_square_of_print_on_a_page_is_a_block_with_its_margin() {
        let mut plane = page(900, 1200);
        // A framed square, 240 px, and lines of "text" far below it.
        ink(&mut plane, 300, 200, 240, 4);
        ink(&mut plane, 300, 436, 240, 4);
        ink(&mut plane, 300, 200, 4, 240);
        ink(&mut plane, 536, 200, 4, 240);
        for line in 0..3 {
            ink(&mut plane, 100, 900 + 30 * line, 700, 10);
        }
        let blocks = printed_blocks(&plane);
        let framed = blocks
            .iter()
            .filter(|b| b.left <= 300 && b.top <= 200 && b.right() >= 540 && b.bottom() >= 440)
            .min_by_key(|b| b.area());
        let framed = framed.unwrap_or_else(|| panic!("the framed square in {blocks:?}"));
        assert!(framed.width < 300 && framed.height < 300, "{framed:?}");
        // Largest first: everything printed comes before the square alone.
        assert!(blocks[0].area() >= framed.area());
        assert!(blocks.windows(2).all(|w| w[0].area() >= w[1].area()));
    }

    #[test]
    fn a_picture_that_is_not_mostly_paper_has_no_blocks() {
        let mut plane = page(400, 400);
        for (i, tone) in plane.pixels.iter_mut().enumerate() {
            *tone = (i % 400) as f32 / 400.0;
        }
        assert!(printed_blocks(&plane).is_empty());
    }

    /// A dark dot seen in a block cut from a page and in the whole page,
    /// each turned upright by the same skew, lands where the grid mapping
    /// says.
    #[test]
    fn a_crooked_grid_found_in_a_block_maps_onto_the_whole_picture() {
        let mut whole = page(600, 400);
        ink(&mut whole, 420, 110, 6, 6);
        let block = Block {
            left: 350,
            top: 40,
            width: 200,
            height: 180,
        };
        let mut cut = page(block.width, block.height);
        for y in 0..block.height {
            for x in 0..block.width {
                cut.pixels[y * block.width + x] =
                    whole.pixels[(y + block.top) * whole.width + x + block.left];
            }
        }
        let dark_centre = |plane: &Plane| {
            let (mut sx, mut sy, mut n) = (0.0, 0.0, 0.0);
            for (i, &tone) in plane.pixels.iter().enumerate() {
                // Only the dot: the corners a turn brings in are filled
                // with the mean, a shade off the paper.
                let weight = if tone < 0.6 { 1.0 - tone } else { 0.0 };
                sx += weight * ((i % plane.width) as f32 + 0.5);
                sy += weight * ((i / plane.width) as f32 + 0.5);
                n += weight;
            }
            (sx / n, sy / n)
        };
        for skew in [0.0, 3.0, -7.5] {
            let (cx, cy) = dark_centre(&cut.upright(skew));
            let (wx, wy) = dark_centre(&whole.upright(skew));
            let in_cut = Grid {
                left: cx,
                top: cy,
                square: 10.0,
                skew,
            };
            let mapped = in_whole_picture(in_cut, block, whole.width, whole.height);
            assert!(
                (mapped.left - wx).abs() < 0.5 && (mapped.top - wy).abs() < 0.5,
                "skew {skew}: ({}, {}) against ({wx}, {wy})",
                mapped.left,
                mapped.top
            );
        }
    }
}
