//! A whole quantised net: feature transformer plus one stack of dense layers
//! per output bucket, and the scale that turns its output into centipawns.

use std::fmt;
use std::sync::{Arc, OnceLock};

use shakmaty::Color;

use crate::position::Board;

use super::features::FeatureSet;
use super::layers::{
    Accumulated, Affine, FeatureTransformer, SCRELU_WEIGHT_ONE, STOCKFISH_OUTPUT_SCALE, Scratch,
    ScreluOutput, apply_psqt, forward, forward_screlu, forward_stockfish15,
};
use super::simd::{Kernels, MAX_TRANSFORMER_SHIFT, SCRELU_ONE, SCRELU_WEIGHT_MAX};

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
/// The output bucket, of `buckets`, for a position with `pieces` pieces
/// (see [`Network::bucket_for`]); the trainer uses the same rule.
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(1) * buckets / 32).min(buckets.saturating_sub(1))
}

/// Most output buckets accepted (one per possible piece count).
pub const MAX_BUCKETS: usize = 32;

/// How the transformer's output becomes an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// tarpon's nets and Stockfish 12's: clipped ReLU of both accumulators,
    /// then affine layers with clipped ReLUs between them; the output divided
    /// by the output scale is centipawns.
    Plain,
    /// Stockfish 15.1's ([`forward_stockfish15`]) plus the PSQT sums; the
    /// output divided by the output scale is Stockfish's internal unit,
    /// turned into centipawns as its UCI output does.
    Stockfish15,
    /// The squared clipped ReLU head ([`forward_screlu`]): one int16 output
    /// layer per bucket straight from both accumulators; the output times
    /// the output scale over `QA × QB` is centipawns.
    Screlu,
}

/// Raw output units per 1.0 of the SCReLU head (`QA × QB`).
pub const SCRELU_RAW_PER_UNIT: i64 = (SCRELU_ONE * SCRELU_WEIGHT_ONE) as i64;
/// Centipawns per output 1.0 that tarpon's trainer gives SCReLU nets.
pub const SCRELU_OUTPUT_SCALE: i32 = 400;

/// Stockfish 15.1's internal units per pawn (`NormalizeToPawnValue`), in
/// its UCI output (`cp = value × 100 / 361`) and in what its `eval` command
/// prints (`value / 361` pawns, two decimals).
pub const STOCKFISH15_UNITS_PER_PAWN: i32 = 361;

#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub head: Head,
    pub transformer: FeatureTransformer,
    /// One dense stack per output bucket; every stack has the same shape, its
    /// first layer reads `2 × half_dims` inputs and its last has one output.
    /// Empty for the SCReLU head.
    pub stacks: Vec<Vec<Affine>>,
    /// The SCReLU head's output layers (empty for the other heads).
    pub screlu: ScreluOutput,
    /// The raw output divided by this is the evaluation in centipawns
    /// (Stockfish 12's FV_SCALE is 16); for the SCReLU head, centipawns per
    /// output 1.0 (`QA × QB` raw units).
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
    /// A plain net (tarpon's, Stockfish 12's); checks that the parts fit together.
    pub fn new(
        transformer: FeatureTransformer,
        stacks: Vec<Vec<Affine>>,
        output_scale: i32,
        description: String,
    ) -> Result<Network, NetError> {
        let bad = |m: String| Err(NetError::Architecture(m));
        check_transformer(&transformer)?;
        if transformer.psqt_buckets != 0 {
            return bad("a PSQT part needs the Stockfish 15.1 head".into());
        }
        if transformer.shift > MAX_TRANSFORMER_SHIFT {
            return bad(format!(
                "accumulator shift {} (at most {MAX_TRANSFORMER_SHIFT})",
                transformer.shift
            ));
        }
        check_buckets(&stacks)?;
        if output_scale <= 0 {
            return bad(format!("output scale {output_scale}"));
        }
        for stack in &stacks {
            if stack.is_empty() {
                return bad("an empty dense stack".into());
            }
            check_single_output(check_chain(stack, 2 * transformer.half_dims)?)?;
        }
        Ok(Network {
            head: Head::Plain,
            transformer,
            stacks,
            screlu: ScreluOutput::default(),
            output_scale,
            description,
        })
    }

    /// A net in Stockfish 15.1's architecture: a HalfKAv2_hm transformer
    /// with one PSQT bucket per dense stack, and stacks `fc_0: half_dims → k
    /// + 1`, `fc_1: 2k → m`, `fc_2: m → 1` (k = 15, m = 32 in its nets).
    pub fn new_stockfish15(
        transformer: FeatureTransformer,
        stacks: Vec<Vec<Affine>>,
        description: String,
    ) -> Result<Network, NetError> {
        let bad = |m: String| Err(NetError::Architecture(m));
        check_transformer(&transformer)?;
        check_buckets(&stacks)?;
        if transformer.features != FeatureSet::HalfKAv2Hm {
            return bad("the Stockfish 15.1 head reads HalfKAv2_hm features".into());
        }
        if transformer.shift != 0 {
            return bad("the Stockfish 15.1 head has no accumulator shift".into());
        }
        if transformer.psqt_buckets != stacks.len() {
            return bad(format!(
                "{} PSQT buckets for {} dense stacks",
                transformer.psqt_buckets,
                stacks.len()
            ));
        }
        if transformer.psqt_weights.len()
            != transformer.psqt_buckets * transformer.features.dimensions()
        {
            return Err(NetError::Malformed("PSQT parameter count".into()));
        }
        for stack in &stacks {
            let [fc_0, fc_1, _] = &stack[..] else {
                return bad(format!("{} dense layers, not 3", stack.len()));
            };
            if fc_0.outputs < 2 || fc_1.inputs != 2 * (fc_0.outputs - 1) {
                return bad(format!(
                    "fc_0 with {} outputs feeding fc_1 with {} inputs (needs 2 × (outputs − 1))",
                    fc_0.outputs, fc_1.inputs
                ));
            }
            check_chain(&stack[..1], transformer.half_dims)?;
            check_single_output(check_chain(&stack[1..], fc_1.inputs)?)?;
        }
        Ok(Network {
            head: Head::Stockfish15,
            transformer,
            stacks,
            screlu: ScreluOutput::default(),
            output_scale: STOCKFISH_OUTPUT_SCALE,
            description,
        })
    }

    /// A net with the squared clipped ReLU head: a transformer without
    /// shift or PSQT part (1.0 = `QA` = 255 in its accumulators), output
    /// weights within ±127 (what the kernels' i16 products need) and
    /// `output_scale` centipawns per output 1.0.
    pub fn new_screlu(
        transformer: FeatureTransformer,
        output: ScreluOutput,
        output_scale: i32,
        description: String,
    ) -> Result<Network, NetError> {
        let bad = |m: String| Err(NetError::Architecture(m));
        check_transformer(&transformer)?;
        if transformer.psqt_buckets != 0 || transformer.shift != 0 {
            return bad("the SCReLU head has no PSQT part and no accumulator shift".into());
        }
        let buckets = output.buckets();
        if buckets == 0 || buckets > MAX_BUCKETS {
            return bad(format!(
                "{buckets} output buckets (1 to {MAX_BUCKETS} supported)"
            ));
        }
        if output.weights.len() != buckets * 2 * transformer.half_dims {
            return Err(NetError::Malformed("SCReLU output parameter count".into()));
        }
        if let Some(w) = output.weights.iter().find(|w| w.abs() > SCRELU_WEIGHT_MAX) {
            return bad(format!(
                "SCReLU output weight {w} (at most ±{SCRELU_WEIGHT_MAX})"
            ));
        }
        if output_scale <= 0 {
            return bad(format!("output scale {output_scale}"));
        }
        Ok(Network {
            head: Head::Screlu,
            transformer,
            stacks: Vec::new(),
            screlu: output,
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
        match self.head {
            Head::Screlu => self.screlu.buckets(),
            Head::Plain | Head::Stockfish15 => self.stacks.len(),
        }
    }

    /// Output sizes of the dense layers, the final 1 included (just that
    /// for the SCReLU head).
    pub fn layer_sizes(&self) -> Vec<usize> {
        match self.stacks.first() {
            Some(stack) => stack.iter().map(|l| l.outputs).collect(),
            None => vec![1],
        }
    }

    /// The output bucket for a position with `pieces` pieces (kings
    /// included): the 32 possible counts split evenly, as Stockfish does
    /// with `(pieces − 1) / 4` for 8 buckets.
    pub fn bucket_for(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets())
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
        match self.head {
            Head::Stockfish15 => s.push_str(" pairwise"),
            Head::Screlu => s.push_str(" SCReLU"),
            Head::Plain => {}
        }
        if let FeatureSet::Chess768(buckets) = self.features() {
            s.push_str(&format!(" ({} king buckets)", buckets.count()));
        }
        for size in self.layer_sizes() {
            s.push_str(&format!(" -> {size}"));
        }
        if self.buckets() > 1 {
            s.push_str(&format!(", {} output buckets", self.buckets()));
        }
        if self.transformer.shift > 0 {
            s.push_str(&format!(
                ", accumulator x{}",
                1u32 << self.transformer.shift
            ));
        }
        if self.head == Head::Stockfish15 {
            s.push_str(&format!(
                ", {} PSQT buckets (Stockfish 15.1)",
                self.transformer.psqt_buckets
            ));
        }
        s
    }

    /// The raw int32 output for the accumulators of the side to move and
    /// the other side: divided by the output scale, centipawns for plain
    /// nets, Stockfish's internal unit for Stockfish 15.1 nets; see
    /// [`Network::centipawns`] for the SCReLU head.
    pub fn raw_output(
        &self,
        kernels: &Kernels,
        to_move: Accumulated<'_>,
        other: Accumulated<'_>,
        pieces: usize,
        scratch: &mut Scratch,
    ) -> i32 {
        let bucket = self.bucket_for(pieces);
        match self.head {
            Head::Screlu => {
                forward_screlu(kernels, &self.screlu, bucket, to_move.values, other.values)
            }
            Head::Plain => forward(
                kernels,
                &self.stacks[bucket],
                to_move.values,
                other.values,
                self.transformer.shift,
                scratch,
            ),
            Head::Stockfish15 => {
                let psqt = to_move.psqt[bucket].wrapping_sub(other.psqt[bucket]) / 2;
                let positional = forward_stockfish15(
                    kernels,
                    &self.stacks[bucket],
                    to_move.values,
                    other.values,
                    scratch,
                );
                psqt.wrapping_add(positional)
            }
        }
    }

    /// Centipawns (side to move) for a raw output: Stockfish 15.1 nets go
    /// through its internal unit and its UCI conversion, truncating as it does.
    pub fn centipawns(&self, raw: i32) -> i32 {
        match self.head {
            Head::Plain => raw / self.output_scale,
            Head::Stockfish15 => raw / self.output_scale * 100 / STOCKFISH15_UNITS_PER_PAWN,
            Head::Screlu => {
                // i64: the product can leave i32 for large outputs.
                let cp = i64::from(raw) * i64::from(self.output_scale) / SCRELU_RAW_PER_UNIT;
                cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
            }
        }
    }

    /// Centipawns, side to move, for the given accumulators.
    pub fn evaluate(
        &self,
        kernels: &Kernels,
        to_move: Accumulated<'_>,
        other: Accumulated<'_>,
        pieces: usize,
        scratch: &mut Scratch,
    ) -> i32 {
        self.centipawns(self.raw_output(kernels, to_move, other, pieces, scratch))
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

    /// The PSQT sums of `perspective` computed from scratch (empty for nets
    /// without a PSQT part).
    pub fn full_psqt(&self, board: &Board, perspective: Color) -> Vec<i32> {
        let mut sums = vec![0; self.transformer.psqt_buckets];
        for feature in self.features().active_features(perspective, board) {
            apply_psqt(&mut sums, self.transformer.psqt_row(feature), 1);
        }
        sums
    }

    /// The raw output for the side to move, computed from scratch (no
    /// accumulator stack): for one-off evaluations such as `tarpon eval`.
    pub fn raw_output_board(&self, kernels: &Kernels, board: &Board, to_move: Color) -> i32 {
        let us = self.full_accumulator(board, to_move);
        let them = self.full_accumulator(board, !to_move);
        let us_psqt = self.full_psqt(board, to_move);
        let them_psqt = self.full_psqt(board, !to_move);
        self.raw_output(
            kernels,
            Accumulated {
                values: &us,
                psqt: &us_psqt,
            },
            Accumulated {
                values: &them,
                psqt: &them_psqt,
            },
            board.occupied().count(),
            &mut Scratch::default(),
        )
    }

    /// The net built into the binary (`nets/default.nnue` at build time), or
    /// `None` while no trained net exists, or when the built-in net does not
    /// load: then [`Network::embedded_default_error`] says why, and the first
    /// call says so on stderr, so a bad `EVALFILE` never passes unnoticed as
    /// a PST engine.
    pub fn embedded_default() -> Option<Arc<Network>> {
        embedded().as_ref().ok().cloned().flatten()
    }

    /// Why the net built into the binary does not load, when it does not.
    pub fn embedded_default_error() -> Option<String> {
        embedded().as_ref().err().cloned()
    }
}

fn embedded() -> &'static Result<Option<Arc<Network>>, String> {
    static DEFAULT: OnceLock<Result<Option<Arc<Network>>, String>> = OnceLock::new();
    DEFAULT.get_or_init(|| {
        let loaded = load_embedded(EMBEDDED_NET);
        if let Err(e) = &loaded {
            eprintln!("error: {e}; this binary evaluates with the PST instead");
        }
        loaded
    })
}

/// Reads the bytes build.rs embedded (`None`: no net was embedded).
fn load_embedded(bytes: Option<&[u8]>) -> Result<Option<Arc<Network>>, String> {
    bytes
        .map(|b| {
            Network::from_bytes(b)
                .map(Arc::new)
                .map_err(|e| format!("the net built into this binary does not load: {e}"))
        })
        .transpose()
}

/// The transformer's width and parameter counts.
fn check_transformer(transformer: &FeatureTransformer) -> Result<(), NetError> {
    let n = transformer.half_dims;
    if n == 0 || n > MAX_HALF_DIMS || !n.is_multiple_of(16) {
        return Err(NetError::Architecture(format!(
            "feature transformer width {n} (must be a multiple of 16, at most {MAX_HALF_DIMS})"
        )));
    }
    if transformer.biases.len() != n
        || transformer.weights.len() != n * transformer.features.dimensions()
        || transformer.psqt_weights.len()
            != transformer.psqt_buckets * transformer.features.dimensions()
    {
        return Err(NetError::Malformed(
            "feature transformer parameter count".into(),
        ));
    }
    Ok(())
}

/// The number of stacks, and that they all have one shape.
fn check_buckets(stacks: &[Vec<Affine>]) -> Result<(), NetError> {
    if stacks.is_empty() || stacks.len() > MAX_BUCKETS {
        return Err(NetError::Architecture(format!(
            "{} output buckets (1 to {MAX_BUCKETS} supported)",
            stacks.len()
        )));
    }
    let shape = |stack: &Vec<Affine>| -> Vec<(usize, usize)> {
        stack.iter().map(|l| (l.inputs, l.outputs)).collect()
    };
    if stacks.iter().any(|stack| shape(stack) != shape(&stacks[0])) {
        return Err(NetError::Architecture(
            "output buckets with different layer shapes".into(),
        ));
    }
    Ok(())
}

/// Layers that feed each other, the first reading `inputs` values; returns
/// the width of the last.
fn check_chain(layers: &[Affine], mut inputs: usize) -> Result<usize, NetError> {
    for layer in layers {
        if layer.inputs != inputs || layer.outputs == 0 || layer.outputs > MAX_LAYER_WIDTH {
            return Err(NetError::Architecture(format!(
                "dense layer {}->{} after {inputs} outputs",
                layer.inputs, layer.outputs
            )));
        }
        if layer.biases.len() != layer.outputs
            || layer.weights.len() != layer.outputs * layer.padded_inputs()
        {
            return Err(NetError::Malformed("dense layer parameter count".into()));
        }
        inputs = layer.outputs;
    }
    Ok(inputs)
}

fn check_single_output(outputs: usize) -> Result<(), NetError> {
    if outputs == 1 {
        Ok(())
    } else {
        Err(NetError::Architecture(format!(
            "last layer has {outputs} outputs, not 1"
        )))
    }
}

/// The net build.rs chose (`EVALFILE`, else `nets/default.nnue` when it exists).
#[cfg(tarpon_default_net)]
const EMBEDDED_NET: Option<&[u8]> = Some(include_bytes!(env!("TARPON_EMBEDDED_NET")));
#[cfg(not(tarpon_default_net))]
const EMBEDDED_NET: Option<&[u8]> = None;

#[cfg(test)]
mod tests {
    use super::*;

    /// A bad `EVALFILE` at build time fails the test suite here instead of
    /// showing only as a wrong bench.
    #[test]
    fn the_net_built_into_the_binary_loads() {
        assert_eq!(Network::embedded_default_error(), None);
        assert_eq!(
            Network::embedded_default().is_some(),
            EMBEDDED_NET.is_some()
        );
    }

    #[test]
    fn embedded_bytes_that_are_no_net_are_an_error_not_a_silent_pst() {
        let error = load_embedded(Some(b"not a net at all")).err();
        assert!(error.is_some_and(|e| e.contains("does not load")));
        assert!(matches!(load_embedded(None), Ok(None)));
    }
}
