//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, the
//! standard correctness check for move generation, make/unmake and the
//! Zobrist key, and a speed test of them.
//!
//! The last ply is counted in bulk ([`movegen::count_legal_moves`], from
//! target bitboards) instead of being played. [`run`] spreads the work over
//! threads and remembers subtree counts in a shared [`PerftTable`]; its
//! counts depend on the Zobrist key being right, so it tests that too.

pub mod cli;
mod table;

use std::fmt;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use shakmaty::{Move, MoveList};

use crate::position::{Position, movegen};
pub use table::PerftTable;

/// Deepest perft accepted: counts from ordinary positions still fit in a u64,
/// and anything deeper would run for days anyway.
pub const MAX_DEPTH: u32 = 12;
/// Largest table chosen automatically; `--hash` may ask for more.
pub const AUTO_HASH_MAX_MB: usize = 256;
/// Largest table accepted, so a typo cannot ask for a terabyte.
pub const MAX_HASH_MB: usize = 1 << 16;

/// Leaf count to `depth` on one thread without a table: the raw speed of
/// move generation and make/unmake.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    count(pos, depth, &NoTable)
}

/// Leaf counts below each root move, in move generation order (one thread,
/// no table).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    pos.legal_moves()
        .iter()
        .map(|&m| {
            pos.make(m);
            let n = perft(pos, depth - 1);
            pos.unmake();
            (m, n)
        })
        .collect()
}

/// How [`run`] counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Size of the shared table in MB; `Some(0)` counts without one, `None`
    /// sizes it to the position and depth (see [`auto_hash_mb`]).
    pub hash_mb: Option<usize>,
}

impl Default for Settings {
    /// Every core and an automatically sized table.
    fn default() -> Self {
        Settings {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: None,
        }
    }
}

/// A table size that holds most interior nodes of the tree, estimated as the
/// root's branching factor (at least 20) to the power `depth - 2`: filling a
/// table costs time too, so a depth-5 perft should not clear 256 MB first.
pub fn auto_hash_mb(pos: &Position, depth: u32) -> usize {
    let branching = pos.legal_moves().len().clamp(20, 60) as f64;
    let bytes = branching.powi(depth.saturating_sub(2) as i32) * 16.0;
    let megabytes = (bytes / f64::from(1 << 20)).ceil().max(1.0);
    (megabytes as usize)
        .next_power_of_two()
        .min(AUTO_HASH_MAX_MB)
}

/// The result of a perft run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    /// Each legal root move in UCI notation with the leaf count below it.
    pub moves: Vec<(String, u64)>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The table size used, in MB (0: none).
    pub hash_mb: usize,
}

impl Divide {
    /// Millions of leaf nodes per second.
    pub fn mnps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9) / 1e6
    }

    /// The output of Stockfish's `go perft`: `move: count` lines, a blank
    /// line, `Nodes searched: N`, a blank line.
    pub fn write_stockfish_format(&self, out: &mut dyn Write) -> io::Result<()> {
        for (m, n) in &self.moves {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out)?;
        writeln!(out, "Nodes searched: {}", self.nodes)?;
        writeln!(out)
    }
}

#[derive(Debug)]
pub enum PerftError {
    Depth(u32),
    Threads(usize),
    Hash(usize),
    Setup(String),
    Io(io::Error),
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftError::Depth(d) => write!(f, "perft depth {d} is out of range 1..={MAX_DEPTH}"),
            PerftError::Threads(n) => write!(f, "perft threads {n} is out of range 1..=1024"),
            PerftError::Hash(mb) => {
                write!(f, "perft hash {mb} MB is out of range 0..={MAX_HASH_MB}")
            }
            PerftError::Setup(why) => f.write_str(why),
            PerftError::Io(e) => write!(f, "cannot write perft output: {e}"),
        }
    }
}

impl std::error::Error for PerftError {}

impl From<io::Error> for PerftError {
    fn from(e: io::Error) -> Self {
        PerftError::Io(e)
    }
}

/// Counts to `depth` with `settings.threads` threads and a shared table of
/// `settings.hash_mb` MB, returning the count below each root move.
pub fn run(pos: &Position, depth: u32, settings: &Settings) -> Result<Divide, PerftError> {
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(PerftError::Depth(depth));
    }
    if !(1..=1024).contains(&settings.threads) {
        return Err(PerftError::Threads(settings.threads));
    }
    let hash_mb = settings.hash_mb.unwrap_or_else(|| auto_hash_mb(pos, depth));
    if hash_mb > MAX_HASH_MB {
        return Err(PerftError::Hash(hash_mb));
    }
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .build()
        .map_err(|e| PerftError::Setup(format!("cannot start perft threads: {e}")))?;
    let counts = if hash_mb == 0 {
        pool.install(|| divide_parallel(pos, depth, &NoTable))
    } else {
        let table = PerftTable::new(hash_mb).map_err(PerftError::Setup)?;
        pool.install(|| divide_parallel(pos, depth, &table))
    };
    let moves: Vec<(String, u64)> = counts.iter().map(|&(m, n)| (pos.uci(m), n)).collect();
    Ok(Divide {
        nodes: moves.iter().map(|(_, n)| n).sum(),
        moves,
        elapsed: start.elapsed(),
        hash_mb,
    })
}

/// `go perft N` for the UCI loop: counts with `settings` and prints the
/// result exactly as Stockfish does. Returns the total.
pub fn report(
    pos: &Position,
    depth: u32,
    settings: &Settings,
    out: &mut dyn Write,
) -> Result<u64, PerftError> {
    let result = run(pos, depth, settings)?;
    result.write_stockfish_format(out)?;
    Ok(result.nodes)
}

/// Where subtree counts are remembered: the shared table, or nowhere.
trait Memo: Sync {
    fn probe(&self, key: u64, depth: u32) -> Option<u64>;
    fn store(&self, key: u64, depth: u32, count: u64);
}

struct NoTable;

impl Memo for NoTable {
    #[inline(always)]
    fn probe(&self, _: u64, _: u32) -> Option<u64> {
        None
    }
    #[inline(always)]
    fn store(&self, _: u64, _: u32, _: u64) {}
}

impl Memo for PerftTable {
    #[inline(always)]
    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        PerftTable::probe(self, key, depth)
    }
    #[inline(always)]
    fn store(&self, key: u64, depth: u32, count: u64) {
        PerftTable::store(self, key, depth, count)
    }
}

/// Depth-first count on one thread. Depth-1 nodes are counted without
/// building their moves, and are not looked up (their count is cheaper to
/// make than a table probe is to fetch), so they need no key and no undo
/// record: the last move is played on a plain copy, which saves a fifth of
/// the time. Moves are generated into a list on the stack, not returned by
/// value, which would copy the whole list.
fn count<M: Memo>(pos: &mut Position, depth: u32, memo: &M) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_legal_moves(pos.snapshot()) as u64,
        _ => {
            let key = pos.key();
            if let Some(n) = memo.probe(key, depth) {
                return n;
            }
            let mut moves = MoveList::new();
            movegen::legal_moves(pos.snapshot(), &mut moves);
            let n = if depth == 2 {
                moves
                    .iter()
                    .map(|&m| {
                        let mut child = pos.snapshot().clone();
                        child.play(m);
                        movegen::count_legal_moves(&child) as u64
                    })
                    .sum()
            } else {
                let mut n = 0;
                for &m in &moves {
                    pos.make(m);
                    n += count(pos, depth - 1, memo);
                    pos.unmake();
                }
                n
            };
            memo.store(key, depth, n);
            n
        }
    }
}

/// Below this depth a subtree is too small to be worth a task of its own.
const MIN_SPLIT_DEPTH: u32 = 4;

/// Root moves in parallel, each counted by [`count_parallel`].
fn divide_parallel<M: Memo>(pos: &Position, depth: u32, memo: &M) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.make(m);
            (m, count_parallel(&mut child, depth - 1, memo, 1))
        })
        .collect()
}

/// Like [`count`], but the first `split_plies` plies below here become tasks
/// for the thread pool: the root alone has too few, too unequal subtrees to
/// keep every thread busy to the end.
fn count_parallel<M: Memo>(pos: &mut Position, depth: u32, memo: &M, split_plies: u32) -> u64 {
    if split_plies == 0 || depth < MIN_SPLIT_DEPTH {
        return count(pos, depth, memo);
    }
    let key = pos.key();
    if let Some(n) = memo.probe(key, depth) {
        return n;
    }
    let n = pos
        .legal_moves()
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.make(m);
            count_parallel(&mut child, depth - 1, memo, split_plies - 1)
        })
        .sum();
    memo.store(key, depth, n);
    n
}
