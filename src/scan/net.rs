//! The square classifier: a small convolutional net on a 32×32 grey square.
//!
//! conv 3×3 1→8, ReLU, max-pool 2 → conv 3×3 8→16, ReLU, pool → conv 3×3
//! 16→32, ReLU, pool → dense 512→64, ReLU → dense 64→13 (softmax). About 40 k
//! parameters, 0.7 M multiply-adds a square. Forward and backward are written
//! out here (the NNUE trainer's style); the weights are one flat `f32` vector
//! so that the optimiser and the file format see a single block.

use std::fmt;

use super::CLASSES;
use super::picture::Shade;

pub const SIDE: usize = 32;
pub(super) const C1: usize = 8;
pub(super) const C2: usize = 16;
pub(super) const C3: usize = 32;
pub(super) const HIDDEN: usize = 64;
pub(super) const OUT: usize = CLASSES.len();
pub(super) const FLAT: usize = C3 * (SIDE / 8) * (SIDE / 8);

/// Offsets of each block in the flat parameter vector.
pub(super) const W1: usize = 0;
pub(super) const B1: usize = W1 + C1 * 9;
pub(super) const W2: usize = B1 + C1;
pub(super) const B2: usize = W2 + C2 * C1 * 9;
pub(super) const W3: usize = B2 + C2;
pub(super) const B3: usize = W3 + C3 * C2 * 9;
pub(super) const W4: usize = B3 + C3;
pub(super) const B4: usize = W4 + HIDDEN * FLAT;
pub(super) const W5: usize = B4 + HIDDEN;
pub(super) const B5: usize = W5 + OUT * HIDDEN;
pub const PARAMS: usize = B5 + OUT;

const MAGIC: &[u8; 8] = b"TSCANNET";
/// Version 2 adds, after the shape, the [`Shade`] the net reads (0 luma, 1
/// pigment); version 1 nets read luma.
const VERSION: u32 = 2;
/// The shape written in the header, checked on load.
const SHAPE: [u32; 6] = [
    SIDE as u32,
    C1 as u32,
    C2 as u32,
    C3 as u32,
    HIDDEN as u32,
    OUT as u32,
];
const HEADER_V1: usize = 8 + 4 + 4 * SHAPE.len();
const HEADER: usize = HEADER_V1 + 4;

/// Each plane's code in the file is its index here.
const SHADE_CODES: [Shade; 2] = [Shade::Luma, Shade::Pigment];

/// The default ensemble, nets trained by `tarpon scan train` and joined
/// with `cat` (recipe in docs/scan.md).
static DEFAULT_WEIGHTS: &[u8] = include_bytes!("../../nets/scan.tscan");

#[derive(Debug)]
pub enum NetError {
    BadMagic,
    BadVersion(u32),
    BadShape(Vec<u32>),
    BadShade(u32),
    BadLength {
        expected: usize,
        found: usize,
    },
    NotFinite(usize),
    /// An empty file.
    NoNets,
    /// A file of more than [`MAX_MEMBERS`] nets.
    TooManyNets,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a tarpon scan net (bad magic)"),
            NetError::BadVersion(v) => {
                write!(f, "scan net format version {v}, this build reads {VERSION}")
            }
            NetError::BadShape(s) => {
                write!(f, "scan net shape {s:?}, this build expects {SHAPE:?}")
            }
            NetError::BadShade(code) => {
                write!(
                    f,
                    "scan net reads plane {code}, this build knows 0 (luma) and 1 (pigment)"
                )
            }
            NetError::BadLength { expected, found } => {
                write!(f, "scan net file is {found} bytes, expected {expected}")
            }
            NetError::NotFinite(i) => write!(f, "scan net parameter {i} is not a finite number"),
            NetError::NoNets => write!(f, "scan net file is empty"),
            NetError::TooManyNets => write!(
                f,
                "scan net file holds more than {MAX_MEMBERS} nets, the most this build reads"
            ),
        }
    }
}

impl std::error::Error for NetError {}

#[derive(Clone, Debug)]
pub struct Net {
    pub params: Vec<f32>,
    /// The plane its squares are read from (`Plane::shaded`).
    pub shade: Shade,
}

/// `path` read and parsed by `parse`; errors name the file.
fn parse_file<T>(
    path: &std::path::Path,
    parse: impl Fn(&[u8]) -> Result<T, NetError>,
) -> Result<T, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// At most this many nets in one file: each costs a reading pass.
pub const MAX_MEMBERS: usize = 4;

/// The nets a picture's squares are read by: their probabilities are
/// averaged (`classify_squares`). Nets trained apart, or on different
/// planes, misread different unseen drawings, so together they misread
/// fewer. A file of several nets is their single files back to back
/// (`cat a.tscan b.tscan`); the first net's plane is also where printed
/// coordinates and pieces' colours are read.
#[derive(Clone, Debug)]
pub struct Ensemble {
    pub members: Vec<Net>,
}

impl Ensemble {
    pub fn embedded() -> Result<Ensemble, NetError> {
        Ensemble::from_bytes(DEFAULT_WEIGHTS)
    }

    /// The nets in `path`, or the embedded ones; errors name the file.
    pub fn load(path: Option<&std::path::Path>) -> Result<Ensemble, String> {
        match path {
            Some(p) => parse_file(p, Ensemble::from_bytes),
            None => Ensemble::embedded().map_err(|e| format!("the embedded scan net: {e}")),
        }
    }

    /// One or more net files back to back.
    pub fn from_bytes(mut bytes: &[u8]) -> Result<Ensemble, NetError> {
        let mut members = Vec::new();
        while !bytes.is_empty() {
            if members.len() == MAX_MEMBERS {
                return Err(NetError::TooManyNets);
            }
            // A short last member is measured whole, so its error names the length.
            let length = Net::file_length(bytes)?.min(bytes.len());
            members.push(Net::from_bytes(&bytes[..length])?);
            bytes = &bytes[length..];
        }
        if members.is_empty() {
            return Err(NetError::NoNets);
        }
        Ok(Ensemble { members })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.members.iter().flat_map(Net::to_bytes).collect()
    }

    /// The planes the members read, each once, the first member's first.
    pub fn shades(&self) -> Vec<Shade> {
        let mut shades: Vec<Shade> = Vec::new();
        for net in &self.members {
            if !shades.contains(&net.shade) {
                shades.push(net.shade);
            }
        }
        shades
    }
}

impl From<Net> for Ensemble {
    fn from(net: Net) -> Ensemble {
        Ensemble { members: vec![net] }
    }
}

/// What the forward pass keeps for the backward pass.
pub struct Trace {
    input: Vec<f32>,
    a1: Vec<f32>,
    p1: Vec<f32>,
    i1: Vec<u32>,
    a2: Vec<f32>,
    p2: Vec<f32>,
    i2: Vec<u32>,
    a3: Vec<f32>,
    p3: Vec<f32>,
    i3: Vec<u32>,
    h: Vec<f32>,
    pub probs: Vec<f32>,
}

impl Net {
    /// He-initialised weights from `seed`, for squares read from `shade`.
    pub fn random(seed: u64, shade: Shade) -> Net {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut params = vec![0.0f32; PARAMS];
        let blocks = [
            (W1, B1, 9),
            (W2, B2, C1 * 9),
            (W3, B3, C2 * 9),
            (W4, B4, FLAT),
            (W5, B5, HIDDEN),
        ];
        for (start, end, fan_in) in blocks {
            let bound = (6.0 / fan_in as f32).sqrt();
            for p in &mut params[start..end] {
                *p = rng.symmetric_f32(bound);
            }
        }
        Net { params, shade }
    }

    /// One net's weights in `path` (the trainer's starting point); errors
    /// name the file.
    pub fn load(path: &std::path::Path) -> Result<Net, String> {
        parse_file(path, Net::from_bytes)
    }

    /// The length of the net file at the start of `bytes`, from its header.
    fn file_length(bytes: &[u8]) -> Result<usize, NetError> {
        if bytes.len() < HEADER_V1 || &bytes[..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        match version {
            1 => Ok(HEADER_V1 + 4 * PARAMS),
            VERSION => Ok(HEADER + 4 * PARAMS),
            _ => Err(NetError::BadVersion(version)),
        }
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let expected = Net::file_length(bytes)?;
        let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let version = word(8);
        let header = expected - 4 * PARAMS;
        let shape: Vec<u32> = (0..SHAPE.len()).map(|i| word(12 + 4 * i)).collect();
        if shape != SHAPE {
            return Err(NetError::BadShape(shape));
        }
        if bytes.len() != expected {
            return Err(NetError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let shade = match version {
            1 => Shade::Luma,
            _ => {
                let code = word(HEADER_V1);
                *SHADE_CODES
                    .get(code as usize)
                    .ok_or(NetError::BadShade(code))?
            }
        };
        let params: Vec<f32> = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        if let Some(i) = params.iter().position(|p| !p.is_finite()) {
            return Err(NetError::NotFinite(i));
        }
        Ok(Net { params, shade })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER + 4 * PARAMS);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for s in SHAPE {
            bytes.extend_from_slice(&s.to_le_bytes());
        }
        let code = SHADE_CODES.iter().position(|&s| s == self.shade);
        bytes.extend_from_slice(&(code.expect("every plane has a code") as u32).to_le_bytes());
        for p in &self.params {
            bytes.extend_from_slice(&p.to_le_bytes());
        }
        bytes
    }

    pub fn forward(&self, input: &[f32]) -> Trace {
        debug_assert_eq!(input.len(), SIDE * SIDE);
        let p = &self.params;
        let s1 = SIDE;
        let mut a1 = vec![0.0; C1 * s1 * s1];
        conv3x3(input, 1, s1, &p[W1..B1], &p[B1..W2], C1, &mut a1);
        relu(&mut a1);
        let (p1, i1) = max_pool(&a1, C1, s1);
        let s2 = s1 / 2;
        let mut a2 = vec![0.0; C2 * s2 * s2];
        conv3x3(&p1, C1, s2, &p[W2..B2], &p[B2..W3], C2, &mut a2);
        relu(&mut a2);
        let (p2, i2) = max_pool(&a2, C2, s2);
        let s3 = s2 / 2;
        let mut a3 = vec![0.0; C3 * s3 * s3];
        conv3x3(&p2, C2, s3, &p[W3..B3], &p[B3..W4], C3, &mut a3);
        relu(&mut a3);
        let (p3, i3) = max_pool(&a3, C3, s3);
        debug_assert_eq!(p3.len(), FLAT);
        let mut h = dense(&p3, &p[W4..B4], &p[B4..W5], HIDDEN);
        relu(&mut h);
        let logits = dense(&h, &p[W5..B5], &p[B5..PARAMS], OUT);
        let probs = softmax(&logits);
        Trace {
            input: input.to_vec(),
            a1,
            p1,
            i1,
            a2,
            p2,
            i2,
            a3,
            p3,
            i3,
            h,
            probs,
        }
    }

    /// Adds to `grad` the gradient of the cross-entropy of `trace` against
    /// class `target`; returns that loss.
    pub fn backward(&self, trace: &Trace, target: usize, grad: &mut [f32]) -> f32 {
        debug_assert_eq!(grad.len(), PARAMS);
        let p = &self.params;
        let loss = -trace.probs[target].max(1e-12).ln();
        let mut d_logits = trace.probs.clone();
        d_logits[target] -= 1.0;
        let mut d_h = dense_backward(&trace.h, &p[W5..B5], &d_logits, grad, W5, B5);
        relu_backward(&trace.h, &mut d_h);
        let d_p3 = dense_backward(&trace.p3, &p[W4..B4], &d_h, grad, W4, B4);
        let s3 = SIDE / 4;
        let mut d_a3 = pool_backward(&d_p3, &trace.i3, C3 * s3 * s3);
        relu_backward(&trace.a3, &mut d_a3);
        let mut d_p2 = vec![0.0; C2 * s3 * s3];
        conv3x3_backward(
            &trace.p2,
            C2,
            s3,
            &p[W3..B3],
            C3,
            &d_a3,
            grad,
            W3,
            B3,
            Some(&mut d_p2),
        );
        let s2 = SIDE / 2;
        let mut d_a2 = pool_backward(&d_p2, &trace.i2, C2 * s2 * s2);
        relu_backward(&trace.a2, &mut d_a2);
        let mut d_p1 = vec![0.0; C1 * s2 * s2];
        conv3x3_backward(
            &trace.p1,
            C1,
            s2,
            &p[W2..B2],
            C2,
            &d_a2,
            grad,
            W2,
            B2,
            Some(&mut d_p1),
        );
        let mut d_a1 = pool_backward(&d_p1, &trace.i1, C1 * SIDE * SIDE);
        relu_backward(&trace.a1, &mut d_a1);
        conv3x3_backward(
            &trace.input,
            1,
            SIDE,
            &p[W1..B1],
            C1,
            &d_a1,
            grad,
            W1,
            B1,
            None,
        );
        loss
    }
}

/// The rows `lo..hi` of an output of side `side` whose source row `y + d` is
/// inside the picture (zero padding elsewhere).
#[inline]
fn valid(side: usize, d: isize) -> (usize, usize) {
    let lo = (-d).max(0) as usize;
    let hi = (side as isize - d.max(0)) as usize;
    (lo, hi)
}

/// Tap `k` (0..9) of a 3×3 kernel on a `side`×`side` plane: for each output
/// row, `f(output_start, source_start, len)` for the row's columns whose
/// source lies inside the plane.
#[inline]
fn for_tap_rows(k: usize, side: usize, mut f: impl FnMut(usize, usize, usize)) {
    let (dy, dx) = ((k / 3) as isize - 1, (k % 3) as isize - 1);
    let (ylo, yhi) = valid(side, dy);
    let (xlo, xhi) = valid(side, dx);
    for y in ylo..yhi {
        let sy = (y as isize + dy) as usize;
        let from = ((sy * side) as isize + xlo as isize + dx) as usize;
        f(y * side + xlo, from, xhi - xlo);
    }
}

/// 3×3 convolution with zero padding, `same` size. Weights `[out][in][3][3]`.
fn conv3x3(
    input: &[f32],
    c_in: usize,
    side: usize,
    w: &[f32],
    b: &[f32],
    c_out: usize,
    out: &mut [f32],
) {
    let n = side * side;
    for co in 0..c_out {
        let o = &mut out[co * n..(co + 1) * n];
        o.fill(b[co]);
        for ci in 0..c_in {
            let src = &input[ci * n..(ci + 1) * n];
            for k in 0..9 {
                let weight = w[(co * c_in + ci) * 9 + k];
                for_tap_rows(k, side, |at, from, len| {
                    for (o, s) in o[at..at + len].iter_mut().zip(&src[from..from + len]) {
                        *o += weight * s;
                    }
                });
            }
        }
    }
}

/// Gradients of [`conv3x3`]: weights and biases into `grad` at `w_at`/`b_at`,
/// and the input's gradient into `d_input` when the layer below needs it.
#[allow(clippy::too_many_arguments)]
fn conv3x3_backward(
    input: &[f32],
    c_in: usize,
    side: usize,
    w: &[f32],
    c_out: usize,
    d_out: &[f32],
    grad: &mut [f32],
    w_at: usize,
    b_at: usize,
    mut d_input: Option<&mut [f32]>,
) {
    let n = side * side;
    for co in 0..c_out {
        let d = &d_out[co * n..(co + 1) * n];
        grad[b_at + co] += d.iter().sum::<f32>();
        for ci in 0..c_in {
            let src = &input[ci * n..(ci + 1) * n];
            for k in 0..9 {
                let index = (co * c_in + ci) * 9 + k;
                let weight = w[index];
                let mut dw = 0.0;
                for_tap_rows(k, side, |at, from, len| {
                    let d_row = &d[at..at + len];
                    dw += d_row
                        .iter()
                        .zip(&src[from..from + len])
                        .map(|(a, b)| a * b)
                        .sum::<f32>();
                    if let Some(d_in) = d_input.as_deref_mut() {
                        for (di, dv) in d_in[ci * n + from..ci * n + from + len]
                            .iter_mut()
                            .zip(d_row)
                        {
                            *di += weight * dv;
                        }
                    }
                });
                grad[w_at + index] += dw;
            }
        }
    }
}

fn relu(values: &mut [f32]) {
    for v in values {
        *v = v.max(0.0);
    }
}

/// Zeroes the gradient where the ReLU's output was zero.
fn relu_backward(activated: &[f32], d: &mut [f32]) {
    for (g, &a) in d.iter_mut().zip(activated) {
        if a <= 0.0 {
            *g = 0.0;
        }
    }
}

/// 2×2 max-pooling; returns the pooled values and where each maximum was.
fn max_pool(input: &[f32], channels: usize, side: usize) -> (Vec<f32>, Vec<u32>) {
    let half = side / 2;
    let mut out = Vec::with_capacity(channels * half * half);
    let mut at = Vec::with_capacity(channels * half * half);
    for c in 0..channels {
        for y in 0..half {
            for x in 0..half {
                let base = c * side * side + 2 * y * side + 2 * x;
                let mut best = base;
                for i in [base + 1, base + side, base + side + 1] {
                    if input[i] > input[best] {
                        best = i;
                    }
                }
                out.push(input[best]);
                at.push(best as u32);
            }
        }
    }
    (out, at)
}

fn pool_backward(d_pooled: &[f32], at: &[u32], input_len: usize) -> Vec<f32> {
    let mut d = vec![0.0; input_len];
    for (&g, &i) in d_pooled.iter().zip(at) {
        d[i as usize] += g;
    }
    d
}

/// `w` is `[out][in]`.
fn dense(input: &[f32], w: &[f32], b: &[f32], outputs: usize) -> Vec<f32> {
    (0..outputs)
        .map(|o| {
            let row = &w[o * input.len()..(o + 1) * input.len()];
            b[o] + row.iter().zip(input).map(|(a, b)| a * b).sum::<f32>()
        })
        .collect()
}

/// Gradients of [`dense`] into `grad`; returns the input's gradient.
fn dense_backward(
    input: &[f32],
    w: &[f32],
    d_out: &[f32],
    grad: &mut [f32],
    w_at: usize,
    b_at: usize,
) -> Vec<f32> {
    let mut d_input = vec![0.0; input.len()];
    for (o, &d) in d_out.iter().enumerate() {
        grad[b_at + o] += d;
        if d == 0.0 {
            continue;
        }
        let start = o * input.len();
        for (i, (&x, &weight)) in input.iter().zip(&w[start..start + input.len()]).enumerate() {
            grad[w_at + start + i] += d * x;
            d_input[i] += d * weight;
        }
    }
    d_input
}

pub(super) fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
    let sum: f32 = exps.iter().sum();
    exps.iter().map(|e| e / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic gradient matches a finite difference on a few parameters
    /// of every block.
    #[test]
    fn backward_matches_finite_differences() {
        let mut net = Net::random(7, Shade::Luma);
        let mut rng = crate::rng::SplitMix64::new(3);
        let input: Vec<f32> = (0..SIDE * SIDE).map(|_| rng.symmetric_f32(1.0)).collect();
        let target = 4;
        let mut grad = vec![0.0; PARAMS];
        net.backward(&net.forward(&input), target, &mut grad);
        for index in [
            W1 + 3,
            B1 + 1,
            W2 + 100,
            W3 + 500,
            B3 + 2,
            W4 + 1234,
            B4 + 5,
            W5 + 77,
            B5 + 4,
        ] {
            let eps = 1e-3;
            let saved = net.params[index];
            net.params[index] = saved + eps;
            let up = -net.forward(&input).probs[target].ln();
            net.params[index] = saved - eps;
            let down = -net.forward(&input).probs[target].ln();
            net.params[index] = saved;
            let numeric = (up - down) / (2.0 * eps);
            let analytic = grad[index];
            assert!(
                (numeric - analytic).abs() <= 2e-2 * (1.0 + numeric.abs().max(analytic.abs())),
                "parameter {index}: numeric {numeric}, analytic {analytic}"
            );
        }
    }

    #[test]
    fn malformed_weight_files_are_refused() {
        let good = Net::random(1, Shade::Pigment).to_bytes();
        assert!(Net::from_bytes(&good).is_ok());
        assert!(matches!(
            Net::from_bytes(b"nonsense"),
            Err(NetError::BadMagic)
        ));
        assert!(matches!(
            Net::from_bytes(&good[..good.len() - 4]),
            Err(NetError::BadLength { .. })
        ));
        let mut bad = good.clone();
        bad[HEADER..HEADER + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(Net::from_bytes(&bad), Err(NetError::NotFinite(0))));
        let mut bad = good.clone();
        bad[HEADER_V1..HEADER].copy_from_slice(&7u32.to_le_bytes());
        assert!(matches!(Net::from_bytes(&bad), Err(NetError::BadShade(7))));
        let mut bad = good;
        bad[8..12].copy_from_slice(&3u32.to_le_bytes());
        assert!(matches!(
            Net::from_bytes(&bad),
            Err(NetError::BadVersion(3))
        ));
    }

    #[test]
    fn the_plane_a_net_reads_survives_its_file() {
        for shade in [Shade::Luma, Shade::Pigment] {
            let net = Net::random(2, shade);
            let back = Net::from_bytes(&net.to_bytes()).expect("loads");
            assert_eq!(back.shade, shade);
            assert_eq!(back.params, net.params);
        }
    }

    /// Nets back to back load as an ensemble, in order; a file with a
    /// broken member, trailing bytes or too many members is refused.
    #[test]
    fn several_nets_in_one_file_load_as_an_ensemble() {
        let luma = Net::random(4, Shade::Luma);
        let pigment = Net::random(5, Shade::Pigment);
        let mut bytes = luma.to_bytes();
        bytes.extend(pigment.to_bytes());
        let ensemble = Ensemble::from_bytes(&bytes).expect("two nets load");
        assert_eq!(ensemble.members.len(), 2);
        assert_eq!(ensemble.members[0].params, luma.params);
        assert_eq!(ensemble.members[1].shade, Shade::Pigment);
        assert_eq!(ensemble.shades(), vec![Shade::Luma, Shade::Pigment]);
        assert_eq!(ensemble.to_bytes(), bytes);
        assert!(matches!(
            Ensemble::from_bytes(&bytes[..bytes.len() - 4]),
            Err(NetError::BadLength { .. })
        ));
        let mut trailing = bytes.clone();
        trailing.extend_from_slice(b"TSCAN");
        assert!(matches!(
            Ensemble::from_bytes(&trailing),
            Err(NetError::BadMagic)
        ));
        assert!(matches!(Ensemble::from_bytes(&[]), Err(NetError::NoNets)));
        let many: Vec<u8> = (0..=MAX_MEMBERS).flat_map(|_| luma.to_bytes()).collect();
        assert!(matches!(
            Ensemble::from_bytes(&many),
            Err(NetError::TooManyNets)
        ));
    }

    /// A version 1 file (no plane in its header) reads luma.
    #[test]
    fn version_one_files_read_luma() {
        let net = Net::random(3, Shade::Pigment);
        let bytes = net.to_bytes();
        let mut old = bytes[..HEADER_V1].to_vec();
        old[8..12].copy_from_slice(&1u32.to_le_bytes());
        old.extend_from_slice(&bytes[HEADER..]);
        let back = Net::from_bytes(&old).expect("a version 1 file loads");
        assert_eq!(back.shade, Shade::Luma);
        assert_eq!(back.params, net.params);
    }
}
