//! `tarpon random-net`: seeded random nets for tests and benchmarks.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::FeatureSet;
use super::features::KingBuckets;
use super::random::{
    pst_like_network, random_network, random_screlu_network, random_stockfish15_network,
};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FeatureArg {
    Halfkp,
    #[value(name = "halfkav2_hm")]
    HalfKAv2Hm,
    /// 768 inputs per king bucket (--king-buckets), mirrored.
    Chess768,
}

/// Arguments of `tarpon random-net`.
#[derive(Args, Debug)]
pub struct RandomNetArgs {
    /// Where to write the net.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value = "halfkav2_hm")]
    pub features: FeatureArg,
    /// King buckets of `--features chess768`: single, ranks4, or 8 or 32
    /// comma-separated buckets (see `tarpon train --help`).
    #[arg(long, default_value = "ranks4", value_parser = KingBuckets::from_name)]
    pub king_buckets: KingBuckets,
    /// The squared clipped ReLU head (one int16 output layer per bucket)
    /// instead of hidden layers.
    #[arg(long, conflicts_with_all = ["pst_like", "hidden"])]
    pub screlu: bool,
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

impl RandomNetArgs {
    fn feature_set(&self) -> FeatureSet {
        match self.features {
            FeatureArg::Halfkp => FeatureSet::HalfKP,
            FeatureArg::HalfKAv2Hm => FeatureSet::HalfKAv2Hm,
            FeatureArg::Chess768 => FeatureSet::Chess768(self.king_buckets),
        }
    }
}

/// Writes a seeded random net (for benchmarks and tests, not for play).
pub fn run_random_net(args: RandomNetArgs) -> ExitCode {
    let net = if args.stockfish15 {
        random_stockfish15_network(args.width, args.seed)
    } else if args.pst_like {
        pst_like_network(args.feature_set(), args.width, args.seed)
    } else if args.screlu {
        random_screlu_network(args.feature_set(), args.width, args.buckets, args.seed)
    } else {
        random_network(
            args.feature_set(),
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
