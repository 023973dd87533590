//! `tarpon scan`: a picture of a chess board in, its FEN (and an analysis)
//! out. It sits above the engine: nothing in the engine imports it.
//!
//! The pipeline, one submodule a step:
//! - [`picture`]: reading PNG/JPEG safely into a grey plane, and cutting a
//!   square out of it at the classifier's input size;
//! - [`finder`]: the 8×8 grid in a 2D screenshot or diagram, from gradient
//!   profiles (evenly spaced lines);
//! - [`page`]: a board printed on a mostly blank page, looked for in each
//!   block of print when the whole picture shows none;
//! - [`perspective`]: a board seen at an angle, its corners given, warped
//!   flat;
//! - [`photo`]: photos of physical boards: occupancy and piece colour per
//!   square, calibrated from a photo of the starting position;
//! - [`corners`]: a physical board's playing area found in a photo, where
//!   its squares meet;
//! - [`net`]: the small convolutional net that calls each square (13 classes),
//!   its weight file, the ensemble of nets a file may hold, the embedded
//!   default, and the trainer's pass;
//! - [`classifier`]: the same net's forward pass laid out for reading
//!   pictures quickly;
//! - [`colour`]: whose piece each piece is, judged across the whole board
//!   (lighter and darker pieces of one kind on squares of one tone);
//! - [`labels`]: the board coordinates printed on or around the board, read
//!   for which side is at the bottom;
//! - [`sense`]: chess sense on top of the pixels: orientation, kings, pawns on
//!   back ranks, castling, side to move, legality with shakmaty;
//! - [`render`]: synthetic boards from licensed piece art, seeded, for
//!   training and for measuring;
//! - [`train`]: the trainer and the held-out measurement;
//! - [`cli`]: `tarpon scan IMAGE …`, `tarpon scan train`, `tarpon scan eval`.

pub mod classifier;
pub mod cli;
pub mod colour;
pub mod corners;
pub mod finder;
pub mod labels;
pub mod net;
pub mod page;
pub mod perspective;
pub mod photo;
pub mod picture;
pub mod render;
pub mod sense;
pub mod train;

/// The 13 classes a square can be, in the net's output order.
pub const CLASSES: [char; 13] = [
    '.', 'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k',
];
pub const EMPTY: usize = 0;

/// The class index of a FEN piece letter.
pub fn class_of(letter: char) -> Option<usize> {
    CLASSES.iter().position(|&c| c == letter && c != '.')
}

/// The squares as shown on the picture: index `row * 8 + column`, row 0 at the
/// top, column 0 at the left.
pub type Displayed<T> = [T; 64];

/// Each square is also read through windows shifted this fraction of a
/// square left, right, up and down, and the five readings averaged: a grid a
/// few pixels off, or a piece drawn off-centre, then costs less (on unseen
/// piece art, squares right 92.9 % → 94.0 %; docs/scan.md).
pub const SHIFTED_READING: f32 = 0.06;

/// A picture turned upright by a grid's skew, in each plane the
/// ensemble's nets read their squares from.
pub struct Planes {
    /// One per shade, the first member's first.
    planes: Vec<(picture::Shade, picture::Plane)>,
}

impl Planes {
    /// `image`'s planes for `nets`, turned upright by `skew`; `luma_upright`
    /// is the grey plane already turned, where the caller has it.
    pub fn new(
        image: &image::RgbImage,
        nets: &net::Ensemble,
        skew: f32,
        mut luma_upright: Option<picture::Plane>,
    ) -> Planes {
        let planes = nets
            .shades()
            .into_iter()
            .map(|shade| {
                let turned = match shade {
                    picture::Shade::Luma => luma_upright.take(),
                    picture::Shade::Pigment => None,
                };
                let plane = turned.unwrap_or_else(|| {
                    picture::Plane::shaded(image, shade)
                        .upright(skew)
                        .into_owned()
                });
                (shade, plane)
            })
            .collect();
        Planes { planes }
    }

    /// The plane nets of `shade` read.
    fn of(&self, shade: picture::Shade) -> &picture::Plane {
        let (_, plane) = self
            .planes
            .iter()
            .find(|(s, _)| *s == shade)
            .expect("a plane for every member's shade");
        plane
    }

    /// The first member's plane: printed coordinates and pieces' colours are
    /// read from it, and `--debug-dir` shows it.
    pub fn main(&self) -> &picture::Plane {
        &self.planes[0].1
    }
}

/// Each displayed square of `grid` resampled for the nets from `plane`
/// turned upright: the square's window and four shifted by
/// [`SHIFTED_READING`]. Made once per plane and shared by every net that
/// reads it (resampling cost as much as one net's reading).
fn square_windows(plane: &picture::Plane, grid: &finder::Grid) -> Displayed<[Vec<f32>; 5]> {
    let d = SHIFTED_READING * grid.square;
    let windows = [(0.0, 0.0), (-d, 0.0), (d, 0.0), (0.0, -d), (0.0, d)];
    std::array::from_fn(|i| {
        let (left, top) = grid.corner(i);
        windows
            .map(|(dx, dy)| plane.square_input::<{ net::SIDE }>(left + dx, top + dy, grid.square))
    })
}

/// One net's probabilities for each displayed square: the mean over the
/// square's windows ([`square_windows`]).
fn classify_with(net: &net::Net, windows: &Displayed<[Vec<f32>; 5]>) -> Displayed<[f32; 13]> {
    let classifier = classifier::Classifier::new(net);
    std::array::from_fn(|i| {
        let mut mean = [0.0f32; 13];
        for input in &windows[i] {
            for (m, p) in mean.iter_mut().zip(classifier.classify(input)) {
                *m += p / windows[i].len() as f32;
            }
        }
        debug_assert!((mean.iter().sum::<f32>() - 1.0).abs() < 1e-3);
        mean
    })
}

/// Probabilities below this count as this in the ensemble's geometric mean,
/// so one net's certainty that a square is not a class is not a veto.
const FLOOR: f32 = 1e-6;

/// The ensemble's probabilities for one square: the geometric mean of its
/// members', renormalised. Two nets that disagree then land on the class both
/// find plausible (held-out squares: one net 95.21 %, four 96.79 %;
/// docs/scan.md).
fn combine(readings: &[[f32; 13]]) -> [f32; 13] {
    debug_assert!(!readings.is_empty());
    let mut mean: [f32; 13] = std::array::from_fn(|class| {
        let log: f32 = readings.iter().map(|r| r[class].max(FLOOR).ln()).sum();
        (log / readings.len() as f32).exp()
    });
    let sum: f32 = mean.iter().sum();
    for m in &mut mean {
        *m /= sum;
    }
    mean
}

/// The ensemble's probabilities for each displayed square of `grid`, each
/// net reading its own plane of `planes`.
pub fn classify_squares(
    nets: &net::Ensemble,
    planes: &Planes,
    grid: &finder::Grid,
) -> Displayed<[f32; 13]> {
    let windows: Vec<(picture::Shade, Displayed<[Vec<f32>; 5]>)> = nets
        .shades()
        .into_iter()
        .map(|shade| (shade, square_windows(planes.of(shade), grid)))
        .collect();
    let windows_of = |shade: picture::Shade| {
        let (_, windows) = windows
            .iter()
            .find(|(s, _)| *s == shade)
            .expect("windows for every member's shade");
        windows
    };
    if let [net] = nets.members.as_slice() {
        return classify_with(net, windows_of(net.shade));
    }
    let readings: Vec<Displayed<[f32; 13]>> = nets
        .members
        .iter()
        .map(|net| classify_with(net, windows_of(net.shade)))
        .collect();
    std::array::from_fn(|square| {
        let square_readings: Vec<[f32; 13]> = readings.iter().map(|r| r[square]).collect();
        combine(&square_readings)
    })
}

/// The ensemble's probabilities for each displayed square of `grid`, the
/// pieces' colours then weighed across the board ([`colour::harmonise`]):
/// what chess sense reads from.
pub fn call_squares(
    nets: &net::Ensemble,
    planes: &Planes,
    grid: &finder::Grid,
) -> Displayed<[f32; 13]> {
    let mut probs = classify_squares(nets, planes, grid);
    colour::harmonise(planes.main(), grid, &mut probs);
    probs
}

/// Below this probability a square's call is in doubt (`--min-confidence`).
pub const MIN_CONFIDENCE: f32 = 0.6;

/// A legal position read from a picture, for the engine loop's `scan` and
/// `tarpon play`'s dropped pictures.
pub struct Scanned {
    pub fen: String,
    pub white_at_bottom: bool,
    /// "squares in doubt: e4 (P 0.42), …" when some call is below
    /// [`MIN_CONFIDENCE`].
    pub doubts: Option<String>,
}

/// Reads `image` with the embedded net: the legal position it shows, or why
/// there is none (no board, an illegal reading).
pub fn scan_picture(
    image: &image::RgbImage,
    bottom: sense::Bottom,
    to_move: Option<sense::Side>,
) -> Result<Scanned, String> {
    let nets = net::Ensemble::load(None)?;
    let (_, _, reading) = read_image(&nets, image, bottom, to_move).map_err(|e| e.to_string())?;
    if let Some(why) = &reading.illegal {
        return Err(format!(
            "the position read ({}) is not legal: {why}",
            reading.fen
        ));
    }
    Ok(Scanned {
        doubts: doubts(&reading, &doubtful_squares(&reading, MIN_CONFIDENCE)),
        white_at_bottom: reading.white_at_bottom,
        fen: reading.fen,
    })
}

/// The squares (FEN order) called with less probability than `min_confidence`.
pub fn doubtful_squares(reading: &sense::Reading, min_confidence: f32) -> Vec<usize> {
    (0..64)
        .filter(|&i| reading.confidence[i] < min_confidence)
        .collect()
}

/// "squares in doubt: e4 (P 0.42), …", or `None` when there are none.
pub fn doubts(reading: &sense::Reading, doubtful: &[usize]) -> Option<String> {
    if doubtful.is_empty() {
        return None;
    }
    let list: Vec<String> = doubtful
        .iter()
        .map(|&i| {
            format!(
                "{} ({} {:.2})",
                sense::square_name(i),
                CLASSES[reading.board[i]],
                reading.confidence[i]
            )
        })
        .collect();
    Some(format!("squares in doubt: {}", list.join(", ")))
}

/// A grid on which this many of the 64 squares alternate as a
/// checkerboard's do is taken without asking the colour channels: on 60
/// rendered boards the grey plane's correct grids agreed on 58 or more, and
/// the grids it found a row off on 53 and 54; each channel asked costs as
/// much again as the grey plane's search.
const SURE_AGREEMENT: usize = 58;

/// Finds the board in a colour picture and reads it: the plane the squares
/// were read from (the net's [`picture::Shade`]), the grid and the reading.
/// The board is always looked for on the grey (luma) plane first. Where the
/// grey plane shows no board, or one on which too few squares alternate, as
/// when the two square colours are about equally light (purple and brown,
/// teal and lilac, orange and grey hatching), each colour channel alone is
/// searched too, and a channel's grid on which more squares alternate is
/// kept, unless it lies within half a square of the grey plane's and the
/// grey plane placed its lines. Where no plane shows a board and the
/// picture is mostly paper, each block of print is searched alone
/// ([`page`]).
pub fn read_image(
    nets: &net::Ensemble,
    image: &image::RgbImage,
    bottom: sense::Bottom,
    to_move: Option<sense::Side>,
) -> Result<(Planes, finder::Grid, sense::Reading), finder::FindError> {
    let whole = locate(image, picture::Plane::from_rgb(image));
    let (grid, luma_upright) = match whole {
        Ok((found, luma_upright)) if found.agreeing >= SURE_AGREEMENT => (found.grid, luma_upright),
        // A page of several diagrams can show a grid spanning them that
        // alternates on enough squares; a diagram's own block shows more.
        whole => match (whole, boards_on_the_page(image).first()) {
            (Ok((found, luma_upright)), Some(block)) if found.agreeing >= block.agreeing => {
                (found.grid, luma_upright)
            }
            (_, Some(block)) => (block.grid, None),
            (Ok((found, luma_upright)), None) => (found.grid, luma_upright),
            (Err(nothing), None) => return Err(nothing),
        },
    };
    let planes = Planes::new(image, nets, grid.skew, luma_upright);
    let reading = read_upright(nets, &planes, &grid, bottom, to_move);
    Ok((planes, grid, reading))
}

/// Every board in a picture, in reading order (top to bottom, then left
/// to right), each read as [`read_image`] reads one: the whole picture's
/// board and, on a page, each block's ([`page`]), a board found twice
/// counted once (the grid on which more squares alternate kept).
pub fn read_all(
    nets: &net::Ensemble,
    image: &image::RgbImage,
    bottom: sense::Bottom,
    to_move: Option<sense::Side>,
) -> Result<Vec<(Planes, finder::Grid, sense::Reading)>, finder::FindError> {
    let whole = locate(image, picture::Plane::from_rgb(image));
    let mut found = boards_on_the_page(image);
    let nothing = match whole {
        Ok((board, _)) => {
            // A page's blocks hold its boards; elsewhere (a screenshot of
            // boards side by side) the others are found around the first.
            if found.is_empty() {
                found.extend(boards_beside(image, &board.grid));
            }
            found.push(board);
            None
        }
        Err(nothing) => Some(nothing),
    };
    let boards: Vec<finder::Grid> = distinct(found).into_iter().map(|f| f.grid).collect();
    if boards.is_empty() {
        return Err(nothing.unwrap_or(finder::FindError::NoCheckerboard));
    }
    Ok(reading_rows(boards)
        .into_iter()
        .flatten()
        .map(|grid| {
            let planes = Planes::new(image, nets, grid.skew, None);
            let reading = read_upright(nets, &planes, &grid, bottom, to_move);
            (planes, grid, reading)
        })
        .collect())
}

/// The most boards `--all` looks for in one picture that is not a page.
const MOST_BOARDS_BESIDE: usize = 8;

/// Boards beside `first` in a picture that is not a page: each board found
/// is painted over in the picture's mean colour (with half a square of
/// margin, for coordinates printed outside it) and the picture searched
/// again, until nothing more is found.
fn boards_beside(image: &image::RgbImage, first: &finder::Grid) -> Vec<finder::Found> {
    let mut painted = image.clone();
    let fill = mean_colour(image);
    let mut last = *first;
    let mut found: Vec<finder::Found> = Vec::new();
    while found.len() < MOST_BOARDS_BESIDE {
        paint_over(&mut painted, &last, fill);
        let Ok((board, _)) = locate(&painted, picture::Plane::from_rgb(&painted)) else {
            break;
        };
        if board.grid.overlaps(first) || found.iter().any(|f| f.grid.overlaps(&board.grid)) {
            break;
        }
        last = board.grid;
        found.push(board);
    }
    found
}

fn mean_colour(image: &image::RgbImage) -> image::Rgb<u8> {
    let mut sums = [0u64; 3];
    for pixel in image.pixels() {
        for (sum, channel) in sums.iter_mut().zip(pixel.0) {
            *sum += u64::from(channel);
        }
    }
    let count = u64::from(image.width()) * u64::from(image.height());
    image::Rgb(sums.map(|sum| (sum / count.max(1)) as u8))
}

/// Fills the upright box about `grid`'s board, grown by half a square,
/// mapped back into the picture (turned by the grid's skew about the
/// picture's centre, as [`picture::Plane::upright`] turns it).
fn paint_over(image: &mut image::RgbImage, grid: &finder::Grid, fill: image::Rgb<u8>) {
    let (width, height) = (image.width() as f32, image.height() as f32);
    let (sin, cos) = grid.skew.to_radians().sin_cos();
    let (cx, cy) = (width / 2.0, height / 2.0);
    let margin = 0.5 * grid.square;
    let (near, far) = (-margin, 8.0 * grid.square + margin);
    let corners = [(near, near), (far, near), (near, far), (far, far)].map(|(dx, dy)| {
        let (ux, uy) = (grid.left + dx - cx, grid.top + dy - cy);
        (cx + cos * ux - sin * uy, cy + sin * ux + cos * uy)
    });
    let span = |pick: fn(&(f32, f32)) -> f32, limit: f32| {
        let low = corners.iter().map(pick).fold(f32::INFINITY, f32::min);
        let high = corners.iter().map(pick).fold(f32::NEG_INFINITY, f32::max);
        (
            low.clamp(0.0, limit) as u32,
            high.clamp(0.0, limit).ceil() as u32,
        )
    };
    let (x0, x1) = span(|c| c.0, width);
    let (y0, y1) = span(|c| c.1, height);
    for y in y0..y1 {
        for x in x0..x1 {
            image.put_pixel(x, y, fill);
        }
    }
}

/// `boards` in rows, top to bottom, each row left to right: a board whose
/// top lies within half a board of its row's first (highest) board is in
/// that row. Rows are cut in one pass over the boards sorted by top, so the
/// order is well defined even where a pairwise "same row" test would not be
/// transitive (and a sort by such a comparator may panic).
fn reading_rows(mut boards: Vec<finder::Grid>) -> Vec<Vec<finder::Grid>> {
    boards.sort_by(|a, b| a.top.total_cmp(&b.top));
    let mut rows: Vec<Vec<finder::Grid>> = Vec::new();
    for board in boards {
        match rows.last_mut() {
            Some(row) if in_row_of(&row[0], &board) => row.push(board),
            _ => rows.push(vec![board]),
        }
    }
    for row in &mut rows {
        row.sort_by(|a, b| a.left.total_cmp(&b.left));
    }
    rows
}

/// Whether `board` (not above `first`) is in the row `first` begins.
fn in_row_of(first: &finder::Grid, board: &finder::Grid) -> bool {
    board.top - first.top <= 4.0 * first.square.max(board.square)
}

/// The boards of `found` that overlap none on which more squares
/// alternate (the earlier on a tie), most alternating first.
fn distinct(mut found: Vec<finder::Found>) -> Vec<finder::Found> {
    // Stable: the earlier first among equals.
    found.sort_by_key(|f| std::cmp::Reverse(f.agreeing));
    let mut kept: Vec<finder::Found> = Vec::new();
    for f in found {
        if !kept.iter().any(|k| k.grid.overlaps(&f.grid)) {
            kept.push(f);
        }
    }
    kept
}

/// The grid [`read_image`]'s search found, and the grey plane turned
/// upright by its skew when the grey plane's grid won (luma nets read the
/// squares from it).
fn locate(
    image: &image::RgbImage,
    plane: picture::Plane,
) -> Result<(finder::Found, Option<picture::Plane>), finder::FindError> {
    // A crooked board is turned upright before its lines are looked for.
    let find_upright = |upright: &picture::Plane, skew: f32| {
        finder::find_scored(upright).map(|found| finder::Found {
            grid: finder::Grid { skew, ..found.grid },
            ..found
        })
    };
    let grey_skew = finder::skew(&plane);
    // No copy when the picture is not turned.
    let grey_upright = if grey_skew == 0.0 {
        plane
    } else {
        plane.upright(grey_skew).into_owned()
    };
    let mut best = find_upright(&grey_upright, grey_skew);
    let grey_grid = best.as_ref().ok().map(|found| found.grid);
    for channel in 0..3 {
        if matches!(best, Ok(found) if found.agreeing >= SURE_AGREEMENT) {
            break;
        }
        // In a grey picture every channel is the grey plane again.
        if channel == 0 && is_grey(image) {
            break;
        }
        let tinted = picture::Plane::from_channel(image, channel);
        let skew = finder::skew(&tinted);
        let tinted = find_upright(&tinted.upright(skew), skew);
        let better = match (&tinted, &best) {
            // A channel says which squares the board has; the grey plane,
            // with the pieces' outlines, places the lines more precisely
            // (on one test set 3 grids in 500 moved 5-12 % of a square
            // off), so a grid near the grey plane's does not replace it
            // unless the grey plane's lines could not be placed and the
            // channel's were (two square colours about equally light).
            (Ok(found), Ok(before)) => {
                found.agreeing > before.agreeing
                    && (grey_grid.is_none_or(|g| !found.grid.near(&g, 0.5))
                        || (found.placed && !before.placed))
            }
            (Ok(_), Err(_)) => true,
            (Err(_), _) => false,
        };
        if better {
            best = tinted;
        }
    }
    let found = best?;
    let luma_upright = (found.grid.skew == grey_skew).then_some(grey_upright);
    Ok((found, luma_upright))
}

/// Whether every pixel's three channels are equal (a grey picture stored
/// as colour, as pdftoppm and most scanners write a page).
fn is_grey(image: &image::RgbImage) -> bool {
    image.pixels().all(|p| p[0] == p[1] && p[1] == p[2])
}

/// The boards found in the page's printed blocks ([`page::printed_blocks`];
/// none when the picture is not mostly paper), their grids in the whole
/// picture's terms, the one on which most squares alternate first and the
/// smaller block's on a tie (a block holding text beside the board can
/// place a grid a row off that still alternates on enough squares; the
/// board's own block does not); a board found in several blocks once.
fn boards_on_the_page(image: &image::RgbImage) -> Vec<finder::Found> {
    let (width, height) = image.dimensions();
    let found: Vec<finder::Found> = page::printed_blocks(&picture::Plane::from_rgb(image))
        .into_iter()
        .rev()
        .filter_map(|block| {
            let cut = image::imageops::crop_imm(
                image,
                block.left as u32,
                block.top as u32,
                block.width as u32,
                block.height as u32,
            )
            .to_image();
            let (found, _) = locate(&cut, picture::Plane::from_rgb(&cut)).ok()?;
            let grid = page::in_whole_picture(found.grid, block, width as usize, height as usize);
            Some(finder::Found { grid, ..found })
        })
        .collect();
    distinct(found)
}

/// Calls the squares of a known grid and applies chess sense.
pub fn read_grid(
    nets: &net::Ensemble,
    image: &image::RgbImage,
    grid: &finder::Grid,
    bottom: sense::Bottom,
    to_move: Option<sense::Side>,
) -> (Planes, sense::Reading) {
    let planes = Planes::new(image, nets, grid.skew, None);
    let reading = read_upright(nets, &planes, grid, bottom, to_move);
    (planes, reading)
}

/// [`read_grid`] on the picture already turned upright.
fn read_upright(
    nets: &net::Ensemble,
    planes: &Planes,
    grid: &finder::Grid,
    bottom: sense::Bottom,
    to_move: Option<sense::Side>,
) -> sense::Reading {
    let probs = call_squares(nets, planes, grid);
    // Printed coordinates, where they are clear, settle the orientation
    // before the pieces are asked.
    let printed = match bottom {
        sense::Bottom::Auto => labels::read(planes.main(), grid),
        _ => None,
    };
    let Some(printed) = printed else {
        return sense::read(probs, bottom, to_move);
    };
    let given = if printed.black_at_bottom {
        sense::Bottom::Black
    } else {
        sense::Bottom::White
    };
    let mut reading = sense::read(probs, given, to_move);
    reading.oriented_by = sense::OrientedBy::Coordinates;
    reading
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_at(left: f32, top: f32, square: f32) -> finder::Grid {
        finder::Grid {
            left,
            top,
            square,
            skew: 0.0,
        }
    }

    /// Two rows of diagrams whose tops differ a little within a row (and
    /// one of them smaller) come out row by row, left to right.
    #[test]
    fn boards_come_in_reading_order() {
        let boards = vec![
            grid_at(500.0, 620.0, 30.0),
            grid_at(500.0, 95.0, 30.0),
            grid_at(40.0, 600.0, 30.0),
            grid_at(40.0, 100.0, 25.0),
            grid_at(900.0, 130.0, 30.0),
        ];
        let order: Vec<(f32, f32)> = reading_rows(boards)
            .into_iter()
            .flatten()
            .map(|g| (g.left, g.top))
            .collect();
        assert_eq!(
            order,
            [
                (40.0, 100.0),
                (500.0, 95.0),
                (900.0, 130.0),
                (40.0, 600.0),
                (500.0, 620.0)
            ]
        );
    }

    /// Boards of every size and height never upset the ordering (a
    /// pairwise "same row" comparator is not transitive on such a set).
    #[test]
    fn reading_order_holds_on_a_scatter_of_boards() {
        let mut seed = 12345u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32
        };
        let boards: Vec<finder::Grid> = (0..200)
            .map(|_| grid_at(next() * 2000.0, next() * 3000.0, 10.0 + next() * 60.0))
            .collect();
        let rows = reading_rows(boards.clone());
        let mut lefts: Vec<f32> = rows.iter().flatten().map(|g| g.left).collect();
        let mut expected: Vec<f32> = boards.iter().map(|g| g.left).collect();
        lefts.sort_by(f32::total_cmp);
        expected.sort_by(f32::total_cmp);
        assert_eq!(lefts, expected, "every board once");
        let highest = |row: &[finder::Grid]| -> finder::Grid {
            *row.iter()
                .min_by(|a, b| a.top.total_cmp(&b.top))
                .expect("no empty row")
        };
        for (i, row) in rows.iter().enumerate() {
            let first = &highest(row);
            assert!(
                row.windows(2).all(|w| w[0].left <= w[1].left),
                "left to right"
            );
            assert!(row.iter().all(|b| in_row_of(first, b)), "one row");
            if let Some(next) = rows.get(i + 1) {
                let next_first = highest(next).top;
                assert!(next_first > first.top, "rows top to bottom");
                assert!(
                    next.iter()
                        .all(|b| !in_row_of(first, b) || b.top > next_first),
                    "cut"
                );
            }
        }
    }

    fn fixture_image(name: &str) -> image::RgbImage {
        let path = format!("{}/tests/data/scan/{name}", env!("CARGO_MANIFEST_DIR"));
        image::open(&path).expect("the fixture decodes").to_rgb8()
    }

    /// One net says king or rook, the other queen or rook: together, rook.
    #[test]
    fn an_ensemble_lands_on_the_class_both_nets_find_plausible() {
        let class = |letter| class_of(letter).expect("a piece letter");
        let mut king_or_rook = [0.0f32; 13];
        king_or_rook[class('K')] = 0.6;
        king_or_rook[class('R')] = 0.4;
        let mut queen_or_rook = [0.0f32; 13];
        queen_or_rook[class('Q')] = 0.6;
        queen_or_rook[class('R')] = 0.4;
        let both = combine(&[king_or_rook, queen_or_rook]);
        let best = (0..13).max_by(|&a, &b| both[a].total_cmp(&both[b]));
        assert_eq!(best, Some(class('R')));
        assert!((both.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(
            combine(&[king_or_rook]).map(|p| (p * 1e4).round()),
            king_or_rook.map(|p| (p * 1e4).round())
        );
    }

    /// A net twice over reads a picture exactly as the net once.
    #[test]
    fn a_net_twice_reads_as_the_net_once() {
        let nets = net::Ensemble::embedded().expect("the embedded nets load");
        let once = net::Ensemble::from(nets.members[0].clone());
        let twice = net::Ensemble {
            members: vec![nets.members[0].clone(), nets.members[0].clone()],
        };
        let image = fixture_image("merida-black-bottom.png");
        let (planes, grid, _) =
            read_image(&once, &image, sense::Bottom::Auto, None).expect("found");
        let a = classify_squares(&once, &planes, &grid);
        let b = classify_squares(&twice, &planes, &grid);
        for (x, y) in a.iter().flatten().zip(b.iter().flatten()) {
            assert!((x - y).abs() < 1e-4, "{x} against {y}");
        }
    }

    /// The hatched diagram fixture, and its grid and reading alone.
    fn hatched_diagram(nets: &net::Ensemble) -> (image::RgbImage, finder::Grid, sense::Reading) {
        let diagram = fixture_image("cburnett-hatched.png");
        let (_, grid, reading) =
            read_image(nets, &diagram, sense::Bottom::Auto, None).expect("found alone");
        (diagram, grid, reading)
    }

    /// `grid` is `alone` moved by (`left`, `top`), to half a pixel.
    fn assert_moved(grid: &finder::Grid, alone: &finder::Grid, (left, top): (u32, u32)) {
        assert!(
            (grid.left - alone.left - left as f32).abs() < 0.5
                && (grid.top - alone.top - top as f32).abs() < 0.5,
            "{grid:?} against {alone:?} moved by ({left}, {top})"
        );
    }

    /// A hatched diagram in the middle of a page of "text" (dark bars in
    /// lines above and below it, blank paper around): the whole page shows
    /// no board to the finder, the diagram's block does, and the grid is
    /// the diagram's own moved by where it was pasted.
    #[test]
    fn a_diagram_on_a_page_of_text_is_found_in_its_block() {
        let nets = net::Ensemble::embedded().expect("the embedded nets load");
        let (diagram, alone, reading) = hatched_diagram(&nets);
        let (width, height) = (3 * diagram.width(), 4 * diagram.height());
        let mut page = image::RgbImage::from_pixel(width, height, image::Rgb([255; 3]));
        let (left, top) = (
            (width - diagram.width()) / 2,
            (height - diagram.height()) / 2,
        );
        let mut seed = 5u32;
        let lines = (60..top - 30).chain(top + diagram.height() + 30..height - 60);
        for y in lines.step_by(22) {
            let mut x = width / 10;
            while x + 60 < width - width / 10 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let word = 15 + (seed >> 16) % 56;
                for (dx, dy) in (0..word).flat_map(|dx| (0..8).map(move |dy| (dx, dy))) {
                    page.put_pixel(x + dx, y + dy, image::Rgb([20; 3]));
                }
                x += word + 9;
            }
        }
        image::imageops::replace(&mut page, &diagram, left.into(), top.into());
        let plane = picture::Plane::from_rgb(&page);
        assert!(
            finder::find(&plane).is_err(),
            "the whole page alone shows no board"
        );
        let (_, grid, on_page) =
            read_image(&nets, &page, sense::Bottom::Auto, None).expect("found on the page");
        assert_eq!(on_page.fen, reading.fen);
        assert_moved(&grid, &alone, (left, top));
    }

    /// Three copies of a diagram on blank paper, two in the first row and
    /// one below: each is read, in reading order, where it was pasted.
    #[test]
    fn every_diagram_on_a_page_is_read_in_reading_order() {
        let nets = net::Ensemble::embedded().expect("the embedded nets load");
        let (diagram, alone, reading) = hatched_diagram(&nets);
        let (w, h) = (diagram.width(), diagram.height());
        let mut page = image::RgbImage::from_pixel(3 * w, 3 * h, image::Rgb([255; 3]));
        let places = [(w / 3, h / 3), (w * 5 / 3, h / 2), (w / 2, h * 5 / 3)];
        // Pasted out of reading order.
        for &(left, top) in places.iter().rev() {
            image::imageops::replace(&mut page, &diagram, left.into(), top.into());
        }
        let boards = read_all(&nets, &page, sense::Bottom::Auto, None).expect("found");
        assert_eq!(boards.len(), 3);
        for ((_, grid, on_page), (left, top)) in boards.iter().zip(places) {
            assert_eq!(on_page.fen, reading.fen);
            assert_moved(grid, &alone, (left, top));
        }
        let (_, _, one) = read_image(&nets, &page, sense::Bottom::Auto, None).expect("one");
        assert_eq!(one.fen, reading.fen);
    }

    /// Two screenshots side by side on a dark window (not a page): `--all`
    /// reads both, left first; the first alone is what `read_image` reads.
    #[test]
    fn boards_side_by_side_in_a_screenshot_are_each_read() {
        let nets = net::Ensemble::embedded().expect("the embedded nets load");
        let shots = ["cburnett-white-bottom.png", "merida-black-bottom.png"].map(fixture_image);
        let alone = shots.each_ref().map(|shot| {
            read_image(&nets, shot, sense::Bottom::Auto, None)
                .expect("found alone")
                .2
                .fen
        });
        let gap = 24;
        let width = shots[0].width() + shots[1].width() + 3 * gap;
        let height = shots[0].height().max(shots[1].height()) + 2 * gap;
        let mut window = image::RgbImage::from_pixel(width, height, image::Rgb([38, 40, 44]));
        image::imageops::replace(&mut window, &shots[0], gap.into(), gap.into());
        let right = i64::from(2 * gap + shots[0].width());
        image::imageops::replace(&mut window, &shots[1], right, gap.into());
        let boards = read_all(&nets, &window, sense::Bottom::Auto, None).expect("found");
        let fens: Vec<&str> = boards.iter().map(|(_, _, r)| r.fen.as_str()).collect();
        assert_eq!(fens, alone.each_ref().map(String::as_str));
    }

    /// The painted box covers the whole board as the finder sees it, the
    /// picture turned upright by the board's skew, even far off centre.
    #[test]
    fn painting_over_a_crooked_board_covers_it_upright() {
        let mut image = image::RgbImage::from_pixel(800, 600, image::Rgb([255; 3]));
        let grid = finder::Grid {
            left: 420.0,
            top: 260.0,
            square: 30.0,
            skew: 6.0,
        };
        paint_over(&mut image, &grid, image::Rgb([0; 3]));
        let plane = picture::Plane::from_rgb(&image);
        let upright = plane.upright(grid.skew);
        for step in 0..=16 {
            for across in 0..=16 {
                let x = grid.left + 15.0 * across as f32;
                let y = grid.top + 15.0 * step as f32;
                let tone = upright.at(x.min(799.0) as usize, y.min(599.0) as usize);
                assert!(tone < 0.2, "({x}, {y}) upright is not painted: {tone}");
            }
        }
    }

    #[test]
    fn a_grid_a_few_percent_off_still_reads_the_board() {
        let nets = net::Ensemble::embedded().expect("the embedded nets load");
        let image = fixture_image("cburnett-white-bottom.png");
        let (_, grid, reading) =
            read_image(&nets, &image, sense::Bottom::Auto, None).expect("found");
        for (dx, dy) in [(0.04, 0.0), (0.0, -0.04), (-0.03, 0.03)] {
            let off = finder::Grid {
                left: grid.left + dx * grid.square,
                top: grid.top + dy * grid.square,
                ..grid
            };
            let (_, shifted) = read_grid(&nets, &image, &off, sense::Bottom::Auto, None);
            assert_eq!(
                shifted.fen, reading.fen,
                "grid moved by ({dx}, {dy}) squares"
            );
        }
    }
}
