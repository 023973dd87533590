//! Training checkpoints: the float model, the optimiser state, the epoch and
//! the learning rate, so `tarpon train --resume` continues exactly where a
//! run stopped.
//!
//! Layout (little-endian): magic `TARPCKPT`, u32 version, u32 feature set
//! (1 HalfKP, 2 HalfKAv2_hm), u32 N, u32 h1, u32 h2, u32 output buckets,
//! u64 epochs done, f32 learning rate, u64 optimiser steps, then f32 arrays:
//! transformer weights and biases, each dense layer's weights and biases
//! (bucket by bucket), then the Adam
//! moments (m then v) of each of those arrays in the same order; last a
//! CRC-32 of everything before it.

use std::path::Path;

use super::model::{Dense, Model, factor_width};
use super::optim::{Moments, Optimiser};
use crate::eval::nnue::FeatureSet;
use crate::eval::nnue::format::crc32;
use crate::eval::nnue::network::MAX_BUCKETS;

const MAGIC: &[u8; 8] = b"TARPCKPT";
/// Version 2 added the output buckets.
const VERSION: u32 = 2;

#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub model: Model,
    pub optimiser: Optimiser,
    pub epochs_done: usize,
    /// The learning rate of the next epoch.
    pub lr: f32,
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let m = &self.model;
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        for x in [
            VERSION,
            feature_id(m.features),
            m.half_dims as u32,
            m.layers[0].outputs as u32,
            m.layers[1].outputs as u32,
            m.buckets() as u32,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&(self.epochs_done as u64).to_le_bytes());
        out.extend_from_slice(&self.lr.to_le_bytes());
        out.extend_from_slice(&self.optimiser.steps.to_le_bytes());
        for array in self.arrays() {
            for x in array {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Every f32 array in file order.
    fn arrays(&self) -> Vec<&[f32]> {
        let m = &self.model;
        let o = &self.optimiser;
        let mut a: Vec<&[f32]> = vec![&m.ft_weights, &m.ft_biases];
        for l in &m.layers {
            a.push(&l.weights);
            a.push(&l.biases);
        }
        for moments in [&o.ft_weights, &o.ft_biases] {
            a.push(&moments.m);
            a.push(&moments.v);
        }
        for (w, b) in &o.layers {
            for moments in [w, b] {
                a.push(&moments.m);
                a.push(&moments.v);
            }
        }
        a
    }

    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read checkpoint: {e}"))?;
        Checkpoint::from_bytes(&bytes)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        let header = 8 + 6 * 4 + 8 + 4 + 8;
        if bytes.len() < header + 4 || &bytes[..8] != MAGIC {
            return Err("not a tarpon training checkpoint".into());
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32(body).to_le_bytes() != crc {
            return Err("checkpoint is corrupt (checksum mismatch)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(body[i..i + 8].try_into().expect("8 bytes"));
        if u32_at(8) != VERSION {
            return Err(format!(
                "checkpoint version {} (this build reads {VERSION})",
                u32_at(8)
            ));
        }
        let features = match u32_at(12) {
            1 => FeatureSet::HalfKP,
            2 => FeatureSet::HalfKAv2Hm,
            other => return Err(format!("unknown feature set {other} in checkpoint")),
        };
        let (n, h1, h2, buckets) = (
            u32_at(16) as usize,
            u32_at(20) as usize,
            u32_at(24) as usize,
            u32_at(28) as usize,
        );
        if n == 0
            || n > 4096
            || h1 == 0
            || h1 > 1024
            || h2 == 0
            || h2 > 1024
            || buckets == 0
            || buckets > MAX_BUCKETS
        {
            return Err(format!(
                "implausible checkpoint shape {n}, {h1}, {h2}, {buckets} buckets"
            ));
        }
        let epochs_done = u64_at(32) as usize;
        let lr = f32::from_le_bytes(body[40..44].try_into().expect("4 bytes"));
        let steps = u64_at(44);
        let rows = features.dimensions() + factor_width(features);
        let sizes = [2 * n, h1, h2, 1];
        let dense_shapes: Vec<(usize, usize)> = (0..buckets)
            .flat_map(|_| sizes.windows(2).map(|io| (io[0], io[1])))
            .collect();
        let mut lens = vec![rows * n, n];
        for &(inputs, outputs) in &dense_shapes {
            lens.push(inputs * outputs);
            lens.push(outputs);
        }
        let params = lens.clone();
        for len in params {
            lens.push(len);
            lens.push(len);
        }
        let floats: usize = lens.iter().sum();
        if body.len() != header + 4 * floats {
            return Err(format!(
                "checkpoint holds {} bytes of weights, its shape needs {}",
                body.len() - header,
                4 * floats
            ));
        }
        let mut at = header;
        let mut arrays = lens.iter().map(|&len| {
            let a = body[at..at + 4 * len]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect::<Vec<_>>();
            at += 4 * len;
            a
        });
        let mut next = || arrays.next().expect("lens counted above");
        let ft_weights = next();
        let ft_biases = next();
        let layers = dense_shapes
            .iter()
            .map(|&(inputs, outputs)| Dense {
                inputs,
                outputs,
                weights: next(),
                biases: next(),
            })
            .collect();
        let mut moments = || Moments {
            m: next(),
            v: next(),
        };
        let ft_w_moments = moments();
        let ft_b_moments = moments();
        let layer_moments = dense_shapes
            .iter()
            .map(|_| (moments(), moments()))
            .collect();
        Ok(Checkpoint {
            model: Model {
                features,
                half_dims: n,
                ft_weights,
                ft_biases,
                layers,
            },
            optimiser: Optimiser {
                steps,
                ft_weights: ft_w_moments,
                ft_biases: ft_b_moments,
                layers: layer_moments,
            },
            epochs_done,
            lr,
        })
    }
}

fn feature_id(set: FeatureSet) -> u32 {
    match set {
        FeatureSet::HalfKP => 1,
        FeatureSet::HalfKAv2Hm => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_round_trips_and_rejects_damage() {
        let model = Model::random(FeatureSet::HalfKAv2Hm, 16, [8, 4], 9)
            .with_buckets(3)
            .unwrap();
        let mut optimiser = Optimiser::new(&model);
        optimiser.steps = 17;
        optimiser.layers[1].0.v[3] = 0.25;
        optimiser.layers[7].1.m[2] = -0.5;
        let ck = Checkpoint {
            model,
            optimiser,
            epochs_done: 3,
            lr: 0.5e-3,
        };
        let bytes = ck.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), ck);
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(Checkpoint::from_bytes(&flipped).is_err());
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 10]).is_err());
        assert!(Checkpoint::from_bytes(b"garbage").is_err());
    }
}
