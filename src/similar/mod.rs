//! `tarpon similar`: find the master games that reached a position like
//! this one. `index` turns every position of some PGN files into a vector
//! (latent semantic indexing over piece-square and pawn-structure
//! features) and writes one memory-mappable file; `query` ranks the
//! indexed positions by cosine similarity to a position and tables what
//! the masters played there; `compare` measures LSI against the raw
//! TF-IDF features. See docs/similar.md.

pub mod builder;
pub mod compare;
pub mod features;
pub mod games;
pub mod index;
pub mod lsi;
pub mod query;
pub mod search;

use std::process::ExitCode;

use clap::{Args, Subcommand};

#[derive(Args, Debug)]
pub struct SimilarArgs {
    #[command(subcommand)]
    pub mode: Mode,
}

#[derive(Subcommand, Debug)]
pub enum Mode {
    /// Index the positions of PGN files into one file.
    Index(builder::IndexArgs),
    /// List the indexed positions nearest to a position and what was played there.
    Query(query::QueryArgs),
    /// Measure how good the neighbours of LSI and of raw TF-IDF are.
    Compare(compare::CompareArgs),
}

pub fn run(args: &SimilarArgs) -> ExitCode {
    let out = match &args.mode {
        Mode::Index(a) => builder::run(a),
        Mode::Query(a) => query::run(a),
        Mode::Compare(a) => compare::run(a),
    };
    match out {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
