//! The square classifier's forward pass laid out for reading pictures.
//!
//! [`Net::forward`] is the trainer's pass: channel by channel, keeping what
//! the backward pass needs. Reading a picture calls the net 320 times (64
//! squares, five windows each) and needs only the probabilities, so here
//! the activations are stored pixel by pixel, every channel of a pixel
//! together, and the weights are turned to match: each kernel tap then adds
//! one input value times a whole row of output channels, a loop the compiler
//! turns into vector instructions (eight lanes where the CPU has AVX2,
//! found at run time). Same arithmetic, summed in another order: the
//! probabilities agree with `Net::forward` to rounding.

use super::net::{
    B1, B2, B3, B4, B5, C1, C2, C3, FLAT, HIDDEN, Net, OUT, PARAMS, SIDE, W1, W2, W3, W4, W5,
    softmax,
};

/// A 3×3 convolution's weights as `[row][column][in][out]` and its biases.
struct Conv {
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Conv {
    /// From the net's `[out][in][3][3]` block at `w` (biases follow at `b`).
    fn new(params: &[f32], w: usize, b: usize, inputs: usize, outputs: usize) -> Conv {
        let mut weights = vec![0.0; 9 * inputs * outputs];
        for o in 0..outputs {
            for i in 0..inputs {
                for tap in 0..9 {
                    weights[(tap * inputs + i) * outputs + o] =
                        params[w + (o * inputs + i) * 9 + tap];
                }
            }
        }
        Conv {
            weights,
            bias: params[b..b + outputs].to_vec(),
        }
    }
}

/// A net's weights in the reading layout; build one per picture (it costs
/// a copy of the 40 k weights) and call [`Classifier::classify`] per square.
pub struct Classifier {
    conv1: Conv,
    conv2: Conv,
    conv3: Conv,
    /// `[pooled pixel][channel][hidden]`.
    hidden_weights: Vec<f32>,
    hidden_bias: Vec<f32>,
    /// `[hidden][class]`.
    out_weights: Vec<f32>,
    out_bias: Vec<f32>,
}

/// Sides of the three convolutions' planes.
const S1: usize = SIDE;
const S2: usize = SIDE / 2;
const S3: usize = SIDE / 4;
/// Side of the last pooled plane, which the dense layers read.
const S4: usize = SIDE / 8;

impl Classifier {
    pub fn new(net: &Net) -> Classifier {
        let p = &net.params;
        debug_assert_eq!(p.len(), PARAMS);
        let mut hidden_weights = vec![0.0; FLAT * HIDDEN];
        for h in 0..HIDDEN {
            for c in 0..C3 {
                for pixel in 0..S4 * S4 {
                    // The net flattens channel by channel; here pixel by pixel.
                    hidden_weights[(pixel * C3 + c) * HIDDEN + h] =
                        p[W4 + h * FLAT + c * S4 * S4 + pixel];
                }
            }
        }
        let mut out_weights = vec![0.0; HIDDEN * OUT];
        for o in 0..OUT {
            for h in 0..HIDDEN {
                out_weights[h * OUT + o] = p[W5 + o * HIDDEN + h];
            }
        }
        Classifier {
            conv1: Conv::new(p, W1, B1, 1, C1),
            conv2: Conv::new(p, W2, B2, C1, C2),
            conv3: Conv::new(p, W3, B3, C2, C3),
            hidden_weights,
            hidden_bias: p[B4..W5].to_vec(),
            out_weights,
            out_bias: p[B5..PARAMS].to_vec(),
        }
    }

    /// Class probabilities of one standardised `SIDE`×`SIDE` square
    /// (`Net::forward`'s `probs`).
    pub fn classify(&self, input: &[f32]) -> [f32; OUT] {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.classify_avx2(input) };
        }
        self.classify_portable(input)
    }

    /// [`Classifier::classify`] compiled for AVX2: the same code, eight
    /// lanes wide.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn classify_avx2(&self, input: &[f32]) -> [f32; OUT] {
        self.forward(input)
    }

    fn classify_portable(&self, input: &[f32]) -> [f32; OUT] {
        self.forward(input)
    }

    #[inline(always)]
    fn forward(&self, input: &[f32]) -> [f32; OUT] {
        debug_assert_eq!(input.len(), S1 * S1, "a square is {SIDE}×{SIDE}");
        // Each plane carries a one-pixel border of zeros: the padding.
        let mut padded1 = [0.0f32; (S1 + 2) * (S1 + 2)];
        for (y, row) in input.chunks_exact(S1).enumerate() {
            padded1[(y + 1) * (S1 + 2) + 1..][..S1].copy_from_slice(row);
        }
        let mut a1 = [0.0f32; S1 * S1 * C1];
        conv_relu::<1, C1, S1>(&padded1, &self.conv1, &mut a1);
        let mut padded2 = [0.0f32; (S2 + 2) * (S2 + 2) * C1];
        pool::<C1, S1>(&a1, &mut padded2, 1);
        let mut a2 = [0.0f32; S2 * S2 * C2];
        conv_relu::<C1, C2, S2>(&padded2, &self.conv2, &mut a2);
        let mut padded3 = [0.0f32; (S3 + 2) * (S3 + 2) * C2];
        pool::<C2, S2>(&a2, &mut padded3, 1);
        let mut a3 = [0.0f32; S3 * S3 * C3];
        conv_relu::<C2, C3, S3>(&padded3, &self.conv3, &mut a3);
        let mut pooled = [0.0f32; FLAT];
        pool::<C3, S3>(&a3, &mut pooled, 0);

        let mut hidden = [0.0f32; HIDDEN];
        hidden.copy_from_slice(&self.hidden_bias);
        for (&v, row) in pooled.iter().zip(self.hidden_weights.chunks_exact(HIDDEN)) {
            for (h, w) in hidden.iter_mut().zip(row) {
                *h += v * w;
            }
        }
        let mut logits = [0.0f32; OUT];
        logits.copy_from_slice(&self.out_bias);
        for (&h, row) in hidden.iter().zip(self.out_weights.chunks_exact(OUT)) {
            let h = h.max(0.0);
            for (l, w) in logits.iter_mut().zip(row) {
                *l += h * w;
            }
        }
        let mut probs = [0.0f32; OUT];
        probs.copy_from_slice(&softmax(&logits));
        probs
    }
}

/// A 3×3 convolution of a `S`×`S` plane of `CI` channels (stored with a
/// zero border, pixel by pixel) into `CO` channels, then ReLU; `out` pixel
/// by pixel, no border.
#[inline(always)]
fn conv_relu<const CI: usize, const CO: usize, const S: usize>(
    padded: &[f32],
    conv: &Conv,
    out: &mut [f32],
) {
    debug_assert_eq!(padded.len(), (S + 2) * (S + 2) * CI);
    debug_assert_eq!(conv.weights.len(), 9 * CI * CO);
    let stride = S + 2;
    for y in 0..S {
        for x in 0..S {
            let mut acc = [0.0f32; CO];
            acc.copy_from_slice(&conv.bias);
            for dy in 0..3 {
                // The kernel row's three pixels lie side by side, channels
                // and all, as its weights do.
                let pixels = &padded[((y + dy) * stride + x) * CI..][..3 * CI];
                let taps = &conv.weights[dy * 3 * CI * CO..][..3 * CI * CO];
                for (&v, row) in pixels.iter().zip(taps.chunks_exact(CO)) {
                    for (a, w) in acc.iter_mut().zip(row) {
                        *a += v * w;
                    }
                }
            }
            for (o, a) in out[(y * S + x) * CO..][..CO].iter_mut().zip(acc) {
                *o = a.max(0.0);
            }
        }
    }
}

/// 2×2 max-pooling of a `S`×`S` plane of `C` channels into a plane with a
/// border of `border` pixels (already zero).
#[inline(always)]
fn pool<const C: usize, const S: usize>(input: &[f32], out: &mut [f32], border: usize) {
    let half = S / 2;
    let stride = half + 2 * border;
    debug_assert_eq!(out.len(), stride * stride * C);
    for y in 0..half {
        for x in 0..half {
            let at = |dy: usize, dx: usize| &input[((2 * y + dy) * S + 2 * x + dx) * C..][..C];
            let (a, b, c, d) = (at(0, 0), at(0, 1), at(1, 0), at(1, 1));
            let target = &mut out[((y + border) * stride + x + border) * C..][..C];
            for (k, t) in target.iter_mut().enumerate() {
                *t = a[k].max(b[k]).max(c[k].max(d[k]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::net::Ensemble;

    fn random_square(seed: u64) -> Vec<f32> {
        let mut rng = crate::rng::SplitMix64::new(seed);
        (0..SIDE * SIDE).map(|_| rng.symmetric_f32(2.0)).collect()
    }

    fn assert_close(a: &[f32], b: &[f32], what: &str) {
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            assert!((x - y).abs() < 1e-5, "{what}: class {k}: {x} against {y}");
        }
    }

    #[test]
    fn the_reading_layout_gives_the_trainers_probabilities() {
        for seed in 0..4 {
            let net = Net::random(seed, crate::scan::picture::Shade::Luma);
            let classifier = Classifier::new(&net);
            let input = random_square(100 + seed);
            assert_close(
                &classifier.classify_portable(&input),
                &net.forward(&input).probs,
                "portable against the trainer's pass",
            );
        }
        let input = random_square(9);
        for net in Ensemble::embedded()
            .expect("the embedded nets load")
            .members
        {
            assert_close(
                &Classifier::new(&net).classify(&input),
                &net.forward(&input).probs,
                "embedded net",
            );
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_path_agrees_with_the_portable_one() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let nets = Ensemble::embedded().expect("the embedded nets load");
        let classifier = Classifier::new(&nets.members[0]);
        for seed in 0..8 {
            let input = random_square(seed);
            // SAFETY: the CPU has AVX2, checked above.
            let fast = unsafe { classifier.classify_avx2(&input) };
            assert_close(&fast, &classifier.classify_portable(&input), "AVX2");
        }
    }
}
