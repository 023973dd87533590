//! `tarpon eval` (static evaluation of one position) and `tarpon random-net`
//! (seeded random nets for tests and benchmarks), plus the report the UCI
//! `eval` command prints.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use shakmaty::Position as _;

use super::network::{Head, Network, STOCKFISH15_UNITS_PER_PAWN};
use super::random::{pst_like_network, random_network, random_stockfish15_network};
use super::{FeatureSet, Kernels, simd_path_name};
use crate::eval::EvalChoice;
use crate::eval::Evaluator;
use crate::eval::endgame;
use crate::eval::pst::PstEvaluator;
use crate::position::{Position, START_FEN};

/// Arguments of `tarpon eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// A net file (Stockfish 12 HalfKP or Stockfish 15.1 `.nnue`, or
    /// tarpon's format); default: the net built into the binary, if any.
    #[arg(long)]
    pub net: Option<PathBuf>,
}

/// Prints the static evaluation of one position.
pub fn run_eval(args: EvalArgs) -> ExitCode {
    let pos = match Position::from_fen(args.fen.as_deref().unwrap_or(START_FEN), false) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let net = match &args.net {
        Some(path) => match Network::load(path) {
            Ok(net) => Some(Arc::new(net)),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => Network::embedded_default(),
    };
    print!("{}", eval_report(&pos, net.as_deref()));
    ExitCode::SUCCESS
}

/// The static evaluation of `pos` as text: the NNUE with its feature set and
/// architecture (or a note that no net is loaded), the PST, and what the
/// endgame knowledge makes of them where it changes them. Scores are
/// centipawns from the side to move's point of view.
pub fn eval_report(pos: &Position, net: Option<&Network>) -> String {
    let mut out = format!("position    {}\n", pos.fen());
    let mut evals = Vec::new();
    match net {
        Some(net) => {
            let board = pos.chess().board();
            let raw = net.raw_output_board(Kernels::detected(), board, pos.turn());
            evals.push(("NNUE", net.centipawns(raw)));
            out.push_str(&format!(
                "NNUE        {:+} cp (side to move; raw output {raw} / {})\n",
                net.centipawns(raw),
                net.output_scale
            ));
            if net.head == Head::Stockfish15 {
                let value = raw / net.output_scale;
                let white = if pos.turn() == shakmaty::Color::White {
                    value
                } else {
                    -value
                };
                out.push_str(&format!(
                    "stockfish   {} (NNUE evaluation in pawns, white side, as Stockfish 15.1's eval prints it; internal value {value})\n",
                    stockfish15_eval_pawns(white)
                ));
            }
            out.push_str(&format!("features    {}\n", net.features().name()));
            out.push_str(&format!("net         {}\n", net.architecture()));
            if !net.description.is_empty() {
                out.push_str(&format!("description {}\n", net.description));
            }
        }
        None => out.push_str("NNUE        no net loaded (give one with --net or EvalFile)\n"),
    }
    let mut pst = PstEvaluator::new();
    pst.reset(pos);
    let pst_eval = pst.evaluate(pos);
    evals.push(("PST", pst_eval));
    out.push_str(&format!("PST         {pst_eval:+} cp (side to move)\n"));
    // What the search makes of these, where endgame knowledge changes them.
    let adjusted: Vec<String> = evals
        .iter()
        .map(|&(name, cp)| (name, cp, endgame::adjust(pos.chess(), cp)))
        .filter(|&(_, cp, adjusted)| adjusted != cp)
        .map(|(name, _, adjusted)| format!("{name} {adjusted:+} cp"))
        .collect();
    if !adjusted.is_empty() {
        out.push_str(&format!(
            "endgame     {} (side to move; with endgame knowledge and fifty-move fade, as the search sees it)\n",
            adjusted.join(", ")
        ));
    }
    out.push_str(&format!("simd        {}\n", simd_path_name()));
    out
}

/// A Stockfish internal value as its 15.1 `eval` command prints it: pawns
/// of `NormalizeToPawnValue` units, two decimals, with a sign.
pub fn stockfish15_eval_pawns(white_value: i32) -> String {
    format!(
        "{:+.2}",
        f64::from(white_value) / f64::from(STOCKFISH15_UNITS_PER_PAWN)
    )
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FeatureArg {
    Halfkp,
    #[value(name = "halfkav2_hm")]
    HalfKAv2Hm,
}

impl From<FeatureArg> for FeatureSet {
    fn from(f: FeatureArg) -> FeatureSet {
        match f {
            FeatureArg::Halfkp => FeatureSet::HalfKP,
            FeatureArg::HalfKAv2Hm => FeatureSet::HalfKAv2Hm,
        }
    }
}

/// Arguments of `tarpon random-net`.
#[derive(Args, Debug)]
pub struct RandomNetArgs {
    /// Where to write the net.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value = "halfkav2_hm")]
    pub features: FeatureArg,
    /// Feature transformer width per perspective (a multiple of 16).
    #[arg(long, default_value_t = 256)]
    pub width: usize,
    /// Hidden layer sizes.
    #[arg(long, value_delimiter = ',', default_value = "32,32")]
    pub hidden: Vec<usize>,
    /// Output buckets by piece count.
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Make the output follow the PST evaluation (hidden sizes 32,32, one
    /// bucket), so searches with it are shaped like PST searches.
    #[arg(long)]
    pub pst_like: bool,
    /// Stockfish 15.1's architecture and file layout (HalfKAv2_hm, 8 PSQT
    /// buckets, 8 stacks of 16, 32 and 1 outputs; --width is the
    /// transformer width, 1024 in Stockfish's nets).
    #[arg(long, conflicts_with_all = ["pst_like", "features", "hidden", "buckets"])]
    pub stockfish15: bool,
}

/// Writes a seeded random net (for benchmarks and tests, not for play).
pub fn run_random_net(args: RandomNetArgs) -> ExitCode {
    let net = if args.stockfish15 {
        random_stockfish15_network(args.width, args.seed)
    } else if args.pst_like {
        pst_like_network(args.features.into(), args.width, args.seed)
    } else {
        random_network(
            args.features.into(),
            args.width,
            &args.hidden,
            args.buckets,
            args.seed,
        )
    };
    let net = match net {
        Ok(net) => net,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = net.save(&args.out) {
        eprintln!("error: {}: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {} ({})", args.out.display(), net.architecture());
    ExitCode::SUCCESS
}

/// The net behind the UCI options `EvalFile` and `Eval=nnue`: the embedded
/// default until a file is loaded. A file that fails to load leaves the
/// current net in place.
#[derive(Clone, Debug)]
pub struct LoadedNet {
    net: Option<Arc<Network>>,
    source: String,
}

impl Default for LoadedNet {
    fn default() -> LoadedNet {
        LoadedNet::embedded()
    }
}

impl LoadedNet {
    /// The net built into the binary (none until a trained net exists).
    pub fn embedded() -> LoadedNet {
        LoadedNet {
            net: Network::embedded_default(),
            source: "the embedded net".to_string(),
        }
    }

    /// The `Eval` values to offer, the default first: `nnue` once the binary
    /// carries a net, `pst` until then.
    pub fn eval_option_values() -> &'static [&'static str] {
        if Network::embedded_default().is_some() {
            &["nnue", "pst"]
        } else {
            &["pst", "nnue"]
        }
    }

    pub fn net(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Applies `setoption name EvalFile value PATH` (empty: back to the
    /// embedded net). The message, success or error, is for an `info string`.
    pub fn set_eval_file(&mut self, path: &str) -> Result<String, String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            *self = LoadedNet::embedded();
            return Ok(match &self.net {
                Some(net) => format!("EvalFile: using the embedded net, {}", net.architecture()),
                None => "EvalFile: no net loaded (the binary carries none)".to_string(),
            });
        }
        match Network::load(path) {
            Ok(net) => {
                let message = format!("EvalFile: loaded {path}, {}", net.architecture());
                self.net = Some(Arc::new(net));
                self.source = path.to_string();
                Ok(message)
            }
            Err(e) => Err(format!(
                "error: EvalFile {path}: {e}; keeping {}",
                if self.net.is_some() {
                    self.source.as_str()
                } else {
                    "no net"
                }
            )),
        }
    }

    /// The evaluator for an `Eval` option value; `nnue` without a net is an
    /// error the caller reports before falling back to the PST.
    pub fn choice(&self, eval_option: &str) -> Result<EvalChoice, String> {
        if eval_option.eq_ignore_ascii_case("nnue") {
            match &self.net {
                Some(net) => Ok(EvalChoice::Nnue(net.clone())),
                None => Err("error: Eval nnue needs a net (setoption name EvalFile value <file>); using pst".to_string()),
            }
        } else {
            Ok(EvalChoice::Pst)
        }
    }
}

/// The evaluator `tarpon bench --eval E [--net F]` asks for.
pub fn bench_eval_choice(eval: &str, net: Option<&std::path::Path>) -> Result<EvalChoice, String> {
    let mut loaded = LoadedNet::embedded();
    if let Some(path) = net {
        loaded.set_eval_file(&path.to_string_lossy())?;
    }
    match eval {
        "pst" | "nnue" => loaded.choice(eval),
        other => Err(format!("unknown evaluator '{other}' (pst or nnue)")),
    }
}
