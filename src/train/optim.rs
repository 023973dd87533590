//! Adam, dense for the small layers and lazy ("sparse") for the feature
//! transformer: a transformer row is updated, and its moments decay, only in
//! steps where some position of the batch activated it. With tens of
//! thousands of rows of which a few thousand are active per batch, this is
//! what keeps a step cheap.

use rayon::prelude::*;

use super::model::{DenseGrads, Model};

pub const BETA1: f32 = 0.9;
pub const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// A thread's transformer gradient: full-size rows, of which only the
/// touched ones are non-zero.
pub struct SparseGrad {
    rows: Vec<f32>,
    biases: Vec<f32>,
    touched: Vec<u32>,
    is_touched: Vec<bool>,
}

impl SparseGrad {
    pub fn new(model: &Model) -> SparseGrad {
        SparseGrad {
            rows: vec![0.0; model.ft_weights.len()],
            biases: vec![0.0; model.half_dims],
            touched: Vec::new(),
            is_touched: vec![false; model.rows()],
        }
    }

    /// Adds the accumulator gradient `d_acc` to the bias and to every row in `rows`.
    pub fn add(&mut self, rows: &[u32], d_acc: &[f32]) {
        let n = d_acc.len();
        for (b, d) in self.biases.iter_mut().zip(d_acc) {
            *b += d;
        }
        for &r in rows {
            let r = r as usize;
            if !self.is_touched[r] {
                self.is_touched[r] = true;
                self.touched.push(r as u32);
            }
            for (g, d) in self.rows[r * n..(r + 1) * n].iter_mut().zip(d_acc) {
                *g += d;
            }
        }
    }

    /// Zeroes what `add` wrote, touching only those rows.
    pub fn clear(&mut self, n: usize) {
        for &r in &self.touched {
            let r = r as usize;
            self.rows[r * n..(r + 1) * n].fill(0.0);
            self.is_touched[r] = false;
        }
        self.touched.clear();
        self.biases.fill(0.0);
    }
}

/// First and second moment estimates of one parameter block.
#[derive(Clone, Debug, PartialEq)]
pub struct Moments {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

impl Moments {
    pub fn zeros(len: usize) -> Moments {
        Moments {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }
}

/// One Adam update of `params` with `grads`; `lr_t` includes the bias correction.
#[inline]
pub fn adam(params: &mut [f32], grads: &[f32], m: &mut [f32], v: &mut [f32], lr_t: f32) {
    for (((p, &g), m), v) in params
        .iter_mut()
        .zip(grads)
        .zip(m.iter_mut())
        .zip(v.iter_mut())
    {
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        *p -= lr_t * *m / (v.sqrt() + EPSILON);
    }
}

/// Adam state for a whole [`Model`].
#[derive(Clone, Debug, PartialEq)]
pub struct Optimiser {
    pub steps: u64,
    pub ft_weights: Moments,
    pub ft_biases: Moments,
    /// Weights then biases of each dense layer.
    pub layers: Vec<(Moments, Moments)>,
}

impl Optimiser {
    pub fn new(model: &Model) -> Optimiser {
        Optimiser {
            steps: 0,
            ft_weights: Moments::zeros(model.ft_weights.len()),
            ft_biases: Moments::zeros(model.ft_biases.len()),
            layers: model
                .layers
                .iter()
                .map(|l| {
                    (
                        Moments::zeros(l.weights.len()),
                        Moments::zeros(l.biases.len()),
                    )
                })
                .collect(),
        }
    }

    /// Applies one step: dense gradients to the dense layers, the threads'
    /// sparse gradients (summed) to the transformer rows they touched.
    pub fn step(&mut self, model: &mut Model, dense: &DenseGrads, sparse: &[SparseGrad], lr: f32) {
        self.steps += 1;
        let t = self.steps as i32;
        let lr_t = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        for ((layer, grad), (mw, mb)) in model
            .layers
            .iter_mut()
            .zip(&dense.layers)
            .zip(&mut self.layers)
        {
            adam(
                &mut layer.weights,
                &grad.weights,
                &mut mw.m,
                &mut mw.v,
                lr_t,
            );
            adam(&mut layer.biases, &grad.biases, &mut mb.m, &mut mb.v, lr_t);
        }
        let n = model.half_dims;
        let mut bias_grad = vec![0.0; n];
        for g in sparse {
            for (b, d) in bias_grad.iter_mut().zip(&g.biases) {
                *b += d;
            }
        }
        adam(
            &mut model.ft_biases,
            &bias_grad,
            &mut self.ft_biases.m,
            &mut self.ft_biases.v,
            lr_t,
        );
        model
            .ft_weights
            .par_chunks_mut(n)
            .zip(self.ft_weights.m.par_chunks_mut(n))
            .zip(self.ft_weights.v.par_chunks_mut(n))
            .enumerate()
            .for_each_init(
                || vec![0.0f32; n],
                |sum, (r, ((w, m), v))| {
                    if !sparse.iter().any(|g| g.is_touched[r]) {
                        return;
                    }
                    sum.fill(0.0);
                    for g in sparse.iter().filter(|g| g.is_touched[r]) {
                        for (s, d) in sum.iter_mut().zip(&g.rows[r * n..(r + 1) * n]) {
                            *s += d;
                        }
                    }
                    adam(w, sum, m, v, lr_t);
                },
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::FeatureSet;

    /// The lazy update changes exactly the touched rows, and changes them as
    /// a dense Adam step on those rows would.
    #[test]
    fn sparse_step_updates_only_touched_rows() {
        let mut model = Model::random(FeatureSet::HalfKP, 16, [8, 8], 5);
        let before = model.clone();
        let mut opt = Optimiser::new(&model);
        let mut grads = vec![SparseGrad::new(&model), SparseGrad::new(&model)];
        let d: Vec<f32> = (0..16).map(|i| i as f32 * 0.01 - 0.055).collect();
        grads[0].add(&[3, 700], &d);
        grads[1].add(&[700, 41024 + 5], &d);
        let no_dense = DenseGrads::zeros(&model);
        opt.step(&mut model, &no_dense, &grads, 0.01);
        let n = 16;
        for r in 0..model.rows() {
            let changed =
                model.ft_weights[r * n..(r + 1) * n] != before.ft_weights[r * n..(r + 1) * n];
            assert_eq!(changed, [3, 700, 41024 + 5].contains(&r), "row {r}");
        }
        // Row 700 got twice the gradient; Adam's first step moves each weight
        // by lr * sign(g) (up to epsilon) whatever its size.
        for (j, dj) in d.iter().enumerate() {
            let moved = before.ft_weights[700 * n + j] - model.ft_weights[700 * n + j];
            assert!((moved - 0.01 * dj.signum()).abs() < 1e-4, "{moved}");
        }
        for g in &mut grads {
            g.clear(n);
            assert!(g.rows.iter().all(|&x| x == 0.0) && g.touched.is_empty());
        }
    }
}
