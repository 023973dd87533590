//! Training the square classifier on rendered boards, and measuring the whole
//! reader (finder, net, chess sense) on boards it has never seen.
//!
//! Both are seeded: board `i` of a run is rendered from `seed + i`, so a run
//! is reproduced by its command line (the thread count changes only the order
//! in which gradients are summed).

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::finder::Grid;
use super::net::{Ensemble, Net, PARAMS, SIDE};
use super::picture::{Plane, Shade};
use super::render::{self, HELD_OUT_SETS, LabelFont, PieceSet, Styles, TRAINING_SETS};
use super::sense::{self, Bottom};
use super::{EMPTY, Planes, call_squares, read_image};
use crate::rng::SplitMix64;
use crate::train::optim::{BETA1, BETA2, Moments, adam};

#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Sprite folder made by `arena/scan/fetch_art.sh`.
    #[arg(long)]
    pub art: PathBuf,
    /// Where to write the trained weights.
    #[arg(long, default_value = "scan-net.bin")]
    pub out: PathBuf,
    /// Boards to render and train on (each gives up to 64 squares).
    #[arg(long, default_value_t = 6000)]
    pub boards: usize,
    /// Stop after this many boards, keeping the learning-rate schedule of
    /// `--boards` (the checkpoint a longer run wrote at that point).
    #[arg(long)]
    pub stop_after: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    #[arg(long, default_value_t = 128)]
    pub batch: usize,
    /// Start from these weights instead of random ones.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// The plane the net reads squares from (written in its file); a
    /// resumed net keeps its own.
    #[arg(long, value_enum)]
    pub shade: Option<Shade>,
    /// A PGN file: half the boards show positions from its games (those
    /// `eval` does not measure on: every fourth game is kept for that).
    #[arg(long)]
    pub games: Option<PathBuf>,
    /// Train on these piece sets (comma-separated) instead of the default
    /// training sets, to measure what another choice of art does; the
    /// held-out sets are refused.
    #[arg(long, value_delimiter = ',')]
    pub sets: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// Sprite folder made by `arena/scan/fetch_art.sh`.
    #[arg(long)]
    pub art: PathBuf,
    /// `held-out` (sets and colours never trained on) or `seen`.
    #[arg(long, default_value = "held-out")]
    pub styles: String,
    #[arg(long, default_value_t = 2000)]
    pub boards: usize,
    /// Seeds far from training's, so no measured board was trained on.
    #[arg(long, default_value_t = 1_000_000_007)]
    pub seed: u64,
    /// Weights to measure instead of the embedded ones (one net or several back to back).
    #[arg(long)]
    pub net: Option<PathBuf>,
    /// Write every board the reader got wrong here (PNG, truth in the name), every
    /// board whose grid was found more than 3 % of a square off (`grid_…`, both grids
    /// named), and every board not found at all (`notfound_…`, the true grid named).
    #[arg(long)]
    pub failures: Option<PathBuf>,
    /// Measure on these piece sets (comma-separated) instead of the
    /// styles' own, e.g. one held-out set at a time.
    #[arg(long, value_delimiter = ',')]
    pub sets: Vec<String>,
    /// A PGN file: half the boards show positions from every fourth of its
    /// games (games 3, 7, 11, …, counted from 0; training never sees them).
    #[arg(long)]
    pub games: Option<PathBuf>,
}

/// Games `index % 4 == 3` of a `--games` file are measured on, the rest
/// trained on.
fn measured_game(index: usize) -> bool {
    index % 4 == 3
}

/// The positions of `--games` that `keep` picks (none without the option).
fn load_game_positions(
    path: Option<&Path>,
    keep: impl Fn(usize) -> bool,
) -> Result<Vec<[u8; 64]>, String> {
    let Some(path) = path else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let positions =
        render::game_positions(&text, keep).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("{}: {} positions", path.display(), positions.len());
    Ok(positions)
}

/// Boards rendered per round; their squares are shuffled together.
const ROUND: usize = 64;

/// The plane a new net reads unless `--shade` says otherwise.
const DEFAULT_SHADE: Shade = Shade::Luma;

/// One training square: the net's input and its class.
struct Example {
    input: Vec<f32>,
    class: usize,
}

/// The squares of one rendered board, cut at slightly wrong places and sizes
/// (as a finder would), most empty squares left out (they are the easy
/// majority).
fn examples(
    sets: &[PieceSet],
    fonts: &[LabelFont],
    games: &[[u8; 64]],
    shade: Shade,
    seed: u64,
) -> Vec<Example> {
    let mut rng = SplitMix64::new(seed);
    let (board, _) = render::pick_position(&mut rng, games);
    let sample = render::render(&mut rng, sets, fonts, Styles::Seen, &board);
    let picture = Plane::shaded(&sample.image, shade);
    let plane = picture.upright(sample.skew);
    let mut out = Vec::new();
    for (i, &class) in sample.displayed.iter().enumerate() {
        if class == EMPTY && rng.below(3) != 0 {
            continue;
        }
        let s = sample.square;
        let wobble = |rng: &mut SplitMix64| rng.symmetric_f32(0.04 * s);
        let left = sample.left + (i % 8) as f32 * s + wobble(&mut rng);
        let top = sample.top + (i / 8) as f32 * s + wobble(&mut rng);
        let side = s * (1.0 + rng.symmetric_f32(0.03));
        out.push(Example {
            input: plane.square_input::<SIDE>(left, top, side),
            class,
        });
    }
    out
}

/// The sets `--sets` names, or the default training sets; a held-out set
/// would make the held-out measurement meaningless, so it is refused.
fn training_set_names(chosen: &[String]) -> Result<Vec<&str>, String> {
    match chosen
        .iter()
        .find(|name| HELD_OUT_SETS.contains(&name.as_str()))
    {
        Some(name) => Err(format!("--sets {name}: a held-out set is never trained on")),
        None => Ok(chosen_or(chosen, &TRAINING_SETS)),
    }
}

/// The sets named by `--sets`, or `default` when none are.
fn chosen_or<'a>(chosen: &'a [String], default: &[&'a str]) -> Vec<&'a str> {
    if chosen.is_empty() {
        default.to_vec()
    } else {
        chosen.iter().map(String::as_str).collect()
    }
}

pub fn run_train(args: &TrainArgs) -> Result<(), String> {
    let names = training_set_names(&args.sets)?;
    let sets = render::load_sets(&args.art, &names)?;
    let fonts = render::load_label_fonts(&args.art, render::label_fonts(Styles::Seen))?;
    let games = load_game_positions(args.games.as_deref(), |i| !measured_game(i))?;
    let mut net = match &args.resume {
        Some(path) => Net::load(path)?,
        None => Net::random(args.seed, args.shade.unwrap_or(DEFAULT_SHADE)),
    };
    if let Some(shade) = args.shade.filter(|&shade| shade != net.shade) {
        return Err(format!(
            "--shade {shade:?}: the resumed net reads {:?}",
            net.shade
        ));
    }
    let shade = net.shade;
    let mut moments = Moments::zeros(PARAMS);
    let mut steps = 0u64;
    let mut shuffle = SplitMix64::new(args.seed ^ 0x5CA7);
    let start = Instant::now();
    let rounds = args.boards.div_ceil(ROUND);
    eprintln!(
        "training on {} boards of sets {names:?}, {} threads",
        args.boards,
        rayon::current_num_threads()
    );
    let last_round = args
        .stop_after
        .map_or(rounds, |b| b.div_ceil(ROUND).min(rounds));
    for round in 0..last_round {
        let first = round * ROUND;
        let mut batch_pool: Vec<Example> = (first..(first + ROUND).min(args.boards))
            .into_par_iter()
            .flat_map_iter(|b| {
                examples(
                    &sets,
                    &fonts,
                    &games,
                    shade,
                    args.seed.wrapping_mul(1_000_003).wrapping_add(b as u64),
                )
            })
            .collect();
        shuffle.shuffle(&mut batch_pool);
        // Cosine decay to a tenth of the rate over the run.
        let progress = round as f32 / rounds as f32;
        let lr = args.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        let (mut loss, mut right) = (0.0f64, 0usize);
        for batch in batch_pool.chunks(args.batch) {
            let threads = rayon::current_num_threads().max(1);
            let (grad, batch_loss, batch_right) = batch
                .par_chunks(batch.len().div_ceil(threads))
                .map(|part| {
                    let mut grad = vec![0.0f32; PARAMS];
                    let (mut loss, mut right) = (0.0f64, 0usize);
                    for example in part {
                        let trace = net.forward(&example.input);
                        let best = (0..13)
                            .max_by(|&a, &b| trace.probs[a].total_cmp(&trace.probs[b]))
                            .unwrap_or(0);
                        right += usize::from(best == example.class);
                        loss += net.backward(&trace, example.class, &mut grad) as f64;
                    }
                    (grad, loss, right)
                })
                .reduce(
                    || (vec![0.0f32; PARAMS], 0.0, 0),
                    |(mut g, l, r), (g2, l2, r2)| {
                        g.iter_mut().zip(&g2).for_each(|(a, b)| *a += b);
                        (g, l + l2, r + r2)
                    },
                );
            let scale = 1.0 / batch.len() as f32;
            let grad: Vec<f32> = grad.iter().map(|g| g * scale).collect();
            steps += 1;
            let t = steps as i32;
            let lr_t = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
            adam(&mut net.params, &grad, &mut moments.m, &mut moments.v, lr_t);
            loss += batch_loss;
            right += batch_right;
        }
        eprintln!(
            "round {}/{rounds}: {} squares, loss {:.4}, train accuracy {:.3}%, lr {lr:.5}, {:.0} s",
            round + 1,
            batch_pool.len(),
            loss / batch_pool.len() as f64,
            100.0 * right as f64 / batch_pool.len() as f64,
            start.elapsed().as_secs_f64()
        );
        std::fs::write(&args.out, net.to_bytes())
            .map_err(|e| format!("{}: {e}", args.out.display()))?;
    }
    eprintln!("wrote {}", args.out.display());
    Ok(())
}

/// What the measurement counts.
#[derive(Default, Debug, Clone, Copy)]
pub struct Tally {
    pub boards: usize,
    /// Every square right and the right way up.
    pub exact: usize,
    /// Every square right as the picture shows it, whichever way up it was
    /// read (a bare endgame has no "up" to read).
    pub exact_as_displayed: usize,
    pub squares: usize,
    pub squares_right: usize,
    pub found_within_3pct: usize,
    /// Found, but off by more than 3 % and at most 10 % of a square: close
    /// enough for a net trained on jittered squares, not for the target.
    pub found_within_10pct: usize,
    pub not_found: usize,
    pub oriented_boards: usize,
    pub oriented_right: usize,
    /// The same two, of boards showing a position from a game.
    pub oriented_game_boards: usize,
    pub oriented_game_right: usize,
    /// The same two, of scattered endgames (`render::Origin::Scattered`),
    /// which only printed coordinates can set the right way up.
    pub oriented_scattered_boards: usize,
    pub oriented_scattered_right: usize,
    /// Boards that are scattered endgames, and of them, exact.
    pub scattered_boards: usize,
    pub scattered_exact: usize,
    /// Boards (8+ pieces) showing coordinates; of them, oriented by the
    /// coordinates, and of those, rightly.
    pub labelled_boards: usize,
    pub labels_read: usize,
    pub labels_right: usize,
    /// Boards without coordinates that the reader thought had some.
    pub labels_imagined: usize,
    /// Boards drawn crooked, and of them, those whose skew was measured
    /// within a quarter of a degree.
    pub skewed_boards: usize,
    pub skew_found: usize,
    /// The same boards read through the renderer's true grid: what the net
    /// and chess sense get right when the finder is perfect.
    pub true_grid_squares_right: usize,
    pub true_grid_exact: usize,
    /// Through the true grid, as displayed: `confusion[truth][call]`.
    pub confusion: [[usize; 13]; 13],
}

impl Tally {
    fn add(self, o: Tally) -> Tally {
        Tally {
            boards: self.boards + o.boards,
            exact: self.exact + o.exact,
            exact_as_displayed: self.exact_as_displayed + o.exact_as_displayed,
            squares: self.squares + o.squares,
            squares_right: self.squares_right + o.squares_right,
            found_within_3pct: self.found_within_3pct + o.found_within_3pct,
            found_within_10pct: self.found_within_10pct + o.found_within_10pct,
            not_found: self.not_found + o.not_found,
            oriented_boards: self.oriented_boards + o.oriented_boards,
            oriented_right: self.oriented_right + o.oriented_right,
            oriented_game_boards: self.oriented_game_boards + o.oriented_game_boards,
            oriented_game_right: self.oriented_game_right + o.oriented_game_right,
            oriented_scattered_boards: self.oriented_scattered_boards + o.oriented_scattered_boards,
            oriented_scattered_right: self.oriented_scattered_right + o.oriented_scattered_right,
            scattered_boards: self.scattered_boards + o.scattered_boards,
            scattered_exact: self.scattered_exact + o.scattered_exact,
            labelled_boards: self.labelled_boards + o.labelled_boards,
            labels_read: self.labels_read + o.labels_read,
            labels_right: self.labels_right + o.labels_right,
            labels_imagined: self.labels_imagined + o.labels_imagined,
            skewed_boards: self.skewed_boards + o.skewed_boards,
            skew_found: self.skew_found + o.skew_found,
            true_grid_squares_right: self.true_grid_squares_right + o.true_grid_squares_right,
            true_grid_exact: self.true_grid_exact + o.true_grid_exact,
            confusion: std::array::from_fn(|t| {
                std::array::from_fn(|c| self.confusion[t][c] + o.confusion[t][c])
            }),
        }
    }
}

fn measure_one(
    nets: &Ensemble,
    sets: &[PieceSet],
    fonts: &[LabelFont],
    styles: Styles,
    games: &[[u8; 64]],
    seed: u64,
    failures: Option<&Path>,
) -> Tally {
    let mut rng = SplitMix64::new(seed);
    let (board, origin) = render::pick_position(&mut rng, games);
    let scattered = origin == render::Origin::Scattered;
    let sample = render::render(&mut rng, sets, fonts, styles, &board);
    // With `--failures DIR`, the picture is kept there under `name`.
    let keep = |name: String| {
        if let Some(dir) = failures {
            let _ = sample.image.save(dir.join(name));
        }
    };
    let mut tally = Tally {
        boards: 1,
        squares: 64,
        scattered_boards: usize::from(scattered),
        ..Tally::default()
    };
    let pieces = board.iter().filter(|&&c| c != EMPTY).count();
    let true_grid = Grid {
        left: sample.left,
        top: sample.top,
        square: sample.square,
        skew: 0.0,
    };
    let planes = Planes::new(&sample.image, nets, sample.skew, None);
    let true_reading = sense::read(call_squares(nets, &planes, &true_grid), Bottom::Auto, None);
    tally.true_grid_squares_right = squares_right(&true_reading, &sample.displayed);
    for (truth, call) in sample
        .displayed
        .iter()
        .zip(read_as_displayed(&true_reading))
    {
        tally.confusion[*truth][call] += 1;
    }
    tally.true_grid_exact = usize::from(true_reading.board == board);
    tally.skewed_boards = usize::from(sample.skew != 0.0);
    let Ok((_, grid, reading)) = read_image(nets, &sample.image, Bottom::Auto, None) else {
        tally.not_found = 1;
        keep(format!(
            "notfound_{seed}_true_{:.1},{:.1},{:.2},{:.2}.png",
            sample.left, sample.top, sample.square, sample.skew
        ));
        return tally;
    };
    tally.skew_found = tally.skewed_boards * usize::from((grid.skew - sample.skew).abs() < 0.25);
    let s = sample.square;
    let corner_error = [
        (grid.left - sample.left).abs(),
        (grid.top - sample.top).abs(),
        (grid.left + 8.0 * grid.square - sample.left - 8.0 * s).abs(),
        (grid.top + 8.0 * grid.square - sample.top - 8.0 * s).abs(),
    ]
    .into_iter()
    .fold(0.0f32, f32::max);
    tally.found_within_3pct = usize::from(corner_error <= 0.03 * s);
    tally.found_within_10pct = usize::from(corner_error <= 0.10 * s);
    // A grid found more than 3 % off is kept with both grids in its name
    // (left, top, square; the skew drawn and measured).
    if tally.found_within_3pct == 0 {
        keep(format!(
            "grid_{seed}_true_{:.1},{:.1},{:.2},{:.2}_found_{:.1},{:.1},{:.2},{:.2}.png",
            sample.left, sample.top, s, sample.skew, grid.left, grid.top, grid.square, grid.skew
        ));
    }
    tally.squares_right = squares_right(&reading, &sample.displayed);
    tally.exact_as_displayed = usize::from(tally.squares_right == 64);
    tally.exact = usize::from(reading.board == board);
    tally.scattered_exact = usize::from(scattered) * tally.exact;
    if pieces >= 8 {
        tally.oriented_boards = 1;
        tally.oriented_right = usize::from(reading.white_at_bottom != sample.flipped);
        if origin == render::Origin::Game {
            tally.oriented_game_boards = 1;
            tally.oriented_game_right = tally.oriented_right;
        }
        if scattered {
            tally.oriented_scattered_boards = 1;
            tally.oriented_scattered_right = tally.oriented_right;
        }
        let by_labels = reading.oriented_by == sense::OrientedBy::Coordinates;
        // A board turned the wrong way is kept with what decided it and
        // whether coordinates were drawn; so is one whose coordinates were
        // not read.
        if tally.oriented_right == 0 {
            keep(format!(
                "turned_{seed}_by_{}_coordinates_{}{}.png",
                reading.oriented_by.name(),
                if sample.coordinates { "drawn" } else { "none" },
                if scattered { "_scattered" } else { "" }
            ));
        }
        if sample.coordinates && !by_labels {
            keep(format!("coordinates_unread_{seed}.png"));
        }
        if sample.coordinates {
            tally.labelled_boards = 1;
            tally.labels_read = usize::from(by_labels);
            tally.labels_right = usize::from(by_labels) * tally.oriented_right;
        } else {
            tally.labels_imagined = usize::from(by_labels);
        }
    }
    if tally.exact == 0 {
        let truth = reading_fen_placement(&board);
        keep(format!("{seed}_{}.png", truth.replace('/', "-")));
    }
    tally
}

/// Squares compared as displayed, so an orientation error is not counted 64
/// times.
fn squares_right(reading: &sense::Reading, displayed: &[usize; 64]) -> usize {
    read_as_displayed(reading)
        .iter()
        .zip(displayed)
        .filter(|(a, b)| a == b)
        .count()
}

/// The reading's classes in the picture's order (row 0 at the top).
fn read_as_displayed(reading: &sense::Reading) -> [usize; 64] {
    std::array::from_fn(|i| reading.board[if reading.white_at_bottom { i } else { 63 - i }])
}

fn reading_fen_placement(board: &[usize; 64]) -> String {
    board
        .chunks(8)
        .map(|row| row.iter().map(|&c| super::CLASSES[c]).collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

pub fn run_eval(args: &EvalArgs) -> Result<(), String> {
    let (names, styles): (&[&str], Styles) = match args.styles.as_str() {
        "held-out" => (&HELD_OUT_SETS, Styles::HeldOut),
        "seen" => (&TRAINING_SETS, Styles::Seen),
        other => return Err(format!("--styles {other}: expected held-out or seen")),
    };
    let names = chosen_or(&args.sets, names);
    let sets = render::load_sets(&args.art, &names)?;
    let fonts = render::load_label_fonts(&args.art, render::label_fonts(styles))?;
    let nets = Ensemble::load(args.net.as_deref())?;
    let games = load_game_positions(args.games.as_deref(), measured_game)?;
    if let Some(dir) = &args.failures {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let tally = (0..args.boards)
        .into_par_iter()
        .map(|i| {
            measure_one(
                &nets,
                &sets,
                &fonts,
                styles,
                &games,
                args.seed.wrapping_add(i as u64),
                args.failures.as_deref(),
            )
        })
        .map(|t| {
            if t.skewed_boards == 1 {
                (Tally::default(), t)
            } else {
                (t, Tally::default())
            }
        })
        .reduce(
            || (Tally::default(), Tally::default()),
            |a, b| (a.0.add(b.0), a.1.add(b.1)),
        );
    let (upright, crooked) = tally;
    let part = |name: &str, t: &Tally| {
        format!(
            "{name} boards {}: squares right {:.3} %, exact {:.3} %, found within 3 % {:.3} %",
            t.boards,
            100.0 * t.squares_right as f64 / t.squares.max(1) as f64,
            100.0 * t.exact as f64 / t.boards.max(1) as f64,
            100.0 * t.found_within_3pct as f64 / t.boards.max(1) as f64
        )
    };
    let split = format!(
        "{}\n{}",
        part("upright", &upright),
        part("crooked", &crooked)
    );
    let tally = upright.add(crooked);
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "styles {} (sets {names:?}), {} boards, seed {}",
        args.styles, tally.boards, args.seed
    );
    println!(
        "squares right      {:8.3} %",
        pct(tally.squares_right, tally.squares)
    );
    println!(
        "boards exact       {:8.3} % (as displayed: {:.3} %)",
        pct(tally.exact, tally.boards),
        pct(tally.exact_as_displayed, tally.boards)
    );
    println!(
        "  not counting scattered endgames {:.3} % (of {} boards)",
        pct(
            tally.exact - tally.scattered_exact,
            tally.boards - tally.scattered_boards
        ),
        tally.boards - tally.scattered_boards
    );
    println!(
        "orientation right  {:8.3} % (of {} boards with 8+ pieces)",
        pct(tally.oriented_right, tally.oriented_boards),
        tally.oriented_boards
    );
    println!(
        "  scattered endgames {:8.3} % (of {} boards: turned round, as likely a position)",
        pct(
            tally.oriented_scattered_right,
            tally.oriented_scattered_boards
        ),
        tally.oriented_scattered_boards
    );
    println!(
        "  the others         {:8.3} % (of {} boards)",
        pct(
            tally.oriented_right - tally.oriented_scattered_right,
            tally.oriented_boards - tally.oriented_scattered_boards
        ),
        tally.oriented_boards - tally.oriented_scattered_boards
    );
    if !games.is_empty() {
        println!(
            "  of them from games {:8.3} % (of {} boards)",
            pct(tally.oriented_game_right, tally.oriented_game_boards),
            tally.oriented_game_boards
        );
    }
    println!(
        "  by coordinates    {} of {} boards showing them, {} right; {} boards without them",
        tally.labels_read, tally.labelled_boards, tally.labels_right, tally.labels_imagined
    );
    println!(
        "found within 3 %   {:8.3} %",
        pct(tally.found_within_3pct, tally.boards)
    );
    println!(
        "found within 10 %  {:8.3} % (not found {:.3} %)",
        pct(tally.found_within_10pct, tally.boards),
        pct(tally.not_found, tally.boards)
    );
    println!(
        "skew measured      {} of {} crooked boards (within 0.25°)",
        tally.skew_found, tally.skewed_boards
    );
    println!("{split}");
    println!(
        "with the true grid: squares right {:.3} %, boards exact {:.3} %",
        pct(tally.true_grid_squares_right, tally.squares),
        pct(tally.true_grid_exact, tally.boards)
    );
    let mut mistakes: Vec<(usize, usize, usize)> = (0..13)
        .flat_map(|t| (0..13).map(move |c| (t, c)))
        .filter(|&(t, c)| t != c && tally.confusion[t][c] > 0)
        .map(|(t, c)| (tally.confusion[t][c], t, c))
        .collect();
    mistakes.sort_unstable_by(|a, b| b.cmp(a));
    let wrong: usize = mistakes.iter().map(|m| m.0).sum();
    let listed: Vec<String> = mistakes
        .iter()
        .take(12)
        .map(|&(n, t, c)| format!("{}→{} {n}", super::CLASSES[t], super::CLASSES[c]))
        .collect();
    println!(
        "true grid, commonest of {wrong} wrong squares (truth→call): {}",
        listed.join(", ")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_sets_default_and_chosen_but_never_held_out() {
        assert_eq!(training_set_names(&[]).unwrap(), TRAINING_SETS.to_vec());
        let chosen = vec!["cburnett".to_string(), "spatial".to_string()];
        assert_eq!(
            training_set_names(&chosen).unwrap(),
            ["cburnett", "spatial"]
        );
        let sneaky = vec!["merida".to_string(), HELD_OUT_SETS[1].to_string()];
        let error = training_set_names(&sneaky).unwrap_err();
        assert!(error.contains(HELD_OUT_SETS[1]), "{error}");
    }
}
