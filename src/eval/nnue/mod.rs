//! NNUE evaluation: Stockfish-style efficiently updatable nets, HalfKP,
//! HalfKAv2_hm and Chess768 (with the SCReLU head), with SIMD inference and
//! lazy incremental accumulators.
//!
//! * [`Network`] — a loaded net ([`Network::load`] for a file,
//!   [`Network::embedded_default`] for the one built into the binary).
//! * [`NnueEvaluator`] — follows the search through the [`Evaluator`] trait.
//! * [`simd_path_name`] — which instruction set evaluation runs on.

pub mod accumulator;
pub mod cli;
pub mod extract;
pub mod features;
pub mod format;
pub mod layers;
pub mod network;
pub mod random;
pub mod simd;

use std::sync::Arc;

pub use features::FeatureSet;
pub use network::{NetError, Network};
pub use simd::{Kernels, SimdPath, simd_path_name};

use super::Evaluator;
use crate::position::{PieceChanges, Position};
use accumulator::AccumulatorStack;
use layers::Scratch;

/// A net's scores are scaled by the material on the board before the search
/// sees them ([`Evaluator::scaled_by_material`]); the eval report reads it
/// here, where it has a bare [`Network`] and no evaluator.
pub const SCALED_BY_MATERIAL: bool = true;

/// The crate version with the fastest SIMD path of this machine, which NNUE
/// evaluation uses, e.g. `0.1.0 (nnue simd: avx2)`, for `tarpon --version`.
/// It does not fix the path: `bench --simd` may still force another.
pub fn version_line() -> &'static str {
    static LINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LINE.get_or_init(|| {
        format!(
            "{} (nnue simd: {})",
            env!("CARGO_PKG_VERSION"),
            SimdPath::fastest().name()
        )
    })
}

/// An [`Evaluator`] backed by a net.
#[derive(Clone)]
pub struct NnueEvaluator {
    net: Arc<Network>,
    kernels: &'static Kernels,
    stack: AccumulatorStack,
    scratch: Scratch,
}

impl NnueEvaluator {
    /// Uses the fastest SIMD path this CPU supports.
    pub fn new(net: Arc<Network>) -> NnueEvaluator {
        NnueEvaluator::with_kernels(net, Kernels::detected())
    }

    /// Uses the given kernels (tests and benchmarks compare paths).
    pub fn with_kernels(net: Arc<Network>, kernels: &'static Kernels) -> NnueEvaluator {
        NnueEvaluator {
            stack: AccumulatorStack::new(&net),
            net,
            kernels,
            scratch: Scratch::default(),
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The current ply's accumulators, white's then black's.
    pub fn accumulators(&mut self, pos: &Position) -> (&[i16], &[i16]) {
        let [white, black] = self
            .stack
            .current(&self.net, self.kernels, pos.snapshot().board());
        (white.values, black.values)
    }

    /// The current ply's PSQT sums, white's then black's (empty for nets
    /// without a PSQT part).
    pub fn psqt_sums(&mut self, pos: &Position) -> (&[i32], &[i32]) {
        let [white, black] = self
            .stack
            .current(&self.net, self.kernels, pos.snapshot().board());
        (white.psqt, black.psqt)
    }

    /// The net's raw output for the current ply (before the output scale).
    pub fn raw_output(&mut self, pos: &Position) -> i32 {
        let board = pos.snapshot().board();
        let [white, black] = self.stack.current(&self.net, self.kernels, board);
        let (us, them) = match pos.turn() {
            shakmaty::Color::White => (white, black),
            shakmaty::Color::Black => (black, white),
        };
        self.net.raw_output(
            self.kernels,
            us,
            them,
            board.occupied().count(),
            &mut self.scratch,
        )
    }
}

impl Evaluator for NnueEvaluator {
    fn reset(&mut self, pos: &Position) {
        self.stack.reset(pos.snapshot().board());
    }

    fn push(&mut self, pos: &Position, changes: &PieceChanges) {
        self.stack.push(changes);
        // Brought up to date now rather than at the first `evaluate`: the
        // search's next step is a hash-table probe whose bucket `make` has
        // just prefetched, and this work hides that load (3.4 % more bench
        // NPS, same tree; docs/measurements.md).
        self.stack
            .update(&self.net, self.kernels, pos.snapshot().board());
    }

    fn push_null(&mut self) {
        self.stack.push_null();
    }

    fn pop(&mut self) {
        self.stack.pop();
    }

    fn scaled_by_material(&self) -> bool {
        SCALED_BY_MATERIAL
    }

    fn evaluate(&mut self, pos: &Position) -> i32 {
        let raw = self.raw_output(pos);
        // The incremental accumulators must equal a fresh refresh. Checked on
        // one position in 16 (by key): every one would make debug builds crawl.
        debug_assert!(
            !pos.key().is_multiple_of(16)
                || raw
                    == self
                        .net
                        .raw_output_board(self.kernels, pos.snapshot().board(), pos.turn()),
            "incremental NNUE output differs from a fresh refresh at {}",
            pos.fen()
        );
        self.net.centipawns(raw)
    }
}
