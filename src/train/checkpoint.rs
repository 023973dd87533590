//! Training checkpoints: the float model, the optimiser state, the epoch and
//! the learning rate, so `tarpon train --resume` continues exactly where a
//! run stopped.
//!
//! Layout (little-endian): magic `TARPCKPT`, u32 version, u32 feature set
//! (1 HalfKP, 2 HalfKAv2_hm, 3 Chess768 followed by u32 king bucket count
//! and the 32-byte bucket table, as in net files), u32 head (1 plain, 2
//! SCReLU; from version 3), u32 N, u32 h1, u32 h2 (0 for SCReLU), u32 output
//! buckets, u64 epochs done, f32 learning rate, u64 optimiser steps, then f32
//! arrays: transformer weights and biases, each dense layer's weights and
//! biases (bucket by bucket), then the Adam moments (m then v) of each of
//! those arrays in the same order; last a CRC-32 of everything before it.
//! Version 2 files (no head field: plain) still load.

use std::path::Path;

use super::model::{Dense, Model, factor_width};
use super::optim::{Moments, Optimiser};
use crate::eval::nnue::FeatureSet;
use crate::eval::nnue::format::{crc32, feature_set_id, read_feature_set};
use crate::eval::nnue::network::{Head, MAX_BUCKETS};

const MAGIC: &[u8; 8] = b"TARPCKPT";
/// Version 2 added the output buckets, version 3 the head and Chess768.
const VERSION: u32 = 3;
const HEAD_PLAIN: u32 = 1;
const HEAD_SCRELU: u32 = 2;

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
        let u32s = |out: &mut Vec<u8>, values: &[u32]| {
            for x in values {
                out.extend_from_slice(&x.to_le_bytes());
            }
        };
        u32s(&mut out, &[VERSION, feature_set_id(m.features)]);
        if let FeatureSet::Chess768(buckets) = m.features {
            u32s(&mut out, &[buckets.count() as u32]);
            out.extend_from_slice(&buckets.table());
        }
        let head = match m.head {
            Head::Screlu => HEAD_SCRELU,
            Head::Plain | Head::Stockfish15 => HEAD_PLAIN,
        };
        let [h1, h2] = m.hidden();
        u32s(
            &mut out,
            &[
                head,
                m.half_dims as u32,
                h1 as u32,
                h2 as u32,
                m.buckets() as u32,
            ],
        );
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
        if bytes.len() < 8 + 4 || &bytes[..8] != MAGIC {
            return Err("not a tarpon training checkpoint".into());
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32(body).to_le_bytes() != crc {
            return Err("checkpoint is corrupt (checksum mismatch)".into());
        }
        let mut at = 8;
        let mut take = |n: usize| -> Result<Vec<u8>, String> {
            let chunk = body
                .get(at..at + n)
                .ok_or("checkpoint ends inside its header")?;
            at += n;
            Ok(chunk.to_vec())
        };
        let version = next_u32(&mut take)?;
        if !(2..=VERSION).contains(&version) {
            return Err(format!(
                "checkpoint version {version} (this build reads 2 to {VERSION})"
            ));
        }
        let feature_id = next_u32(&mut take)?;
        let features = read_feature_set(feature_id, &mut take, |m| format!("checkpoint: {m}"))?;
        let head = match version {
            2 => Head::Plain,
            _ => match next_u32(&mut take)? {
                HEAD_PLAIN => Head::Plain,
                HEAD_SCRELU => Head::Screlu,
                other => return Err(format!("unknown head {other} in checkpoint")),
            },
        };
        let mut shape = [0usize; 4];
        for x in &mut shape {
            *x = next_u32(&mut take)? as usize;
        }
        let [n, h1, h2, buckets] = shape;
        let plain = head == Head::Plain;
        let hidden_ok = |h: usize| {
            if plain {
                (1..=1024).contains(&h)
            } else {
                h == 0
            }
        };
        if n == 0
            || n > 4096
            || !hidden_ok(h1)
            || !hidden_ok(h2)
            || buckets == 0
            || buckets > MAX_BUCKETS
        {
            return Err(format!(
                "implausible checkpoint shape {n}, {h1}, {h2}, {buckets} buckets"
            ));
        }
        let rest = take(8 + 4 + 8)?;
        let header = at;
        let epochs_done = u64::from_le_bytes(rest[0..8].try_into().expect("8 bytes")) as usize;
        let lr = f32::from_le_bytes(rest[8..12].try_into().expect("4 bytes"));
        let steps = u64::from_le_bytes(rest[12..20].try_into().expect("8 bytes"));
        let rows = features.dimensions() + factor_width(features);
        let sizes = if plain {
            vec![2 * n, h1, h2, 1]
        } else {
            vec![2 * n, 1]
        };
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
                head,
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

/// The next little-endian u32 that `take` hands out.
fn next_u32(take: &mut impl FnMut(usize) -> Result<Vec<u8>, String>) -> Result<u32, String> {
    take(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
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

    #[test]
    fn screlu_checkpoints_round_trip_with_their_bucket_table() {
        use crate::eval::nnue::features::KingBuckets;
        for buckets in [KingBuckets::SINGLE, KingBuckets::RANKS4] {
            let model = Model::random_screlu(FeatureSet::Chess768(buckets), 16, 4)
                .with_buckets(8)
                .unwrap();
            let ck = Checkpoint {
                optimiser: Optimiser::new(&model),
                model,
                epochs_done: 1,
                lr: 1e-3,
            };
            let bytes = ck.to_bytes();
            assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), ck);
            assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        }
    }
}
