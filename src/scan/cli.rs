//! `tarpon scan IMAGE …` and its tools (`train`, `eval`, `render`, `bench`).
//!
//! Exit status: 0 for a confident legal position, 2 when the position is
//! illegal or some square is in doubt (the FEN is still printed), 1 when no
//! position could be read at all (bad file, no board, bad weights).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use image::{Rgb, RgbImage};

use super::finder::Grid;
use super::net::{Ensemble, SIDE};
use super::perspective::{Homography, Quad, warp_flat};
use super::picture::{self, Plane};
use super::render::{self, Styles};
use super::sense::{Bottom, Reading, Side, square_name};
use super::train::{EvalArgs, TrainArgs, run_eval, run_train};
use super::{
    CLASSES, MIN_CONFIDENCE, class_of, doubtful_squares, doubts, read_all, read_grid, read_image,
    scan_picture,
};
use super::{corners, photo};
use crate::explain::json::Json;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ScanArgs {
    #[command(subcommand)]
    pub tool: Option<Tool>,
    /// The picture (PNG or JPEG) with a board somewhere in it.
    #[arg(required = true)]
    pub image: Option<PathBuf>,
    /// Which side is at the bottom of the picture (`auto`: from the position).
    #[arg(long, value_enum, default_value = "auto")]
    pub bottom: Bottom,
    /// Side to move, `w` or `b` (default: White, unless only Black can be to move).
    #[arg(long, value_parser = parse_side)]
    pub to_move: Option<Side>,
    #[arg(long, value_enum, default_value = "fen")]
    pub format: Format,
    /// A square called with less probability than this is in doubt (exit 2).
    #[arg(long, default_value_t = MIN_CONFIDENCE)]
    pub min_confidence: f32,
    /// Write the fitted grid over the picture and each square's call here.
    #[arg(long)]
    pub debug_dir: Option<PathBuf>,
    /// Search the position and print the best line, as `go` would.
    #[arg(long)]
    pub analyse: bool,
    #[arg(long, requires = "analyse")]
    pub depth: Option<u32>,
    #[arg(long, requires = "analyse", conflicts_with = "depth")]
    pub movetime: Option<u64>,
    /// Classifier weights to use instead of the embedded ones: one net, or up to four back to back (`cat`), read together.
    #[arg(long)]
    pub net: Option<PathBuf>,
    /// The playing area's four corners in the picture, `x,y x,y x,y x,y` in
    /// any order, for a board seen at an angle (a photo of a screen or a
    /// page): it is warped flat instead of searched for.
    #[arg(long, allow_hyphen_values = true)]
    pub corners: Option<String>,
    /// Read every board in the picture (a page of diagrams) in reading
    /// order: a FEN a line, `--format json` an array of objects.
    #[arg(long, conflicts_with_all = ["corners", "debug_dir"])]
    pub all: bool,
}

#[derive(clap::Subcommand, Debug)]
pub enum Tool {
    /// Train the square classifier on rendered boards.
    Train(TrainArgs),
    /// Measure the reader on rendered boards (held-out or seen styles).
    Eval(EvalArgs),
    /// Render one synthetic board to a PNG (fixtures, examples).
    Render(RenderArgs),
    /// Time reading one picture (decode, net load, find, classify, coordinates), one thread.
    Bench(BenchArgs),
    /// A photo of a physical board: which squares hold a white piece, a black
    /// piece or none, calibrated from a photo of the starting position.
    Photo(PhotoArgs),
    /// Print the coordinate templates the reader embeds
    /// (src/scan/label_templates.txt) from the training and template-only
    /// label fonts.
    LabelTemplates(LabelTemplatesArgs),
}

#[derive(clap::Args, Debug)]
pub struct LabelTemplatesArgs {
    /// The art directory of arena/scan/fetch_art.sh (its `_labels` fonts).
    #[arg(long)]
    pub art: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct PhotoArgs {
    /// The photo to read.
    pub image: PathBuf,
    /// Its playing area's four corners, `x,y x,y x,y x,y` in any order
    /// (default: found in the photo, where the squares meet).
    #[arg(long, allow_hyphen_values = true)]
    pub corners: Option<String>,
    /// A photo of the same board in the starting position, same light.
    #[arg(long)]
    pub start: PathBuf,
    /// The start photo's corners (default: the same as `--corners`, for a
    /// camera that has not moved, or found in the start photo when neither
    /// is given).
    #[arg(long, allow_hyphen_values = true)]
    pub start_corners: Option<String>,
    /// Which side is at the bottom (`auto`: as in the start photo, where the
    /// lighter pieces tell).
    #[arg(long, value_enum, default_value = "auto")]
    pub bottom: Bottom,
    #[arg(long, value_enum, default_value = "ascii")]
    pub format: Format,
    /// A square called with less probability than this is in doubt (exit 2).
    #[arg(long, default_value_t = MIN_CONFIDENCE)]
    pub min_confidence: f32,
    /// Write both photos warped flat, each square's window framed by its call.
    #[arg(long)]
    pub debug_dir: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    #[arg(long)]
    pub art: PathBuf,
    #[arg(long)]
    pub set: String,
    /// The position's placement field (default: a random position).
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long, default_value = "seen")]
    pub styles: String,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    pub image: PathBuf,
    #[arg(long, default_value_t = 20)]
    pub repeat: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Fen,
    Ascii,
    Json,
}

fn parse_side(text: &str) -> Result<Side, String> {
    match text {
        "w" | "white" => Ok(Side::White),
        "b" | "black" => Ok(Side::Black),
        _ => Err(format!("expected w or b, not {text:?}")),
    }
}

pub fn run(args: &ScanArgs) -> ExitCode {
    let result = match &args.tool {
        Some(Tool::Train(a)) => run_train(a).map(|()| ExitCode::SUCCESS),
        Some(Tool::Eval(a)) => run_eval(a).map(|()| ExitCode::SUCCESS),
        Some(Tool::Render(a)) => run_render(a).map(|()| ExitCode::SUCCESS),
        Some(Tool::Bench(a)) => run_bench(a).map(|()| ExitCode::SUCCESS),
        Some(Tool::LabelTemplates(a)) => run_label_templates(a).map(|()| ExitCode::SUCCESS),
        Some(Tool::Photo(a)) => run_photo(a),
        None => scan(args),
    };
    result.unwrap_or_else(|e| {
        eprintln!("tarpon scan: {e}");
        ExitCode::FAILURE
    })
}

fn scan(args: &ScanArgs) -> Result<ExitCode, String> {
    let path = args.image.as_deref().ok_or("no picture given")?;
    let mut image = picture::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let nets = Ensemble::load(args.net.as_deref())?;
    let not_found = |e: crate::scan::finder::FindError| format!("{}: {e}", path.display());
    let boards = match &args.corners {
        Some(corners) => {
            image = warp_to_corners(&image, corners, FLAT_SQUARE)?;
            let margin = FLAT_MARGIN as f32 * FLAT_SQUARE as f32;
            let grid = Grid {
                left: margin,
                top: margin,
                square: FLAT_SQUARE as f32,
                skew: 0.0,
            };
            let (planes, reading) = read_grid(&nets, &image, &grid, args.bottom, args.to_move);
            vec![(planes, grid, reading)]
        }
        None if args.all => {
            read_all(&nets, &image, args.bottom, args.to_move).map_err(not_found)?
        }
        None => vec![read_image(&nets, &image, args.bottom, args.to_move).map_err(not_found)?],
    };
    let mut objects = Vec::new();
    let mut sound = true;
    for (planes, grid, reading) in &boards {
        let doubtful = doubtful_squares(reading, args.min_confidence);
        match args.format {
            Format::Fen => {
                println!("{}", reading.fen);
                eprint!("{}", confidence_grid(reading));
            }
            Format::Ascii => print!("{}", ascii(reading)),
            Format::Json if args.all => objects.push(json(reading, grid, &doubtful)),
            Format::Json => println!("{}", json(reading, grid, &doubtful)),
        }
        if let Some(dir) = &args.debug_dir {
            write_debug(dir, &image, planes.main(), grid, reading)
                .map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        // With several boards, each one's trouble is named with its FEN.
        let which = if args.all {
            format!(" ({})", reading.fen)
        } else {
            String::new()
        };
        if let Some(why) = &reading.illegal {
            eprintln!("tarpon scan: the position read{which} is not legal: {why}");
            sound = false;
        }
        if let Some(doubts) = doubts(reading, &doubtful) {
            eprintln!("tarpon scan{which}: {doubts}");
            sound = false;
        }
        if args.analyse {
            if reading.illegal.is_none() {
                analyse(&reading.fen, args.depth, args.movetime)?;
            } else if !args.all {
                return Err("cannot analyse an illegal position".into());
            }
        }
    }
    if args.all && args.format == Format::Json {
        println!("{}", Json::Arr(objects));
    }
    Ok(if sound {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// Pixels a square of a board warped flat for the net (it reads 32).
const FLAT_SQUARE: u32 = 64;
/// Squares of surroundings kept around a board warped flat: room for its
/// printed coordinates.
const FLAT_MARGIN: f64 = 0.5;

/// The picture's board, outlined by `corners`, warped flat with
/// [`FLAT_MARGIN`] around it.
fn warp_to_corners(image: &RgbImage, corners: &str, square: u32) -> Result<RgbImage, String> {
    warp_to_quad(image, &Quad::parse(corners)?, square)
}

fn warp_to_quad(image: &RgbImage, quad: &Quad, square: u32) -> Result<RgbImage, String> {
    let mapping = Homography::from_quad(quad)
        .ok_or("--corners: no perspective maps a board onto these four points")?;
    Ok(warp_flat(image, &mapping, square, FLAT_MARGIN))
}

/// `tarpon scan photo`: occupancy and piece colours, exit 2 when some square
/// is in doubt.
fn run_photo(args: &PhotoArgs) -> Result<ExitCode, String> {
    // Corners given are used as given; otherwise each photo's are found.
    let flat = |path: &Path, corners: Option<&str>| -> Result<RgbImage, String> {
        let image = picture::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let quad = match corners {
            Some(corners) => Quad::parse(corners)?,
            None => {
                let quad = corners::find_playing_area(&image)
                    .map_err(|e| format!("{}: {e}; give --corners", path.display()))?;
                let found: Vec<String> = quad
                    .0
                    .iter()
                    .map(|(x, y)| format!("{x:.1},{y:.1}"))
                    .collect();
                eprintln!(
                    "tarpon scan photo: {}: corners found at {}",
                    path.display(),
                    found.join(" ")
                );
                quad
            }
        };
        warp_to_quad(&image, &quad, photo::SQUARE_PX)
    };
    let start = flat(
        &args.start,
        args.start_corners.as_deref().or(args.corners.as_deref()),
    )?;
    let shown = flat(&args.image, args.corners.as_deref())?;
    let given = match args.bottom {
        Bottom::Auto => None,
        Bottom::White => Some(true),
        Bottom::Black => Some(false),
    };
    let calibration = photo::Calibration::from_start(&start, given)
        .map_err(|e| format!("{}: {e}", args.start.display()))?;
    let calls = calibration.call(&shown);
    let white_at_bottom = calibration.white_at_bottom;
    let (kinds, confidence) = photo::in_fen_order(&calls, white_at_bottom);
    let doubtful: Vec<usize> = (0..64)
        .filter(|&i| confidence[i] < args.min_confidence as f64)
        .collect();
    let placement = photo::placement(&kinds);
    match args.format {
        Format::Fen => println!("{placement}"),
        Format::Ascii => {
            for rank in 0..8 {
                let row: Vec<String> = (0..8)
                    .map(|file| photo::OCCUPANTS[kinds[rank * 8 + file]].to_string())
                    .collect();
                println!("{}  {}", 8 - rank, row.join(" "));
            }
            println!("   a b c d e f g h");
            println!("{placement}");
        }
        Format::Json => {
            let squares = (0..64)
                .map(|i| {
                    let shown_at = if white_at_bottom { i } else { 63 - i };
                    let probabilities = photo::OCCUPANTS
                        .iter()
                        .zip(calls[shown_at])
                        .map(|(c, p)| (c.to_string(), Json::Num((p * 1e4).round() / 1e4)))
                        .collect();
                    Json::obj([
                        ("square", Json::str(square_name(i))),
                        (
                            "occupant",
                            Json::str(photo::OCCUPANTS[kinds[i]].to_string()),
                        ),
                        ("probabilities", Json::Obj(probabilities)),
                    ])
                })
                .collect();
            let doubtful_names = doubtful
                .iter()
                .map(|&i| Json::str(square_name(i)))
                .collect();
            println!(
                "{}",
                Json::obj([
                    ("occupancy", Json::str(&placement)),
                    (
                        "bottom",
                        Json::str(if white_at_bottom { "white" } else { "black" })
                    ),
                    ("doubtful", Json::Arr(doubtful_names)),
                    ("squares", Json::Arr(squares)),
                ])
            );
        }
    }
    if let Some(dir) = &args.debug_dir {
        write_photo_debug(dir, &start, &shown, &calls)
            .map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    if doubtful.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let names: Vec<String> = doubtful.iter().map(|&i| square_name(i)).collect();
    eprintln!("tarpon scan: squares in doubt: {}", names.join(", "));
    Ok(ExitCode::from(2))
}

/// `start.png` and `photo.png`: both photos warped flat; in the second each
/// square's window is framed grey (empty), white or black by its call, and
/// red where the call is in doubt.
fn write_photo_debug(
    dir: &Path,
    start: &RgbImage,
    shown: &RgbImage,
    calls: &[[f64; 3]; 64],
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    start
        .save(dir.join("start.png"))
        .map_err(|e| e.to_string())?;
    let mut framed = shown.clone();
    let margin = photo::margin_px(shown);
    let s = photo::SQUARE_PX;
    for (i, p) in calls.iter().enumerate() {
        let kind = photo::likeliest(p);
        let colour = if p[kind] < MIN_CONFIDENCE as f64 {
            Rgb([230, 0, 0])
        } else {
            [Rgb([128, 128, 128]), Rgb([255, 255, 255]), Rgb([0, 0, 0])][kind]
        };
        let (x0, y0) = (
            margin + (i as u32 % 8) * s + 3,
            margin + (i as u32 / 8) * s + 3,
        );
        for t in 0..s - 6 {
            for (x, y) in [
                (x0 + t, y0),
                (x0 + t, y0 + s - 7),
                (x0, y0 + t),
                (x0 + s - 7, y0 + t),
            ] {
                framed.put_pixel(x, y, colour);
            }
        }
    }
    framed
        .save(dir.join("photo.png"))
        .map_err(|e| e.to_string())
}

/// The UCI loop's `scan` (`uci::engine::PictureReader`): the FEN of a legal
/// position read from the picture, with the squares in doubt as a warning.
pub fn read_for_engine(
    request: &crate::uci::command::ScanRequest,
) -> Result<(String, Option<String>), String> {
    let path = Path::new(&request.path);
    let image = picture::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bottom = match request.white_at_bottom {
        None => Bottom::Auto,
        Some(true) => Bottom::White,
        Some(false) => Bottom::Black,
    };
    let to_move = request
        .white_to_move
        .map(|white| if white { Side::White } else { Side::Black });
    let scanned =
        scan_picture(&image, bottom, to_move).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((scanned.fen, scanned.doubts))
}

/// Each square's probability in percent, laid out as the FEN reads.
fn confidence_grid(reading: &Reading) -> String {
    let mut out = String::from("confidence (%), a8 at the top left:\n");
    for row in 0..8 {
        for col in 0..8 {
            let i = row * 8 + col;
            let _ = write!(
                out,
                " {}{:3.0}",
                CLASSES[reading.board[i]],
                100.0 * reading.confidence[i]
            );
        }
        out.push('\n');
    }
    out
}

fn ascii(reading: &Reading) -> String {
    let mut out = String::new();
    for row in 0..8 {
        let _ = write!(out, "{} ", 8 - row);
        for col in 0..8 {
            let _ = write!(out, " {}", CLASSES[reading.board[row * 8 + col]]);
        }
        out.push('\n');
    }
    out.push_str("   a b c d e f g h\n");
    out.push_str(&confidence_grid(reading));
    let _ = writeln!(out, "{}", reading.fen);
    out
}

fn json(reading: &Reading, grid: &Grid, doubtful: &[usize]) -> Json {
    let number = |x: f32| Json::Num((x as f64 * 1e5).round() / 1e5);
    let squares = (0..64)
        .map(|i| {
            let probabilities = CLASSES
                .iter()
                .zip(&reading.probabilities[i])
                .map(|(c, &p)| (c.to_string(), number(p)))
                .collect();
            Json::obj([
                ("square", Json::str(square_name(i))),
                ("piece", Json::str(CLASSES[reading.board[i]].to_string())),
                ("confidence", number(reading.confidence[i])),
                ("probabilities", Json::Obj(probabilities)),
            ])
        })
        .collect();
    Json::obj([
        ("fen", Json::str(&reading.fen)),
        ("legal", reading.illegal.is_none().into()),
        (
            "illegal_reason",
            reading.illegal.as_deref().map_or(Json::Null, Json::str),
        ),
        (
            "bottom",
            Json::str(if reading.white_at_bottom {
                "white"
            } else {
                "black"
            }),
        ),
        ("oriented_by", Json::str(reading.oriented_by.name())),
        ("to_move", Json::str(reading.to_move.letter().to_string())),
        (
            "grid",
            Json::obj([
                ("left", number(grid.left)),
                ("top", number(grid.top)),
                ("square", number(grid.square)),
                ("skew_degrees", number(grid.skew)),
            ]),
        ),
        (
            "doubtful",
            Json::Arr(
                doubtful
                    .iter()
                    .map(|&i| Json::str(square_name(i)))
                    .collect(),
            ),
        ),
        ("squares", Json::Arr(squares)),
    ])
}

fn analyse(fen: &str, depth: Option<u32>, movetime: Option<u64>) -> Result<(), String> {
    use crate::search::{Limits, SearchConfig, SearchControl, TranspositionTable, run_search};
    let position = crate::position::Position::from_fen(fen, false).map_err(|e| format!("{e:?}"))?;
    let limits = Limits {
        depth: if movetime.is_none() {
            Some(depth.unwrap_or(14))
        } else {
            None
        },
        movetime_ms: movetime,
        ..Limits::default()
    };
    // The main search runs on the calling thread and wants a deep stack.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let tt = TranspositionTable::new(64);
            let control = SearchControl::new();
            let outcome = run_search(
                &position,
                &limits,
                &SearchConfig::default(),
                &tt,
                &control,
                &mut |line| println!("{line}"),
            );
            let best = outcome
                .best
                .map_or("(none)".to_string(), |m| position.uci(m));
            println!("bestmove {best}");
        })
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "the search failed".to_string())
}

/// `grid.png`: the picture with the fitted grid; `squares.png`: each square
/// as the net saw it, framed green when confident, red when not;
/// `calls.txt`: each square's call and probability.
fn write_debug(
    dir: &Path,
    image: &RgbImage,
    plane: &Plane,
    grid: &Grid,
    reading: &Reading,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    // A crooked board's grid is drawn over the picture turned upright, in grey.
    let mut overlay = if grid.skew == 0.0 {
        image.clone()
    } else {
        let grey = |v: f32| (v * 255.0).round().clamp(0.0, 255.0) as u8;
        RgbImage::from_fn(plane.width as u32, plane.height as u32, |x, y| {
            let v = grey(plane.at(x as usize, y as usize));
            Rgb([v, v, v])
        })
    };
    for k in 0..=8 {
        let x = grid.left + k as f32 * grid.square;
        let y = grid.top + k as f32 * grid.square;
        for t in 0..(8.0 * grid.square) as u32 {
            let (px, py) = (x as u32, grid.top as u32 + t);
            if px < overlay.width() && py < overlay.height() {
                overlay.put_pixel(px, py, Rgb([255, 0, 0]));
            }
            let (px, py) = (grid.left as u32 + t, y as u32);
            if px < overlay.width() && py < overlay.height() {
                overlay.put_pixel(px, py, Rgb([255, 0, 0]));
            }
        }
    }
    overlay
        .save(dir.join("grid.png"))
        .map_err(|e| e.to_string())?;
    let tile = SIDE as u32 + 4;
    let mut squares = RgbImage::new(8 * tile, 8 * tile);
    for i in 0..64 {
        // Displayed position of FEN square i.
        let shown = if reading.white_at_bottom { i } else { 63 - i };
        let (left, top) = grid.corner(shown);
        let input = plane.square_input::<SIDE>(left, top, grid.square);
        let frame = if reading.confidence[i] >= 0.9 {
            Rgb([0, 200, 0])
        } else {
            Rgb([230, 0, 0])
        };
        let (ox, oy) = ((shown % 8) as u32 * tile, (shown / 8) as u32 * tile);
        for y in 0..tile {
            for x in 0..tile {
                let inside = (2..tile - 2).contains(&x) && (2..tile - 2).contains(&y);
                let pixel = if inside {
                    let v = input[((y - 2) as usize) * SIDE + (x - 2) as usize];
                    let g = (128.0 + 50.0 * v).clamp(0.0, 255.0) as u8;
                    Rgb([g, g, g])
                } else {
                    frame
                };
                squares.put_pixel(ox + x, oy + y, pixel);
            }
        }
    }
    squares
        .save(dir.join("squares.png"))
        .map_err(|e| e.to_string())?;
    let mut calls = String::new();
    for i in 0..64 {
        let _ = writeln!(
            calls,
            "{} {} {:.4}",
            square_name(i),
            CLASSES[reading.board[i]],
            reading.confidence[i]
        );
    }
    std::fs::write(dir.join("calls.txt"), calls).map_err(|e| e.to_string())
}

/// A FEN placement field as classes in FEN order.
fn placement_classes(placement: &str) -> Result<[usize; 64], String> {
    let mut board = [0usize; 64];
    let mut i = 0;
    for c in placement.split(' ').next().unwrap_or("").chars() {
        match c {
            '/' => continue,
            '1'..='8' => i += c.to_digit(10).unwrap_or(0) as usize,
            _ => {
                let class = class_of(c).ok_or(format!("not a piece letter: {c}"))?;
                if i >= 64 {
                    return Err("too many squares in the placement".into());
                }
                board[i] = class;
                i += 1;
            }
        }
    }
    if i != 64 {
        return Err(format!("the placement covers {i} squares, not 64"));
    }
    Ok(board)
}

fn run_render(args: &RenderArgs) -> Result<(), String> {
    let sets = render::load_sets(&args.art, &[args.set.as_str()])?;
    let styles = match args.styles.as_str() {
        "seen" => Styles::Seen,
        "held-out" => Styles::HeldOut,
        other => return Err(format!("--styles {other}: expected seen or held-out")),
    };
    let fonts = render::load_label_fonts(&args.art, render::label_fonts(styles))?;
    let mut rng = crate::rng::SplitMix64::new(args.seed);
    let board = match &args.fen {
        Some(fen) => placement_classes(fen)?,
        None => render::random_position(&mut rng).0,
    };
    let sample = render::render(&mut rng, &sets, &fonts, styles, &board);
    sample
        .image
        .save(&args.out)
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "grid left {:.1} top {:.1} square {:.2} skew {:.2}°, {} at the bottom{}",
        sample.left,
        sample.top,
        sample.square,
        sample.skew,
        if sample.flipped { "black" } else { "white" },
        if sample.coordinates {
            ", coordinates shown"
        } else {
            ""
        }
    );
    Ok(())
}

fn run_bench(args: &BenchArgs) -> Result<(), String> {
    let bytes = std::fs::read(&args.image).map_err(|e| format!("{}: {e}", args.image.display()))?;
    let mut times = Vec::new();
    for _ in 0..args.repeat.max(1) {
        let start = Instant::now();
        let image = picture::decode(&bytes).map_err(|e| e.to_string())?;
        let nets = Ensemble::load(None)?;
        read_image(&nets, &image, Bottom::Auto, None).map_err(|e| e.to_string())?;
        times.push(1000.0 * start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    // The median and the fastest say more than the mean on a shared
    // machine, where another process's burst lands on one reading.
    println!(
        "{}: {mean:.1} ms per picture (decode, net load, find, classify, coordinates; one thread); \
         median {:.1} ms, fastest {:.1} ms of {}",
        args.image.display(),
        times[times.len() / 2],
        times[0],
        times.len()
    );
    Ok(())
}

fn run_label_templates(args: &LabelTemplatesArgs) -> Result<(), String> {
    let names: Vec<&str> = render::TRAINING_LABEL_FONTS
        .iter()
        .chain(&render::TEMPLATE_ONLY_LABEL_FONTS)
        .copied()
        .collect();
    let fonts = render::load_label_fonts(&args.art, &names)?;
    if fonts.is_empty() {
        return Err(format!(
            "{}: no _labels fonts (run arena/scan/fetch_art.sh)",
            args.art.display()
        ));
    }
    println!("# Board-coordinate templates for src/scan/labels.rs, made by");
    println!("# `tarpon scan label-templates --art ART` from the training label fonts and the");
    println!("# template-only ones, never a held-out font (arena/scan/fetch_art.sh;");
    println!("# licences in docs/scan.md).");
    println!("# FONT CHAR ASPECT CELLS (8x12 ink levels, hex, row by row)");
    for font in &fonts {
        for line in super::labels::template_lines(&font.name, &font.glyphs) {
            println!("{line}");
        }
    }
    Ok(())
}
