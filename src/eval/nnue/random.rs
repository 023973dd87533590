//! Seeded random nets for tests and benchmarks (until trained nets exist),
//! and the small generator behind them.

use super::features::FeatureSet;
use super::layers::{Affine, FeatureTransformer};
use super::network::{NetError, Network};
use crate::position::zobrist::splitmix;

/// SplitMix64 stream: reproducible from its seed on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        let (state, value) = splitmix(self.0);
        self.0 = state;
        value
    }

    /// Uniform in `0..n` (n > 0; the modulo bias is irrelevant here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as usize) as i32
    }
}

/// A net of the given shape with random weights, scaled so activations
/// spread over the whole clipped-ReLU range instead of sitting at 0 or 127.
pub fn random_network(
    features: FeatureSet,
    half_dims: usize,
    hidden: &[usize],
    buckets: usize,
    seed: u64,
) -> Result<Network, NetError> {
    let mut rng = Rng::new(seed);
    let transformer = FeatureTransformer {
        features,
        half_dims,
        biases: (0..half_dims).map(|_| rng.range(-20, 80) as i16).collect(),
        weights: (0..features.dimensions() * half_dims)
            .map(|_| rng.range(-24, 24) as i16)
            .collect(),
    };
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
                        layer.biases[o] = rng.range(-bias, bias);
                        for i in 0..io[0] {
                            *layer.weight_mut(o, i) = rng.range(-spread, spread) as i8;
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
