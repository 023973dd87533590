//! The layers of a quantised NNUE: the feature transformer (sparse inputs to
//! `N` int16 neurons per perspective) and int8 dense layers with int32
//! sums. Sizes are data, not types, so any net the formats can describe runs
//! through the same code.

use super::features::FeatureSet;
use super::simd::{ACTIVATION_MAX, Kernels, SCRELU_ONE, WEIGHT_SCALE_BITS};
use crate::huge_pages::HugePageBuffer;

/// Dense-layer inputs are padded to a multiple of this, as Stockfish stores
/// them (the widest SIMD register, in bytes).
pub const INPUT_PADDING: usize = 32;

/// `n` rounded up to the padding multiple.
pub const fn padded(n: usize) -> usize {
    n.div_ceil(INPUT_PADDING) * INPUT_PADDING
}

/// Sparse inputs to `half_dims` int16 neurons, shared by both perspectives,
/// and (Stockfish 14 and later) a PSQT part: per input, one int32 per output
/// bucket, summed like the accumulator and added to the output unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureTransformer {
    pub features: FeatureSet,
    pub half_dims: usize,
    pub biases: Vec<i16>,
    /// `features.dimensions()` rows of `half_dims` weights, one row per input
    /// (on huge pages: every accumulator update reads rows at random).
    pub weights: HugePageBuffer<i16>,
    /// Buckets of the PSQT part; 0 for nets without one.
    pub psqt_buckets: usize,
    /// `features.dimensions()` rows of `psqt_buckets` weights.
    pub psqt_weights: Vec<i32>,
    /// Accumulators count `2^shift` units per activation unit and are
    /// shifted right before the clipped ReLU: finer weights than 1/127 of an
    /// activation (0 in Stockfish's nets and tarpon's before generation 4).
    pub shift: u32,
}

impl FeatureTransformer {
    /// A transformer without a PSQT part.
    pub fn new(
        features: FeatureSet,
        half_dims: usize,
        biases: Vec<i16>,
        weights: Vec<i16>,
    ) -> FeatureTransformer {
        FeatureTransformer {
            features,
            half_dims,
            biases,
            weights: HugePageBuffer::from(weights),
            psqt_buckets: 0,
            psqt_weights: Vec::new(),
            shift: 0,
        }
    }

    /// The same transformer with accumulators at `2^shift` units per
    /// activation unit.
    pub fn with_shift(self, shift: u32) -> FeatureTransformer {
        FeatureTransformer { shift, ..self }
    }

    /// The weights an active input adds to the accumulator.
    #[inline]
    pub fn row(&self, feature: usize) -> &[i16] {
        &self.weights[feature * self.half_dims..(feature + 1) * self.half_dims]
    }

    /// The PSQT weights an active input adds (empty without a PSQT part).
    #[inline]
    pub fn psqt_row(&self, feature: usize) -> &[i32] {
        let n = self.psqt_buckets;
        &self.psqt_weights[feature * n..(feature + 1) * n]
    }
}

/// One perspective's transformer output: its accumulator and its PSQT sums
/// (empty for nets without a PSQT part).
#[derive(Clone, Copy, Debug)]
pub struct Accumulated<'a> {
    pub values: &'a [i16],
    pub psqt: &'a [i32],
}

/// Adds (`sign` 1) or subtracts (`sign` −1) a PSQT row, wrapping like the
/// int32 sums of Stockfish.
#[inline]
pub fn apply_psqt(sums: &mut [i32], row: &[i32], sign: i32) {
    for (s, &w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_add(sign.wrapping_mul(w));
    }
}

/// An int8 dense layer: `outputs` rows of `padded(inputs)` weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    pub inputs: usize,
    pub outputs: usize,
    pub biases: Vec<i32>,
    /// Row-major; the padding columns are zero.
    pub weights: Vec<i8>,
}

impl Affine {
    /// A layer of zeros with the given shape.
    pub fn zeros(inputs: usize, outputs: usize) -> Affine {
        Affine {
            inputs,
            outputs,
            biases: vec![0; outputs],
            weights: vec![0; outputs * padded(inputs)],
        }
    }

    pub fn padded_inputs(&self) -> usize {
        padded(self.inputs)
    }

    /// `out = biases + weights × input`, reading the first padded-inputs
    /// bytes of `input` (zero beyond the real inputs).
    #[inline]
    pub fn propagate(&self, kernels: &Kernels, input: &[u8], out: &mut [i32]) {
        (kernels.affine)(
            &self.weights,
            &self.biases,
            &input[..self.padded_inputs()],
            out,
        );
    }

    /// The weight from input `i` to output `o`.
    pub fn weight_mut(&mut self, o: usize, i: usize) -> &mut i8 {
        let stride = self.padded_inputs();
        &mut self.weights[o * stride + i]
    }
}

/// Reusable buffers for one forward pass, so evaluation never allocates.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    activations: Vec<u8>,
    sums: Vec<i32>,
}

/// Runs the dense stack on the transformed features of both perspectives
/// (accumulators shifted right by `shift`), side to move first; returns the
/// last layer's raw int32 output.
pub fn forward(
    kernels: &Kernels,
    stack: &[Affine],
    acc_to_move: &[i16],
    acc_other: &[i16],
    shift: u32,
    scratch: &mut Scratch,
) -> i32 {
    let half = acc_to_move.len();
    let widest = stack
        .iter()
        .map(Affine::padded_inputs)
        .max()
        .unwrap_or(0)
        .max(2 * half);
    scratch.activations.resize(widest, 0);
    scratch
        .sums
        .resize(stack.iter().map(|l| l.outputs).max().unwrap_or(1), 0);

    (kernels.clipped_relu16)(acc_to_move, &mut scratch.activations[..half], shift);
    (kernels.clipped_relu16)(acc_other, &mut scratch.activations[half..2 * half], shift);
    scratch.activations[2 * half..padded(2 * half)].fill(0);
    let Some((last, hidden)) = stack.split_last() else {
        return 0;
    };
    for layer in hidden {
        let sums = &mut scratch.sums[..layer.outputs];
        layer.propagate(kernels, &scratch.activations, sums);
        let next = padded(layer.outputs);
        (kernels.clipped_relu32)(sums, &mut scratch.activations[..layer.outputs]);
        scratch.activations[layer.outputs..next].fill(0);
    }
    let mut out = [0i32; 1];
    last.propagate(kernels, &scratch.activations, &mut out);
    out[0]
}

/// The output layer of the squared clipped ReLU head, one row per output
/// bucket: `2N` int16 weights (side to move's half first; 1.0 =
/// [`SCRELU_WEIGHT_ONE`], at most ±127) and an int32 bias (1.0 = `QA × QB`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScreluOutput {
    /// `buckets × 2N`, bucket-major.
    pub weights: Vec<i16>,
    pub biases: Vec<i32>,
}

/// An output weight of 1.0 in the squared clipped ReLU head (`QB`).
pub const SCRELU_WEIGHT_ONE: i32 = 64;

impl ScreluOutput {
    pub fn buckets(&self) -> usize {
        self.biases.len()
    }

    /// Output bucket `bucket`'s weights.
    pub fn row(&self, bucket: usize) -> &[i16] {
        let width = self.weights.len() / self.buckets().max(1);
        &self.weights[bucket * width..(bucket + 1) * width]
    }
}

/// The squared clipped ReLU head of output bucket `bucket` on the
/// accumulators of both perspectives, side to move first: `Σ clamp(acc, 0,
/// QA)² × w / QA + b`, in units of `QA × QB` per 1.0 (the sum wraps in
/// i32; see [`super::simd::ScreluDotFn`] for why real nets never get near).
pub fn forward_screlu(
    kernels: &Kernels,
    output: &ScreluOutput,
    bucket: usize,
    acc_to_move: &[i16],
    acc_other: &[i16],
) -> i32 {
    let (w_to_move, w_other) = output.row(bucket).split_at(acc_to_move.len());
    let sum = (kernels.screlu_dot)(acc_to_move, w_to_move)
        .wrapping_add((kernels.screlu_dot)(acc_other, w_other));
    (sum / SCRELU_ONE).wrapping_add(output.biases[bucket])
}

/// Stockfish's output scale (`FV_SCALE`, the same in 12 and 15.1): the raw
/// output divided by this is its internal evaluation unit.
pub const STOCKFISH_OUTPUT_SCALE: i32 = 16;

/// Stockfish 15.1's dense stack on the accumulators of both perspectives,
/// side to move first; returns its "positional" output (before the PSQT sum
/// is added and the output scale divides).
///
/// Each perspective's accumulator is cut in two halves multiplied pairwise
/// (one byte per pair); `fc_0` maps them to `k + 1` outputs, of which the
/// first `k` go through a squared clipped ReLU and a plain one, side by side,
/// into `fc_1` (→ clipped ReLU → `fc_2`), while the last skips ahead, scaled
/// from 127 × 64 per unit to 600 × 16, into the output.
pub fn forward_stockfish15(
    kernels: &Kernels,
    stack: &[Affine],
    acc_to_move: &[i16],
    acc_other: &[i16],
    scratch: &mut Scratch,
) -> i32 {
    // Network::new admits no other shape.
    let [fc_0, fc_1, fc_2] = stack else {
        return 0;
    };
    let half = acc_to_move.len() / 2;
    let k = fc_0.outputs - 1;
    scratch
        .activations
        .resize(fc_0.padded_inputs().max(fc_1.padded_inputs()), 0);
    scratch.sums.resize(fc_0.outputs.max(fc_1.outputs), 0);

    let transformed = &mut scratch.activations;
    (kernels.pairwise)(acc_to_move, &mut transformed[..half]);
    (kernels.pairwise)(acc_other, &mut transformed[half..2 * half]);
    transformed[2 * half..fc_0.padded_inputs()].fill(0);
    let fc_0_out = &mut scratch.sums[..fc_0.outputs];
    fc_0.propagate(kernels, transformed, fc_0_out);
    let skip = fc_0_out[k];

    let hidden = &mut scratch.activations;
    sqr_clipped_relu(&fc_0_out[..k], &mut hidden[..k]);
    (kernels.clipped_relu32)(&fc_0_out[..k], &mut hidden[k..2 * k]);
    hidden[2 * k..fc_1.padded_inputs()].fill(0);
    let fc_1_out = &mut scratch.sums[..fc_1.outputs];
    fc_1.propagate(kernels, hidden, fc_1_out);
    (kernels.clipped_relu32)(fc_1_out, &mut hidden[..fc_1.outputs]);
    hidden[fc_1.outputs..fc_2.padded_inputs()].fill(0);
    let mut out = [0i32; 1];
    fc_2.propagate(kernels, hidden, &mut out);
    // Integer arithmetic exactly as Stockfish's: 32-bit, truncating division.
    let forwarded = skip.wrapping_mul(600 * STOCKFISH_OUTPUT_SCALE) / (127 << WEIGHT_SCALE_BITS);
    out[0].wrapping_add(forwarded)
}

/// `clamp(x² / 2^19, 0, 127)`: the square of the value read as 1.0 = 127 × 64,
/// scaled back to 1.0 = 128 (Stockfish's "really should be /127").
pub fn sqr_clipped_relu(src: &[i32], dst: &mut [u8]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        let square = i64::from(s) * i64::from(s);
        *d = (square >> (2 * WEIGHT_SCALE_BITS + 7)).min(i64::from(ACTIVATION_MAX)) as u8;
    }
}
