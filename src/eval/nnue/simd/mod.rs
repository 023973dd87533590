//! The hot loops of NNUE inference, once per instruction set: AVX-512,
//! AVX-VNNI, AVX2 and SSE4.1 (x86-64, picked at run time with
//! `is_x86_feature_detected!`), NEON
//! (aarch64, always present there) and a portable scalar path. Every path
//! produces bit-identical results: integer arithmetic only, the same
//! wrap-around on `i16` accumulators, the same saturation and clamping.
//!
//! The best path is chosen once, on first use ([`Kernels::detected`]); tests
//! and benchmarks can ask for any path the CPU supports ([`Kernels::for_path`]).

#[cfg(target_arch = "aarch64")]
mod neon;
mod scalar;
#[cfg(target_arch = "x86_64")]
mod x86;

use std::fmt;
use std::sync::OnceLock;

/// Right shift applied to dense-layer sums before the clipped ReLU: weights
/// are quantised with 64 = 2^6 as one.
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// The largest activation after a clipped ReLU (1.0 quantised).
pub const ACTIVATION_MAX: i32 = 127;
/// 1.0 of a transformer output under the squared clipped ReLU head
/// (`QA`): its activation is `clamp(acc, 0, QA)²`.
pub const SCRELU_ONE: i32 = 255;
/// The largest output weight of the squared clipped ReLU head: with
/// activations `v` ≤ [`SCRELU_ONE`], `v × w` still fits an i16 lane
/// (255 × 127 = 32385), which the kernels rely on.
pub const SCRELU_WEIGHT_MAX: i16 = 127;
/// The largest accumulator shift a transformer may ask for: its
/// accumulators then count 2^shift units per activation unit.
pub const MAX_TRANSFORMER_SHIFT: u32 = 6;

/// An instruction set the kernels exist for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdPath {
    Scalar,
    Sse41,
    Avx2,
    /// AVX2 with AVX-VNNI's fused u8 × i8 dot product for the dense layers.
    AvxVnni,
    /// AVX-512BW's 32-lane vectors for the accumulators and the SCReLU
    /// output (the work of every node), AVX-512VNNI's dot product on
    /// 256-bit vectors for the dense layers.
    Avx512,
    Neon,
}

impl SimdPath {
    pub const ALL: [SimdPath; 6] = [
        SimdPath::Scalar,
        SimdPath::Sse41,
        SimdPath::Avx2,
        SimdPath::AvxVnni,
        SimdPath::Avx512,
        SimdPath::Neon,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            SimdPath::Scalar => "scalar",
            SimdPath::Sse41 => "sse4.1",
            SimdPath::Avx2 => "avx2",
            SimdPath::AvxVnni => "avx-vnni",
            SimdPath::Avx512 => "avx512",
            SimdPath::Neon => "neon",
        }
    }

    /// The fastest path this CPU supports (what [`Kernels::detected`] picks
    /// unless a path was forced).
    pub fn fastest() -> SimdPath {
        [
            SimdPath::Avx512,
            SimdPath::AvxVnni,
            SimdPath::Avx2,
            SimdPath::Neon,
            SimdPath::Sse41,
        ]
        .into_iter()
        .find(|p| p.is_supported())
        .unwrap_or(SimdPath::Scalar)
    }

    /// Whether this CPU can run the path.
    pub fn is_supported(self) -> bool {
        match self {
            SimdPath::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            SimdPath::Sse41 => std::arch::is_x86_feature_detected!("sse4.1"),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            SimdPath::AvxVnni => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("avxvnni")
            }
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => {
                SimdPath::Avx2.is_supported()
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vnni")
                    && std::arch::is_x86_feature_detected!("avx512vl")
            }
            #[cfg(target_arch = "aarch64")]
            SimdPath::Neon => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}

impl std::str::FromStr for SimdPath {
    type Err = String;

    fn from_str(name: &str) -> Result<SimdPath, String> {
        SimdPath::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = SimdPath::ALL.iter().map(|p| p.name()).collect();
                format!("unknown SIMD path '{name}' (one of {})", names.join(", "))
            })
    }
}

impl fmt::Display for SimdPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Adds the rows in `add` to `src` and subtracts those in `sub`, writing `dst`
/// (all slices of one length; `i16` wrap-around).
pub type ApplyFromFn = fn(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]);
/// The same in place.
pub type ApplyFn = fn(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]);
/// `dst[i] = clamp(src[i] >> shift, 0, 127)` (arithmetic shift; `shift` at
/// most [`MAX_TRANSFORMER_SHIFT`]).
pub type ClippedRelu16Fn = fn(src: &[i16], dst: &mut [u8], shift: u32);
/// `dst[i] = clamp(src[i] >> 6, 0, 127)`.
pub type ClippedRelu32Fn = fn(src: &[i32], dst: &mut [u8]);
/// Stockfish 15.1's transformer activation on one perspective: with `h =
/// dst.len()` and `src.len() == 2h`, `dst[j] = clamp(src[j], 0, 127) ×
/// clamp(src[j + h], 0, 127) / 128` (the two halves multiplied pairwise).
pub type PairwiseFn = fn(src: &[i16], dst: &mut [u8]);
/// `Σ clamp(acc[i], 0, 255)² × weights[i]` in wrapping i32 arithmetic, for
/// slices of one length whose weights lie within ±[`SCRELU_WEIGHT_MAX`].
/// The SIMD paths compute `(v × w) × v` with the first product in i16
/// lanes (exact under that bound) and pairs of the second summed into i32
/// (`madd`); wrapping sums are the same in any order, so every path agrees.
pub type ScreluDotFn = fn(acc: &[i16], weights: &[i16]) -> i32;
/// `out[o] = biases[o] + Σ weights[o][i] × input[i]` with weights stored row
/// by row, each row as long as `input` (a multiple of 32, padded with zeros).
pub type AffineFn = fn(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]);

/// One instruction set's kernels. Only built by [`Kernels::for_path`], which
/// checks that the CPU supports the path: the SIMD entries rely on that.
pub struct Kernels {
    pub path: SimdPath,
    pub apply_from: ApplyFromFn,
    pub apply: ApplyFn,
    pub clipped_relu16: ClippedRelu16Fn,
    pub clipped_relu32: ClippedRelu32Fn,
    pub pairwise: PairwiseFn,
    pub affine: AffineFn,
    pub screlu_dot: ScreluDotFn,
}

static SCALAR: Kernels = Kernels {
    path: SimdPath::Scalar,
    apply_from: scalar::apply_from,
    apply: scalar::apply,
    clipped_relu16: scalar::clipped_relu16,
    clipped_relu32: scalar::clipped_relu32,
    pairwise: scalar::pairwise,
    affine: scalar::affine,
    screlu_dot: scalar::screlu_dot,
};

impl Kernels {
    /// The kernels for `path`, or `None` when this CPU (or build target)
    /// cannot run it.
    pub fn for_path(path: SimdPath) -> Option<&'static Kernels> {
        if !path.is_supported() {
            return None;
        }
        match path {
            SimdPath::Scalar => Some(&SCALAR),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Sse41 => Some(&x86::SSE41),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => Some(&x86::AVX2),
            #[cfg(target_arch = "x86_64")]
            SimdPath::AvxVnni => Some(&x86::AVX_VNNI),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => Some(&x86::AVX512),
            #[cfg(target_arch = "aarch64")]
            SimdPath::Neon => Some(&neon::NEON),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The kernels the process uses: the fastest path this CPU supports,
    /// decided on first use, or the one [`Kernels::force`] chose before it.
    pub fn detected() -> &'static Kernels {
        CHOSEN.get_or_init(|| Kernels::for_path(SimdPath::fastest()).unwrap_or(&SCALAR))
    }

    /// The portable path, always available.
    pub fn scalar() -> &'static Kernels {
        &SCALAR
    }

    /// Makes the whole process use `path` instead of the fastest one, so a
    /// bench can show that every path gives the same signature. Must come
    /// before the first evaluation.
    pub fn force(path: SimdPath) -> Result<(), String> {
        let kernels = Kernels::for_path(path)
            .ok_or_else(|| format!("SIMD path {path} is not supported on this CPU"))?;
        CHOSEN
            .set(kernels)
            .map_err(|_| format!("SIMD path already chosen ({})", Kernels::detected().path))
    }
}

/// The path the process uses, set on first use.
static CHOSEN: OnceLock<&'static Kernels> = OnceLock::new();

/// The name of the path the engine uses ("avx2", "neon", ...).
pub fn simd_path_name() -> &'static str {
    Kernels::detected().path.name()
}

/// Checks the shape contract shared by every `apply` kernel.
fn check_rows(len: usize, add: &[&[i16]], sub: &[&[i16]]) {
    assert!(
        add.iter().chain(sub).all(|row| row.len() == len),
        "accumulator rows must match the accumulator length"
    );
}

/// One SIMD width's i16 vector operations, for the accumulator update that
/// every width shares: unaligned load and store of `LANES` lanes, and
/// wrapping add and subtract. Each path builds one inside a function
/// compiled for its instruction set, so the operations inline as that set's
/// instructions.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
struct I16Vectors<Load, Store, Add, Sub> {
    /// Called only with pointers valid for `LANES` reads.
    load: Load,
    /// Called only with pointers valid for `LANES` writes.
    store: Store,
    add: Add,
    sub: Sub,
}

/// `dst = src + Σ add − Σ sub` over `len` lanes with vectors of `LANES` i16:
/// four vectors at a time so each row's loop overhead is shared, then one
/// at a time, then lane by lane. The row counts of a single move (one added
/// and one or two removed, two and two for castling) get loops with a fixed
/// number of rows, which the compiler unrolls: that is nearly every update
/// the search makes.
///
/// # Safety
/// The operations' instruction set is available; `dst` and `src` are valid
/// for `len` elements (they may be the same pointer: each lane is read
/// before it is written); every row is at least `len` long.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
#[inline(always)]
unsafe fn apply_with<const LANES: usize, V: Copy>(
    ops: I16Vectors<
        impl Fn(*const i16) -> V,
        impl Fn(*mut i16, V),
        impl Fn(V, V) -> V,
        impl Fn(V, V) -> V,
    >,
    dst: *mut i16,
    src: *const i16,
    len: usize,
    add: &[&[i16]],
    sub: &[&[i16]],
) {
    let block = len - len % (4 * LANES);
    let add_row = |j: usize| add[j].as_ptr();
    let sub_row = |j: usize| sub[j].as_ptr();
    // SAFETY (every arm): the contract above, passed on; `block` <= `len`.
    // The arms differ only in the row counts, which are constants in the
    // first three: each inlined copy unrolls its row loops.
    let mut i = unsafe {
        match (add.len(), sub.len()) {
            (1, 1) => ops.apply_blocks::<LANES>(dst, src, block, (1, add_row), (1, sub_row)),
            (1, 2) => ops.apply_blocks::<LANES>(dst, src, block, (1, add_row), (2, sub_row)),
            (2, 2) => ops.apply_blocks::<LANES>(dst, src, block, (2, add_row), (2, sub_row)),
            (na, ns) => ops.apply_blocks::<LANES>(dst, src, block, (na, add_row), (ns, sub_row)),
        }
    };
    let full = len - len % LANES;
    while i < full {
        let mut v = (ops.load)(src.wrapping_add(i));
        for row in add {
            v = (ops.add)(v, (ops.load)(row.as_ptr().wrapping_add(i)));
        }
        for row in sub {
            v = (ops.sub)(v, (ops.load)(row.as_ptr().wrapping_add(i)));
        }
        (ops.store)(dst.wrapping_add(i), v);
        i += LANES;
    }
    for j in full..len {
        // SAFETY: j < len, valid for both pointers by contract.
        let mut v = unsafe { *src.add(j) };
        for row in add {
            v = v.wrapping_add(row[j]);
        }
        for row in sub {
            v = v.wrapping_sub(row[j]);
        }
        // SAFETY: as above.
        unsafe { *dst.add(j) = v };
    }
}

impl<V, Load, Store, Add, Sub> I16Vectors<Load, Store, Add, Sub>
where
    V: Copy,
    Load: Fn(*const i16) -> V,
    Store: Fn(*mut i16, V),
    Add: Fn(V, V) -> V,
    Sub: Fn(V, V) -> V,
{
    /// The four-vector loop of [`apply_with`] up to `block`, a multiple of
    /// 4 × `LANES`, for `add.0` rows added and `sub.0` removed (row `j`
    /// starts at `add.1(j)`, `sub.1(j)`); returns `block`.
    ///
    /// # Safety
    /// As [`apply_with`], with every row pointer valid for `block` lanes.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    #[inline(always)]
    unsafe fn apply_blocks<const LANES: usize>(
        &self,
        dst: *mut i16,
        src: *const i16,
        block: usize,
        add: (usize, impl Fn(usize) -> *const i16),
        sub: (usize, impl Fn(usize) -> *const i16),
    ) -> usize {
        debug_assert!(block.is_multiple_of(4 * LANES));
        let mut i = 0;
        while i < block {
            // Pointer arithmetic only here; `load` and `store` dereference, and
            // i + 4 × LANES <= block keeps them inside `src`, `dst` and every row.
            let at = |p: *const i16, k: usize| p.wrapping_add(i + k * LANES);
            let mut v: [V; 4] = std::array::from_fn(|k| (self.load)(at(src, k)));
            for j in 0..add.0 {
                let row = add.1(j);
                for (k, x) in v.iter_mut().enumerate() {
                    *x = (self.add)(*x, (self.load)(at(row, k)));
                }
            }
            for j in 0..sub.0 {
                let row = sub.1(j);
                for (k, x) in v.iter_mut().enumerate() {
                    *x = (self.sub)(*x, (self.load)(at(row, k)));
                }
            }
            for (k, x) in v.iter().enumerate() {
                (self.store)(dst.wrapping_add(i + k * LANES), *x);
            }
            i += 4 * LANES;
        }
        block
    }
}

/// Checks the shape contract shared by every `pairwise` kernel.
fn check_pairwise(src: &[i16], dst: &[u8]) {
    assert_eq!(src.len(), 2 * dst.len(), "pairwise needs two halves");
}

/// Checks the shape contract shared by every `screlu_dot` kernel (the weight
/// bound only in debug builds: the loader enforces it).
fn check_screlu_dot(acc: &[i16], weights: &[i16]) {
    assert_eq!(acc.len(), weights.len(), "one weight per accumulator value");
    debug_assert!(
        weights.iter().all(|w| w.abs() <= SCRELU_WEIGHT_MAX),
        "SCReLU output weight out of range"
    );
}

/// Checks the shape contract shared by every `affine` kernel.
fn check_affine(weights: &[i8], biases: &[i32], input: &[u8], out: &[i32]) {
    assert!(
        input.len().is_multiple_of(32),
        "affine input must be padded to 32"
    );
    assert_eq!(biases.len(), out.len());
    assert_eq!(weights.len(), out.len() * input.len());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn every_path_name_parses_back_and_nothing_else_does() {
        for path in SimdPath::ALL {
            assert_eq!(path.name().parse::<SimdPath>(), Ok(path));
        }
        assert!("avx-512".parse::<SimdPath>().is_err());
        assert!(SimdPath::fastest().is_supported());
    }

    fn i16s(rng: &mut SplitMix64, n: usize) -> Vec<i16> {
        (0..n).map(|_| rng.next_u64() as i16).collect()
    }

    fn simd_paths() -> Vec<&'static Kernels> {
        SimdPath::ALL
            .into_iter()
            .filter(|&p| p != SimdPath::Scalar)
            .filter_map(Kernels::for_path)
            .collect()
    }

    #[test]
    fn the_detected_path_is_supported() {
        assert!(Kernels::detected().path.is_supported());
        #[cfg(target_arch = "x86_64")]
        if SimdPath::Avx512.is_supported() {
            assert_eq!(simd_path_name(), "avx512");
        } else if SimdPath::AvxVnni.is_supported() {
            assert_eq!(simd_path_name(), "avx-vnni");
        } else if std::arch::is_x86_feature_detected!("avx2") {
            assert_eq!(simd_path_name(), "avx2");
        }
    }

    #[test]
    fn accumulator_updates_match_scalar_bit_for_bit() {
        let mut rng = SplitMix64::new(1);
        // Odd lengths exercise the scalar tails; full-range values the wrap-around.
        for len in [16, 32, 48, 256, 1024, 37, 3] {
            let rows: Vec<Vec<i16>> = (0..6).map(|_| i16s(&mut rng, len)).collect();
            let src = i16s(&mut rng, len);
            for (na, ns) in [(0, 0), (1, 1), (1, 2), (2, 1), (2, 2), (4, 2)] {
                let add: Vec<&[i16]> = rows[..na].iter().map(Vec::as_slice).collect();
                let sub: Vec<&[i16]> = rows[na..na + ns].iter().map(Vec::as_slice).collect();
                let mut expected = vec![0; len];
                (SCALAR.apply_from)(&mut expected, &src, &add, &sub);
                let mut in_place = src.clone();
                (SCALAR.apply)(&mut in_place, &add, &sub);
                assert_eq!(in_place, expected);
                for k in simd_paths() {
                    let mut got = vec![0; len];
                    (k.apply_from)(&mut got, &src, &add, &sub);
                    assert_eq!(got, expected, "{} apply_from, len {len}", k.path);
                    let mut got = src.clone();
                    (k.apply)(&mut got, &add, &sub);
                    assert_eq!(got, expected, "{} apply, len {len}", k.path);
                }
            }
        }
    }

    #[test]
    fn activations_match_scalar_bit_for_bit() {
        let mut rng = SplitMix64::new(2);
        for len in [32, 64, 512, 1024, 15, 33, 1] {
            let wide = i16s(&mut rng, len);
            let small: Vec<i16> = wide.iter().map(|v| v % 300).collect();
            for src in [&wide, &small] {
                for shift in [0, 1, 2, MAX_TRANSFORMER_SHIFT] {
                    let mut expected = vec![0u8; len];
                    (SCALAR.clipped_relu16)(src, &mut expected, shift);
                    for k in simd_paths() {
                        let mut got = vec![0xAAu8; len];
                        (k.clipped_relu16)(src, &mut got, shift);
                        assert_eq!(
                            got, expected,
                            "{} clipped_relu16 >> {shift}, len {len}",
                            k.path
                        );
                    }
                }
            }
            let wide: Vec<i32> = (0..len).map(|_| rng.next_u64() as i32).collect();
            let small: Vec<i32> = wide.iter().map(|v| v % 20_000).collect();
            for src in [&wide, &small] {
                let mut expected = vec![0u8; len];
                (SCALAR.clipped_relu32)(src, &mut expected);
                for k in simd_paths() {
                    let mut got = vec![0xAAu8; len];
                    (k.clipped_relu32)(src, &mut got);
                    assert_eq!(got, expected, "{} clipped_relu32, len {len}", k.path);
                }
            }
        }
    }

    #[test]
    fn pairwise_products_match_scalar_bit_for_bit() {
        let mut rng = SplitMix64::new(4);
        // 512 is Stockfish 15.1's half; the odd sizes exercise the tails.
        for half in [512, 16, 32, 48, 8, 7, 1] {
            let wide = i16s(&mut rng, 2 * half);
            let small: Vec<i16> = wide.iter().map(|v| v % 200).collect();
            let saturated: Vec<i16> = (0..2 * half)
                .map(|i| [127, 128, -1, 0, 200][i % 5])
                .collect();
            for src in [&wide, &small, &saturated] {
                let mut expected = vec![0u8; half];
                (SCALAR.pairwise)(src, &mut expected);
                assert!(expected.iter().all(|&v| v <= 126));
                for k in simd_paths() {
                    let mut got = vec![0xAAu8; half];
                    (k.pairwise)(src, &mut got);
                    assert_eq!(got, expected, "{} pairwise, half {half}", k.path);
                }
            }
        }
        // 127 × 127 / 128 = 126, 100 × 64 / 128 = 50, negatives clip to 0.
        let mut out = [0u8; 3];
        (SCALAR.pairwise)(&[127, 100, -5, 300, 64, 90], &mut out);
        assert_eq!(out, [126, 50, 0]);
    }

    #[test]
    fn screlu_dot_matches_scalar_bit_for_bit() {
        let mut rng = SplitMix64::new(5);
        // 16..1024 are real widths; the odd sizes exercise the tails.
        for len in [16, 32, 64, 256, 512, 1024, 8, 7, 33, 48, 50, 1] {
            let w = i32::from(SCRELU_WEIGHT_MAX);
            let weights: Vec<i16> = (0..len).map(|_| rng.range_i32(-w, w) as i16).collect();
            let extreme: Vec<i16> = (0..len)
                .map(|i| {
                    if i % 2 == 0 {
                        SCRELU_WEIGHT_MAX
                    } else {
                        -SCRELU_WEIGHT_MAX
                    }
                })
                .collect();
            let wide = i16s(&mut rng, len);
            let near: Vec<i16> = wide.iter().map(|v| v % 400).collect();
            let saturated: Vec<i16> = (0..len).map(|_| 255).collect();
            for weights in [&weights, &extreme] {
                for acc in [&wide, &near, &saturated] {
                    let expected = (SCALAR.screlu_dot)(acc, weights);
                    for k in simd_paths() {
                        let got = (k.screlu_dot)(acc, weights);
                        assert_eq!(got, expected, "{} screlu_dot, len {len}", k.path);
                    }
                }
            }
        }
        // 255² × 3 + 100² × −2 + 0 (negative clips), and sums that wrap.
        assert_eq!(
            (SCALAR.screlu_dot)(&[300, 100, -7], &[3, -2, 127]),
            195_075 - 20_000
        );
        let big = vec![255i16; 1024];
        let max = vec![SCRELU_WEIGHT_MAX; 1024];
        let exact = 1024i64 * 255 * 255 * 127;
        assert_eq!((SCALAR.screlu_dot)(&big, &max), exact as i32);
    }

    #[test]
    fn affine_matches_scalar_bit_for_bit() {
        let mut rng = SplitMix64::new(3);
        for (inputs, outputs) in [
            (32, 1),
            (32, 32),
            (512, 32),
            (64, 15),
            (1024, 16),
            (96, 3),
            (160, 8),
        ] {
            let weights: Vec<i8> = (0..inputs * outputs)
                .map(|_| rng.next_u64() as i8)
                .collect();
            let biases: Vec<i32> = (0..outputs).map(|_| rng.next_u64() as i32 >> 8).collect();
            // Activations are at most 127: that is what keeps maddubs from saturating.
            let input: Vec<u8> = (0..inputs).map(|_| (rng.next_u64() % 128) as u8).collect();
            let extreme: Vec<u8> = (0..inputs)
                .map(|i| if i % 3 == 0 { 0 } else { 127 })
                .collect();
            for input in [&input, &extreme] {
                let mut expected = vec![0; outputs];
                (SCALAR.affine)(&weights, &biases, input, &mut expected);
                for k in simd_paths() {
                    let mut got = vec![0; outputs];
                    (k.affine)(&weights, &biases, input, &mut got);
                    assert_eq!(got, expected, "{} affine {inputs}->{outputs}", k.path);
                }
            }
        }
    }
}
