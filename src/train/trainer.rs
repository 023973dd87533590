//! `tarpon train`: fits a [`Model`] to scored positions on the CPU.
//!
//! Each batch is split into one slice per thread. A thread runs forward and
//! backward over its positions, adds the dense gradients to its own copy and
//! the transformer gradients to its own sparse buffer (only the rows its
//! positions activate). Then Adam updates the dense layers, and a lazy
//! ("sparse") Adam updates only the transformer rows some thread touched:
//! an input row's moments are left alone in batches where it is inactive.
//!
//! The loss is the squared distance between sigmoid(eval / scale) and the
//! target `λ · sigmoid(score / scale) + (1 − λ) · result`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::checkpoint::Checkpoint;
use super::data::{PackedPosition, read_records};
use super::model::{ActiveRows, DenseGrads, Model, Pass};
use super::optim::{Optimiser, SparseGrad};
use crate::eval::nnue::features::KingBuckets;
use crate::eval::nnue::network::{Head, MAX_BUCKETS};
use crate::eval::nnue::{FeatureSet, Kernels, Network};
use crate::rng::SplitMix64;

/// Architectures selectable on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Arch {
    /// HalfKP inputs, clipped ReLU, dense layers 2N -> H1 -> H2 -> 1.
    #[value(name = "halfkp")]
    HalfKP,
    /// HalfKAv2_hm inputs, clipped ReLU, dense layers 2N -> H1 -> H2 -> 1.
    #[value(name = "halfkav2_hm")]
    HalfKAv2Hm,
    /// 768 inputs per king bucket (--king-buckets), mirrored; squared
    /// clipped ReLU straight into the output, 2N -> 1 (--layers unused).
    #[value(name = "chess768")]
    Chess768,
}

/// Arguments of `tarpon train`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// Training data written by `tarpon datagen` (repeat for several files).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the net (HalfKP: Stockfish 12 `.nnue` layout; HalfKAv2_hm
    /// and Chess768: tarpon's format). Rewritten after every epoch (with `--keep-best`,
    /// after every epoch that improves).
    #[arg(long)]
    pub out: PathBuf,
    /// Architecture: feature set and head. Default: the `--init-from` net's
    /// (the checkpoint's with `--resume`), else halfkav2_hm.
    #[arg(long, value_enum)]
    pub arch: Option<Arch>,
    /// King buckets of `--arch chess768`: `single` (one bucket, plain 768
    /// inputs mirrored), `ranks4` (the own king on rank 1, 2, 3–4 or 5–8,
    /// seen from its side), 8 comma-separated buckets by that rank
    /// (`ranks4` = `0,1,2,2,3,3,3,3`) or 32 for every square of files e–h
    /// after the mirror (index 4 × rank + file − 4). The table is stored in
    /// the net, so the engine needs no change for a new layout. Default: the
    /// starting net's, else ranks4. With `--init-from` a one-bucket net,
    /// its weights are shared by every bucket at the start; a bucketed net
    /// can be split into a layout that refines its own (each new bucket
    /// starts as the bucket it splits).
    #[arg(long, value_parser = KingBuckets::from_name)]
    pub king_buckets: Option<KingBuckets>,
    /// Feature-transformer neurons per perspective (a multiple of 16).
    /// Default: the starting net's, else 256. Larger than an `--init-from`
    /// net's, it grows that net: the new neurons start read with weight zero,
    /// so the output is unchanged at first.
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Sizes of the two dense hidden layers (not for `--arch chess768`).
    #[arg(long, num_args = 2, value_names = ["H1", "H2"], default_values_t = [32, 32])]
    pub layers: Vec<usize>,
    /// Output buckets: separate dense stacks chosen by the number of pieces
    /// on the board. With `--init-from` a one-bucket net, its stack is
    /// copied into every bucket. Default: the starting net's, else 1.
    #[arg(long)]
    pub buckets: Option<usize>,
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Adam learning rate.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f32,
    /// Learning rate multiplier applied after each epoch.
    #[arg(long, default_value_t = 0.9)]
    pub gamma: f32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Weight of the search score in the target (1 − λ goes to the game
    /// result). On tarpon's data 0.75 lost badly to 1.0 early on; 0.9 as a
    /// fine-tune on 15 M positions made generation 21 (nets/LEDGER.md).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f32,
    /// Centipawns per unit inside the sigmoid (eval and score alike).
    #[arg(long, default_value_t = 400.0)]
    pub scale: f32,
    /// Validation data kept apart from the training data, such as a datagen
    /// run of another seed: whole unseen games. With it every position of
    /// `--data` is trained on and `--val-split` is ignored. The random split
    /// leaves each held-out position's neighbours from the same game in
    /// training, and that flatters the loss (nets/LEDGER.md, generation 7).
    #[arg(long)]
    pub val_data: Vec<PathBuf>,
    /// Fraction of the positions held out for the validation loss.
    #[arg(long, default_value_t = 0.05)]
    pub val_split: f64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed for initialisation, the validation split and shuffling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Checkpoint file (float weights and optimiser state), written after
    /// every epoch. Default: the output path with `.ckpt` appended.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint instead of starting afresh.
    #[arg(long)]
    pub resume: bool,
    /// Start from the weights of an existing net (fine-tuning a generation).
    #[arg(long, conflicts_with = "resume")]
    pub init_from: Option<PathBuf>,
    /// Quantisation-aware training: the loss is taken on the output of the
    /// quantised net (the engine's integer arithmetic), with gradients passed
    /// straight through the rounding to the float weights.
    #[arg(long)]
    pub quantise_aware: bool,
    /// Write the net only when it lowers the validation loss (the quantised
    /// one with `--quantise-aware`), starting from the loss of the net the
    /// run starts with: `--out` ends as the best net seen, not the last
    /// epoch's. Fine-tunes overfit, and then the validation loss turns up
    /// while the training loss keeps falling (nets/LEDGER.md, generation 7).
    /// The checkpoint still follows every epoch.
    #[arg(long, conflicts_with = "resume")]
    pub keep_best: bool,
    /// Drop training positions whose stored search score and the starting
    /// net's static evaluation (`--init-from`) differ by more than this many
    /// centipawns: where the search saw a tactic the evaluation cannot, the
    /// score teaches the net noise. The validation data is kept whole.
    #[arg(long, requires = "init_from")]
    pub max_disagreement: Option<f32>,
    /// Hide the progress bar (logs still get one line per epoch).
    #[arg(long)]
    pub quiet: bool,
}

impl TrainArgs {
    /// `--arch`, or its default.
    pub fn arch(&self) -> Arch {
        self.arch.unwrap_or(Arch::HalfKAv2Hm)
    }

    /// `--hidden`, or its default.
    pub fn hidden(&self) -> usize {
        self.hidden.unwrap_or(256)
    }

    /// `--buckets`, or its default.
    pub fn buckets(&self) -> usize {
        self.buckets.unwrap_or(1)
    }

    /// The feature set `--arch` (and `--king-buckets`) name.
    pub fn features(&self) -> FeatureSet {
        match self.arch() {
            Arch::HalfKP => FeatureSet::HalfKP,
            Arch::HalfKAv2Hm => FeatureSet::HalfKAv2Hm,
            Arch::Chess768 => {
                FeatureSet::Chess768(self.king_buckets.unwrap_or(KingBuckets::RANKS4))
            }
        }
    }

    /// The architecture options left out filled in from the net the run
    /// starts from (the `--init-from` net, or the checkpoint with `--resume`),
    /// so that fine-tuning the default net needs no options that restate it.
    /// Options given stay as given; `initial_state` refuses a mismatch.
    fn with_starting_architecture(&self, start: &Start) -> TrainArgs {
        let mut args = self.clone();
        if let Some(model) = start.model() {
            let (arch, king_buckets) = match model.features {
                FeatureSet::HalfKP => (Arch::HalfKP, None),
                FeatureSet::HalfKAv2Hm => (Arch::HalfKAv2Hm, None),
                FeatureSet::Chess768(buckets) => (Arch::Chess768, Some(buckets)),
            };
            args.arch = args.arch.or(Some(arch));
            args.king_buckets = args.king_buckets.or(king_buckets);
            args.hidden = args.hidden.or(Some(model.half_dims));
            args.buckets = args.buckets.or(Some(model.buckets()));
        }
        args
    }

    /// The head `--arch` names.
    pub fn head(&self) -> Head {
        match self.arch() {
            Arch::HalfKP | Arch::HalfKAv2Hm => Head::Plain,
            Arch::Chess768 => Head::Screlu,
        }
    }

    fn checkpoint_path(&self) -> PathBuf {
        self.checkpoint.clone().unwrap_or_else(|| {
            let mut p = self.out.clone().into_os_string();
            p.push(".ckpt");
            PathBuf::from(p)
        })
    }
}

/// What a finished run reports.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub train_positions: usize,
    pub val_positions: usize,
    /// Validation loss before the first step of this run.
    pub initial_val_loss: f64,
    /// Per epoch: (training loss, validation loss, positions per second).
    pub epochs: Vec<(f64, f64, f64)>,
    /// The epoch whose net is in `--out` (0: the starting net, which only
    /// `--keep-best` can leave there).
    pub written_epoch: usize,
    pub model: Model,
}

/// `tarpon train`.
pub fn run(args: TrainArgs) -> ExitCode {
    match train(&args) {
        Ok(report) => {
            println!(
                "trained on {} positions ({} held out); net written to {}",
                report.train_positions,
                report.val_positions,
                args.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Trains as `args` say, writing the net and checkpoint after every epoch.
pub fn train(args: &TrainArgs) -> Result<TrainReport, String> {
    let start = Start::load(args)?;
    let args = &args.with_starting_architecture(&start);
    validate(args)?;
    let threads = args.threads.unwrap_or_else(num_cores);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    pool.install(|| train_in_pool(args, start))
}

fn num_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn validate(args: &TrainArgs) -> Result<(), String> {
    if args.hidden() == 0 || !args.hidden().is_multiple_of(16) || args.hidden() > 4096 {
        return Err(format!(
            "--hidden {} must be a positive multiple of 16, at most 4096",
            args.hidden()
        ));
    }
    if args.layers.len() != 2 || args.layers.iter().any(|&l| l == 0 || l > 1024) {
        return Err("--layers takes two sizes between 1 and 1024".into());
    }
    if args.buckets() == 0 || args.buckets() > MAX_BUCKETS {
        return Err(format!(
            "--buckets {} must be between 1 and {MAX_BUCKETS}",
            args.buckets()
        ));
    }
    if args.batch == 0 {
        return Err("--batch must be positive".into());
    }
    if !(0.0..1.0).contains(&args.val_split) {
        return Err(format!("--val-split {} must be in [0, 1)", args.val_split));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} must be in [0, 1]", args.lambda));
    }
    let positive = |x: f32| x > 0.0 && x.is_finite();
    if !positive(args.lr) || !positive(args.scale) || !positive(args.gamma) {
        return Err("--lr, --scale and --gamma must be positive".into());
    }
    if args.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    Ok(())
}

/// Every record of `paths`, in order.
fn read_files(paths: &[PathBuf]) -> Result<Vec<PackedPosition>, String> {
    let mut all = Vec::new();
    for path in paths {
        let (records, dropped) = read_records(path).map_err(|e| e.to_string())?;
        if dropped > 0 {
            eprintln!(
                "note: {}: ignoring a partial record of {dropped} bytes at the end",
                path.display()
            );
        }
        all.extend(records);
    }
    Ok(all)
}

/// The training and validation positions: `--val-data` when given, else a
/// split of the training files (a seeded shuffle, so the split is the same
/// on resume).
fn load_data(args: &TrainArgs) -> Result<(Vec<PackedPosition>, Vec<PackedPosition>), String> {
    let mut all = read_files(&args.data)?;
    if all.is_empty() {
        return Err("no training positions in the data files".into());
    }
    if !args.val_data.is_empty() {
        let val = read_files(&args.val_data)?;
        if val.is_empty() {
            return Err("no positions in the --val-data files".into());
        }
        return Ok((all, val));
    }
    SplitMix64::new(args.seed ^ 0x5EED_DA7A).shuffle(&mut all);
    let val = ((all.len() as f64 * args.val_split).round() as usize).min(all.len() - 1);
    let train = all.split_off(val);
    Ok((train, all))
}

/// The positions whose stored score is within `limit` centipawns of the
/// model's static evaluation, in their order.
fn drop_disagreements(
    model: &Model,
    positions: Vec<PackedPosition>,
    limit: f32,
) -> Result<Vec<PackedPosition>, String> {
    if !(limit >= 0.0 && limit.is_finite()) {
        return Err(format!(
            "--max-disagreement {limit} must be a finite number of centipawns, at least 0"
        ));
    }
    let keep = positions
        .par_iter()
        .map(|packed| {
            let pos = packed.unpack().map_err(|e| e.to_string())?;
            let eval = model.evaluate(&pos.board, pos.turn);
            Ok((eval - f32::from(pos.score)).abs() <= limit)
        })
        .collect::<Result<Vec<bool>, String>>()?;
    Ok(positions
        .into_iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(p))
        .collect())
}

/// What a run starts from, read once: its architecture fills in the options
/// left out before the run checks them against it.
enum Start {
    /// `--resume`: the checkpoint, optimiser state included.
    Checkpoint(Checkpoint),
    /// `--init-from`: the net as a model, and the net's file and architecture
    /// for messages.
    Net {
        model: Model,
        path: PathBuf,
        architecture: String,
    },
    /// Neither: random weights.
    Fresh,
}

impl Start {
    fn load(args: &TrainArgs) -> Result<Start, String> {
        if args.resume {
            let path = args.checkpoint_path();
            let ck = Checkpoint::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            return Ok(Start::Checkpoint(ck));
        }
        let Some(path) = &args.init_from else {
            return Ok(Start::Fresh);
        };
        let net = Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let model = Model::from_network(&net).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Start::Net {
            model,
            path: path.clone(),
            architecture: net.architecture(),
        })
    }

    fn model(&self) -> Option<&Model> {
        match self {
            Start::Checkpoint(ck) => Some(&ck.model),
            Start::Net { model, .. } => Some(model),
            Start::Fresh => None,
        }
    }
}

fn initial_state(args: &TrainArgs, start: Start) -> Result<Checkpoint, String> {
    let model = match start {
        Start::Checkpoint(ck) => {
            let checkpoint = args.checkpoint_path();
            if ck.model.features != args.features()
                || ck.model.head != args.head()
                || ck.model.half_dims != args.hidden()
                || ck.model.buckets() != args.buckets()
            {
                return Err(format!(
                    "{} holds a {} net with {} neurons and {} output buckets, not --arch {:?} --hidden {} --buckets {} (and --king-buckets)",
                    checkpoint.display(),
                    describe(ck.model.features),
                    ck.model.half_dims,
                    ck.model.buckets(),
                    args.arch(),
                    args.hidden(),
                    args.buckets()
                ));
            }
            return Ok(ck);
        }
        Start::Net {
            mut model,
            path,
            architecture,
        } => {
            let mismatch = || {
                format!(
                    "{} is a {architecture} net; pass the matching --arch, --hidden and --buckets (or --buckets N to split a one-bucket net, --king-buckets to spread a Chess768 net over finer king buckets, a larger --hidden to grow it)",
                    path.display(),
                )
            };
            if let FeatureSet::Chess768(buckets) = args.features()
                && model.features != args.features()
            {
                model = model.with_king_buckets(buckets).ok_or_else(mismatch)?;
            }
            if model.half_dims < args.hidden() {
                model = model
                    .with_hidden(args.hidden(), args.seed)
                    .ok_or_else(mismatch)?;
            }
            if model.features != args.features()
                || model.head != args.head()
                || model.half_dims != args.hidden()
            {
                return Err(mismatch());
            }
            if model.buckets() == args.buckets() {
                model
            } else {
                model.with_buckets(args.buckets()).ok_or_else(mismatch)?
            }
        }
        Start::Fresh => match args.head() {
            Head::Screlu => Model::random_screlu(args.features(), args.hidden(), args.seed),
            Head::Plain | Head::Stockfish15 => Model::random(
                args.features(),
                args.hidden(),
                [args.layers[0], args.layers[1]],
                args.seed,
            ),
        }
        .with_buckets(args.buckets())
        .expect("a fresh model has one bucket"),
    };
    Ok(Checkpoint {
        optimiser: Optimiser::new(&model),
        model,
        epochs_done: 0,
        lr: args.lr,
    })
}

fn train_in_pool(args: &TrainArgs, start: Start) -> Result<TrainReport, String> {
    let (mut train_set, val_set) = load_data(args)?;
    let mut state = initial_state(args, start)?;
    if let Some(limit) = args.max_disagreement {
        let before = train_set.len();
        train_set = drop_disagreements(&state.model, train_set, limit)?;
        println!(
            "--max-disagreement {limit}: kept {} of {before} training positions",
            train_set.len()
        );
        if train_set.is_empty() {
            return Err("--max-disagreement left no training positions".into());
        }
    }
    let threads = rayon::current_num_threads();
    let mut sparse = (0..threads)
        .map(|_| SparseGrad::new(&state.model))
        .collect::<Vec<_>>();
    let loss = Loss {
        lambda: args.lambda,
        scale: args.scale,
    };
    println!(
        "training {} ({} parameters) on {} positions, validating on {}, {} threads",
        state
            .model
            .quantise(String::new())
            .map_err(|e| e.to_string())?
            .architecture(),
        state.model.parameter_count(),
        train_set.len(),
        val_set.len(),
        threads
    );
    let (initial_val_loss, initial_quantised) = validation_losses(&state.model, &val_set, loss)?;
    println!(
        "validation loss before training: {initial_val_loss:.6} (quantised {initial_quantised:.6})"
    );
    let mut written_epoch = 0;
    let mut best_val_loss = f64::INFINITY;
    if args.keep_best {
        best_val_loss = judged_loss(args, initial_val_loss, initial_quantised);
        println!("validation loss to beat (--keep-best): {best_val_loss:.6}");
        save_net(args, &state)?;
    }
    let mut order: Vec<u32> = (0..train_set.len() as u32).collect();
    let mut epochs = Vec::new();
    while state.epochs_done < args.epochs {
        let epoch = state.epochs_done + 1;
        // Each epoch's order depends only on the seed and the epoch number,
        // so a resumed run sees the same batches as an uninterrupted one.
        order
            .iter_mut()
            .enumerate()
            .for_each(|(i, o)| *o = i as u32);
        SplitMix64::new(
            args.seed
                .wrapping_mul(0x9E37_79B9)
                .wrapping_add(epoch as u64),
        )
        .shuffle(&mut order);
        let bar = progress_bar(train_set.len() as u64, args.quiet);
        let start = Instant::now();
        let mut loss_sum = 0.0f64;
        let mut seen = 0usize;
        for batch in order.chunks(args.batch) {
            let quantised = match args.quantise_aware {
                true => Some(quantise(&state.model)?),
                false => None,
            };
            loss_sum += train_batch(
                &mut state,
                &mut sparse,
                &train_set,
                batch,
                loss,
                quantised.as_ref(),
            );
            seen += batch.len();
            bar.inc(batch.len() as u64);
            let rate = seen as f64 / start.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "loss {:.6}  {:.0} pos/s",
                loss_sum / seen as f64,
                rate
            ));
        }
        bar.finish_and_clear();
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        let train_loss = loss_sum / train_set.len() as f64;
        let (float_val_loss, quantised_val_loss) = validation_losses(&state.model, &val_set, loss)?;
        let val_loss = judged_loss(args, float_val_loss, quantised_val_loss);
        let rate = train_set.len() as f64 / secs;
        println!(
            "epoch {epoch}/{}: train loss {train_loss:.6}  val loss {float_val_loss:.6} (quantised {quantised_val_loss:.6})  lr {:.2e}  {rate:.0} pos/s",
            args.epochs, state.lr
        );
        epochs.push((train_loss, val_loss, rate));
        state.epochs_done = epoch;
        state.lr *= args.gamma;
        if !args.keep_best || val_loss < best_val_loss {
            best_val_loss = val_loss;
            written_epoch = epoch;
            save_net(args, &state)?;
        }
        write_atomically(&args.checkpoint_path(), &state.to_bytes())?;
    }
    if args.keep_best {
        println!(
            "kept the net of epoch {written_epoch} (validation loss {best_val_loss:.6}; 0 is the starting net)"
        );
    }
    if let Some(stats) = quantisation_error(&state.model, &val_set) {
        println!(
            "quantised vs float on {} held-out positions: mean |diff| {:.2} cp, max {:.1} cp",
            stats.0, stats.1, stats.2
        );
    }
    Ok(TrainReport {
        train_positions: train_set.len(),
        val_positions: val_set.len(),
        initial_val_loss,
        epochs,
        written_epoch,
        model: state.model,
    })
}

/// The validation loss of the float model and of its quantised export.
fn validation_losses(
    model: &Model,
    val_set: &[PackedPosition],
    loss: Loss,
) -> Result<(f64, f64), String> {
    let float = validation_loss(model, None, val_set, loss);
    let quantised = validation_loss(model, Some(&quantise(model)?), val_set, loss);
    Ok((float, quantised))
}

/// The validation loss a run is judged by (and `--keep-best` keeps the best
/// of): the one it optimises, the quantised net's with `--quantise-aware`.
fn judged_loss(args: &TrainArgs, float: f64, quantised: f64) -> f64 {
    if args.quantise_aware {
        quantised
    } else {
        float
    }
}

fn progress_bar(len: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn save_net(args: &TrainArgs, state: &Checkpoint) -> Result<(), String> {
    let description = format!(
        "tarpon {} net, {} epochs, lambda {}, scale {}",
        describe(state.model.features),
        state.epochs_done,
        args.lambda,
        args.scale
    );
    let net = state
        .model
        .quantise(description)
        .map_err(|e| e.to_string())?;
    write_atomically(&args.out, &net.to_bytes())
}

/// A feature set for people: `HalfKAv2Hm`, `Chess768 (ranks4 king buckets)`.
fn describe(features: FeatureSet) -> String {
    match features {
        FeatureSet::Chess768(buckets) => format!(
            "Chess768 ({} king buckets)",
            buckets
                .name()
                .map_or_else(|| buckets.count().to_string(), str::to_string)
        ),
        other => format!("{other:?}"),
    }
}

/// Writes to a temporary file and renames it, so a killed run never leaves a
/// half-written net or checkpoint behind.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.to_path_buf().into_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The loss and its derivative.
#[derive(Clone, Copy, Debug)]
pub struct Loss {
    pub lambda: f32,
    /// Centipawns per sigmoid unit.
    pub scale: f32,
}

/// The model's export without a description (for quantisation-aware passes).
fn quantise(model: &Model) -> Result<Network, String> {
    model.quantise(String::new()).map_err(|e| e.to_string())
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Loss {
    fn target(&self, pos: &PackedPosition) -> f32 {
        self.lambda * sigmoid(f32::from(pos.score()) / self.scale)
            + (1.0 - self.lambda) * pos.result().score()
    }

    /// (loss, d loss / d centipawns) for an evaluation in centipawns.
    fn eval(&self, cp: f32, pos: &PackedPosition) -> (f32, f32) {
        let p = sigmoid(cp / self.scale);
        let diff = p - self.target(pos);
        (diff * diff, 2.0 * diff * p * (1.0 - p) / self.scale)
    }
}

/// Per-thread buffers for forward and backward over a slice of a batch.
struct Worker {
    pass: Pass,
    dense: DenseGrads,
    us: ActiveRows,
    them: ActiveRows,
    d_acc: Vec<f32>,
}

impl Worker {
    fn new(model: &Model) -> Worker {
        Worker {
            pass: Pass::new(model),
            dense: DenseGrads::zeros(model),
            us: Vec::with_capacity(64),
            them: Vec::with_capacity(64),
            d_acc: vec![0.0; 2 * model.half_dims],
        }
    }

    fn rows(&mut self, model: &Model, pos: &PackedPosition) {
        let turn = pos.turn();
        model.active_rows(turn, pos.pieces(), &mut self.us);
        model.active_rows(!turn, pos.pieces(), &mut self.them);
    }

    /// The model's evaluation of `pos` in centipawns, in float arithmetic
    /// or, given the quantised export, in the engine's.
    fn forward(&mut self, model: &Model, quantised: Option<&Network>, pos: &PackedPosition) -> f32 {
        self.rows(model, pos);
        let bucket = model.bucket_for(pos.pieces().count());
        let output = match quantised {
            Some(net) => self
                .pass
                .forward_quantised(net, bucket, &self.us, &self.them),
            None => self.pass.forward(model, bucket, &self.us, &self.them),
        };
        output * model.cp_per_unit()
    }
}

/// One optimiser step; returns the summed loss of the batch.
fn train_batch(
    state: &mut Checkpoint,
    sparse: &mut [SparseGrad],
    data: &[PackedPosition],
    batch: &[u32],
    loss: Loss,
    quantised: Option<&Network>,
) -> f64 {
    let model = &state.model;
    let n = model.half_dims;
    let per_thread = batch.len().div_ceil(sparse.len());
    let scale = 1.0 / batch.len() as f32;
    let results: Vec<(f64, DenseGrads)> = sparse
        .par_iter_mut()
        .zip(batch.par_chunks(per_thread))
        .map(|(grad, slice)| {
            let mut w = Worker::new(model);
            let mut total = 0.0f64;
            for &i in slice {
                let pos = &data[i as usize];
                let cp = w.forward(model, quantised, pos);
                let (l, d_cp) = loss.eval(cp, pos);
                total += f64::from(l);
                let d_out = d_cp * model.cp_per_unit() * scale;
                w.pass.backward(model, d_out, &mut w.dense, &mut w.d_acc);
                grad.add(&w.us, &w.d_acc[..n]);
                grad.add(&w.them, &w.d_acc[n..]);
            }
            (total, w.dense)
        })
        .collect();
    let mut total = 0.0;
    let mut dense = DenseGrads::zeros(model);
    for (l, g) in &results {
        total += l;
        dense.add(g);
    }
    state
        .optimiser
        .step(&mut state.model, &dense, sparse, state.lr);
    state.model.clip();
    for g in sparse.iter_mut() {
        g.clear(n);
    }
    total
}

/// Mean loss over `data` (0 when empty) of the float model or, given it, of
/// its quantised export.
pub fn validation_loss(
    model: &Model,
    quantised: Option<&Network>,
    data: &[PackedPosition],
    loss: Loss,
) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let total: f64 = data
        .par_chunks(1024)
        .map(|chunk| {
            let mut w = Worker::new(model);
            chunk
                .iter()
                .map(|pos| {
                    let out = w.forward(model, quantised, pos);
                    f64::from(loss.eval(out, pos).0)
                })
                .sum::<f64>()
        })
        .sum();
    total / data.len() as f64
}

/// How far the quantised net strays from the float model on up to 2000 of
/// `data`'s positions: (count, mean |diff| cp, max |diff| cp).
pub fn quantisation_error(model: &Model, data: &[PackedPosition]) -> Option<(usize, f64, f64)> {
    let net = model.quantise(String::new()).ok()?;
    let sample = &data[..data.len().min(2000)];
    if sample.is_empty() {
        return None;
    }
    let (mut sum, mut max) = (0.0f64, 0.0f64);
    for pos in sample {
        let p = pos.unpack().ok()?;
        let float = f64::from(model.evaluate(&p.board, p.turn));
        let quant = f64::from(net.centipawns(net.raw_output_board(
            Kernels::scalar(),
            &crate::position::Board::from_shakmaty(&p.board),
            p.turn,
        )));
        let d = (float - quant).abs();
        sum += d;
        max = max.max(d);
    }
    Some((sample.len(), sum / sample.len() as f64, max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_scratch::ScratchDir;
    use crate::train::data::{GameResult, RecordWriter, TrainingPosition};
    use shakmaty::{Board, Chess, Color, Position as _, Role};

    /// Pawn 1, minor 3, rook 5, queen 9 (centipawns), white minus black.
    fn material(board: &Board) -> i32 {
        let value = |r: Role| match r {
            Role::Pawn => 100,
            Role::Knight | Role::Bishop => 300,
            Role::Rook => 500,
            Role::Queen => 900,
            Role::King => 0,
        };
        board
            .iter()
            .map(|(_, p)| {
                if p.color == Color::White {
                    value(p.role)
                } else {
                    -value(p.role)
                }
            })
            .sum()
    }

    /// Positions from random games, labelled with material only (side to move).
    fn material_positions(count: usize, seed: u64) -> Vec<TrainingPosition> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let mut pos = Chess::default();
            let plies = 8 + rng.below(120);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures half the time so material gets unbalanced.
                let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && rng.below(2) == 0 {
                    *captures[rng.below(captures.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.play_unchecked(m);
            }
            let white = material(pos.board());
            let stm = if pos.turn() == Color::White {
                white
            } else {
                -white
            };
            let result = match stm {
                s if s >= 200 => GameResult::Win,
                s if s <= -200 => GameResult::Loss,
                _ => GameResult::Draw,
            };
            out.push(TrainingPosition {
                board: pos.board().clone(),
                turn: pos.turn(),
                score: stm as i16,
                result,
                halfmoves: 0,
                fullmoves: 1,
            });
        }
        out
    }

    fn write_data(path: &Path, positions: &[TrainingPosition]) {
        let _ = std::fs::remove_file(path);
        let mut w = RecordWriter::append(path).unwrap();
        for p in positions {
            w.write(&PackedPosition::pack(p).unwrap()).unwrap();
        }
    }

    /// `tarpon train`'s defaults (from its own parser, so they cannot drift
    /// from `--help`), quiet, shrunk to a net that trains in seconds.
    fn small_args(dir: &Path, arch: Arch) -> TrainArgs {
        #[derive(clap::Parser)]
        struct Command {
            #[command(flatten)]
            args: TrainArgs,
        }
        let data = dir.join("data.bin");
        let out = dir.join("net.nnue");
        let argv = [
            "train".as_ref(),
            "--quiet".as_ref(),
            "--data".as_ref(),
            data.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ];
        let mut args = <Command as clap::Parser>::parse_from(argv).args;
        args.arch = Some(arch);
        args.hidden = Some(32);
        args.layers = vec![32, 32];
        args.epochs = 12;
        args.batch = 256;
        args.lr = 4e-3;
        args.gamma = 0.85;
        args.lambda = 1.0;
        args.val_split = 0.1;
        args.threads = Some(2);
        args
    }

    /// Every architecture `--arch` offers.
    const ARCHES: [Arch; 3] = [Arch::HalfKP, Arch::HalfKAv2Hm, Arch::Chess768];

    /// Trains on material labels once per architecture (Chess768 with the
    /// default `ranks4` king buckets); tests share the report and the net
    /// `train` wrote, read back so that its scratch folder can go at once
    /// (a folder kept in a static would never be removed).
    fn trained(arch: Arch) -> &'static (TrainReport, Network) {
        static NETS: [std::sync::OnceLock<(TrainReport, Network)>; ARCHES.len()] =
            [const { std::sync::OnceLock::new() }; ARCHES.len()];
        NETS[arch as usize].get_or_init(|| {
            let dir = ScratchDir::new(&format!("train-{arch:?}"));
            write_data(&dir.join("data.bin"), &material_positions(6000, 11));
            let args = small_args(&dir, arch);
            let report = train(&args).unwrap();
            (report, Network::load(&args.out).unwrap())
        })
    }

    /// The exported net (what `written_net_is_the_quantised_model` checks
    /// `train` wrote).
    fn exported(model: &Model) -> Network {
        model.quantise(String::new()).unwrap()
    }

    /// `--max-disagreement` keeps exactly the positions whose score lies
    /// within the limit of the starting net's evaluation, in order.
    #[test]
    fn disagreeing_positions_are_dropped() {
        let model = Model::from_network(&trained(Arch::HalfKAv2Hm).1).unwrap();
        let positions: Vec<PackedPosition> = material_positions(200, 5)
            .into_iter()
            .enumerate()
            .map(|(i, mut pos)| {
                let eval = model.evaluate(&pos.board, pos.turn).round();
                let offset = if i % 2 == 0 { 0.0 } else { 500.0 };
                pos.score = (eval + offset).clamp(-30000.0, 30000.0) as i16;
                PackedPosition::pack(&pos).unwrap()
            })
            .collect();
        let agreeing: Vec<PackedPosition> = positions.iter().step_by(2).cloned().collect();
        let kept = drop_disagreements(&model, positions.clone(), 100.0).unwrap();
        assert_eq!(kept, agreeing);
        assert_eq!(
            drop_disagreements(&model, positions.clone(), 1000.0).unwrap(),
            positions
        );
        assert!(drop_disagreements(&model, positions, -1.0).is_err());
    }

    /// `--val-data` validates on exactly those files and trains on every
    /// position of `--data`.
    #[test]
    fn separate_validation_files_replace_the_split() {
        let dir = ScratchDir::new("train-val-data");
        let (train_file, val_file) = (dir.join("train.bin"), dir.join("val.bin"));
        write_data(&train_file, &material_positions(300, 3));
        write_data(&val_file, &material_positions(70, 4));
        let mut args = small_args(&dir, Arch::HalfKAv2Hm);
        args.data = vec![train_file];
        let (train, val) = load_data(&args).unwrap();
        assert_eq!((train.len(), val.len()), (270, 30));
        args.val_data = vec![val_file];
        let (train, val) = load_data(&args).unwrap();
        assert_eq!((train.len(), val.len()), (300, 70));
    }

    /// `--keep-best` leaves the net with the lowest validation loss in
    /// `--out` when later epochs get worse (here the learning rate grows
    /// thirtyfold every epoch).
    #[test]
    fn keep_best_writes_the_best_epochs_net() {
        let dir = ScratchDir::new("train-keep-best");
        write_data(&dir.join("data.bin"), &material_positions(2000, 5));
        let mut args = small_args(&dir, Arch::HalfKAv2Hm);
        args.epochs = 4;
        args.gamma = 30.0;
        args.quantise_aware = true;
        args.keep_best = true;
        let report = train(&args).unwrap();
        let losses: Vec<f64> = report.epochs.iter().map(|e| e.1).collect();
        let best = (0..losses.len())
            .min_by(|&a, &b| losses[a].total_cmp(&losses[b]))
            .unwrap();
        assert!(
            best + 1 < losses.len(),
            "the growing learning rate did not spoil the last epoch: {losses:?}"
        );
        assert_eq!(report.written_epoch, best + 1, "{losses:?}");
        let written = Network::load(&args.out).unwrap();
        let (_, val) = load_data(&args).unwrap();
        let loss = Loss {
            lambda: args.lambda,
            scale: args.scale,
        };
        let written_loss = validation_loss(&report.model, Some(&written), &val, loss);
        assert_eq!(written_loss, losses[best], "{losses:?}");
    }

    #[test]
    fn written_net_is_the_quantised_model() {
        for arch in ARCHES {
            let (report, written) = trained(arch);
            let quantised = report.model.quantise(written.description.clone()).unwrap();
            assert!(
                *written == quantised,
                "{arch:?}: the written net is not the quantised model"
            );
        }
    }

    /// Held-out positions (a seed no training set uses) where one side is
    /// at least 3 pawns up: the sign of a good evaluation is not in doubt.
    fn clear_material_positions() -> Vec<TrainingPosition> {
        material_positions(1500, 99)
            .into_iter()
            .filter(|p| p.score.abs() >= 300)
            .collect()
    }

    /// The last epoch's validation loss is below half the loss before training.
    fn assert_val_loss_halved(report: &TrainReport, label: &str) {
        let last = report.epochs.last().unwrap();
        assert!(
            last.1 < 0.5 * report.initial_val_loss,
            "{label}: validation loss {} -> {}",
            report.initial_val_loss,
            last.1
        );
    }

    #[test]
    fn material_labels_drive_the_loss_down_and_the_net_prefers_more_material() {
        let held_out = clear_material_positions();
        assert!(held_out.len() > 200);
        for arch in ARCHES {
            let (report, _) = trained(arch);
            let last = report.epochs.last().unwrap();
            assert_val_loss_halved(report, &format!("{arch:?}"));
            assert!(
                last.0 < report.epochs[0].0,
                "{arch:?}: training loss did not fall"
            );
            let net = exported(&report.model);
            let (mut float_right, mut quant_right) = (0, 0);
            for p in &held_out {
                let float = report.model.evaluate(&p.board, p.turn);
                let quant = net.centipawns(net.raw_output_board(
                    Kernels::scalar(),
                    &crate::position::Board::from_shakmaty(&p.board),
                    p.turn,
                ));
                float_right += usize::from((float > 0.0) == (p.score > 0));
                quant_right += usize::from((quant > 0) == (p.score > 0));
            }
            let n = held_out.len();
            assert!(
                float_right * 10 >= n * 9,
                "{arch:?}: float net right on {float_right}/{n}"
            );
            assert!(
                quant_right * 10 >= n * 9,
                "{arch:?}: exported net right on {quant_right}/{n}"
            );
        }
    }

    /// Quantisation-aware training learns material through the engine's own
    /// arithmetic: the quantised net's validation loss (what the epochs
    /// report in this mode) falls below half its start, and the written net
    /// gets the sign right on 90% of held-out positions.
    #[test]
    fn quantise_aware_training_learns_through_the_quantised_net() {
        let dir = ScratchDir::new("train-quantise-aware");
        write_data(&dir.join("data.bin"), &material_positions(6000, 11));
        let mut args = small_args(&dir, Arch::HalfKAv2Hm);
        args.quantise_aware = true;
        let report = train(&args).unwrap();
        assert_val_loss_halved(&report, "quantise-aware");
        let net = Network::load(&args.out).unwrap();
        let held_out = clear_material_positions();
        let right = held_out
            .iter()
            .filter(|p| {
                let cp = net.centipawns(net.raw_output_board(
                    Kernels::scalar(),
                    &crate::position::Board::from_shakmaty(&p.board),
                    p.turn,
                ));
                (cp > 0) == (p.score > 0)
            })
            .count();
        assert!(
            right * 10 >= held_out.len() * 9,
            "right on {right}/{}",
            held_out.len()
        );
    }

    /// The exported net evaluates held-out positions like the float model:
    /// mean absolute difference at most 20 cp, none above 50 cp + 10%
    /// (activations are rounded to 1/127 and weights to int16/int8 steps;
    /// these 32-neuron test nets show about 7 cp (HalfKP), 14 cp (HalfKAv2_hm)
    /// and 4 cp (Chess768 with SCReLU)).
    #[test]
    fn exported_net_agrees_with_the_float_model() {
        let held_out = material_positions(400, 1234);
        for arch in ARCHES {
            let (report, _) = trained(arch);
            let net = exported(&report.model);
            let mut sum = 0.0;
            for p in &held_out {
                let float = report.model.evaluate(&p.board, p.turn);
                let quant = net.centipawns(net.raw_output_board(
                    Kernels::scalar(),
                    &crate::position::Board::from_shakmaty(&p.board),
                    p.turn,
                )) as f32;
                let diff = (float - quant).abs();
                sum += diff;
                assert!(
                    diff <= 50.0 + 0.1 * float.abs(),
                    "{arch:?}: float {float} cp, exported {quant} cp"
                );
            }
            let mean = sum / held_out.len() as f32;
            eprintln!("{arch:?}: mean |float - exported| = {mean:.2} cp");
            assert!(mean <= 20.0, "{arch:?}: mean difference {mean} cp");
        }
    }

    /// Stopping after an epoch and resuming gives exactly the net of an
    /// uninterrupted run.
    #[test]
    fn resume_continues_exactly() {
        for arch in [Arch::HalfKP, Arch::Chess768] {
            let dir = ScratchDir::new(&format!("train-resume-{arch:?}"));
            write_data(&dir.join("data.bin"), &material_positions(800, 5));
            let mut args = small_args(&dir, arch);
            args.epochs = 2;
            let straight = train(&args).unwrap().model;
            args.epochs = 1;
            train(&args).unwrap();
            args.epochs = 2;
            args.resume = true;
            let resumed = train(&args).unwrap();
            assert_eq!(resumed.epochs.len(), 1);
            assert!(
                resumed.model == straight,
                "{arch:?}: the resumed run ended elsewhere"
            );
            // A checkpoint of another king bucket layout is refused.
            args.king_buckets = Some(KingBuckets::SINGLE);
            if arch == Arch::Chess768 {
                assert!(train(&args).unwrap_err().contains("holds a"));
            }
        }
    }

    #[test]
    fn fine_tune_without_options_takes_the_starting_nets_architecture() {
        let dir = ScratchDir::new("train-init-from");
        write_data(&dir.join("data.bin"), &material_positions(400, 9));
        let mut parent = small_args(&dir, Arch::Chess768);
        parent.king_buckets = Some(KingBuckets::SINGLE);
        parent.buckets = Some(2);
        parent.epochs = 1;
        let parent_model = train(&parent).unwrap().model;
        let parent_net = dir.join("parent.nnue");
        std::fs::rename(&parent.out, &parent_net).unwrap();

        let mut child = small_args(&dir, Arch::Chess768);
        (child.arch, child.hidden, child.king_buckets, child.buckets) = (None, None, None, None);
        child.init_from = Some(parent_net.clone());
        child.epochs = 1;
        let model = train(&child).unwrap().model;
        assert_eq!(model.features, FeatureSet::Chess768(KingBuckets::SINGLE));
        assert_eq!(model.head, Head::Screlu);
        assert_eq!(model.half_dims, parent_model.half_dims);
        assert_eq!(model.buckets(), 2);

        // With --resume and no options, the checkpoint's architecture.
        child.epochs = 2;
        child.init_from = None;
        child.resume = true;
        assert_eq!(train(&child).unwrap().model.buckets(), 2);

        // --king-buckets spreads the one-bucket parent over four buckets.
        child.resume = false;
        child.init_from = Some(parent_net.clone());
        child.king_buckets = Some(KingBuckets::RANKS4);
        let spread = train(&child).unwrap();
        assert_eq!(
            spread.model.features,
            FeatureSet::Chess768(KingBuckets::RANKS4)
        );
        child.king_buckets = None;

        // A larger --hidden grows the parent; a smaller one contradicts it
        // and is refused.
        child.init_from = Some(parent_net.clone());
        child.hidden = Some(48);
        assert_eq!(train(&child).unwrap().model.half_dims, 48);
        child.init_from = Some(parent_net);
        child.hidden = Some(16);
        assert!(train(&child).unwrap_err().contains("pass the matching"));
    }

    #[test]
    fn bad_arguments_are_refused() {
        let dir = ScratchDir::new("train-bad");
        let mut args = small_args(&dir, Arch::HalfKP);
        args.hidden = Some(30);
        assert!(train(&args).unwrap_err().contains("--hidden"));
        let mut args = small_args(&dir, Arch::HalfKP);
        args.data = vec![dir.join("missing.bin")];
        assert!(train(&args).unwrap_err().contains("cannot open"));
    }
}
