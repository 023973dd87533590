//! The layers of a quantised NNUE: the feature transformer (sparse inputs to
//! `N` int16 neurons per perspective) and int8 dense layers with int32
//! sums. Sizes are data, not types, so any net the formats can describe runs
//! through the same code.

use super::features::FeatureSet;
use super::simd::Kernels;

/// Dense-layer inputs are padded to a multiple of this, as Stockfish stores
/// them (the widest SIMD register, in bytes).
pub const INPUT_PADDING: usize = 32;

/// `n` rounded up to the padding multiple.
pub const fn padded(n: usize) -> usize {
    n.div_ceil(INPUT_PADDING) * INPUT_PADDING
}

/// Sparse inputs to `half_dims` int16 neurons, shared by both perspectives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureTransformer {
    pub features: FeatureSet,
    pub half_dims: usize,
    pub biases: Vec<i16>,
    /// `features.dimensions()` rows of `half_dims` weights, one row per input.
    pub weights: Vec<i16>,
}

impl FeatureTransformer {
    /// The weights an active input adds to the accumulator.
    #[inline]
    pub fn row(&self, feature: usize) -> &[i16] {
        &self.weights[feature * self.half_dims..(feature + 1) * self.half_dims]
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

/// Runs the dense stack on the transformed features of both perspectives,
/// side to move first; returns the last layer's raw int32 output.
pub fn forward(
    kernels: &Kernels,
    stack: &[Affine],
    acc_to_move: &[i16],
    acc_other: &[i16],
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

    (kernels.clipped_relu16)(acc_to_move, &mut scratch.activations[..half]);
    (kernels.clipped_relu16)(acc_other, &mut scratch.activations[half..2 * half]);
    scratch.activations[2 * half..padded(2 * half)].fill(0);
    let Some((last, hidden)) = stack.split_last() else {
        return 0;
    };
    for layer in hidden {
        let sums = &mut scratch.sums[..layer.outputs];
        (kernels.affine)(
            &layer.weights,
            &layer.biases,
            &scratch.activations[..layer.padded_inputs()],
            sums,
        );
        let next = padded(layer.outputs);
        (kernels.clipped_relu32)(sums, &mut scratch.activations[..layer.outputs]);
        scratch.activations[layer.outputs..next].fill(0);
    }
    let mut out = [0i32; 1];
    (kernels.affine)(
        &last.weights,
        &last.biases,
        &scratch.activations[..last.padded_inputs()],
        &mut out,
    );
    out[0]
}
