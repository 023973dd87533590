//! AVX-512, AVX-VNNI, AVX2 and SSE4.1 kernels (x86-64). Each public table is only handed out by
//! `Kernels::for_path` after `is_x86_feature_detected!` confirmed the
//! instruction set; the safe wrappers below rely on that and check every
//! length they hand to the raw-pointer loops.

use std::arch::x86_64::*;

use super::{
    I16Vectors, Kernels, SCRELU_ONE, SimdPath, WEIGHT_SCALE_BITS, apply_with, check_affine,
    check_pairwise, check_rows, check_screlu_dot, scalar,
};

pub static AVX2: Kernels = Kernels {
    path: SimdPath::Avx2,
    apply_from: avx2_apply_from,
    apply: avx2_apply,
    clipped_relu16: avx2_clipped_relu16,
    clipped_relu32: avx2_clipped_relu32,
    pairwise: avx2_pairwise,
    affine: avx2_affine,
    screlu_dot: avx2_screlu_dot,
};

/// AVX2's kernels, except the dense layers, which use VNNI's dot product.
pub static AVX_VNNI: Kernels = Kernels {
    path: SimdPath::AvxVnni,
    affine: vnni_affine,
    ..AVX2
};

/// AVX2's kernels, except the two every node runs (the accumulator update
/// and the SCReLU output, on 32-lane vectors) and the dense layers (VNNI's
/// dot product in its AVX-512 form, which CPUs without AVX-VNNI have too).
pub static AVX512: Kernels = Kernels {
    path: SimdPath::Avx512,
    apply_from: avx512_apply_from,
    apply: avx512_apply,
    screlu_dot: avx512_screlu_dot,
    affine: avx512_vnni_affine,
    ..AVX2
};

pub static SSE41: Kernels = Kernels {
    path: SimdPath::Sse41,
    apply_from: sse41_apply_from,
    apply: sse41_apply,
    clipped_relu16: sse41_clipped_relu16,
    clipped_relu32: sse41_clipped_relu32,
    pairwise: sse41_pairwise,
    affine: sse41_affine,
    screlu_dot: sse41_screlu_dot,
};

fn avx2_apply_from(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    assert_eq!(dst.len(), src.len());
    check_rows(dst.len(), add, sub);
    // SAFETY: this table is only reachable after AVX2 was detected; `dst`,
    // `src` and every row hold `dst.len()` elements (checked above).
    unsafe { avx2::apply_raw(dst.as_mut_ptr(), src.as_ptr(), dst.len(), add, sub) }
}

fn avx2_apply(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    check_rows(acc.len(), add, sub);
    let p = acc.as_mut_ptr();
    // SAFETY: AVX2 was detected; all rows hold `acc.len()` elements; reading
    // and writing the same accumulator lane by lane is sound in place.
    unsafe { avx2::apply_raw(p, p, acc.len(), add, sub) }
}

fn avx2_clipped_relu16(src: &[i16], dst: &mut [u8], shift: u32) {
    assert_eq!(src.len(), dst.len());
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { avx2::clipped_relu16(src, dst, shift) }
}

fn avx2_clipped_relu32(src: &[i32], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len());
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { avx2::clipped_relu32(src, dst) }
}

fn avx2_pairwise(src: &[i16], dst: &mut [u8]) {
    check_pairwise(src, dst);
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { avx2::pairwise(src, dst) }
}

fn avx2_affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
    check_affine(weights, biases, input, out);
    // SAFETY: AVX2 was detected; the shapes were checked above.
    unsafe { avx2::affine(weights, biases, input, out) }
}

fn vnni_affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
    check_affine(weights, biases, input, out);
    // SAFETY: AVX2 and AVX-VNNI were detected; the shapes were checked above.
    unsafe { avx2::vnni_affine(weights, biases, input, out) }
}

fn avx512_vnni_affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
    check_affine(weights, biases, input, out);
    // SAFETY: AVX2, AVX-512VNNI and AVX-512VL were detected (the AVX-512
    // path requires them); the shapes were checked above.
    unsafe { avx2::avx512_vnni_affine(weights, biases, input, out) }
}

fn avx2_screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    check_screlu_dot(acc, weights);
    // SAFETY: AVX2 was detected before this table was handed out; the
    // lengths are equal (checked above).
    unsafe { avx2::screlu_dot(acc, weights) }
}

fn avx512_apply_from(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    assert_eq!(dst.len(), src.len());
    check_rows(dst.len(), add, sub);
    // SAFETY: this table is only reachable after AVX-512F/BW were detected;
    // `dst`, `src` and every row hold `dst.len()` elements (checked above).
    unsafe { avx512::apply_raw(dst.as_mut_ptr(), src.as_ptr(), dst.len(), add, sub) }
}

fn avx512_apply(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    check_rows(acc.len(), add, sub);
    let p = acc.as_mut_ptr();
    // SAFETY: AVX-512F/BW were detected; all rows hold `acc.len()` elements;
    // the in-place update reads each lane before writing it.
    unsafe { avx512::apply_raw(p, p, acc.len(), add, sub) }
}

fn avx512_screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    check_screlu_dot(acc, weights);
    // SAFETY: AVX-512F/BW were detected before this table was handed out;
    // the lengths are equal (checked above).
    unsafe { avx512::screlu_dot(acc, weights) }
}

fn sse41_screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    check_screlu_dot(acc, weights);
    // SAFETY: SSE4.1 was detected before this table was handed out; the
    // lengths are equal (checked above).
    unsafe { sse41::screlu_dot(acc, weights) }
}

fn sse41_apply_from(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    assert_eq!(dst.len(), src.len());
    check_rows(dst.len(), add, sub);
    // SAFETY: SSE4.1 was detected; every slice holds `dst.len()` elements.
    unsafe { sse41::apply_raw(dst.as_mut_ptr(), src.as_ptr(), dst.len(), add, sub) }
}

fn sse41_apply(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    check_rows(acc.len(), add, sub);
    let p = acc.as_mut_ptr();
    // SAFETY: SSE4.1 was detected; all rows hold `acc.len()` elements; the
    // in-place update reads each lane before writing it.
    unsafe { sse41::apply_raw(p, p, acc.len(), add, sub) }
}

fn sse41_clipped_relu16(src: &[i16], dst: &mut [u8], shift: u32) {
    assert_eq!(src.len(), dst.len());
    // SAFETY: SSE4.1 was detected before this table was handed out.
    unsafe { sse41::clipped_relu16(src, dst, shift) }
}

fn sse41_clipped_relu32(src: &[i32], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len());
    // SAFETY: SSE4.1 was detected before this table was handed out.
    unsafe { sse41::clipped_relu32(src, dst) }
}

fn sse41_pairwise(src: &[i16], dst: &mut [u8]) {
    check_pairwise(src, dst);
    // SAFETY: SSE4.1 was detected before this table was handed out.
    unsafe { sse41::pairwise(src, dst) }
}

fn sse41_affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
    check_affine(weights, biases, input, out);
    // SAFETY: SSE4.1 was detected; the shapes were checked above.
    unsafe { sse41::affine(weights, biases, input, out) }
}

/// Adds up `term(i)` for every whole vector of `LANES` lanes in `len`, with
/// two sums, two vectors a step: half the loop overhead, and the two chains
/// of additions overlap (i32 lanes wrap, so the order of the additions does
/// not change the result). Returns the sum and the lanes it covers; the
/// caller finishes the tail. Inlined into each kernel, so it compiles to
/// that kernel's instruction set.
#[inline(always)]
fn sum_terms<const LANES: usize, V: Copy>(
    len: usize,
    term: impl Fn(usize) -> V,
    add: impl Fn(V, V) -> V,
    zero: V,
) -> (V, usize) {
    let paired = len - len % (2 * LANES);
    let (mut even, mut odd) = (zero, zero);
    let mut i = 0;
    while i < paired {
        even = add(even, term(i));
        odd = add(odd, term(i + LANES));
        i += 2 * LANES;
    }
    if len - i >= LANES {
        even = add(even, term(i));
        i += LANES;
    }
    (add(even, odd), i)
}

mod avx2 {
    use super::*;

    const I16_LANES: usize = 16;

    /// # Safety
    /// AVX2 available; `dst` and `src` valid for `len` elements (they may be
    /// the same pointer); every row at least `len` long.
    #[target_feature(enable = "avx2")]
    pub unsafe fn apply_raw(
        dst: *mut i16,
        src: *const i16,
        len: usize,
        add: &[&[i16]],
        sub: &[&[i16]],
    ) {
        let ops = I16Vectors {
            // SAFETY: `apply_with` loads and stores only through pointers
            // valid for 16 lanes.
            load: |p: *const i16| unsafe { _mm256_loadu_si256(p.cast()) },
            store: |p: *mut i16, v| unsafe { _mm256_storeu_si256(p.cast(), v) },
            add: |a, b| _mm256_add_epi16(a, b),
            sub: |a, b| _mm256_sub_epi16(a, b),
        };
        // SAFETY: AVX2 is available and the pointers are valid (this
        // function's contract, passed on).
        unsafe { apply_with::<I16_LANES, _>(ops, dst, src, len, add, sub) }
    }

    #[target_feature(enable = "avx2")]
    pub fn clipped_relu16(src: &[i16], dst: &mut [u8], shift: u32) {
        let full = src.len() - src.len() % 32;
        let zero = _mm256_setzero_si256();
        let count = _mm_cvtsi32_si128(shift as i32);
        for i in (0..full).step_by(32) {
            // SAFETY: i + 32 <= full <= both lengths (the caller checked they are equal).
            unsafe {
                let load = |k: usize| {
                    _mm256_sra_epi16(_mm256_loadu_si256(src.as_ptr().add(k).cast()), count)
                };
                let (a, b) = (load(i), load(i + 16));
                // packs saturates to -128..127 and interleaves 128-bit lanes;
                // max with zero clamps, the permute restores the order.
                let packed = _mm256_max_epi8(_mm256_packs_epi16(a, b), zero);
                let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), ordered);
            }
        }
        scalar::clipped_relu16(&src[full..], &mut dst[full..], shift);
    }

    #[target_feature(enable = "avx2")]
    pub fn clipped_relu32(src: &[i32], dst: &mut [u8]) {
        const SHIFT: i32 = WEIGHT_SCALE_BITS as i32;
        let full = src.len() - src.len() % 32;
        let zero = _mm256_setzero_si256();
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        for i in (0..full).step_by(32) {
            // SAFETY: i + 32 <= full <= both lengths.
            unsafe {
                let p = src.as_ptr().add(i);
                let a = _mm256_srai_epi32::<SHIFT>(_mm256_loadu_si256(p.cast()));
                let b = _mm256_srai_epi32::<SHIFT>(_mm256_loadu_si256(p.add(8).cast()));
                let c = _mm256_srai_epi32::<SHIFT>(_mm256_loadu_si256(p.add(16).cast()));
                let d = _mm256_srai_epi32::<SHIFT>(_mm256_loadu_si256(p.add(24).cast()));
                let words = _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
                let clamped = _mm256_max_epi8(words, zero);
                let ordered = _mm256_permutevar8x32_epi32(clamped, order);
                _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), ordered);
            }
        }
        scalar::clipped_relu32(&src[full..], &mut dst[full..]);
    }

    #[target_feature(enable = "avx2")]
    pub fn pairwise(src: &[i16], dst: &mut [u8]) {
        let half = dst.len();
        let full = half - half % 32;
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi16(127);
        let (first, second) = src.split_at(half);
        let clip = |v: __m256i| _mm256_max_epi16(_mm256_min_epi16(v, one), zero);
        for i in (0..full).step_by(32) {
            // SAFETY: i + 32 <= full <= half = the length of both halves and `dst`.
            unsafe {
                let load = |s: &[i16], k: usize| clip(_mm256_loadu_si256(s.as_ptr().add(k).cast()));
                // Products are at most 127 × 127, so the logical shift is the
                // division and the pack cannot saturate.
                let lo =
                    _mm256_srli_epi16::<7>(_mm256_mullo_epi16(load(first, i), load(second, i)));
                let hi = _mm256_srli_epi16::<7>(_mm256_mullo_epi16(
                    load(first, i + 16),
                    load(second, i + 16),
                ));
                let ordered =
                    _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(lo, hi));
                _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), ordered);
            }
        }
        scalar::pairwise_halves(&first[full..], &second[full..], &mut dst[full..]);
    }

    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi16(SCRELU_ONE as i16);
        // v × w fits i16 (|w| <= 127); madd multiplies by v again and adds
        // neighbouring lanes into i32.
        let term = |i: usize| {
            // SAFETY: `sum_terms` passes only i + 16 <= acc.len(), which
            // equals weights.len() (checked by the caller of this kernel).
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), one);
            _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v)
        };
        let add = |a, b| _mm256_add_epi32(a, b);
        let (sum, i) = sum_terms::<16, _>(acc.len(), term, add, zero);
        horizontal_sum(sum).wrapping_add(scalar::screlu_dot(&acc[i..], &weights[i..]))
    }

    #[target_feature(enable = "avx2")]
    fn horizontal_sum(v: __m256i) -> i32 {
        let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }

    #[target_feature(enable = "avx2")]
    pub fn affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
        let ones = _mm256_set1_epi16(1);
        // u8 × i8 pairs summed to i16 (exact: inputs are at most 127), then
        // pairs of i16 summed to i32 and added to the row's sum.
        let dot = |sum: __m256i, x: __m256i, w: __m256i| {
            _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones))
        };
        affine_with(weights, biases, input, out, dot);
    }

    /// The same sums with VNNI's fused dot product: four u8 × i8 products
    /// added straight into each i32 lane, one instruction for AVX2's three.
    #[target_feature(enable = "avx2,avxvnni")]
    pub fn vnni_affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
        let dot = |sum: __m256i, x: __m256i, w: __m256i| _mm256_dpbusd_avx_epi32(sum, x, w);
        affine_with(weights, biases, input, out, dot);
    }

    /// The same fused dot product in its EVEX form (AVX-512VNNI on 256-bit
    /// vectors): AMD's Zen 4 and Intel's Ice Lake have it without AVX-VNNI.
    #[target_feature(enable = "avx2,avx512vnni,avx512vl")]
    pub fn avx512_vnni_affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
        let dot = |sum: __m256i, x: __m256i, w: __m256i| _mm256_dpbusd_epi32(sum, x, w);
        affine_with(weights, biases, input, out, dot);
    }

    /// `out = biases + weights × input` given `dot(sum, x, w)`, which adds
    /// the products of 32 input bytes and 32 weights to eight i32 sums.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn affine_with(
        weights: &[i8],
        biases: &[i32],
        input: &[u8],
        out: &mut [i32],
        dot: impl Fn(__m256i, __m256i, __m256i) -> __m256i,
    ) {
        let n = input.len();
        // Four rows at a time share each input load and one reduction. Each
        // row keeps two sums (even and odd 32-byte steps) so that eight
        // independent dependency chains hide the dot product's latency.
        let blocked = out.len() - out.len() % 4;
        let paired = n - n % 64;
        for o in (0..blocked).step_by(4) {
            let rows = &weights[o * n..(o + 4) * n];
            let accumulate = |sums: &mut [__m256i; 4], j: usize| {
                // SAFETY: j + 32 <= n (callers step through multiples of 32
                // below n), so j + 32 <= n for `input` and
                // k × n + j + 32 <= 4n for `rows`.
                unsafe {
                    let x = _mm256_loadu_si256(input.as_ptr().add(j).cast());
                    for (k, sum) in sums.iter_mut().enumerate() {
                        *sum = dot(
                            *sum,
                            x,
                            _mm256_loadu_si256(rows.as_ptr().add(k * n + j).cast()),
                        );
                    }
                }
            };
            let mut even = [_mm256_setzero_si256(); 4];
            let mut odd = [_mm256_setzero_si256(); 4];
            for j in (0..paired).step_by(64) {
                accumulate(&mut even, j);
                accumulate(&mut odd, j + 32);
            }
            if paired < n {
                accumulate(&mut even, paired);
            }
            let sums: [__m256i; 4] = std::array::from_fn(|k| _mm256_add_epi32(even[k], odd[k]));
            let pairs = _mm256_hadd_epi32(
                _mm256_hadd_epi32(sums[0], sums[1]),
                _mm256_hadd_epi32(sums[2], sums[3]),
            );
            let totals = _mm_add_epi32(
                _mm256_castsi256_si128(pairs),
                _mm256_extracti128_si256::<1>(pairs),
            );
            // SAFETY: o + 4 <= blocked <= out.len() == biases.len().
            unsafe {
                let b = _mm_loadu_si128(biases.as_ptr().add(o).cast());
                _mm_storeu_si128(out.as_mut_ptr().add(o).cast(), _mm_add_epi32(totals, b));
            }
        }
        for o in blocked..out.len() {
            let row = &weights[o * n..(o + 1) * n];
            let mut sum = _mm256_setzero_si256();
            for j in (0..n).step_by(32) {
                // SAFETY: n is a multiple of 32, so j + 32 <= n for `row` and `input`.
                unsafe {
                    let x = _mm256_loadu_si256(input.as_ptr().add(j).cast());
                    sum = dot(sum, x, _mm256_loadu_si256(row.as_ptr().add(j).cast()));
                }
            }
            out[o] = biases[o].wrapping_add(horizontal_sum(sum));
        }
    }
}

mod avx512 {
    use super::*;

    const I16_LANES: usize = 32;

    /// # Safety
    /// AVX-512F and AVX-512BW available; `dst` and `src` valid for `len`
    /// elements (they may be the same pointer); every row at least `len` long.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn apply_raw(
        dst: *mut i16,
        src: *const i16,
        len: usize,
        add: &[&[i16]],
        sub: &[&[i16]],
    ) {
        let ops = I16Vectors {
            // SAFETY: `apply_with` loads and stores only through pointers
            // valid for 32 lanes.
            load: |p: *const i16| unsafe { _mm512_loadu_si512(p.cast()) },
            store: |p: *mut i16, v| unsafe { _mm512_storeu_si512(p.cast(), v) },
            add: |a, b| _mm512_add_epi16(a, b),
            sub: |a, b| _mm512_sub_epi16(a, b),
        };
        // SAFETY: AVX-512F/BW are available and the pointers are valid (this
        // function's contract, passed on).
        unsafe { apply_with::<I16_LANES, _>(ops, dst, src, len, add, sub) }
    }

    /// AVX2's SCReLU dot on 32 lanes a vector; the tail below 32 lanes goes
    /// to the AVX2 kernel.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        let zero = _mm512_setzero_si512();
        let one = _mm512_set1_epi16(SCRELU_ONE as i16);
        let term = |i: usize| {
            // SAFETY: `sum_terms` passes only i + 32 <= acc.len(), which
            // equals weights.len() (checked by the caller of this kernel).
            let (a, w) = unsafe {
                (
                    _mm512_loadu_si512(acc.as_ptr().add(i).cast()),
                    _mm512_loadu_si512(weights.as_ptr().add(i).cast()),
                )
            };
            let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), one);
            _mm512_madd_epi16(_mm512_mullo_epi16(v, w), v)
        };
        let add = |a, b| _mm512_add_epi32(a, b);
        let (sum, i) = sum_terms::<32, _>(acc.len(), term, add, zero);
        _mm512_reduce_add_epi32(sum).wrapping_add(avx2::screlu_dot(&acc[i..], &weights[i..]))
    }
}

mod sse41 {
    use super::*;

    const I16_LANES: usize = 8;

    /// # Safety
    /// SSE4.1 available; `dst` and `src` valid for `len` elements (they may
    /// be the same pointer); every row at least `len` long.
    #[target_feature(enable = "sse4.1")]
    pub unsafe fn apply_raw(
        dst: *mut i16,
        src: *const i16,
        len: usize,
        add: &[&[i16]],
        sub: &[&[i16]],
    ) {
        let ops = I16Vectors {
            // SAFETY: `apply_with` loads and stores only through pointers
            // valid for 8 lanes.
            load: |p: *const i16| unsafe { _mm_loadu_si128(p.cast()) },
            store: |p: *mut i16, v| unsafe { _mm_storeu_si128(p.cast(), v) },
            add: |a, b| _mm_add_epi16(a, b),
            sub: |a, b| _mm_sub_epi16(a, b),
        };
        // SAFETY: SSE4.1 is available and the pointers are valid (this
        // function's contract, passed on).
        unsafe { apply_with::<I16_LANES, _>(ops, dst, src, len, add, sub) }
    }

    #[target_feature(enable = "sse4.1")]
    pub fn clipped_relu16(src: &[i16], dst: &mut [u8], shift: u32) {
        let full = src.len() - src.len() % 16;
        let zero = _mm_setzero_si128();
        let count = _mm_cvtsi32_si128(shift as i32);
        for i in (0..full).step_by(16) {
            // SAFETY: i + 16 <= full <= both lengths.
            unsafe {
                let a = _mm_sra_epi16(_mm_loadu_si128(src.as_ptr().add(i).cast()), count);
                let b = _mm_sra_epi16(_mm_loadu_si128(src.as_ptr().add(i + 8).cast()), count);
                let clamped = _mm_max_epi8(_mm_packs_epi16(a, b), zero);
                _mm_storeu_si128(dst.as_mut_ptr().add(i).cast(), clamped);
            }
        }
        scalar::clipped_relu16(&src[full..], &mut dst[full..], shift);
    }

    #[target_feature(enable = "sse4.1")]
    pub fn clipped_relu32(src: &[i32], dst: &mut [u8]) {
        const SHIFT: i32 = WEIGHT_SCALE_BITS as i32;
        let full = src.len() - src.len() % 16;
        let zero = _mm_setzero_si128();
        for i in (0..full).step_by(16) {
            // SAFETY: i + 16 <= full <= both lengths.
            unsafe {
                let p = src.as_ptr().add(i);
                let a = _mm_srai_epi32::<SHIFT>(_mm_loadu_si128(p.cast()));
                let b = _mm_srai_epi32::<SHIFT>(_mm_loadu_si128(p.add(4).cast()));
                let c = _mm_srai_epi32::<SHIFT>(_mm_loadu_si128(p.add(8).cast()));
                let d = _mm_srai_epi32::<SHIFT>(_mm_loadu_si128(p.add(12).cast()));
                let words = _mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
                _mm_storeu_si128(dst.as_mut_ptr().add(i).cast(), _mm_max_epi8(words, zero));
            }
        }
        scalar::clipped_relu32(&src[full..], &mut dst[full..]);
    }

    #[target_feature(enable = "sse4.1")]
    pub fn pairwise(src: &[i16], dst: &mut [u8]) {
        let half = dst.len();
        let full = half - half % 16;
        let zero = _mm_setzero_si128();
        let one = _mm_set1_epi16(127);
        let (first, second) = src.split_at(half);
        let clip = |v: __m128i| _mm_max_epi16(_mm_min_epi16(v, one), zero);
        for i in (0..full).step_by(16) {
            // SAFETY: i + 16 <= full <= half = the length of both halves and `dst`.
            unsafe {
                let load = |s: &[i16], k: usize| clip(_mm_loadu_si128(s.as_ptr().add(k).cast()));
                let lo = _mm_srli_epi16::<7>(_mm_mullo_epi16(load(first, i), load(second, i)));
                let hi =
                    _mm_srli_epi16::<7>(_mm_mullo_epi16(load(first, i + 8), load(second, i + 8)));
                _mm_storeu_si128(dst.as_mut_ptr().add(i).cast(), _mm_packus_epi16(lo, hi));
            }
        }
        scalar::pairwise_halves(&first[full..], &second[full..], &mut dst[full..]);
    }

    #[target_feature(enable = "sse4.1")]
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        let full = acc.len() - acc.len() % 8;
        let zero = _mm_setzero_si128();
        let one = _mm_set1_epi16(SCRELU_ONE as i16);
        let mut sum = _mm_setzero_si128();
        for i in (0..full).step_by(8) {
            // SAFETY: i + 8 <= full <= both lengths (equal, checked by the caller).
            let (a, w) = unsafe {
                (
                    _mm_loadu_si128(acc.as_ptr().add(i).cast()),
                    _mm_loadu_si128(weights.as_ptr().add(i).cast()),
                )
            };
            let v = _mm_min_epi16(_mm_max_epi16(a, zero), one);
            // As in AVX2: v × w is exact in i16, madd finishes in i32.
            sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_mullo_epi16(v, w), v));
        }
        let s = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s).wrapping_add(scalar::screlu_dot(&acc[full..], &weights[full..]))
    }

    #[target_feature(enable = "sse4.1")]
    pub fn affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
        let n = input.len();
        let ones = _mm_set1_epi16(1);
        for (o, (res, &bias)) in out.iter_mut().zip(biases).enumerate() {
            let row = &weights[o * n..(o + 1) * n];
            let mut sum = _mm_setzero_si128();
            for j in (0..n).step_by(16) {
                // SAFETY: n is a multiple of 32, so j + 16 <= n for `row` and `input`.
                let (x, w) = unsafe {
                    (
                        _mm_loadu_si128(input.as_ptr().add(j).cast()),
                        _mm_loadu_si128(row.as_ptr().add(j).cast()),
                    )
                };
                sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_maddubs_epi16(x, w), ones));
            }
            let s = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
            *res = bias.wrapping_add(_mm_cvtsi128_si32(s));
        }
    }
}
