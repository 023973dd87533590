//! The square classifier's forward pass laid out for reading pictures.
//!
//! [`Net::forward`] is the trainer's pass: channel by channel, keeping what
//! the backward pass needs. Reading a picture calls each net 320 times (64
//! squares, five windows each) and needs only the probabilities, so here
//! the activations are stored pixel by pixel, every channel of a pixel
//! together, and the weights are turned to match: each kernel tap then adds
//! one input value times a whole row of output channels. Where the CPU has
//! AVX2 and FMA (found at run time) those rows are eight-lane registers and
//! several pixels are summed at once ([`avx2`]); elsewhere a portable loop
//! does the same. Same arithmetic, summed in another order and rounded once
//! per multiply-add on the vector path: the probabilities agree with
//! `Net::forward` to rounding.

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
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA, checked just above.
            return unsafe { self.classify_avx2(input) };
        }
        self.classify_portable(input)
    }

    /// [`Classifier::classify`] with the convolutions and the hidden layer
    /// written in AVX2 and FMA instructions ([`avx2`]).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn classify_avx2(&self, input: &[f32]) -> [f32; OUT] {
        self.forward::<true>(input)
    }

    /// [`Classifier::classify`] on any CPU: the reference the vector path
    /// is tested and benchmarked against.
    pub fn classify_portable(&self, input: &[f32]) -> [f32; OUT] {
        self.forward::<false>(input)
    }

    /// The pass; `AVX2` (only ever true where the CPU has AVX2 and FMA)
    /// runs the multiply-add loops through [`avx2`].
    #[inline(always)]
    fn forward<const AVX2: bool>(&self, input: &[f32]) -> [f32; OUT] {
        debug_assert_eq!(input.len(), S1 * S1, "a square is {SIDE}×{SIDE}");
        // Each plane carries a one-pixel border of zeros: the padding.
        let mut padded1 = [0.0f32; (S1 + 2) * (S1 + 2)];
        for (y, row) in input.chunks_exact(S1).enumerate() {
            padded1[(y + 1) * (S1 + 2) + 1..][..S1].copy_from_slice(row);
        }
        let mut a1 = [0.0f32; S1 * S1 * C1];
        let mut padded2 = [0.0f32; (S2 + 2) * (S2 + 2) * C1];
        let mut a2 = [0.0f32; S2 * S2 * C2];
        let mut padded3 = [0.0f32; (S3 + 2) * (S3 + 2) * C2];
        let mut a3 = [0.0f32; S3 * S3 * C3];
        let mut pooled = [0.0f32; FLAT];
        let mut hidden = [0.0f32; HIDDEN];
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: `forward::<true>` is called only from
            // `classify_avx2`, whose caller has checked for AVX2 and FMA;
            // every slice has the length each kernel asserts.
            unsafe {
                avx2::conv_relu::<1, C1, S1, 8, 1>(&padded1, &self.conv1, &mut a1);
                pool::<C1, S1>(&a1, &mut padded2, 1);
                avx2::conv_relu::<C1, C2, S2, 4, 2>(&padded2, &self.conv2, &mut a2);
                pool::<C2, S2>(&a2, &mut padded3, 1);
                avx2::conv_relu::<C2, C3, S3, 2, 4>(&padded3, &self.conv3, &mut a3);
                pool::<C3, S3>(&a3, &mut pooled, 0);
                avx2::dense::<FLAT, HIDDEN, 8>(
                    &pooled,
                    &self.hidden_weights,
                    &self.hidden_bias,
                    &mut hidden,
                );
            }
        }
        if !AVX2 {
            conv_relu::<1, C1, S1>(&padded1, &self.conv1, &mut a1);
            pool::<C1, S1>(&a1, &mut padded2, 1);
            conv_relu::<C1, C2, S2>(&padded2, &self.conv2, &mut a2);
            pool::<C2, S2>(&a2, &mut padded3, 1);
            conv_relu::<C2, C3, S3>(&padded3, &self.conv3, &mut a3);
            pool::<C3, S3>(&a3, &mut pooled, 0);
            hidden.copy_from_slice(&self.hidden_bias);
            for (&v, row) in pooled.iter().zip(self.hidden_weights.chunks_exact(HIDDEN)) {
                for (h, w) in hidden.iter_mut().zip(row) {
                    *h += v * w;
                }
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

/// The multiply-add loops in AVX2 and FMA. A pixel's sums are a chain of
/// multiply-adds, each waiting for the one before; summed a pixel at a
/// time (as the portable path does) they left the vector units mostly
/// idle, and the compiler's own vectorising of blocked loops was fragile
/// (whole-program optimisation turned it back into scalar code). Here `P`
/// neighbouring pixels are summed together, `P · V` independent registers
/// in flight, each weight load shared by the block.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::Conv;
    use std::arch::x86_64::*;

    /// [`super::conv_relu`] for `CO = 8 · V` output channels, `P` pixels
    /// at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn conv_relu<
        const CI: usize,
        const CO: usize,
        const S: usize,
        const P: usize,
        const V: usize,
    >(
        padded: &[f32],
        conv: &Conv,
        out: &mut [f32],
    ) {
        // The pointer arithmetic below stays inside these lengths.
        assert!(CO == 8 * V && S.is_multiple_of(P));
        assert_eq!(padded.len(), (S + 2) * (S + 2) * CI);
        assert_eq!(conv.weights.len(), 9 * CI * CO);
        assert_eq!(conv.bias.len(), CO);
        assert_eq!(out.len(), S * S * CO);
        let stride = S + 2;
        let (weights, bias) = (conv.weights.as_ptr(), conv.bias.as_ptr());
        for y in 0..S {
            for x in (0..S).step_by(P) {
                // SAFETY: pixel (x + p, y + dy) + tap t < 3 · CI lies in the
                // padded plane for x + p < S, dy < 3; weight rows are within
                // 9 · CI · CO; outputs within S · S · CO (asserted above).
                unsafe {
                    let mut acc = [[_mm256_setzero_ps(); V]; P];
                    for block in acc.iter_mut() {
                        for (v, a) in block.iter_mut().enumerate() {
                            *a = _mm256_loadu_ps(bias.add(8 * v));
                        }
                    }
                    for dy in 0..3 {
                        let pixels = padded.as_ptr().add(((y + dy) * stride + x) * CI);
                        let taps = weights.add(dy * 3 * CI * CO);
                        for t in 0..3 * CI {
                            let w: [__m256; V] =
                                std::array::from_fn(|v| _mm256_loadu_ps(taps.add(t * CO + 8 * v)));
                            for (p, block) in acc.iter_mut().enumerate() {
                                let value = _mm256_broadcast_ss(&*pixels.add(p * CI + t));
                                for (a, w) in block.iter_mut().zip(w) {
                                    *a = _mm256_fmadd_ps(value, w, *a);
                                }
                            }
                        }
                    }
                    let zero = _mm256_setzero_ps();
                    for (p, block) in acc.iter().enumerate() {
                        let target = out.as_mut_ptr().add((y * S + x + p) * CO);
                        for (v, &a) in block.iter().enumerate() {
                            _mm256_storeu_ps(target.add(8 * v), _mm256_max_ps(a, zero));
                        }
                    }
                }
            }
        }
    }

    /// `out = bias + Σ input[i] · weights[i]` over rows of `N = 8 · V`
    /// weights (the hidden layer, before its ReLU).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn dense<const I: usize, const N: usize, const V: usize>(
        input: &[f32],
        weights: &[f32],
        bias: &[f32],
        out: &mut [f32],
    ) {
        assert!(N == 8 * V);
        assert!(input.len() == I && weights.len() == I * N && bias.len() == N && out.len() == N);
        // SAFETY: row i's N weights lie within I · N; bias and out hold N
        // (asserted above).
        unsafe {
            let mut acc: [__m256; V] =
                std::array::from_fn(|v| _mm256_loadu_ps(bias.as_ptr().add(8 * v)));
            for (i, &x) in input.iter().enumerate() {
                let value = _mm256_set1_ps(x);
                let row = weights.as_ptr().add(i * N);
                for (v, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_fmadd_ps(value, _mm256_loadu_ps(row.add(8 * v)), *a);
                }
            }
            for (v, a) in acc.iter().enumerate() {
                _mm256_storeu_ps(out.as_mut_ptr().add(8 * v), *a);
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
            let top = &input[((2 * y) * S + 2 * x) * C..][..2 * C];
            let bottom = &input[((2 * y + 1) * S + 2 * x) * C..][..2 * C];
            let target = &mut out[((y + border) * stride + x + border) * C..][..C];
            for (k, t) in target.iter_mut().enumerate() {
                *t = top[k].max(top[C + k]).max(bottom[k].max(bottom[C + k]));
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
    fn the_avx2_fma_path_agrees_with_the_portable_one() {
        if !std::arch::is_x86_feature_detected!("avx2")
            || !std::arch::is_x86_feature_detected!("fma")
        {
            return;
        }
        let nets = Ensemble::embedded().expect("the embedded nets load");
        let classifier = Classifier::new(&nets.members[0]);
        for seed in 0..8 {
            let input = random_square(seed);
            // SAFETY: the CPU has AVX2 and FMA, checked above.
            let fast = unsafe { classifier.classify_avx2(&input) };
            assert_close(&fast, &classifier.classify_portable(&input), "AVX2");
        }
    }
}
