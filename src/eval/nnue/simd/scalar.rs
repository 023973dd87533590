//! The portable path: plain loops, the reference every SIMD path must match.

use super::{
    ACTIVATION_MAX, SCRELU_ONE, WEIGHT_SCALE_BITS, check_affine, check_pairwise, check_rows,
    check_screlu_dot,
};

pub fn apply_from(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    assert_eq!(dst.len(), src.len());
    dst.copy_from_slice(src);
    apply(dst, add, sub);
}

pub fn apply(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    check_rows(acc.len(), add, sub);
    for row in add {
        for (a, w) in acc.iter_mut().zip(row.iter()) {
            *a = a.wrapping_add(*w);
        }
    }
    for row in sub {
        for (a, w) in acc.iter_mut().zip(row.iter()) {
            *a = a.wrapping_sub(*w);
        }
    }
}

pub fn clipped_relu16(src: &[i16], dst: &mut [u8], shift: u32) {
    assert_eq!(src.len(), dst.len());
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = (i32::from(s) >> shift).clamp(0, ACTIVATION_MAX) as u8;
    }
}

pub fn clipped_relu32(src: &[i32], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len());
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = (s >> WEIGHT_SCALE_BITS).clamp(0, ACTIVATION_MAX) as u8;
    }
}

pub fn pairwise(src: &[i16], dst: &mut [u8]) {
    check_pairwise(src, dst);
    let (first, second) = src.split_at(dst.len());
    pairwise_halves(first, second, dst);
}

/// [`pairwise`] with the halves given apart (all three slices of one length);
/// the SIMD paths finish their tails with it.
pub fn pairwise_halves(first: &[i16], second: &[i16], dst: &mut [u8]) {
    for ((d, &a), &b) in dst.iter_mut().zip(first).zip(second) {
        let clip = |v: i16| i32::from(v).clamp(0, ACTIVATION_MAX);
        *d = (clip(a) * clip(b) / 128) as u8;
    }
}

pub fn affine(weights: &[i8], biases: &[i32], input: &[u8], out: &mut [i32]) {
    check_affine(weights, biases, input, out);
    for ((o, &bias), row) in out
        .iter_mut()
        .zip(biases)
        .zip(weights.chunks_exact(input.len()))
    {
        let mut sum = bias;
        for (&w, &x) in row.iter().zip(input) {
            sum = sum.wrapping_add(i32::from(w) * i32::from(x));
        }
        *o = sum;
    }
}

pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    check_screlu_dot(acc, weights);
    // Wrapping on purpose: the SIMD paths' i32 lanes wrap, and wrapping sums
    // agree in any order. Real nets stay far from it (see `ScreluDotFn`).
    acc.iter().zip(weights).fold(0i32, |sum, (&a, &w)| {
        let v = i32::from(a).clamp(0, SCRELU_ONE);
        sum.wrapping_add(v * i32::from(w) * v)
    })
}
