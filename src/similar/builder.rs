//! `tarpon similar index`: PGN files in, index file out. Reads the games
//! (bad ones skipped and counted), takes their positions, fits TF-IDF and
//! the LSI basis on them, projects every position and writes the index.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::features::DIMS;
use super::games::{GameInfo, Sample, read_games, samples};
use super::index::{Contents, write};
use super::lsi::{Basis, inverse_document_frequency, weigh};

#[derive(Args, Debug)]
pub struct IndexArgs {
    /// PGN files to index (main lines only).
    #[arg(long, required = true, num_args = 1..)]
    pub pgn: Vec<PathBuf>,
    /// The index file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Index the position before every Nth ply (1: every position).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub every: u32,
    /// LSI dimensions kept from the SVD.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=DIMS as i64))]
    pub dims: u32,
    /// Seed of the randomized SVD's starting subspace.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// What a build did, for the summary line (and the tests).
#[derive(Debug)]
pub struct Built {
    pub games: usize,
    pub skipped: usize,
    pub reasons: Vec<String>,
    pub positions: usize,
    pub bytes: u64,
}

/// How many skip reasons the summary shows.
const REASONS_SHOWN: usize = 5;

pub fn build(args: &IndexArgs) -> Result<Built, String> {
    let total: u64 = args
        .pgn
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("cannot read the PGN files: {e}"))?
        .iter()
        .sum();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {bytes}/{total_bytes} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message("reading games");

    let mut games: Vec<GameInfo> = Vec::new();
    let mut all: Vec<Sample> = Vec::new();
    let mut skipped = 0;
    let mut reasons = Vec::new();
    for path in &args.pgn {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let mut number = 0;
        read_games(bar.wrap_read(file), |game| {
            number += 1;
            match game {
                Ok(line) => {
                    let id = games.len() as u32;
                    all.extend(samples(&line, id, args.every as usize));
                    games.push(line.info);
                }
                Err(why) => {
                    skipped += 1;
                    if reasons.len() < REASONS_SHOWN {
                        reasons.push(format!("{} game {number}: {why}", path.display()));
                    }
                }
            }
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    bar.finish_and_clear();
    if all.is_empty() {
        return Err("no position to index: no game with moves was read".into());
    }
    if u32::try_from(games.len()).is_err() {
        return Err("too many games for one index".into());
    }

    let say = |what: &str| {
        if !args.quiet {
            eprintln!("{what}");
        }
    };
    say(&format!(
        "{} positions from {} games; fitting TF-IDF and a {}-dimensional LSI basis",
        all.len(),
        games.len(),
        args.dims
    ));
    let docs: Vec<Vec<(u16, f32)>> = all.iter().map(|s| s.snapshot.features()).collect();
    let idf = inverse_document_frequency(&docs, DIMS);
    let rows: Vec<Vec<(u16, f32)>> = docs.iter().map(|d| weigh(d, &idf)).collect();
    drop(docs);
    let basis = Basis::fit(&rows, DIMS, args.dims as usize, args.seed);
    let vectors: Vec<f32> = rows.iter().flat_map(|r| basis.project(r)).collect();
    let bytes = write(
        &args.out,
        &Contents {
            every: args.every,
            idf: &idf,
            basis: &basis,
            vectors: &vectors,
            samples: &all,
            games: &games,
        },
    )?;
    Ok(Built {
        games: games.len(),
        skipped,
        reasons,
        positions: all.len(),
        bytes,
    })
}

pub fn run(args: &IndexArgs) -> Result<String, String> {
    let start = Instant::now();
    let built = build(args)?;
    let mut out = format!(
        "indexed {} positions from {} games into {} ({} bytes) in {:.1} s\n",
        built.positions,
        built.games,
        args.out.display(),
        built.bytes,
        start.elapsed().as_secs_f64()
    );
    if built.skipped > 0 {
        out += &format!("skipped {} bad games; the first:\n", built.skipped);
        for r in &built.reasons {
            out += &format!("  {r}\n");
        }
    }
    Ok(out)
}
