//! `tarpon scan`: a picture of a chess board in, its FEN (and an analysis)
//! out. It sits above the engine: nothing in the engine imports it.
//!
//! The pipeline, one submodule a step:
//! - [`picture`]: reading PNG/JPEG safely into a grey plane, and cutting a
//!   square out of it at the classifier's input size;
//! - [`finder`]: the 8×8 grid in a 2D screenshot or diagram, from gradient
//!   profiles (evenly spaced lines);
//! - [`perspective`]: a board seen at an angle, its corners given, warped
//!   flat;
//! - [`photo`]: photos of physical boards: occupancy and piece colour per
//!   square, calibrated from a photo of the starting position;
//! - [`net`]: the small convolutional net that calls each square (13 classes),
//!   its weight file, the embedded default weights, and the trainer's pass;
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
pub mod finder;
pub mod labels;
pub mod net;
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

/// The net's probabilities for each displayed square of `grid`, on the
/// picture turned upright (`plane.upright(grid.skew)`): the mean over the
/// square's window and four shifted by [`SHIFTED_READING`].
pub fn classify_squares(
    net: &net::Net,
    plane: &picture::Plane,
    grid: &finder::Grid,
) -> Displayed<[f32; 13]> {
    let classifier = classifier::Classifier::new(net);
    let d = SHIFTED_READING * grid.square;
    let windows = [(0.0, 0.0), (-d, 0.0), (d, 0.0), (0.0, -d), (0.0, d)];
    std::array::from_fn(|i| {
        let (left, top) = grid.corner(i);
        let mut mean = [0.0f32; 13];
        for (dx, dy) in windows {
            let input = plane.square_input::<{ net::SIDE }>(left + dx, top + dy, grid.square);
            for (m, p) in mean.iter_mut().zip(classifier.classify(&input)) {
                *m += p / windows.len() as f32;
            }
        }
        debug_assert!((mean.iter().sum::<f32>() - 1.0).abs() < 1e-3);
        mean
    })
}

/// The net's probabilities for each displayed square of `grid`, the
/// pieces' colours then weighed across the board ([`colour::harmonise`]):
/// what chess sense reads from.
pub fn call_squares(
    net: &net::Net,
    plane: &picture::Plane,
    grid: &finder::Grid,
) -> Displayed<[f32; 13]> {
    let mut probs = classify_squares(net, plane, grid);
    colour::harmonise(plane, grid, &mut probs);
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
    let net = net::Net::load(None)?;
    let (_, _, reading) = read_image(&net, image, bottom, to_move).map_err(|e| e.to_string())?;
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
/// grey plane placed its lines.
pub fn read_image(
    net: &net::Net,
    image: &image::RgbImage,
    bottom: sense::Bottom,
    to_move: Option<sense::Side>,
) -> Result<(picture::Plane, finder::Grid, sense::Reading), finder::FindError> {
    let plane = picture::Plane::from_rgb(image);
    // A crooked board is turned upright before its lines are looked for.
    let find_upright = |upright: &picture::Plane, skew: f32| {
        finder::find_scored(upright).map(|found| finder::Found {
            grid: finder::Grid { skew, ..found.grid },
            ..found
        })
    };
    let grey_skew = finder::skew(&plane);
    // Kept: the squares are read from it when the grey plane's grid wins.
    let grey_upright = plane.upright(grey_skew);
    let mut best = find_upright(&grey_upright, grey_skew);
    let grey_grid = best.as_ref().ok().map(|found| found.grid);
    for channel in 0..3 {
        if matches!(best, Ok(found) if found.agreeing >= SURE_AGREEMENT) {
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
    let grid = best?.grid;
    if net.shade != picture::Shade::Luma {
        drop(grey_upright);
        let shaded = picture::Plane::shaded(image, net.shade);
        let reading = read_grid(net, &shaded, &grid, bottom, to_move);
        return Ok((shaded, grid, reading));
    }
    let reading = if grid.skew == grey_skew {
        read_upright(net, &grey_upright, &grid, bottom, to_move)
    } else {
        read_grid(net, &plane, &grid, bottom, to_move)
    };
    drop(grey_upright);
    Ok((plane, grid, reading))
}

/// Calls the squares of a known grid and applies chess sense.
pub fn read_grid(
    net: &net::Net,
    plane: &picture::Plane,
    grid: &finder::Grid,
    bottom: sense::Bottom,
    to_move: Option<sense::Side>,
) -> sense::Reading {
    read_upright(net, &plane.upright(grid.skew), grid, bottom, to_move)
}

/// [`read_grid`] on the picture already turned upright.
fn read_upright(
    net: &net::Net,
    plane: &picture::Plane,
    grid: &finder::Grid,
    bottom: sense::Bottom,
    to_move: Option<sense::Side>,
) -> sense::Reading {
    let probs = call_squares(net, plane, grid);
    // Printed coordinates, where they are clear, settle the orientation
    // before the pieces are asked.
    let printed = match bottom {
        sense::Bottom::Auto => labels::read(plane, grid),
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

    fn fixture_image(name: &str) -> image::RgbImage {
        let path = format!("{}/tests/data/scan/{name}", env!("CARGO_MANIFEST_DIR"));
        image::open(&path).expect("the fixture decodes").to_rgb8()
    }

    #[test]
    fn a_grid_a_few_percent_off_still_reads_the_board() {
        let net = net::Net::embedded().expect("the embedded net loads");
        let image = fixture_image("cburnett-white-bottom.png");
        let (plane, grid, reading) =
            read_image(&net, &image, sense::Bottom::Auto, None).expect("found");
        for (dx, dy) in [(0.04, 0.0), (0.0, -0.04), (-0.03, 0.03)] {
            let off = finder::Grid {
                left: grid.left + dx * grid.square,
                top: grid.top + dy * grid.square,
                ..grid
            };
            let shifted = read_grid(&net, &plane, &off, sense::Bottom::Auto, None);
            assert_eq!(
                shifted.fen, reading.fen,
                "grid moved by ({dx}, {dy}) squares"
            );
        }
    }
}
