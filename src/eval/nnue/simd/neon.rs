//! NEON kernels (aarch64, where NEON is part of the base instruction set).

use std::arch::aarch64::*;

use super::{
    I16Vectors, Kernels, SimdPath, WEIGHT_SCALE_BITS, apply_with, check_affine, check_pairwise,
    check_rows, scalar,
};

pub static NEON: Kernels = Kernels {
    path: SimdPath::Neon,
    apply_from: neon_apply_from,
    apply: neon_apply,
    clipped_relu16,
    clipped_relu32,
    pairwise,
    affine: neon_affine,
    // One dot product per evaluation: the portable loop until a NEON
    // kernel can be tested on aarch64.
    screlu_dot: scalar::screlu_dot,
};

const I16_LANES: usize = 8;

fn neon_apply_from(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    assert_eq!(dst.len(), src.len());
    check_rows(dst.len(), add, sub);
    // SAFETY: every slice holds `dst.len()` elements (checked above).
    unsafe { apply_raw(dst.as_mut_ptr(), src.as_ptr(), dst.len(), add, sub) }
}

fn neon_apply(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    check_rows(acc.len(), add, sub);
    let p = acc.as_mut_ptr();
    // SAFETY: all rows hold `acc.len()` elements; in place reads each lane
    // before writing it.
    unsafe { apply_raw(p, p, acc.len(), add, sub) }
}

/// # Safety
/// `dst` and `src` valid for `len` elements (possibly the same pointer);
/// every row at least `len` long.
unsafe fn apply_raw(dst: *mut i16, src: *const i16, len: usize, add: &[&[i16]], sub: &[&[i16]]) {
    let ops = I16Vectors {
        // SAFETY (all four): NEON is part of aarch64; `apply_with` loads
        // and stores only through pointers valid for 8 lanes.
        load: |p: *const i16| unsafe { vld1q_s16(p) },
        store: |p: *mut i16, v| unsafe { vst1q_s16(p, v) },
        add: |a, b| unsafe { vaddq_s16(a, b) },
        sub: |a, b| unsafe { vsubq_s16(a, b) },
    };
    // SAFETY: NEON is part of aarch64; the pointers are valid (this
    // function's contract, passed on).
    unsafe { apply_with::<I16_LANES, _>(ops, dst, src, len, add, sub) }
}

fn clipped_relu16(src: &[i16], dst: &mut [u8], shift: u32) {
    assert_eq!(src.len(), dst.len());
    let full = src.len() - src.len() % 16;
    // A shift left by a negative count is an arithmetic shift right.
    // SAFETY: NEON is part of aarch64.
    let right = unsafe { vdupq_n_s16(-(shift as i16)) };
    for i in (0..full).step_by(16) {
        // SAFETY: i + 16 <= full <= both lengths.
        unsafe {
            let a = vqmovn_s16(vshlq_s16(vld1q_s16(src.as_ptr().add(i)), right));
            let b = vqmovn_s16(vshlq_s16(vld1q_s16(src.as_ptr().add(i + 8)), right));
            let clamped = vmaxq_s8(vcombine_s8(a, b), vdupq_n_s8(0));
            vst1q_u8(dst.as_mut_ptr().add(i), vreinterpretq_u8_s8(clamped));
        }
    }
    scalar::clipped_relu16(&src[full..], &mut dst[full..], shift);
}

fn clipped_relu32(src: &[i32], dst: &mut [u8]) {
    const SHIFT: i32 = WEIGHT_SCALE_BITS as i32;
    assert_eq!(src.len(), dst.len());
    let full = src.len() - src.len() % 16;
    for i in (0..full).step_by(16) {
        // SAFETY: i + 16 <= full <= both lengths.
        unsafe {
            let p = src.as_ptr().add(i);
            let narrow = |q: *const i32| vqmovn_s32(vshrq_n_s32::<SHIFT>(vld1q_s32(q)));
            let lo = vcombine_s16(narrow(p), narrow(p.add(4)));
            let hi = vcombine_s16(narrow(p.add(8)), narrow(p.add(12)));
            let bytes = vcombine_s8(vqmovn_s16(lo), vqmovn_s16(hi));
            let clamped = vmaxq_s8(bytes, vdupq_n_s8(0));
            vst1q_u8(dst.as_mut_ptr().add(i), vreinterpretq_u8_s8(clamped));
        }
    }
    scalar::clipped_relu32(&src[full..], &mut dst[full..]);
}

fn pairwise(src: &[i16], dst: &mut [u8]) {
    check_pairwise(src, dst);
    let half = dst.len();
    let full = half - half % 16;
    let (first, second) = src.split_at(half);
    for i in (0..full).step_by(16) {
        // SAFETY: i + 16 <= full <= half = the length of both halves and `dst`.
        unsafe {
            let clip = |p: *const i16| {
                vmaxq_s16(vminq_s16(vld1q_s16(p), vdupq_n_s16(127)), vdupq_n_s16(0))
            };
            // Products are at most 127 × 127: the shift is the division and
            // the narrowing keeps every value.
            let product = |k: usize| {
                let p = vmulq_s16(clip(first.as_ptr().add(k)), clip(second.as_ptr().add(k)));
                vmovn_u16(vshrq_n_u16::<7>(vreinterpretq_u16_s16(p)))
            };
            vst1q_u8(
                dst.as_mut_ptr().add(i),
                vcombine_u8(product(i), product(i + 8)),
            );
        }
    }
    scalar::pairwise_halves(&first[full..], &second[full..], &mut dst[full..]);
}

fn neon_affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
    check_affine(weights, biases, input, out);
    let n = input.len();
    for (o, (res, &bias)) in out.iter_mut().zip(biases).enumerate() {
        let row = &weights[o * n..(o + 1) * n];
        // SAFETY: n is a multiple of 32, so j + 16 <= n for `row` and `input`.
        let total = unsafe {
            let mut sum = vdupq_n_s32(0);
            for j in (0..n).step_by(16) {
                // Inputs are at most 127, so reading them as i8 is exact; the
                // i8 × i8 products fit i16, pairwise sums are widened to i32.
                let x = vreinterpretq_s8_u8(vld1q_u8(input.as_ptr().add(j)));
                let w = vld1q_s8(row.as_ptr().add(j));
                sum = vpadalq_s16(sum, vmull_s8(vget_low_s8(x), vget_low_s8(w)));
                sum = vpadalq_s16(sum, vmull_high_s8(x, w));
            }
            vaddvq_s32(sum)
        };
        *res = bias.wrapping_add(total);
    }
}
