//! A whole quantised net: feature transformer plus one stack of dense layers
//! per output bucket, and the scale that turns its output into centipawns.

use std::fmt;
use std::sync::{Arc, OnceLock};

use shakmaty::{Board, Color};

use super::features::FeatureSet;
use super::layers::{Affine, FeatureTransformer, Scratch, forward};
use super::simd::Kernels;

/// Why a net could not be loaded or built; the message is meant for people
/// (it ends up in an `info string` or on the command line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be opened or mapped.
    Io(String),
    /// The file ends before the data its header announces.
    Truncated { needed: u64, found: u64 },
    /// Neither a Stockfish 12 nor a tarpon net file.
    UnknownFormat(String),
    /// A known format in a version tarpon does not read.
    UnsupportedVersion(String),
    /// A known format describing an architecture tarpon does not run.
    Architecture(String),
    /// The stored checksum does not match the contents.
    Checksum { stored: u32, computed: u32 },
    /// Anything else inconsistent (sizes, trailing bytes, ...).
    Malformed(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(m) => write!(f, "cannot read net: {m}"),
            NetError::Truncated { needed, found } => {
                write!(
                    f,
                    "net file is truncated: {found} bytes, at least {needed} needed"
                )
            }
            NetError::UnknownFormat(m) => write!(f, "not an NNUE file tarpon knows: {m}"),
            NetError::UnsupportedVersion(m) => write!(f, "unsupported net version: {m}"),
            NetError::Architecture(m) => write!(f, "unsupported net architecture: {m}"),
            NetError::Checksum { stored, computed } => write!(
                f,
                "net file is corrupt: checksum {computed:08x} does not match the stored {stored:08x}"
            ),
            NetError::Malformed(m) => write!(f, "malformed net file: {m}"),
        }
    }
}

impl std::error::Error for NetError {}

/// Largest transformer width accepted from a file (Stockfish's biggest nets
/// use 3072).
pub const MAX_HALF_DIMS: usize = 8192;
/// Largest dense layer accepted from a file.
pub const MAX_LAYER_WIDTH: usize = 4096;
/// Most output buckets accepted (one per possible piece count).
pub const MAX_BUCKETS: usize = 32;

#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub transformer: FeatureTransformer,
    /// One dense stack per output bucket; every stack has the same shape, its
    /// first layer reads `2 × half_dims` inputs and its last has one output.
    pub stacks: Vec<Vec<Affine>>,
    /// The raw output divided by this is the evaluation in centipawns
    /// (Stockfish 12's FV_SCALE is 16).
    pub output_scale: i32,
    pub description: String,
}

/// Millions of weights are no use in a test failure: show the shape.
impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({}, {:?})",
            self.architecture(),
            self.description
        )
    }
}

impl Network {
    /// Checks that the parts fit together.
    pub fn new(
        transformer: FeatureTransformer,
        stacks: Vec<Vec<Affine>>,
        output_scale: i32,
        description: String,
    ) -> Result<Network, NetError> {
        let bad = |m: String| Err(NetError::Architecture(m));
        let n = transformer.half_dims;
        if n == 0 || n > MAX_HALF_DIMS || !n.is_multiple_of(16) {
            return bad(format!(
                "feature transformer width {n} (must be a multiple of 16, at most {MAX_HALF_DIMS})"
            ));
        }
        if transformer.biases.len() != n
            || transformer.weights.len() != n * transformer.features.dimensions()
        {
            return Err(NetError::Malformed(
                "feature transformer parameter count".into(),
            ));
        }
        if stacks.is_empty() || stacks.len() > MAX_BUCKETS {
            return bad(format!(
                "{} output buckets (1 to {MAX_BUCKETS} supported)",
                stacks.len()
            ));
        }
        if output_scale <= 0 {
            return bad(format!("output scale {output_scale}"));
        }
        let shape: Vec<usize> = stacks[0].iter().map(|l| l.outputs).collect();
        for stack in &stacks {
            let mut inputs = 2 * n;
            if stack.is_empty() || stack.iter().map(|l| l.outputs).ne(shape.iter().copied()) {
                return bad("output buckets with different layer shapes".into());
            }
            for layer in stack {
                if layer.inputs != inputs || layer.outputs == 0 || layer.outputs > MAX_LAYER_WIDTH {
                    return bad(format!(
                        "dense layer {}->{} after {inputs} outputs",
                        layer.inputs, layer.outputs
                    ));
                }
                if layer.biases.len() != layer.outputs
                    || layer.weights.len() != layer.outputs * layer.padded_inputs()
                {
                    return Err(NetError::Malformed("dense layer parameter count".into()));
                }
                inputs = layer.outputs;
            }
            if inputs != 1 {
                return bad(format!("last layer has {inputs} outputs, not 1"));
            }
        }
        Ok(Network {
            transformer,
            stacks,
            output_scale,
            description,
        })
    }

    pub fn features(&self) -> FeatureSet {
        self.transformer.features
    }

    pub fn half_dims(&self) -> usize {
        self.transformer.half_dims
    }

    pub fn buckets(&self) -> usize {
        self.stacks.len()
    }

    /// Output sizes of the dense layers, the final 1 included.
    pub fn layer_sizes(&self) -> Vec<usize> {
        self.stacks[0].iter().map(|l| l.outputs).collect()
    }

    /// The output bucket for a position with `pieces` pieces (kings
    /// included): the 32 possible counts split evenly, as Stockfish does
    /// with `(pieces − 1) / 4` for 8 buckets.
    pub fn bucket_for(&self, pieces: usize) -> usize {
        (pieces.saturating_sub(1) * self.buckets() / 32).min(self.buckets() - 1)
    }

    /// A one-line summary such as
    /// `HalfKAv2_hm(Friend)[22528->256x2] -> 32 -> 32 -> 1, 8 output buckets`.
    pub fn architecture(&self) -> String {
        let mut s = format!(
            "{}[{}->{}x2]",
            self.features().name(),
            self.features().dimensions(),
            self.half_dims()
        );
        for size in self.layer_sizes() {
            s.push_str(&format!(" -> {size}"));
        }
        if self.buckets() > 1 {
            s.push_str(&format!(", {} output buckets", self.buckets()));
        }
        s
    }

    /// The raw int32 output for the given accumulators.
    pub fn raw_output(
        &self,
        kernels: &Kernels,
        acc_to_move: &[i16],
        acc_other: &[i16],
        pieces: usize,
        scratch: &mut Scratch,
    ) -> i32 {
        forward(
            kernels,
            &self.stacks[self.bucket_for(pieces)],
            acc_to_move,
            acc_other,
            scratch,
        )
    }

    /// Centipawns, side to move, for the given accumulators.
    pub fn evaluate(
        &self,
        kernels: &Kernels,
        acc_to_move: &[i16],
        acc_other: &[i16],
        pieces: usize,
        scratch: &mut Scratch,
    ) -> i32 {
        self.raw_output(kernels, acc_to_move, acc_other, pieces, scratch) / self.output_scale
    }

    /// The accumulator of `perspective` computed from scratch (the slow,
    /// obviously right reference the incremental updates are tested against).
    pub fn full_accumulator(&self, board: &Board, perspective: Color) -> Vec<i16> {
        let mut acc = self.transformer.biases.clone();
        for feature in self.features().active_features(perspective, board) {
            for (a, w) in acc.iter_mut().zip(self.transformer.row(feature)) {
                *a = a.wrapping_add(*w);
            }
        }
        acc
    }

    /// The raw output for the side to move, computed from scratch (no
    /// accumulator stack): for one-off evaluations such as `tarpon eval`.
    pub fn raw_output_board(&self, kernels: &Kernels, board: &Board, to_move: Color) -> i32 {
        let us = self.full_accumulator(board, to_move);
        let them = self.full_accumulator(board, !to_move);
        self.raw_output(
            kernels,
            &us,
            &them,
            board.occupied().count(),
            &mut Scratch::default(),
        )
    }

    /// The net built into the binary (`nets/default.nnue` at build time), or
    /// `None` while no trained net exists.
    pub fn embedded_default() -> Option<Arc<Network>> {
        static DEFAULT: OnceLock<Option<Arc<Network>>> = OnceLock::new();
        DEFAULT
            .get_or_init(|| {
                EMBEDDED_NET
                    .and_then(|bytes| Network::from_bytes(bytes).ok())
                    .map(Arc::new)
            })
            .clone()
    }
}

/// Set by build.rs when `nets/default.nnue` exists.
#[cfg(tarpon_default_net)]
const EMBEDDED_NET: Option<&[u8]> = Some(include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/nets/default.nnue"
)));
#[cfg(not(tarpon_default_net))]
const EMBEDDED_NET: Option<&[u8]> = None;
