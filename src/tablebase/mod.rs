//! Syzygy endgame tablebases, through the `shakmaty-syzygy` crate.
//!
//! One small interface for the engine: [`Tablebase::open`] takes the
//! `SyzygyPath` option (several directories, separated as Stockfish does),
//! checks every table it finds and leaves out the broken ones, and says in
//! plain words what it found ([`Tablebase::report`]). Probes return `None`
//! when the answer is not known for any reason (too many pieces, castling
//! rights, a missing or corrupt table) and never panic: a table file that is
//! damaged only somewhere in its data is noticed at probe time, reported once
//! ([`Tablebase::take_problems`]) and can be left out for the next search
//! ([`Tablebase::without_failed_tables`]).
//!
//! The answers are plain results (WDL, DTZ, ranked root moves); the search
//! turns them into its scores (`search::tb_score`), so this module depends
//! on nothing of the engine but the position. One file per job: `files`
//! finds and checks the tables (`material` reads their names), `probe`
//! guards every call into the crate, `root` ranks the root moves and
//! `search_tables` holds what a search is given.

mod files;
mod material;
mod probe;
mod root;
mod search_tables;

use std::{
    fmt,
    sync::{Mutex, atomic::AtomicU64},
};

use shakmaty::Chess;

pub use files::PATH_SEPARATOR;
pub use root::{RankedMove, RootRanking, fold_rule50};
pub use search_tables::{ProbeSettings, Syzygy};
pub use shakmaty_syzygy::Wdl;

use files::TableFile;
use probe::ProbeProblems;

/// An open set of Syzygy tables (possibly empty).
pub struct Tablebase {
    tables: shakmaty_syzygy::Tablebase<Chess>,
    files: Vec<TableFile>,
    /// Tables found again in a later directory: used if the first is broken.
    spares: Vec<TableFile>,
    max_pieces: u32,
    /// Directories the tables came from, for the report.
    directories: Vec<std::path::PathBuf>,
    /// What went wrong while opening: missing directories, unreadable or
    /// corrupt files, incomplete sets.
    open_problems: Vec<String>,
    /// Failures met while probing, not yet handed to `take_problems`.
    probe_problems: Mutex<ProbeProblems>,
    /// Successful probes so far, for `tbhits`.
    hits: AtomicU64,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("files", &self.files.len())
            .field("max_pieces", &self.max_pieces)
            .finish_non_exhaustive()
    }
}

impl Default for Tablebase {
    fn default() -> Self {
        Tablebase::empty()
    }
}

impl Tablebase {
    /// No tables at all: every probe answers `None`.
    pub fn empty() -> Tablebase {
        Tablebase {
            tables: shakmaty_syzygy::Tablebase::new(),
            files: Vec::new(),
            spares: Vec::new(),
            max_pieces: 0,
            directories: Vec::new(),
            open_problems: Vec::new(),
            probe_problems: Mutex::new(ProbeProblems::default()),
            hits: AtomicU64::new(0),
        }
    }
}
