//! Seeded random nets for tests and benchmarks (until trained nets exist).

use super::features::FeatureSet;
use super::layers::{Affine, FeatureTransformer, ScreluOutput};
use super::network::{NetError, Network, SCRELU_OUTPUT_SCALE};
use super::simd::SCRELU_WEIGHT_MAX;
use crate::rng::SplitMix64;

/// A net of the given shape with random weights, scaled so activations
/// spread over the whole clipped-ReLU range instead of sitting at 0 or 127.
pub fn random_network(
    features: FeatureSet,
    half_dims: usize,
    hidden: &[usize],
    buckets: usize,
    seed: u64,
) -> Result<Network, NetError> {
    let mut rng = SplitMix64::new(seed);
    let transformer = random_transformer(&mut rng, features, half_dims, (-20, 80), 24);
    let mut shape = vec![2 * half_dims];
    shape.extend_from_slice(hidden);
    shape.push(1);
    let layers = shape.len() - 1;
    let stacks = (0..buckets)
        .map(|_| {
            shape
                .windows(2)
                .enumerate()
                .map(|(l, io)| {
                    let mut layer = Affine::zeros(io[0], io[1]);
                    // Weight magnitude shrinks with fan-in to keep sums in
                    // range; the output layer is kept small so evaluations
                    // stay within a few hundred centipawns, as real nets do.
                    let (spread, bias) = if l + 1 == layers {
                        (4, 800)
                    } else {
                        ((4096 / io[0] as i32).clamp(2, 127), 2000)
                    };
                    for o in 0..io[1] {
                        layer.biases[o] = rng.range_i32(-bias, bias);
                        for i in 0..io[0] {
                            *layer.weight_mut(o, i) = rng.range_i32(-spread, spread) as i8;
                        }
                    }
                    layer
                })
                .collect()
        })
        .collect();
    let description = format!("random net, seed {seed}");
    Network::new(transformer, stacks, 16, description)
}

/// A transformer without PSQT part: biases uniform in `biases` (both ends
/// included, as `range_i32` draws), weights within ±`spread`.
fn random_transformer(
    rng: &mut SplitMix64,
    features: FeatureSet,
    half_dims: usize,
    biases: (i32, i32),
    spread: i32,
) -> FeatureTransformer {
    FeatureTransformer::new(
        features,
        half_dims,
        (0..half_dims)
            .map(|_| rng.range_i32(biases.0, biases.1) as i16)
            .collect(),
        (0..features.dimensions() * half_dims)
            .map(|_| rng.range_i32(-spread, spread) as i16)
            .collect(),
    )
}

/// A net with the SCReLU head and random weights: accumulators spread over
/// the whole 0..255 range of the activation (and beyond, both ways), output
/// weights over the whole ±127 the kernels allow.
pub fn random_screlu_network(
    features: FeatureSet,
    half_dims: usize,
    buckets: usize,
    seed: u64,
) -> Result<Network, NetError> {
    let mut rng = SplitMix64::new(seed);
    let transformer = random_transformer(&mut rng, features, half_dims, (-40, 200), 48);
    let w = i32::from(SCRELU_WEIGHT_MAX);
    let output = ScreluOutput {
        weights: (0..buckets * 2 * half_dims)
            .map(|_| rng.range_i32(-w, w) as i16)
            .collect(),
        biases: (0..buckets)
            .map(|_| rng.range_i32(-20_000, 20_000))
            .collect(),
    };
    Network::new_screlu(
        transformer,
        output,
        SCRELU_OUTPUT_SCALE,
        format!("random SCReLU net, seed {seed}"),
    )
}

/// A net in Stockfish 15.1's architecture (HalfKAv2_hm, `half_dims` wide,
/// 8 PSQT buckets and layer stacks of 16, 32 and 1 outputs) with random
/// weights spread so that the pairwise products, both activations of `fc_0`
/// and the forwarded output all vary: the synthetic stand-in for Stockfish's
/// own nets in tests and benchmarks.
pub fn random_stockfish15_network(half_dims: usize, seed: u64) -> Result<Network, NetError> {
    use super::format::{STOCKFISH15_BUCKETS, STOCKFISH15_FC0_OUTPUTS, STOCKFISH15_FC1_OUTPUTS};

    let features = FeatureSet::HalfKAv2Hm;
    let mut rng = SplitMix64::new(seed);
    let mut transformer = random_transformer(&mut rng, features, half_dims, (0, 100), 20);
    transformer.psqt_buckets = STOCKFISH15_BUCKETS;
    transformer.psqt_weights = (0..features.dimensions() * STOCKFISH15_BUCKETS)
        .map(|_| rng.range_i32(-3000, 3000))
        .collect();
    let shape = [
        (half_dims, STOCKFISH15_FC0_OUTPUTS + 1, 3000),
        (2 * STOCKFISH15_FC0_OUTPUTS, STOCKFISH15_FC1_OUTPUTS, 2000),
        (STOCKFISH15_FC1_OUTPUTS, 1, 800),
    ];
    let stacks = (0..STOCKFISH15_BUCKETS)
        .map(|_| {
            shape
                .iter()
                .map(|&(inputs, outputs, bias)| {
                    let mut layer = Affine::zeros(inputs, outputs);
                    let spread = (2048 / inputs as i32).clamp(2, 100);
                    for o in 0..outputs {
                        layer.biases[o] = rng.range_i32(-bias, bias);
                        for i in 0..inputs {
                            *layer.weight_mut(o, i) = rng.range_i32(-spread, spread) as i8;
                        }
                    }
                    layer
                })
                .collect()
        })
        .collect();
    Network::new_stockfish15(
        transformer,
        stacks,
        format!("random Stockfish 15.1-layout net, seed {seed}"),
    )
}

/// Transformer neurons per side that carry the piece-square sum.
const PST_NEURONS: usize = 48;

/// A net whose output follows the PST evaluation (material and piece-square
/// values, in steps of 8 cp, saturating near ±1000 cp) with the other
/// neurons random: it searches trees shaped like the PST's, so `tarpon
/// bench` can compare the speed of the two evaluators on similar trees (a
/// purely random net makes the search explode into unlike trees).
pub fn pst_like_network(
    features: FeatureSet,
    half_dims: usize,
    seed: u64,
) -> Result<Network, NetError> {
    use crate::eval::pst::piece_square_value;
    use shakmaty::{Color, Role, Square};

    if half_dims < 2 * PST_NEURONS {
        return Err(NetError::Architecture(format!(
            "a PST-like net needs at least {} neurons",
            2 * PST_NEURONS
        )));
    }
    let mut net = random_network(features, half_dims, &[32, 32], 1, seed)?;
    let n = half_dims;
    // Quiet the random part so the PST part dominates.
    for w in net.transformer.weights.iter_mut() {
        *w /= 3;
    }
    net.transformer.biases[..2 * PST_NEURONS].fill(0);
    // Each piece's value split evenly over the neurons of its side (own
    // pieces first, then the opponent's); weights are shared by both
    // perspectives, so white's view defines them all.
    for king in Square::ALL {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = role.of(color);
                for square in Square::ALL {
                    let Some(feature) = features.index(Color::White, king, piece, square) else {
                        continue;
                    };
                    // Kings (HalfKAv2_hm inputs) carry no value here.
                    let value = if role == Role::King {
                        0
                    } else {
                        piece_square_value(piece, square)
                    };
                    let base = if color == Color::White {
                        0
                    } else {
                        PST_NEURONS
                    };
                    for j in 0..PST_NEURONS {
                        net.transformer.weights[feature * n + base + j] =
                            (value + j as i32).div_euclid(PST_NEURONS as i32) as i16;
                    }
                }
            }
        }
    }
    let stack = &mut net.stacks[0];
    // Hidden 0 and 1: (own − their) / 8, positive and negative parts.
    for (o, sign) in [(0, 1), (1, -1)] {
        stack[0].biases[o] = 0;
        for i in 0..2 * n {
            *stack[0].weight_mut(o, i) = match i {
                i if i < PST_NEURONS => 8 * sign,
                i if i < 2 * PST_NEURONS => -8 * sign,
                _ => 0,
            };
        }
        stack[1].biases[o] = 0;
        for i in 0..32 {
            *stack[1].weight_mut(o, i) = if i == o { 64 } else { 0 };
        }
    }
    // Output: 127 × (pos − neg) / 16 ≈ the difference. The random neurons
    // are still computed (the cost of a forward pass does not depend on the
    // values) but weigh zero, so they cannot disturb the tree's shape.
    stack[2].biases[0] = 0;
    for i in 0..32 {
        *stack[2].weight_mut(0, i) = match i {
            0 => 127,
            1 => -127,
            _ => 0,
        };
    }
    net.description = format!("PST-like random net, seed {seed}");
    Ok(net)
}
