//! The float model the trainer optimises: the same architecture as the
//! quantised inference net (`eval::nnue`), feature transformer to `N` neurons
//! per perspective, then one of two heads ([`Head`]), with one stack of dense
//! layers per output bucket (chosen by the number of pieces):
//!
//! * [`Head::Plain`]: clipped ReLU, dense layers `2N → h1 → h2 → 1`;
//! * [`Head::Screlu`]: squared clipped ReLU, one dense layer `2N → 1`;
//!
//! plus factoriser rows that the export folds into the king-bucketed weights.
//!
//! Units are chosen so quantisation is a plain scaling (see [`Model::quantise`]):
//! activations live in [0, 1] (127 in the int8 net, 255² under SCReLU),
//! weights are clipped to what their quantised type can hold, and the output
//! times [`Model::cp_per_unit`] is centipawns from the side to move's point
//! of view.

use shakmaty::{Color, Piece, Square};

use crate::eval::nnue::features::{CHESS768_PER_BUCKET, KingBuckets};
use crate::eval::nnue::layers::{
    Affine, FeatureTransformer, SCRELU_WEIGHT_ONE, STOCKFISH_OUTPUT_SCALE, ScreluOutput,
};
use crate::eval::nnue::network::{Head, SCRELU_OUTPUT_SCALE, output_bucket};
use crate::eval::nnue::simd::{ACTIVATION_MAX, SCRELU_ONE, SCRELU_WEIGHT_MAX, WEIGHT_SCALE_BITS};
use crate::eval::nnue::{FeatureSet, NetError, Network};
use crate::rng::SplitMix64;

/// Float output 1.0 is this many centipawns (the plain head; see
/// [`Model::cp_per_unit`]).
pub const CP_PER_UNIT: f32 = 600.0;
/// Activation 1.0 in the float model is this integer in the quantised one.
const ACTIVATION_ONE: f32 = ACTIVATION_MAX as f32;
/// Hidden-layer weight 1.0 is this integer (the inference shifts sums right
/// by `WEIGHT_SCALE_BITS`).
const HIDDEN_WEIGHT_ONE: f32 = (1 << WEIGHT_SCALE_BITS) as f32;
/// The inference divides the raw output by this to get centipawns.
const OUTPUT_SCALE: i32 = STOCKFISH_OUTPUT_SCALE;
/// Output-layer weight 1.0 is this integer: raw = Σ w_q · 127a + b_q must
/// equal OUTPUT_SCALE · CP_PER_UNIT · (Σ w a + b).
const OUTPUT_WEIGHT_ONE: f32 = OUTPUT_SCALE as f32 * CP_PER_UNIT / ACTIVATION_ONE;

/// Largest magnitude a hidden weight may take so int8 holds it.
pub const HIDDEN_WEIGHT_LIMIT: f32 = 127.0 / HIDDEN_WEIGHT_ONE;
/// Largest magnitude an output weight may take so int8 holds it.
pub const OUTPUT_WEIGHT_LIMIT: f32 = 127.0 / OUTPUT_WEIGHT_ONE;
/// The accumulator shift of exported nets: transformer weights are
/// quantised at 127 × 2^shift per unit, four times finer than the
/// activations, and the inference shifts the sums back before its clipped
/// ReLU. At 127 per unit the rounding of some 60 rows per accumulator moved
/// the evaluation by 20–40 cp on average.
pub const TRANSFORMER_SHIFT: u32 = 2;
/// Transformer weight 1.0 is this integer in exported nets.
const TRANSFORMER_WEIGHT_ONE: f32 = ACTIVATION_ONE * (1 << TRANSFORMER_SHIFT) as f32;
/// Largest feature-transformer weight or bias: a full accumulator (32
/// features plus the bias) must still fit int16 after scaling.
pub const TRANSFORMER_WEIGHT_LIMIT: f32 = 32767.0 / TRANSFORMER_WEIGHT_ONE / 33.0;
/// Half a unit of the accumulator shift, added to the transformer biases
/// so the inference's floor shift rounds.
const TRANSFORMER_ROUNDING: i16 = (1 << TRANSFORMER_SHIFT) / 2;

/// SCReLU head: transformer weight 1.0 is `QA` (no shift).
const SCRELU_TRANSFORMER_ONE: f32 = SCRELU_ONE as f32;
/// SCReLU head: largest feature-transformer weight or bias. A full
/// accumulator (32 features plus the bias) then stays within
/// 33 × 992 = 32736 ≤ i16::MAX whatever the position: no overflow at all,
/// not just in practice.
pub const SCRELU_TRANSFORMER_LIMIT: f32 = (32767 / 33) as f32 / SCRELU_TRANSFORMER_ONE;
/// SCReLU head: output weight 1.0 is `QB`; the limit keeps the quantised
/// weights within ±127, which the kernels' i16 products need.
const SCRELU_OUTPUT_ONE: f32 = SCRELU_WEIGHT_ONE as f32;
pub const SCRELU_OUTPUT_LIMIT: f32 = SCRELU_WEIGHT_MAX as f32 / SCRELU_OUTPUT_ONE;

/// Inputs per king slot (HalfKP: 641 per king square; HalfKAv2_hm: 704 per
/// king bucket; Chess768: 768 per king bucket). A feature's factoriser row is
/// its index modulo this: the same piece on the same (oriented) square,
/// whatever the king. 0 (no factoriser) for a single king bucket, where it
/// would only repeat every row.
pub fn factor_width(set: FeatureSet) -> usize {
    match set {
        FeatureSet::HalfKP => set.dimensions() / 64,
        FeatureSet::HalfKAv2Hm => set.dimensions() / 32,
        FeatureSet::Chess768(buckets) if buckets.count() > 1 => CHESS768_PER_BUCKET,
        FeatureSet::Chess768(_) => 0,
    }
}

/// A fresh transformer neuron's input weight: small, so no feature dominates.
fn fresh_ft_weight(rng: &mut SplitMix64) -> f32 {
    rng.symmetric_f32(0.02)
}

/// A fresh transformer neuron's bias, spread over the linear part of the
/// clipped ReLU so every neuron starts out passing gradient.
fn fresh_ft_bias(rng: &mut SplitMix64) -> f32 {
    0.25 + rng.symmetric_f32(0.2)
}

/// A dense layer in float: `outputs` rows of `inputs` weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    pub weights: Vec<f32>,
    pub biases: Vec<f32>,
}

impl Dense {
    fn random(inputs: usize, outputs: usize, rng: &mut SplitMix64) -> Dense {
        let bound = (1.0 / inputs as f32).sqrt();
        Dense {
            inputs,
            outputs,
            weights: (0..inputs * outputs)
                .map(|_| rng.symmetric_f32(bound))
                .collect(),
            biases: (0..outputs).map(|_| rng.symmetric_f32(bound)).collect(),
        }
    }
}

/// Dense layers per output bucket of the plain head: `2N → h1`, `h1 → h2`, `h2 → 1`.
pub const STACK_LAYERS: usize = 3;

/// The float net.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub features: FeatureSet,
    /// [`Head::Plain`] or [`Head::Screlu`] (Stockfish 15.1's is not trained).
    pub head: Head,
    pub half_dims: usize,
    /// `features.dimensions()` king-bucketed rows, then `factor_width` factoriser
    /// rows, each `half_dims` wide.
    pub ft_weights: Vec<f32>,
    pub ft_biases: Vec<f32>,
    /// The dense stacks of every output bucket, one after the other:
    /// bucket `b` is `layers[kb..kb + k]` with `k` =
    /// [`Model::stack_layers`] (see [`Model::stack`]). Keeping
    /// them in one list lets the optimiser and the checkpoint treat every
    /// dense layer alike.
    pub layers: Vec<Dense>,
}

/// The active rows of one perspective: real features and their factoriser rows.
pub type ActiveRows = Vec<u32>;

impl Model {
    /// A random model with the plain head, hidden layers `hidden`.
    pub fn random(features: FeatureSet, half_dims: usize, hidden: [usize; 2], seed: u64) -> Model {
        let sizes = [2 * half_dims, hidden[0], hidden[1], 1];
        Model::random_with(features, Head::Plain, &sizes, seed)
    }

    /// A random model with the SCReLU head.
    pub fn random_screlu(features: FeatureSet, half_dims: usize, seed: u64) -> Model {
        Model::random_with(features, Head::Screlu, &[2 * half_dims, 1], seed)
    }

    /// `sizes` are the dense stack's, from the transformer's `2N` to 1.
    fn random_with(features: FeatureSet, head: Head, sizes: &[usize], seed: u64) -> Model {
        let half_dims = sizes[0] / 2;
        let mut rng = SplitMix64::new(seed);
        let rows = features.dimensions() + factor_width(features);
        let ft_weights = (0..rows * half_dims)
            .map(|_| fresh_ft_weight(&mut rng))
            .collect();
        let ft_biases = (0..half_dims).map(|_| fresh_ft_bias(&mut rng)).collect();
        let layers = sizes
            .windows(2)
            .map(|io| Dense::random(io[0], io[1], &mut rng))
            .collect();
        let mut model = Model {
            features,
            head,
            half_dims,
            ft_weights,
            ft_biases,
            layers,
        };
        model.clip();
        model
    }

    /// The same model with `buckets` output buckets, each a copy of this
    /// model's single dense stack (buckets then train apart on their own
    /// positions). `None` unless the model has exactly one bucket.
    pub fn with_buckets(mut self, buckets: usize) -> Option<Model> {
        if self.buckets() != 1 || buckets == 0 {
            return None;
        }
        let stack = self.layers.clone();
        for _ in 1..buckets {
            self.layers.extend(stack.iter().cloned());
        }
        Some(self)
    }

    pub fn buckets(&self) -> usize {
        self.layers.len() / self.stack_layers()
    }

    /// The same Chess768 model over the king buckets `target`, which must
    /// refine this model's layout (every target bucket's squares lie in one
    /// bucket here), so the new model computes exactly what this one does
    /// and fine-tuning learns only how the buckets differ. A one-bucket
    /// model's weights become the factoriser rows, which every bucket
    /// shares, and the buckets' own rows start at zero; a bucketed model's
    /// buckets are copied into the buckets they split, its factoriser rows
    /// kept. None from any other model or for a layout that is no refinement.
    pub fn with_king_buckets(self, target: KingBuckets) -> Option<Model> {
        let FeatureSet::Chess768(source) = self.features else {
            return None;
        };
        let to = FeatureSet::Chess768(target);
        if factor_width(to) == 0 {
            return None;
        }
        let block = CHESS768_PER_BUCKET * self.half_dims;
        let rows = |bucket: usize| &self.ft_weights[bucket * block..(bucket + 1) * block];
        let weight_count = (to.dimensions() + factor_width(to)) * self.half_dims;
        let mut ft_weights = Vec::with_capacity(weight_count);
        if source.count() == 1 {
            debug_assert_eq!(self.ft_weights.len(), block);
            ft_weights.resize(to.dimensions() * self.half_dims, 0.0);
            ft_weights.extend_from_slice(rows(0));
        } else {
            let mut parents: Vec<Option<u8>> = vec![None; target.count()];
            for (&child, &parent) in target.table().iter().zip(source.table().iter()) {
                match parents[usize::from(child)] {
                    Some(known) if known != parent => return None,
                    _ => parents[usize::from(child)] = Some(parent),
                }
            }
            for parent in parents {
                ft_weights.extend_from_slice(rows(usize::from(parent?)));
            }
            ft_weights.extend_from_slice(&self.ft_weights[source.count() * block..]);
        }
        debug_assert_eq!(ft_weights.len(), weight_count);
        Some(Model {
            features: to,
            ft_weights,
            ..self
        })
    }

    /// The same model with `half_dims` transformer neurons a perspective,
    /// more than it has. The new neurons get small random input weights and
    /// spread biases like a fresh model's, but the first dense layer of every
    /// stack reads them with weight zero, so the new model computes exactly
    /// what this one does; training then teaches the new neurons what the old
    /// ones miss (a net grown as its data grows, instead of one started
    /// over). None unless `half_dims` is larger.
    pub fn with_hidden(self, half_dims: usize, seed: u64) -> Option<Model> {
        let old = self.half_dims;
        if half_dims <= old {
            return None;
        }
        let stack_layers = self.stack_layers();
        let mut rng = SplitMix64::new(seed);
        let ft_weights = self
            .ft_weights
            .chunks_exact(old)
            .flat_map(|row| {
                let fresh: Vec<f32> = (old..half_dims)
                    .map(|_| fresh_ft_weight(&mut rng))
                    .collect();
                row.iter().copied().chain(fresh)
            })
            .collect();
        let mut ft_biases = self.ft_biases;
        ft_biases.extend((old..half_dims).map(|_| fresh_ft_bias(&mut rng)));
        let layers = self
            .layers
            .into_iter()
            .enumerate()
            .map(|(i, layer)| {
                if i % stack_layers != 0 {
                    return layer;
                }
                // The first layer reads [us; them]: each half gains zero columns.
                debug_assert_eq!(layer.inputs, 2 * old);
                let zeros = half_dims - old;
                let weights = layer
                    .weights
                    .chunks_exact(old)
                    .flat_map(|half| half.iter().copied().chain(std::iter::repeat_n(0.0, zeros)))
                    .collect();
                Dense {
                    inputs: 2 * half_dims,
                    weights,
                    ..layer
                }
            })
            .collect();
        Some(Model {
            half_dims,
            ft_weights,
            ft_biases,
            layers,
            ..self
        })
    }

    /// Dense layers per output bucket.
    pub fn stack_layers(&self) -> usize {
        match self.head {
            Head::Screlu => 1,
            Head::Plain | Head::Stockfish15 => STACK_LAYERS,
        }
    }

    /// Centipawns per float output 1.0.
    pub fn cp_per_unit(&self) -> f32 {
        match self.head {
            Head::Screlu => SCRELU_OUTPUT_SCALE as f32,
            Head::Plain | Head::Stockfish15 => CP_PER_UNIT,
        }
    }

    /// The dense layers of output bucket `bucket`.
    pub fn stack(&self, bucket: usize) -> &[Dense] {
        let k = self.stack_layers();
        &self.layers[bucket * k..(bucket + 1) * k]
    }

    /// Whether dense layer `i` of [`Model::layers`] is a stack's output layer.
    fn is_output_layer(&self, i: usize) -> bool {
        let k = self.stack_layers();
        i % k == k - 1
    }

    /// The transformer's activation: clipped ReLU, squared under SCReLU.
    #[inline]
    fn activation(&self, x: f32) -> f32 {
        let clipped = x.clamp(0.0, 1.0);
        match self.head {
            Head::Screlu => clipped * clipped,
            Head::Plain | Head::Stockfish15 => clipped,
        }
    }

    /// The derivative of [`Model::activation`] at `x` (0 where it clips).
    #[inline]
    fn activation_slope(&self, x: f32) -> f32 {
        if !(x > 0.0 && x < 1.0) {
            return 0.0;
        }
        match self.head {
            Head::Screlu => 2.0 * x,
            Head::Plain | Head::Stockfish15 => 1.0,
        }
    }

    /// The output bucket of a position with `pieces` pieces, kings included
    /// (the inference's rule).
    pub fn bucket_for(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets())
    }

    pub fn rows(&self) -> usize {
        self.features.dimensions() + factor_width(self.features)
    }

    /// The sizes of the two hidden layers of the plain head (`[0, 0]`
    /// for the SCReLU head, which has none).
    pub fn hidden(&self) -> [usize; 2] {
        match self.head {
            Head::Screlu => [0, 0],
            Head::Plain | Head::Stockfish15 => [self.layers[0].outputs, self.layers[1].outputs],
        }
    }

    /// Total number of parameters.
    pub fn parameter_count(&self) -> usize {
        self.ft_weights.len()
            + self.ft_biases.len()
            + self
                .layers
                .iter()
                .map(|l| l.weights.len() + l.biases.len())
                .sum::<usize>()
    }

    /// The rows `perspective` activates for the given pieces (both kings must
    /// be among them).
    pub fn active_rows(
        &self,
        perspective: Color,
        pieces: impl Iterator<Item = (Square, Piece)> + Clone,
        out: &mut ActiveRows,
    ) {
        out.clear();
        let Some(king) = pieces
            .clone()
            .find(|(_, p)| p.color == perspective && p.role == shakmaty::Role::King)
            .map(|(sq, _)| sq)
        else {
            return;
        };
        let dims = self.features.dimensions();
        let width = factor_width(self.features);
        for (sq, piece) in pieces {
            if let Some(i) = self.features.index(perspective, king, piece, sq) {
                out.push(i as u32);
                if width > 0 {
                    out.push((dims + i % width) as u32);
                }
            }
        }
    }

    /// Keeps every weight inside what its quantised type can hold, so the
    /// exported net computes what the float one does.
    pub fn clip(&mut self) {
        let (ft_limit, output_limit) = match self.head {
            Head::Screlu => (SCRELU_TRANSFORMER_LIMIT, SCRELU_OUTPUT_LIMIT),
            Head::Plain | Head::Stockfish15 => (TRANSFORMER_WEIGHT_LIMIT, OUTPUT_WEIGHT_LIMIT),
        };
        // A real row plus its factor row, when there are factor rows.
        let parts = if factor_width(self.features) > 0 {
            2.0
        } else {
            1.0
        };
        let limit = ft_limit / parts;
        for w in self.ft_weights.iter_mut().chain(self.ft_biases.iter_mut()) {
            *w = w.clamp(-limit, limit);
        }
        for i in 0..self.layers.len() {
            let limit = if self.is_output_layer(i) {
                output_limit
            } else {
                HIDDEN_WEIGHT_LIMIT
            };
            for w in &mut self.layers[i].weights {
                *w = w.clamp(-limit, limit);
            }
        }
    }

    /// The accumulator for the given rows: biases plus the sum of the rows.
    pub fn accumulate(&self, rows: &[u32], acc: &mut [f32]) {
        acc.copy_from_slice(&self.ft_biases);
        let n = self.half_dims;
        for &r in rows {
            let row = &self.ft_weights[r as usize * n..(r as usize + 1) * n];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The evaluation in centipawns, side to move, of a board.
    pub fn evaluate(&self, board: &shakmaty::Board, turn: Color) -> f32 {
        let pieces = || board.iter();
        let (mut us, mut them) = (Vec::new(), Vec::new());
        self.active_rows(turn, pieces(), &mut us);
        self.active_rows(!turn, pieces(), &mut them);
        let bucket = self.bucket_for(board.occupied().count());
        Pass::new(self).forward(self, bucket, &us, &them) * self.cp_per_unit()
    }

    /// The quantised net: factoriser rows folded into the rows they share,
    /// then every parameter scaled and rounded to the inference's integers.
    pub fn quantise(&self, description: String) -> Result<Network, NetError> {
        let screlu = self.head == Head::Screlu;
        let (ft_one, bias_offset, shift) = if screlu {
            (SCRELU_TRANSFORMER_ONE, 0, 0)
        } else {
            (
                TRANSFORMER_WEIGHT_ONE,
                TRANSFORMER_ROUNDING,
                TRANSFORMER_SHIFT,
            )
        };
        let transformer = FeatureTransformer::new(
            self.features,
            self.half_dims,
            self.ft_biases
                .iter()
                .map(|b| round_i16(b * ft_one).saturating_add(bias_offset))
                .collect(),
            self.folded_weights(ft_one),
        )
        .with_shift(shift);
        if screlu {
            let mut output = ScreluOutput::default();
            for layer in &self.layers {
                let bias = layer.biases[0] * SCRELU_TRANSFORMER_ONE * SCRELU_OUTPUT_ONE;
                output.biases.push(bias.round() as i32);
                let limit = f32::from(SCRELU_WEIGHT_MAX);
                output.weights.extend(
                    layer
                        .weights
                        .iter()
                        .map(|w| (w * SCRELU_OUTPUT_ONE).round().clamp(-limit, limit) as i16),
                );
            }
            return Network::new_screlu(transformer, output, SCRELU_OUTPUT_SCALE, description);
        }
        let quantised: Vec<Affine> = self
            .layers
            .iter()
            .enumerate()
            .map(|(i, layer)| {
                // Hidden sums are shifted right (floor) by the inference;
                // half a unit of the shift in the bias makes that a rounding.
                let (w_one, rounding) = self.layer_scale(i);
                let mut q = Affine::zeros(layer.inputs, layer.outputs);
                for o in 0..layer.outputs {
                    q.biases[o] =
                        (layer.biases[o] * w_one * ACTIVATION_ONE + rounding).round() as i32;
                    for i in 0..layer.inputs {
                        let w = layer.weights[o * layer.inputs + i] * w_one;
                        *q.weight_mut(o, i) = w.round().clamp(-127.0, 127.0) as i8;
                    }
                }
                q
            })
            .collect();
        let stacks = quantised
            .chunks(STACK_LAYERS)
            .map(<[Affine]>::to_vec)
            .collect();
        Network::new(transformer, stacks, OUTPUT_SCALE, description)
    }

    /// The transformer weights with factoriser rows folded in, scaled so
    /// 1.0 is `one` and rounded to int16.
    fn folded_weights(&self, one: f32) -> Vec<i16> {
        let n = self.half_dims;
        let dims = self.features.dimensions();
        let width = factor_width(self.features);
        let mut weights = Vec::with_capacity(dims * n);
        for f in 0..dims {
            let real = &self.ft_weights[f * n..(f + 1) * n];
            if width == 0 {
                weights.extend(real.iter().map(|r| round_i16(r * one)));
                continue;
            }
            let factor = &self.ft_weights[(dims + f % width) * n..(dims + f % width + 1) * n];
            weights.extend(
                real.iter()
                    .zip(factor)
                    .map(|(r, c)| round_i16((r + c) * one)),
            );
        }
        weights
    }

    /// The float model of a quantised net (for `--init-from`): the exact
    /// inverse of [`Model::quantise`], with zero factoriser rows. Only nets
    /// of the trainer's own shapes (two hidden layers and our output scale,
    /// or the SCReLU head) map back.
    pub fn from_network(net: &Network) -> Result<Model, NetError> {
        let screlu = net.head == Head::Screlu;
        // Stockfish 15.1's nets have the same layer count but a pairwise
        // head and a PSQT part the trainer has no parameters for: refused,
        // not read as a plain net with the PSQT silently dropped.
        let plain_shape = net.head == Head::Plain
            && net.transformer.psqt_buckets == 0
            && net.layer_sizes().len() == STACK_LAYERS
            && net.output_scale == OUTPUT_SCALE;
        if !(plain_shape || screlu && net.output_scale == SCRELU_OUTPUT_SCALE) {
            return Err(NetError::Architecture(format!(
                "the trainer starts from nets 2N->h1->h2->1 with output scale {OUTPUT_SCALE} or SCReLU nets with scale {SCRELU_OUTPUT_SCALE}, not {}",
                net.architecture()
            )));
        }
        let n = net.half_dims();
        let features = net.features();
        let shift = net.transformer.shift;
        let (ft_one, ft_rounding) = if screlu {
            (SCRELU_TRANSFORMER_ONE, 0.0)
        } else {
            (
                ACTIVATION_ONE * (1u32 << shift) as f32,
                f32::from((1i16 << shift) / 2),
            )
        };
        let mut ft_weights: Vec<f32> = net
            .transformer
            .weights
            .iter()
            .map(|&w| f32::from(w) / ft_one)
            .collect();
        ft_weights.resize((features.dimensions() + factor_width(features)) * n, 0.0);
        let mut model = Model {
            features,
            head: if screlu { Head::Screlu } else { Head::Plain },
            half_dims: n,
            ft_weights,
            ft_biases: net
                .transformer
                .biases
                .iter()
                .map(|&b| (f32::from(b) - ft_rounding) / ft_one)
                .collect(),
            layers: Vec::new(),
        };
        model.layers = if screlu {
            (0..net.buckets())
                .map(|bucket| Dense {
                    inputs: 2 * n,
                    outputs: 1,
                    weights: net
                        .screlu
                        .row(bucket)
                        .iter()
                        .map(|&w| f32::from(w) / SCRELU_OUTPUT_ONE)
                        .collect(),
                    biases: vec![
                        net.screlu.biases[bucket] as f32
                            / (SCRELU_TRANSFORMER_ONE * SCRELU_OUTPUT_ONE),
                    ],
                })
                .collect()
        } else {
            net.stacks
                .iter()
                .flatten()
                .enumerate()
                .map(|(i, q)| {
                    let (w_one, rounding) = model.layer_scale(i);
                    let stride = q.padded_inputs();
                    Dense {
                        inputs: q.inputs,
                        outputs: q.outputs,
                        weights: (0..q.outputs)
                            .flat_map(|o| (0..q.inputs).map(move |i| (o, i)))
                            .map(|(o, i)| f32::from(q.weights[o * stride + i]) / w_one)
                            .collect(),
                        biases: q
                            .biases
                            .iter()
                            .map(|&b| (b as f32 - rounding) / (w_one * ACTIVATION_ONE))
                            .collect(),
                    }
                })
                .collect()
        };
        Ok(model)
    }

    /// The integer that weight 1.0 of dense layer `i` of the plain head
    /// becomes, and the rounding offset its quantised bias carries.
    fn layer_scale(&self, i: usize) -> (f32, f32) {
        if self.is_output_layer(i) {
            (OUTPUT_WEIGHT_ONE, 0.0)
        } else {
            (HIDDEN_WEIGHT_ONE, HIDDEN_WEIGHT_ONE / 2.0)
        }
    }
}

fn round_i16(x: f32) -> i16 {
    x.round().clamp(-32767.0, 32767.0) as i16
}

/// `min(max(x, 0), 1)`: the float twin of the inference's clipped ReLU.
#[inline]
fn clipped_relu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// Gradient of [`clipped_relu`]: it passes only inside the linear part.
#[inline]
fn clipped_relu_passes(x: f32) -> bool {
    x > 0.0 && x < 1.0
}

/// Buffers of one forward/backward pass, reused across positions.
#[derive(Clone, Debug)]
pub struct Pass {
    /// Pre-activation accumulators, side to move then the other side.
    acc: Vec<f32>,
    /// Input of every dense layer (the transformer's activations first) and
    /// the pre-activation sums of every layer.
    inputs: Vec<Vec<f32>>,
    sums: Vec<Vec<f32>>,
    /// Gradient with respect to each layer's input, scratch.
    grad: Vec<Vec<f32>>,
    /// Integer sums and inputs of [`Pass::forward_quantised`], scratch.
    ints: Vec<i32>,
    int_inputs: Vec<i32>,
    /// The output bucket of the last forward pass.
    bucket: usize,
}

impl Pass {
    pub fn new(model: &Model) -> Pass {
        let n = model.half_dims;
        Pass {
            acc: vec![0.0; 2 * n],
            inputs: model.stack(0).iter().map(|l| vec![0.0; l.inputs]).collect(),
            sums: model
                .stack(0)
                .iter()
                .map(|l| vec![0.0; l.outputs])
                .collect(),
            grad: model.stack(0).iter().map(|l| vec![0.0; l.inputs]).collect(),
            ints: Vec::with_capacity(2 * n),
            int_inputs: Vec::with_capacity(2 * n),
            bucket: 0,
        }
    }

    /// The float output (centipawns / [`Model::cp_per_unit`]) of output
    /// bucket `bucket`'s stack.
    pub fn forward(&mut self, model: &Model, bucket: usize, us: &[u32], them: &[u32]) -> f32 {
        self.bucket = bucket;
        let n = model.half_dims;
        let (acc_us, acc_them) = self.acc.split_at_mut(n);
        model.accumulate(us, acc_us);
        model.accumulate(them, acc_them);
        for (x, &a) in self.inputs[0].iter_mut().zip(&self.acc) {
            *x = model.activation(a);
        }
        let stack = model.stack(bucket);
        let last = stack.len() - 1;
        for (i, layer) in stack.iter().enumerate() {
            let (inputs, rest) = self.inputs.split_at_mut(i + 1);
            let input = &inputs[i];
            let sums = &mut self.sums[i];
            for (o, s) in sums.iter_mut().enumerate() {
                let row = &layer.weights[o * layer.inputs..(o + 1) * layer.inputs];
                *s = layer.biases[o] + dot(row, input);
            }
            if i < last {
                for (x, &s) in rest[0].iter_mut().zip(sums.iter()) {
                    *x = clipped_relu(s);
                }
            }
        }
        self.sums[last][0]
    }

    /// The forward pass of `net`, this model's quantised export, in the
    /// engine's integer arithmetic, kept for [`Pass::backward`]: the loss
    /// then sees the output the engine will compute, while the gradients go
    /// straight through the rounding to the float weights
    /// (quantisation-aware training). Returns float units, like
    /// [`Pass::forward`].
    pub fn forward_quantised(
        &mut self,
        net: &Network,
        bucket: usize,
        us: &[u32],
        them: &[u32],
    ) -> f32 {
        self.bucket = bucket;
        let mut ints = std::mem::take(&mut self.ints);
        quantised_accumulators(&net.transformer, us, them, &mut ints);
        let output = match net.head {
            Head::Screlu => self.screlu_quantised(net, &ints),
            Head::Plain | Head::Stockfish15 => self.stack_quantised(net, &mut ints),
        };
        self.ints = ints;
        output
    }

    /// The plain head of [`Pass::forward_quantised`] on the accumulators
    /// `ints` (overwritten as scratch): shift, clipped ReLU, int8 layers.
    fn stack_quantised(&mut self, net: &Network, ints: &mut Vec<i32>) -> f32 {
        let one = ACTIVATION_ONE;
        let mut input = std::mem::take(&mut self.int_inputs);
        let ft_shift = net.transformer.shift;
        let ft_one = one * (1u32 << ft_shift) as f32;
        for ((pre, x), a) in self
            .acc
            .iter_mut()
            .zip(&mut self.inputs[0])
            .zip(ints.iter_mut())
        {
            *pre = *a as f32 / ft_one;
            // The engine shifts (floor) before its clipped ReLU.
            *a >>= ft_shift;
            *x = (*a).clamp(0, ACTIVATION_MAX) as f32 / one;
        }
        let stack = &net.stacks[self.bucket];
        let last = stack.len() - 1;
        let shift = WEIGHT_SCALE_BITS;
        for (i, layer) in stack.iter().enumerate() {
            let stride = layer.padded_inputs();
            input.clear();
            input.extend(ints.iter().map(|&a| a.clamp(0, ACTIVATION_MAX)));
            ints.clear();
            for o in 0..layer.outputs {
                let row = &layer.weights[o * stride..o * stride + layer.inputs];
                let dot: i32 = row
                    .iter()
                    .zip(&input)
                    .map(|(&w, &x)| i32::from(w) * x)
                    .sum();
                ints.push(layer.biases[o] + dot);
            }
            if i < last {
                // The engine shifts (floor) before its clipped ReLU.
                for ((pre, x), s) in self.sums[i]
                    .iter_mut()
                    .zip(&mut self.inputs[i + 1])
                    .zip(ints.iter_mut())
                {
                    *pre = *s as f32 / (one * HIDDEN_WEIGHT_ONE);
                    *s >>= shift;
                    *x = (*s).clamp(0, ACTIVATION_MAX) as f32 / one;
                }
            }
        }
        let output = ints[0] as f32 / (OUTPUT_SCALE as f32 * CP_PER_UNIT);
        self.sums[last][0] = output;
        self.int_inputs = input;
        output
    }

    /// The SCReLU head of [`Pass::forward_quantised`] on the accumulators
    /// `ints`: `Σ clamp(a, 0, QA)² w` over both, wrapping in i32 as in the
    /// kernels, then divided by QA, the bias added.
    fn screlu_quantised(&mut self, net: &Network, ints: &[i32]) -> f32 {
        let mut sum = 0i32;
        for (((pre, x), &a), &w) in self
            .acc
            .iter_mut()
            .zip(&mut self.inputs[0])
            .zip(ints)
            .zip(net.screlu.row(self.bucket))
        {
            *pre = a as f32 / SCRELU_TRANSFORMER_ONE;
            let v = a.clamp(0, SCRELU_ONE);
            *x = (v * v) as f32 / (SCRELU_TRANSFORMER_ONE * SCRELU_TRANSFORMER_ONE);
            sum = sum.wrapping_add(v * v * i32::from(w));
        }
        let raw = (sum / SCRELU_ONE).wrapping_add(net.screlu.biases[self.bucket]);
        let output = raw as f32 / (SCRELU_TRANSFORMER_ONE * SCRELU_OUTPUT_ONE);
        self.sums[0][0] = output;
        output
    }

    /// Back-propagates `d_out` (d loss / d output) from the last
    /// [`Pass::forward`] (of its bucket's stack): adds the dense gradients to
    /// `grads` and writes the gradient of the two accumulators (side to move
    /// first) to `d_acc`.
    pub fn backward(
        &mut self,
        model: &Model,
        d_out: f32,
        grads: &mut DenseGrads,
        d_acc: &mut [f32],
    ) {
        let first = self.bucket * model.stack_layers();
        let stack = model.stack(self.bucket);
        let mut d_sums = vec![d_out];
        for i in (0..stack.len()).rev() {
            let layer = &stack[i];
            let input = &self.inputs[i];
            let g = &mut grads.layers[first + i];
            let d_input = &mut self.grad[i];
            d_input.fill(0.0);
            for (o, &d) in d_sums.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                g.biases[o] += d;
                let row = &layer.weights[o * layer.inputs..(o + 1) * layer.inputs];
                let g_row = &mut g.weights[o * layer.inputs..(o + 1) * layer.inputs];
                for ((gw, x), (dx, w)) in
                    g_row.iter_mut().zip(input).zip(d_input.iter_mut().zip(row))
                {
                    *gw += d * x;
                    *dx += d * w;
                }
            }
            // Through the activation that produced this layer's input: the
            // transformer's for the first layer, clipped ReLUs after.
            d_sums = if i == 0 {
                d_input
                    .iter()
                    .zip(&self.acc)
                    .map(|(&d, &s)| d * model.activation_slope(s))
                    .collect()
            } else {
                d_input
                    .iter()
                    .zip(&self.sums[i - 1])
                    .map(|(&d, &s)| if clipped_relu_passes(s) { d } else { 0.0 })
                    .collect()
            };
        }
        d_acc.copy_from_slice(&d_sums);
    }
}

/// The exported transformer's accumulators for the rows of both
/// perspectives (side to move first) in i32, into `ints`: what the engine's
/// wrapping i16 sums give while the clipping keeps them in range.
fn quantised_accumulators(
    transformer: &FeatureTransformer,
    us: &[u32],
    them: &[u32],
    ints: &mut Vec<i32>,
) {
    let dims = transformer.features.dimensions() as u32;
    ints.clear();
    for rows in [us, them] {
        let start = ints.len();
        ints.extend(transformer.biases.iter().map(|&b| i32::from(b)));
        // Factoriser rows are folded into the real rows by the export.
        for &r in rows.iter().filter(|&&r| r < dims) {
            for (a, &w) in ints[start..].iter_mut().zip(transformer.row(r as usize)) {
                *a += i32::from(w);
            }
        }
    }
}

#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight partial sums let the compiler vectorise the reduction.
    let mut partial = [0.0f32; 8];
    let chunks = a.len() / 8 * 8;
    for (ca, cb) in a[..chunks].chunks_exact(8).zip(b[..chunks].chunks_exact(8)) {
        for k in 0..8 {
            partial[k] += ca[k] * cb[k];
        }
    }
    let tail: f32 = a[chunks..]
        .iter()
        .zip(&b[chunks..])
        .map(|(x, y)| x * y)
        .sum();
    partial.iter().sum::<f32>() + tail
}

/// Gradients of the dense layers (the transformer's are kept sparse by the
/// trainer).
#[derive(Clone, Debug)]
pub struct DenseGrads {
    pub layers: Vec<Dense>,
}

impl DenseGrads {
    pub fn zeros(model: &Model) -> DenseGrads {
        DenseGrads {
            layers: model
                .layers
                .iter()
                .map(|l| Dense {
                    inputs: l.inputs,
                    outputs: l.outputs,
                    weights: vec![0.0; l.weights.len()],
                    biases: vec![0.0; l.biases.len()],
                })
                .collect(),
        }
    }

    pub fn add(&mut self, other: &DenseGrads) {
        for (a, b) in self.layers.iter_mut().zip(&other.layers) {
            for (x, y) in a.weights.iter_mut().zip(&b.weights) {
                *x += y;
            }
            for (x, y) in a.biases.iter_mut().zip(&b.biases) {
                *x += y;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::features::KingBuckets;
    use crate::position::Board;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position as _};

    fn board(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        fen.into_position(CastlingMode::Standard).unwrap()
    }

    /// Every trainable layout at test size: the plain head on the Stockfish
    /// sets, the SCReLU head on Chess768 with and without king buckets.
    fn models(half_dims: usize, hidden: [usize; 2], seed: u64) -> Vec<Model> {
        let plain = FeatureSet::ALL.map(|set| Model::random(set, half_dims, hidden, seed));
        let screlu = KingBuckets::NAMED
            .map(|(_, b)| Model::random_screlu(FeatureSet::Chess768(b), half_dims, seed));
        plain.into_iter().chain(screlu).collect()
    }

    /// Raw engine output units per float output 1.0.
    fn raw_per_unit(model: &Model) -> f32 {
        match model.head {
            Head::Screlu => SCRELU_TRANSFORMER_ONE * SCRELU_OUTPUT_ONE,
            _ => OUTPUT_SCALE as f32 * CP_PER_UNIT,
        }
    }

    /// Finite differences on a few weights of every layer agree with backward.
    #[test]
    fn gradients_match_finite_differences() {
        for model in models(16, [8, 8], 7) {
            let set = model.features;
            // Two buckets, the second one used: its gradients land in its layers.
            let mut model = model.with_buckets(2).unwrap();
            let k = model.stack_layers();
            let pos = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
            let (mut us, mut them) = (Vec::new(), Vec::new());
            model.active_rows(Color::White, pos.board().iter(), &mut us);
            model.active_rows(Color::Black, pos.board().iter(), &mut them);
            let mut pass = Pass::new(&model);
            let mut grads = DenseGrads::zeros(&model);
            let mut d_acc = vec![0.0; 32];
            pass.forward(&model, 1, &us, &them);
            pass.backward(&model, 1.0, &mut grads, &mut d_acc);
            let eps = 1e-3;
            assert!(
                grads.layers[..k]
                    .iter()
                    .all(|g| g.biases.iter().all(|&x| x == 0.0))
            );
            for l in k..2 * k {
                for k in [
                    0,
                    model.layers[l].weights.len() / 2,
                    model.layers[l].weights.len() - 1,
                ] {
                    let orig = model.layers[l].weights[k];
                    model.layers[l].weights[k] = orig + eps;
                    let up = pass.forward(&model, 1, &us, &them);
                    model.layers[l].weights[k] = orig - eps;
                    let down = pass.forward(&model, 1, &us, &them);
                    model.layers[l].weights[k] = orig;
                    let numeric = (up - down) / (2.0 * eps);
                    let analytic = grads.layers[l].weights[k];
                    assert!(
                        (numeric - analytic).abs() < 2e-3,
                        "{set:?} layer {l} weight {k}: {numeric} vs {analytic}"
                    );
                }
            }
            // The transformer: d out / d bias_j is d_acc[j] + d_acc[n + j].
            for j in [0, 5, 15] {
                let orig = model.ft_biases[j];
                model.ft_biases[j] = orig + eps;
                let up = pass.forward(&model, 1, &us, &them);
                model.ft_biases[j] = orig - eps;
                let down = pass.forward(&model, 1, &us, &them);
                model.ft_biases[j] = orig;
                let numeric = (up - down) / (2.0 * eps);
                assert!(
                    (numeric - (d_acc[j] + d_acc[16 + j])).abs() < 2e-3,
                    "{set:?} bias {j}"
                );
            }
        }
    }

    #[test]
    fn spreading_over_king_buckets_keeps_the_output() {
        use crate::eval::nnue::Kernels;
        let single = FeatureSet::Chess768(KingBuckets::SINGLE);
        let mut parent = Model::random_screlu(single, 32, 5);
        parent.ft_weights.iter_mut().for_each(|w| *w *= 8.0);
        let spread = parent
            .clone()
            .with_king_buckets(KingBuckets::RANKS4)
            .unwrap();
        assert_eq!(spread.features, FeatureSet::Chess768(KingBuckets::RANKS4));
        let (a, b) = (
            parent.quantise(String::new()).unwrap(),
            spread.quantise(String::new()).unwrap(),
        );
        // A bucketed model splits further, as long as the new layout refines
        // its own: rank 1 by file, rank 2 by halves.
        let finer = KingBuckets::from_name(
            "0,1,2,3,4,4,5,5,6,6,6,6,6,6,6,6,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7",
        )
        .unwrap();
        let mut trained = spread.clone();
        trained
            .ft_weights
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w += ((i % 7) as f32 - 3.0) * 0.03);
        let split = trained.clone().with_king_buckets(finer).unwrap();
        let (unsplit, split) = (
            trained.quantise(String::new()).unwrap(),
            split.quantise(String::new()).unwrap(),
        );
        // Kings on every rank group and rank 1's files, so every bucket is read.
        for fen in [
            "4k3/8/8/8/8/8/8/R3K2Q w Q - 0 1",
            "8/8/8/8/3k4/8/1K6/R6Q b - - 0 1",
            "8/2p5/8/2k5/8/1K6/8/R6Q w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5NK1/PPPP1PPP/RNBQ3R w kq - 4 4",
            "6k1/5ppp/8/8/8/8/4KPPP/8 w - - 0 1",
            "7k/8/8/8/8/8/8/5K2 b - - 0 1",
        ] {
            let pos = board(fen);
            let raw = |net: &Network| {
                net.raw_output_board(
                    Kernels::scalar(),
                    &Board::from_shakmaty(pos.board()),
                    pos.turn(),
                )
            };
            assert_eq!(raw(&a), raw(&b), "{fen}");
            assert_eq!(raw(&unsplit), raw(&split), "{fen}");
        }
        // Not a refinement: ranks 1 and 2 together.
        assert!(
            spread
                .clone()
                .with_king_buckets(KingBuckets::from_name("0,0,1,1,2,2,2,2").unwrap())
                .is_none()
        );
        let halfka = Model::random(FeatureSet::HalfKAv2Hm, 32, [8, 8], 1);
        assert!(halfka.with_king_buckets(KingBuckets::RANKS4).is_none());
    }

    /// The quantisation-aware pass computes exactly what the engine does with
    /// the exported net, on both feature sets and both sides to move.
    #[test]
    fn quantised_forward_is_the_engine_output() {
        use crate::eval::nnue::Kernels;
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
            "4k3/8/8/8/8/8/8/R3K2Q w Q - 0 1",
        ];
        for seed in 1..4 {
            for model in models(32, [16, 8], seed) {
                let set = model.features;
                // Larger weights than `random` gives, so that activations
                // clip and the rounding matters.
                // Seed 3 splits into output buckets that then differ.
                let buckets = if seed == 3 { 8 } else { 1 };
                let mut model = model.with_buckets(buckets).unwrap();
                model.ft_weights.iter_mut().for_each(|w| *w *= 8.0);
                model
                    .layers
                    .iter_mut()
                    .for_each(|l| l.weights.iter_mut().for_each(|w| *w *= 3.0));
                // Every bucket its own weights, so a wrong bucket shows.
                for (i, layer) in model.layers.iter_mut().enumerate() {
                    layer.biases.iter_mut().for_each(|b| *b += 0.01 * i as f32);
                }
                model.clip();
                let net = model.quantise(String::new()).unwrap();
                assert_eq!(net.buckets(), buckets);
                let mut pass = Pass::new(&model);
                for fen in fens {
                    let pos = board(fen);
                    let turn = pos.turn();
                    let (mut us, mut them) = (Vec::new(), Vec::new());
                    model.active_rows(turn, pos.board().iter(), &mut us);
                    model.active_rows(!turn, pos.board().iter(), &mut them);
                    let bucket = model.bucket_for(pos.board().occupied().count());
                    let out = pass.forward_quantised(&net, bucket, &us, &them);
                    let raw = net.raw_output_board(
                        Kernels::scalar(),
                        &Board::from_shakmaty(pos.board()),
                        turn,
                    );
                    let emulated = out * raw_per_unit(&model);
                    assert!(
                        (emulated - raw as f32).abs() < 0.01 + 1e-6 * raw.abs() as f32,
                        "{set:?} seed {seed} {fen}: {emulated} vs {raw}"
                    );
                }
            }
        }
    }

    #[test]
    fn dequantising_a_quantised_net_gives_it_back() {
        for model in models(16, [8, 8], 3) {
            for buckets in [1, 4] {
                let model = model.clone().with_buckets(buckets).unwrap();
                let net = model.quantise(String::new()).unwrap();
                let back = Model::from_network(&net).unwrap();
                assert_eq!(back.buckets(), buckets);
                assert_eq!(back.quantise(String::new()).unwrap(), net);
            }
        }
    }

    #[test]
    fn a_stockfish_net_is_refused_not_read_as_a_plain_one() {
        let net = crate::eval::nnue::random::random_stockfish15_network(32, 5).unwrap();
        let error = Model::from_network(&net).err().map(|e| e.to_string());
        assert!(
            error.as_deref().is_some_and(|e| e.contains("pairwise")),
            "{error:?}"
        );
    }

    /// A one-bucket model split into buckets evaluates every position as
    /// before; only a one-bucket model splits.
    #[test]
    fn splitting_into_buckets_keeps_the_evaluation() {
        let single = Model::random(FeatureSet::HalfKAv2Hm, 16, [8, 8], 4);
        let split = single.clone().with_buckets(8).unwrap();
        assert_eq!(split.buckets(), 8);
        assert_eq!(split.bucket_for(32), 7);
        assert_eq!(split.bucket_for(3), 0);
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "4k3/8/8/8/8/8/8/R3K2Q w Q - 0 1",
        ] {
            let (a, b) = float_evaluations(&single, &split, fen);
            assert_eq!(a, b, "{fen}");
        }
        assert!(split.with_buckets(2).is_none());
    }

    /// Two models' float evaluations of `fen`.
    fn float_evaluations(a: &Model, b: &Model, fen: &str) -> (f32, f32) {
        let pos = board(fen);
        (
            a.evaluate(pos.board(), pos.turn()),
            b.evaluate(pos.board(), pos.turn()),
        )
    }

    /// A model grown wider evaluates every position as before, float and
    /// quantised, for both heads; it only grows.
    #[test]
    fn growing_the_transformer_keeps_the_evaluation() {
        let screlu = Model::random_screlu(FeatureSet::Chess768(KingBuckets::RANKS4), 16, 5)
            .with_buckets(8)
            .unwrap();
        let plain = Model::random(FeatureSet::HalfKAv2Hm, 16, [8, 8], 6);
        for model in [screlu, plain] {
            let grown = model.clone().with_hidden(48, 7).unwrap();
            assert_eq!(grown.half_dims, 48);
            assert_eq!(grown.rows() * 48, grown.ft_weights.len());
            let (q_model, q_grown) = (
                model.quantise(String::new()).unwrap(),
                grown.quantise(String::new()).unwrap(),
            );
            for fen in [
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "4k3/8/8/8/8/8/8/R3K2Q b - - 0 1",
            ] {
                let (a, b) = float_evaluations(&model, &grown, fen);
                assert!((a - b).abs() < 1e-3, "{fen}: {a} vs {b}");
                let pos = board(fen);
                let raw = |net: &Network| {
                    net.raw_output_board(
                        crate::eval::nnue::Kernels::scalar(),
                        &Board::from_shakmaty(pos.board()),
                        pos.turn(),
                    )
                };
                assert_eq!(raw(&q_model), raw(&q_grown), "{fen}");
            }
            assert!(grown.clone().with_hidden(48, 7).is_none());
            assert!(grown.with_hidden(32, 7).is_none());
        }
    }
}
