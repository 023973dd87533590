//! Synthetic boards for training and measuring, seeded: a position (random
//! play or a sparse endgame), a piece set, board colours and the clutter of
//! real pictures (highlights, arrows, coordinates, borders, page text, scaling,
//! blur, JPEG), with the true grid and squares returned beside the picture.
//!
//! Piece art comes as 128-px PNG sprites, `DIR/<set>/<letter>.png`, made by
//! `arena/scan/fetch_art.sh` from licensed sources (docs/scan.md).

use std::path::Path;

use image::{Rgb, RgbImage, Rgba, RgbaImage, imageops};
use shakmaty::{
    Board, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square,
};

use super::picture::sample_rgb;
use super::{CLASSES, EMPTY, class_of};
use crate::rng::SplitMix64;

/// Piece sets trained on, and the ones kept out of training entirely.
pub const TRAINING_SETS: [&str; 11] = [
    "cburnett",
    "xboard",
    "merida",
    "gnome-fancy",
    "dejavu",
    "gnome-simple",
    "knights",
    "dreamchess-sketch",
    "kilfiger",
    "fantasy",
    "noto",
];
pub const HELD_OUT_SETS: [&str; 2] = ["kaneo", "firi"];
/// Fonts the board coordinates are drawn in (`DIR/_labels/<font>/<c>.png`),
/// besides the renderer's own 3×5 pixel font; the held-out ones only on
/// held-out boards.
pub const TRAINING_LABEL_FONTS: [&str; 4] = [
    "dejavu-sans-bold",
    "dejavu-serif",
    "liberation-sans",
    "liberation-mono-bold",
];
pub const HELD_OUT_LABEL_FONTS: [&str; 3] = ["liberation-narrow-bold", "lm-roman", "dejavu-mono"];
/// Fonts only the reader's templates are made from (never drawn on a
/// rendered board): printed coordinates come in many more fonts than the
/// renderer draws, and none of these is a held-out one.
pub const TEMPLATE_ONLY_LABEL_FONTS: [&str; 7] = [
    "dejavu-sans",
    "free-serif",
    "free-sans",
    "free-mono",
    "noto-serif",
    "noto-sans",
    "noto-sans-mono",
];
/// The label fonts drawn on boards of `styles`.
pub fn label_fonts(styles: Styles) -> &'static [&'static str] {
    match styles {
        Styles::Seen => &TRAINING_LABEL_FONTS,
        Styles::HeldOut => &HELD_OUT_LABEL_FONTS,
    }
}

/// The coordinates a board shows, in the order `LabelFont::glyphs` holds them.
pub const LABEL_CHARS: [char; 16] = [
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '1', '2', '3', '4', '5', '6', '7', '8',
];

/// One font's coordinate glyphs, each cropped to its ink (alpha = ink).
pub struct LabelFont {
    pub name: String,
    pub glyphs: Vec<image::GrayImage>,
}

/// The label fonts of `names` under `DIR/_labels`; none when the art was
/// fetched before fonts were (the renderer then draws its pixel font only).
pub fn load_label_fonts(dir: &Path, names: &[&str]) -> Result<Vec<LabelFont>, String> {
    if !dir.join("_labels").is_dir() {
        return Ok(Vec::new());
    }
    names
        .iter()
        .map(|name| {
            let glyphs = LABEL_CHARS
                .iter()
                .map(|c| {
                    let path = dir.join("_labels").join(name).join(format!("{c}.png"));
                    let rgba = image::open(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?
                        .to_rgba8();
                    let alpha = image::GrayImage::from_fn(rgba.width(), rgba.height(), |x, y| {
                        image::Luma([rgba.get_pixel(x, y)[3]])
                    });
                    crop_to_ink(&alpha).ok_or_else(|| format!("{}: no ink", path.display()))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(LabelFont {
                name: name.to_string(),
                glyphs,
            })
        })
        .collect()
}

/// `alpha` cut down to the bounding box of its pixels above half ink.
fn crop_to_ink(alpha: &image::GrayImage) -> Option<image::GrayImage> {
    let inked = alpha.enumerate_pixels().filter(|(_, _, p)| p[0] >= 128);
    let [x0, y0, x1, y1] =
        super::picture::bounding_box(inked.map(|(x, y, _)| (x as usize, y as usize)))?
            .map(|v| v as u32);
    Some(imageops::crop_imm(alpha, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image())
}

/// A board colour scheme: light and dark squares.
#[derive(Clone, Copy, Debug)]
pub struct Scheme {
    pub name: &'static str,
    pub light: [u8; 3],
    pub dark: [u8; 3],
}

const fn scheme(name: &'static str, light: [u8; 3], dark: [u8; 3]) -> Scheme {
    Scheme { name, light, dark }
}

/// Common schemes drawn on in training (besides random colours).
pub const TRAINING_SCHEMES: [Scheme; 5] = [
    scheme("brown", [240, 217, 181], [181, 136, 99]),
    scheme("green", [238, 238, 210], [118, 150, 86]),
    scheme("grey", [220, 220, 220], [150, 150, 150]),
    scheme("wood", [232, 196, 140], [160, 110, 60]),
    scheme("paper", [255, 255, 255], [200, 200, 200]),
];
/// Schemes kept out of training: random training colours near any of them
/// are redrawn.
pub const HELD_OUT_SCHEMES: [Scheme; 4] = [
    scheme("blue", [222, 227, 230], [140, 162, 173]),
    scheme("purple", [240, 230, 250], [136, 119, 183]),
    scheme("coral", [255, 228, 214], [226, 128, 110]),
    scheme("low-contrast", [200, 200, 190], [175, 175, 165]),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Styles {
    /// Training sets, training schemes and random colours.
    Seen,
    /// Held-out sets and held-out schemes only.
    HeldOut,
}

pub struct PieceSet {
    pub name: String,
    /// Indexed by class - 1.
    sprites: Vec<RgbaImage>,
}

pub fn load_sets(dir: &Path, names: &[&str]) -> Result<Vec<PieceSet>, String> {
    names
        .iter()
        .map(|name| {
            let sprites = CLASSES[1..]
                .iter()
                .map(|&letter| {
                    let path = dir.join(name).join(format!("{letter}.png"));
                    image::open(&path).map(|i| i.to_rgba8()).map_err(|e| {
                        format!(
                            "{}: {e} (make the sprites with arena/scan/fetch_art.sh)",
                            path.display()
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(PieceSet {
                name: name.to_string(),
                sprites,
            })
        })
        .collect()
}

/// A rendered board with the truth about it.
pub struct Sample {
    pub image: RgbImage,
    /// The board's top-left corner and square size in pixels, in the
    /// picture turned upright (`Plane::upright(skew)`).
    pub left: f32,
    pub top: f32,
    pub square: f32,
    /// Degrees the board is turned clockwise about the picture's centre.
    pub skew: f32,
    /// Black at the bottom.
    pub flipped: bool,
    /// Classes in FEN order (a8, b8, … h1).
    pub board: [usize; 64],
    /// Classes as displayed (row 0 at the top).
    pub displayed: [usize; 64],
    /// The board shows its coordinates (inside the squares or around it).
    pub coordinates: bool,
}

/// Where a rendered position came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A position of a real game.
    Game,
    /// Random legal play from the start.
    Play,
    /// Kings and pieces scattered anywhere legal: turned round, such a
    /// position is exactly as likely, so nothing in it says which way is up.
    Scattered,
}

/// A board's position: half the time, when game positions are given, one
/// of them; otherwise `random_position`.
pub fn pick_position(rng: &mut SplitMix64, games: &[[u8; 64]]) -> ([usize; 64], Origin) {
    if !games.is_empty() && rng.below(2) == 0 {
        let game = &games[rng.below(games.len())];
        return (game.map(usize::from), Origin::Game);
    }
    random_position(rng)
}

/// The position after each move of the PGN's games whose index (from 0)
/// `keep` accepts: what people put on their boards, with pawns and kings
/// where real play leaves them.
pub fn game_positions(pgn: &str, keep: impl Fn(usize) -> bool) -> Result<Vec<[u8; 64]>, String> {
    let games = crate::explain::game::pgn::read_games(pgn)?;
    let mut out = Vec::new();
    for (i, game) in games.iter().enumerate().filter(|(i, _)| keep(*i)) {
        let fen: shakmaty::fen::Fen = game
            .start
            .fen()
            .parse()
            .map_err(|e| format!("game {}: {e}", i + 1))?;
        let mut pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("game {}: {e}", i + 1))?;
        for &m in &game.moves {
            pos.play_unchecked(m);
            out.push(classes_of(pos.board()).map(|c| c as u8));
        }
    }
    Ok(out)
}

/// A position from random legal play (captures preferred half the time, so
/// material comes off) or a sparse endgame.
pub fn random_position(rng: &mut SplitMix64) -> ([usize; 64], Origin) {
    if rng.below(4) == 0 {
        return (sparse_endgame(rng), Origin::Scattered);
    }
    let mut pos = Chess::default();
    let plies = rng.below(160);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).copied().collect();
        let pick = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.play_unchecked(pick);
    }
    (classes_of(pos.board()), Origin::Play)
}

/// Two kings and up to seven other pieces anywhere legal.
fn sparse_endgame(rng: &mut SplitMix64) -> [usize; 64] {
    loop {
        let mut board = Board::empty();
        let mut free: Vec<Square> = Square::ALL.to_vec();
        rng.shuffle(&mut free);
        board.set_piece_at(
            free.pop().expect("64 squares"),
            Piece {
                color: Color::White,
                role: Role::King,
            },
        );
        board.set_piece_at(
            free.pop().expect("64 squares"),
            Piece {
                color: Color::Black,
                role: Role::King,
            },
        );
        let roles = [
            Role::Pawn,
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ];
        for _ in 0..rng.below(8) {
            let role = roles[rng.below(roles.len())];
            let color = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let Some(square) = free.pop() else { break };
            if role == Role::Pawn
                && (square.rank() == shakmaty::Rank::First
                    || square.rank() == shakmaty::Rank::Eighth)
            {
                continue;
            }
            board.set_piece_at(square, Piece { color, role });
        }
        let setup = Setup {
            board: board.clone(),
            ..Setup::empty()
        };
        if Chess::from_setup(setup, CastlingMode::Standard).is_ok() {
            return classes_of(&board);
        }
    }
}

pub fn classes_of(board: &Board) -> [usize; 64] {
    let mut classes = [EMPTY; 64];
    for (i, class) in classes.iter_mut().enumerate() {
        let square = Square::new(((7 - i / 8) * 8 + i % 8) as u32);
        if let Some(piece) = board.piece_at(square) {
            *class = class_of(piece.char()).expect("a piece letter");
        }
    }
    classes
}

fn unit(rng: &mut SplitMix64) -> f32 {
    rng.unit_f64() as f32
}

fn between(rng: &mut SplitMix64, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * unit(rng)
}

fn jitter(rng: &mut SplitMix64, colour: [u8; 3], by: i32) -> [u8; 3] {
    colour.map(|c| (c as i32 + rng.range_i32(-by, by + 1)).clamp(0, 255) as u8)
}

fn distance(a: [u8; 3], b: [u8; 3]) -> i32 {
    a.iter()
        .zip(&b)
        .map(|(&x, &y)| (x as i32 - y as i32).abs())
        .sum()
}

fn random_colour(rng: &mut SplitMix64, lo: u8, hi: u8) -> [u8; 3] {
    [0; 3].map(|_| rng.range_i32(lo as i32, hi as i32 + 1) as u8)
}

fn pick_scheme(rng: &mut SplitMix64, styles: Styles) -> Scheme {
    match styles {
        Styles::HeldOut => {
            let s = HELD_OUT_SCHEMES[rng.below(HELD_OUT_SCHEMES.len())];
            Scheme {
                light: jitter(rng, s.light, 6),
                dark: jitter(rng, s.dark, 6),
                ..s
            }
        }
        Styles::Seen if rng.below(2) == 0 => {
            let s = TRAINING_SCHEMES[rng.below(TRAINING_SCHEMES.len())];
            Scheme {
                light: jitter(rng, s.light, 10),
                dark: jitter(rng, s.dark, 10),
                ..s
            }
        }
        Styles::Seen => loop {
            let light = random_colour(rng, 150, 255);
            let dark = random_colour(rng, 40, 200);
            let near_held_out = HELD_OUT_SCHEMES
                .iter()
                .any(|h| distance(h.light, light) < 60 && distance(h.dark, dark) < 60);
            let lum = |c: [u8; 3]| c.iter().map(|&v| v as i32).sum::<i32>();
            if !near_held_out && lum(light) > lum(dark) + 30 {
                break Scheme {
                    name: "random",
                    light,
                    dark,
                };
            }
        },
    }
}

/// 3×5 glyphs for board coordinates, one bit a pixel, top row first.
pub(super) const GLYPHS: [(char, [u8; 5]); 16] = [
    ('a', [0b000, 0b011, 0b101, 0b101, 0b011]),
    ('b', [0b100, 0b110, 0b101, 0b101, 0b110]),
    ('c', [0b000, 0b011, 0b100, 0b100, 0b011]),
    ('d', [0b001, 0b011, 0b101, 0b101, 0b011]),
    ('e', [0b010, 0b101, 0b111, 0b100, 0b011]),
    ('f', [0b011, 0b100, 0b110, 0b100, 0b100]),
    ('g', [0b011, 0b101, 0b011, 0b001, 0b110]),
    ('h', [0b100, 0b110, 0b101, 0b101, 0b101]),
    ('1', [0b010, 0b110, 0b010, 0b010, 0b111]),
    ('2', [0b110, 0b001, 0b010, 0b100, 0b111]),
    ('3', [0b110, 0b001, 0b010, 0b001, 0b110]),
    ('4', [0b101, 0b101, 0b111, 0b001, 0b001]),
    ('5', [0b111, 0b100, 0b110, 0b001, 0b110]),
    ('6', [0b011, 0b100, 0b110, 0b101, 0b010]),
    ('7', [0b111, 0b001, 0b010, 0b010, 0b010]),
    ('8', [0b010, 0b101, 0b010, 0b101, 0b010]),
];

fn draw_glyph(image: &mut RgbImage, letter: char, x: i64, y: i64, pixel: i64, colour: [u8; 3]) {
    let Some((_, rows)) = GLYPHS.iter().find(|(c, _)| *c == letter) else {
        return;
    };
    for (r, bits) in rows.iter().enumerate() {
        for c in 0..3 {
            if bits & (0b100 >> c) != 0 {
                fill_rect(
                    image,
                    x + c * pixel,
                    y + r as i64 * pixel,
                    pixel,
                    pixel,
                    colour,
                    1.0,
                );
            }
        }
    }
}

/// The font a board's coordinates are drawn in.
enum LabelStyle<'a> {
    /// The 3×5 pixel font ([`GLYPHS`]).
    Pixel,
    Font(&'a LabelFont),
}

/// Which edge of a label its x coordinate gives.
#[derive(Clone, Copy)]
enum Anchor {
    Left,
    Centre,
    Right,
}

/// Draws `letter` five `pixel`s tall with its top at `y`, placed
/// horizontally by `x`.
fn draw_label(
    image: &mut RgbImage,
    style: &LabelStyle,
    letter: char,
    (x, anchor): (i64, Anchor),
    y: i64,
    pixel: i64,
    colour: [u8; 3],
) {
    match style {
        LabelStyle::Pixel => {
            let x0 = match anchor {
                Anchor::Left => x,
                Anchor::Centre => x - pixel,
                Anchor::Right => x - 3 * pixel,
            };
            draw_glyph(image, letter, x0, y, pixel, colour);
        }
        LabelStyle::Font(font) => {
            let Some(index) = LABEL_CHARS.iter().position(|&c| c == letter) else {
                return;
            };
            let glyph = &font.glyphs[index];
            let height = (5 * pixel).max(1) as u32;
            let width = ((glyph.width() * height) as f32 / glyph.height() as f32)
                .round()
                .max(1.0) as u32;
            let scaled = imageops::resize(glyph, width, height, imageops::FilterType::Triangle);
            let x0 = match anchor {
                Anchor::Left => x,
                Anchor::Centre => x - i64::from(width) / 2,
                Anchor::Right => x - i64::from(width),
            };
            for (gx, gy, ink) in scaled.enumerate_pixels() {
                let alpha = f32::from(ink[0]) / 255.0;
                if alpha > 0.0 {
                    fill_rect(
                        image,
                        x0 + i64::from(gx),
                        y + i64::from(gy),
                        1,
                        1,
                        colour,
                        alpha,
                    );
                }
            }
        }
    }
}

fn fill_rect(image: &mut RgbImage, x: i64, y: i64, w: i64, h: i64, colour: [u8; 3], alpha: f32) {
    let (iw, ih) = (image.width() as i64, image.height() as i64);
    for py in y.max(0)..(y + h).min(ih) {
        for px in x.max(0)..(x + w).min(iw) {
            blend(image.get_pixel_mut(px as u32, py as u32), colour, alpha);
        }
    }
}

fn blend(pixel: &mut Rgb<u8>, colour: [u8; 3], alpha: f32) {
    for (p, &c) in pixel.0.iter_mut().zip(&colour) {
        *p = (*p as f32 * (1.0 - alpha) + c as f32 * alpha).round() as u8;
    }
}

/// A thick line with a round cap between two points.
fn draw_arrow(
    image: &mut RgbImage,
    from: (f32, f32),
    to: (f32, f32),
    width: f32,
    colour: [u8; 3],
    alpha: f32,
) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len2 = (dx * dx + dy * dy).max(1.0);
    let x0 = (from.0.min(to.0) - width) as i64;
    let x1 = (from.0.max(to.0) + width) as i64;
    let y0 = (from.1.min(to.1) - width) as i64;
    let y1 = (from.1.max(to.1) + width) as i64;
    for y in y0.max(0)..y1.min(image.height() as i64) {
        for x in x0.max(0)..x1.min(image.width() as i64) {
            let t = (((x as f32 - from.0) * dx + (y as f32 - from.1) * dy) / len2).clamp(0.0, 1.0);
            let (cx, cy) = (from.0 + t * dx, from.1 + t * dy);
            let d2 = (x as f32 - cx).powi(2) + (y as f32 - cy).powi(2);
            if d2 <= (width / 2.0).powi(2) {
                blend(image.get_pixel_mut(x as u32, y as u32), colour, alpha);
            }
        }
    }
}

fn composite(image: &mut RgbImage, sprite: &RgbaImage, x: i64, y: i64) {
    for (sx, sy, Rgba([r, g, b, a])) in sprite.enumerate_pixels() {
        let (px, py) = (x + sx as i64, y + sy as i64);
        if *a == 0 || px < 0 || py < 0 || px >= image.width() as i64 || py >= image.height() as i64
        {
            continue;
        }
        blend(
            image.get_pixel_mut(px as u32, py as u32),
            [*r, *g, *b],
            *a as f32 / 255.0,
        );
    }
}

/// Renders `board` (FEN order) in a random style drawn from `styles`.
pub fn render(
    rng: &mut SplitMix64,
    sets: &[PieceSet],
    fonts: &[LabelFont],
    styles: Styles,
    board: &[usize; 64],
) -> Sample {
    debug_assert!(!sets.is_empty());
    let s = (20.0 * (6.0f32).powf(unit(rng))).round() as i64; // 20..120, log-uniform
    let scheme = pick_scheme(rng, styles);
    let flipped = rng.below(2) == 0;
    let displayed: [usize; 64] =
        std::array::from_fn(|i| if flipped { board[63 - i] } else { board[i] });
    let set = &sets[rng.below(sets.len())];

    let border = if rng.below(5) < 2 {
        rng.below((s / 5).max(2) as usize) as i64 + 1
    } else {
        0
    };
    let outside_coordinates = rng.below(4) == 0;
    let min_margin = if outside_coordinates { s / 3 + 2 } else { 0 };
    let mut margin = || min_margin + rng.below((s * 3 / 2) as usize + 1) as i64;
    let (ml, mt, mr, mb) = (margin(), margin(), margin(), margin());
    let (left, top) = (ml + border, mt + border);
    let width = (left + 8 * s + border + mr) as u32;
    let height = (top + 8 * s + border + mb) as u32;
    let page = if rng.below(2) == 0 {
        jitter(rng, [250, 250, 250], 5)
    } else {
        random_colour(rng, 0, 255)
    };
    let mut image = RgbImage::from_pixel(width, height, Rgb(page));

    // Page text: rows of word-like dark blocks, outside the board.
    if rng.below(2) == 0 {
        let ink = random_colour(rng, 0, 90);
        let line = rng.below(8) as i64 + 6;
        let mut y = rng.below(line as usize) as i64;
        while y < height as i64 {
            let mut x = rng.below(20) as i64;
            while x < width as i64 {
                let word = rng.below(40) as i64 + 8;
                // Text keeps clear of the board, its frame and the
                // coordinates printed beside it.
                let clear = border + min_margin;
                let inside = x + word > left - clear
                    && x < left + 8 * s + clear
                    && y + line > top - clear
                    && y < top + 8 * s + clear;
                if !inside {
                    fill_rect(&mut image, x, y, word, line * 2 / 3, ink, 1.0);
                }
                x += word + line / 2;
            }
            y += line + rng.below(6) as i64;
        }
    }
    if border > 0 {
        let frame = random_colour(rng, 0, 140);
        fill_rect(
            &mut image,
            left - border,
            top - border,
            8 * s + 2 * border,
            8 * s + 2 * border,
            frame,
            1.0,
        );
    }
    let hatched = styles == Styles::Seen && rng.below(10) == 0;
    let noise = rng.below(5) == 0;
    for row in 0..8 {
        for col in 0..8 {
            let dark = (row + col) % 2 == 1;
            let colour = if dark { scheme.dark } else { scheme.light };
            let (x, y) = (left + col * s, top + row * s);
            fill_rect(&mut image, x, y, s, s, colour, 1.0);
            if dark && hatched {
                // Book diagrams: dark squares as diagonal hatching on white.
                fill_rect(&mut image, x, y, s, s, [255, 255, 255], 1.0);
                for py in 0..s {
                    for px in 0..s {
                        if (px + py) % 4 == 0 {
                            image.put_pixel((x + px) as u32, (y + py) as u32, Rgb([60, 60, 60]));
                        }
                    }
                }
            }
        }
    }
    if noise {
        let amount = rng.below(12) as i32 + 2;
        for y in top..top + 8 * s {
            for x in left..left + 8 * s {
                let d = rng.range_i32(-amount, amount + 1);
                let p = image.get_pixel_mut(x as u32, y as u32);
                p.0 = p.0.map(|c| (c as i32 + d).clamp(0, 255) as u8);
            }
        }
    }
    let highlight_colours = [
        [247, 247, 105],
        [205, 210, 106],
        [155, 199, 0],
        [100, 160, 230],
        [255, 170, 80],
    ];
    if rng.below(2) == 0 {
        let colour = highlight_colours[rng.below(highlight_colours.len())];
        let alpha = between(rng, 0.3, 0.6);
        for _ in 0..2 {
            let i = rng.below(64) as i64;
            fill_rect(
                &mut image,
                left + i % 8 * s,
                top + i / 8 * s,
                s,
                s,
                colour,
                alpha,
            );
        }
    }
    if rng.below(8) == 0 {
        // A check: the red glow under a king.
        if let Some(i) = displayed
            .iter()
            .position(|&c| CLASSES[c] == 'K' || CLASSES[c] == 'k')
        {
            let (cx, cy) = (
                (left + i as i64 % 8 * s) as f32 + s as f32 / 2.0,
                (top + i as i64 / 8 * s) as f32 + s as f32 / 2.0,
            );
            for y in 0..s {
                for x in 0..s {
                    let (px, py) = (left + i as i64 % 8 * s + x, top + i as i64 / 8 * s + y);
                    let d = ((px as f32 - cx).powi(2) + (py as f32 - cy).powi(2)).sqrt()
                        / (s as f32 * 0.7);
                    blend(
                        image.get_pixel_mut(px as u32, py as u32),
                        [255, 0, 0],
                        (0.9 * (1.0 - d)).max(0.0),
                    );
                }
            }
        }
    }
    let inside_coordinates = !outside_coordinates && rng.below(3) == 0;
    let files: Vec<char> = if flipped {
        "hgfedcba".chars().collect()
    } else {
        "abcdefgh".chars().collect()
    };
    let ranks: Vec<char> = if flipped {
        "12345678".chars().collect()
    } else {
        "87654321".chars().collect()
    };
    let label_style =
        if (inside_coordinates || outside_coordinates) && !fonts.is_empty() && rng.below(2) == 0 {
            LabelStyle::Font(&fonts[rng.below(fonts.len())])
        } else {
            LabelStyle::Pixel
        };
    if inside_coordinates {
        // Sites draw the labels in the other square's colour; GUIs such as
        // xboard in black (or white), and bolder.
        let (glyph_pixel, fixed_ink) = match rng.below(3) {
            0 => ((s / 16).max(1), None),
            1 => ((s / 12).max(1), Some([0, 0, 0])),
            _ => ((s / 12).max(1), Some([255, 255, 255])),
        };
        for i in 0..8 {
            let on_dark = |row: i64, col: i64| (row + col) % 2 == 1;
            let ink =
                |dark: bool| fixed_ink.unwrap_or(if dark { scheme.light } else { scheme.dark });
            draw_label(
                &mut image,
                &label_style,
                files[i as usize],
                (left + (i + 1) * s - glyph_pixel, Anchor::Right),
                top + 8 * s - 6 * glyph_pixel,
                glyph_pixel,
                ink(on_dark(7, i)),
            );
            draw_label(
                &mut image,
                &label_style,
                ranks[i as usize],
                (left + glyph_pixel, Anchor::Left),
                top + i * s + glyph_pixel,
                glyph_pixel,
                ink(on_dark(i, 0)),
            );
        }
    }
    if outside_coordinates {
        let ink = random_colour(rng, 0, 100);
        let pixel = (min_margin / 7).max(1);
        for i in 0..8 {
            draw_label(
                &mut image,
                &label_style,
                files[i as usize],
                (left + i * s + s / 2, Anchor::Centre),
                top + 8 * s + border + 1,
                pixel,
                ink,
            );
            draw_label(
                &mut image,
                &label_style,
                ranks[i as usize],
                (left - border - pixel - 1, Anchor::Right),
                top + i * s + s / 2 - 2 * pixel,
                pixel,
                ink,
            );
        }
    }

    let scale = between(rng, 0.78, 1.0);
    let piece = ((s as f32) * scale).round().max(4.0) as u32;
    let mut scaled: Vec<Option<RgbaImage>> = vec![None; 12];
    for (i, &class) in displayed.iter().enumerate() {
        if class == EMPTY {
            continue;
        }
        let sprite = scaled[class - 1].get_or_insert_with(|| {
            imageops::resize(
                &set.sprites[class - 1],
                piece,
                piece,
                imageops::FilterType::Triangle,
            )
        });
        let slack = s - piece as i64;
        let dx = slack / 2 + rng.range_i32(-(s as i32) / 40, s as i32 / 40 + 1) as i64;
        let dy = slack / 2 + rng.range_i32(-(s as i32) / 40, s as i32 / 40 + 1) as i64;
        composite(
            &mut image,
            sprite,
            left + i as i64 % 8 * s + dx,
            top + i as i64 / 8 * s + dy,
        );
    }
    if rng.below(5) == 0 {
        let colours = [[21, 120, 27], [255, 170, 0], [200, 30, 30], [0, 48, 136]];
        for _ in 0..1 + rng.below(2) {
            let (a, b) = (rng.below(64) as i64, rng.below(64) as i64);
            let centre = |i: i64| {
                (
                    (left + i % 8 * s) as f32 + s as f32 / 2.0,
                    (top + i / 8 * s) as f32 + s as f32 / 2.0,
                )
            };
            let colour = colours[rng.below(colours.len())];
            draw_arrow(
                &mut image,
                centre(a),
                centre(b),
                s as f32 * between(rng, 0.1, 0.2),
                colour,
                between(rng, 0.5, 0.8),
            );
        }
    }

    // Shadows and a crooked board come from a stream of their own, so that
    // every other choice, and with it every board measured before they were
    // added, stays as it was.
    let mut extra = SplitMix64::new(rng.clone().next_u64() ^ 0x5ced_0f5a_d0e5_0001);
    if extra.below(4) == 0 {
        cast_shadow(&mut extra, &mut image, (left, top, s));
    }
    let (mut left, mut top, mut skew) = (left as f32, top as f32, 0.0);
    if extra.below(4) == 0 {
        skew = between(&mut extra, -3.0, 3.0);
        let pad;
        (image, pad) = turned(&image, skew, Rgb(page));
        left += pad as f32;
        top += pad as f32;
    }
    let mut sample = Sample {
        image,
        left,
        top,
        square: s as f32,
        skew,
        flipped,
        board: *board,
        displayed,
        coordinates: inside_coordinates || outside_coordinates,
    };
    if rng.below(5) < 2 {
        rescale(&mut sample, between(rng, 0.7, 1.3));
    }
    if rng.below(4) == 0 {
        sample.image = imageops::blur(&sample.image, between(rng, 0.4, 1.1));
    }
    if rng.below(5) < 2 {
        let quality = rng.below(55) as u8 + 40;
        sample.image = jpeg_round_trip(&sample.image, quality);
    }
    sample
}

/// A shadow across the picture: one side of a random line through the
/// board darker, with a soft edge (a hand, a lamp, a window frame); or, half
/// the time, light falling off across the board.
fn cast_shadow(rng: &mut SplitMix64, image: &mut RgbImage, (left, top, s): (i64, i64, i64)) {
    let darkness = between(rng, 0.15, 0.45);
    let angle = between(rng, 0.0, std::f32::consts::TAU);
    let (nx, ny) = (angle.cos(), angle.sin());
    let through = (
        (left + rng.below(8 * s as usize) as i64) as f32,
        (top + rng.below(8 * s as usize) as i64) as f32,
    );
    let gradual = rng.below(2) == 0;
    let softness = if gradual {
        8.0 * s as f32
    } else {
        between(rng, 0.2, 2.0) * s as f32
    };
    for (x, y, p) in image.enumerate_pixels_mut() {
        let t = ((x as f32 - through.0) * nx + (y as f32 - through.1) * ny) / softness;
        let shade = darkness * (0.5 + 0.5 * t.clamp(-1.0, 1.0));
        p.0 = p.0.map(|c| (c as f32 * (1.0 - shade)).round() as u8);
    }
}

/// The picture turned `degrees` clockwise about its centre, on a canvas
/// padded (in `fill`) so nothing is cut off; returns the padding added on
/// each side.
fn turned(image: &RgbImage, degrees: f32, fill: Rgb<u8>) -> (RgbImage, u32) {
    let (sin, cos) = degrees.to_radians().sin_cos();
    let (w, h) = (image.width(), image.height());
    let pad = (w.max(h) as f32 * sin.abs() / 2.0).ceil() as u32 + 2;
    let (nw, nh) = (w + 2 * pad, h + 2 * pad);
    let (cx, cy) = (nw as f32 / 2.0, nh as f32 / 2.0);
    let out = RgbImage::from_fn(nw, nh, |x, y| {
        let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
        // Where this pixel comes from in the unpadded picture.
        let sx = cx + cos * dx + sin * dy - pad as f32 - 0.5;
        let sy = cy - sin * dx + cos * dy - pad as f32 - 0.5;
        sample_rgb(image, sx, sy).unwrap_or(fill)
    });
    (out, pad)
}

/// Resizes the whole picture, so squares need not be whole pixels.
fn rescale(sample: &mut Sample, factor: f32) {
    let factor = factor.max(18.0 / sample.square);
    let (w, h) = (sample.image.width(), sample.image.height());
    let (nw, nh) = (
        ((w as f32) * factor).round() as u32,
        ((h as f32) * factor).round() as u32,
    );
    let (fx, fy) = (nw as f32 / w as f32, nh as f32 / h as f32);
    sample.image = imageops::resize(&sample.image, nw, nh, imageops::FilterType::Triangle);
    sample.left *= fx;
    sample.top *= fy;
    sample.square *= (fx + fy) / 2.0;
}

pub fn jpeg_round_trip(image: &RgbImage, quality: u8) -> RgbImage {
    let mut bytes = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality);
    if image.write_with_encoder(encoder).is_err() {
        return image.clone();
    }
    image::load_from_memory(&bytes).map_or_else(|_| image.clone(), |i| i.to_rgb8())
}
