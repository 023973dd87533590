//! Latent semantic indexing of positions: TF-IDF weights over the sparse
//! features, then a truncated SVD computed here by randomized subspace
//! iteration with a fixed seed, so the same games always give the same index.
//!
//! With `X` the (positions × features) TF-IDF matrix, rows of unit length,
//! the right singular vectors `V_k` are the top-k eigenvectors of the small
//! Gram matrix `XᵀX` (features × features, 836²): we never need `X` dense.
//! A position's LSI vector is its TF-IDF row times `V_k` (that is `U_k S_k`),
//! and positions are compared by the cosine of those vectors.

/// TF-IDF weights: `idf(f) = ln((1 + N) / (1 + df(f))) + 1`, so a feature every
/// position has still counts a little and an unseen one does not divide by 0.
pub fn inverse_document_frequency(docs: &[Vec<(u16, f32)>], dims: usize) -> Vec<f32> {
    let mut df = vec![0u64; dims];
    for doc in docs {
        for &(i, _) in doc {
            df[usize::from(i)] += 1;
        }
    }
    let n = docs.len() as f64;
    df.iter()
        .map(|&d| (((1.0 + n) / (1.0 + d as f64)).ln() + 1.0) as f32)
        .collect()
}

/// A document's TF-IDF row, scaled to unit length (empty stays empty).
pub fn weigh(doc: &[(u16, f32)], idf: &[f32]) -> Vec<(u16, f32)> {
    let mut row: Vec<(u16, f32)> = doc
        .iter()
        .map(|&(i, tf)| (i, tf * idf[usize::from(i)]))
        .collect();
    let norm = row.iter().map(|&(_, w)| w * w).sum::<f32>().sqrt();
    if norm > 0.0 {
        row.iter_mut().for_each(|(_, w)| *w /= norm);
    }
    row
}

/// The top-k right singular vectors of the TF-IDF matrix.
#[derive(Clone, Debug)]
pub struct Basis {
    pub dims: usize,
    pub k: usize,
    /// `dims × k`, row-major: `v[f * k + j]` is feature f's weight in axis j.
    pub v: Vec<f32>,
    /// The singular values, largest first.
    pub singular: Vec<f32>,
}

/// A small deterministic generator (SplitMix64): the seed fixes the start of
/// the subspace iteration and nothing else.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    fn symmetric(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// Orthonormalise the columns in place (modified Gram-Schmidt, two passes
/// for accuracy). A column that lies in the span of the earlier ones (the
/// data has fewer axes than asked for) is replaced by a random one.
fn orthonormalise(cols: &mut [Vec<f64>], rng: &mut SplitMix) {
    for j in 0..cols.len() {
        loop {
            let before = cols[j].iter().map(|x| x * x).sum::<f64>().sqrt();
            for _ in 0..2 {
                for i in 0..j {
                    let (done, rest) = cols.split_at_mut(j);
                    let dot: f64 = done[i].iter().zip(&rest[0]).map(|(a, b)| a * b).sum();
                    rest[0]
                        .iter_mut()
                        .zip(&done[i])
                        .for_each(|(b, a)| *b -= dot * a);
                }
            }
            let norm = cols[j].iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm > 1e-9 * before && norm > 1e-300 {
                cols[j].iter_mut().for_each(|x| *x /= norm);
                break;
            }
            cols[j].iter_mut().for_each(|x| *x = rng.symmetric());
        }
    }
}

/// Eigenvalues and eigenvectors (columns of the returned matrix, `a[i][j]`
/// row i, column j) of a small symmetric matrix by cyclic Jacobi rotations.
fn jacobi(mut a: Vec<Vec<f64>>) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = a.len();
    let mut v: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for _sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum();
        let scale: f64 = (0..n).map(|i| a[i][i] * a[i][i]).sum();
        if off <= 1e-22 * scale.max(1e-300) {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in a.iter_mut() {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (mut rp, mut rq) = (std::mem::take(&mut a[p]), std::mem::take(&mut a[q]));
                for (x, y) in rp.iter_mut().zip(rq.iter_mut()) {
                    let (apk, aqk) = (*x, *y);
                    *x = c * apk - s * aqk;
                    *y = s * apk + c * aqk;
                }
                (a[p], a[q]) = (rp, rq);
                for row in v.iter_mut() {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i][i]).collect(), v)
}

/// `XᵀX` for unit TF-IDF rows, dense `dims × dims`.
fn gram(rows: &[Vec<(u16, f32)>], dims: usize) -> Vec<f64> {
    let mut g = vec![0.0f64; dims * dims];
    for row in rows {
        for &(a, wa) in row {
            let base = usize::from(a) * dims;
            for &(b, wb) in row {
                g[base + usize::from(b)] += f64::from(wa) * f64::from(wb);
            }
        }
    }
    g
}

impl Basis {
    /// Fit the top `k` axes of the TF-IDF rows (k is capped at `dims`).
    pub fn fit(rows: &[Vec<(u16, f32)>], dims: usize, k: usize, seed: u64) -> Basis {
        let k = k.clamp(1, dims);
        let g = gram(rows, dims);
        // Oversampling and a few power iterations make the top k accurate
        // even where the spectrum decays slowly.
        let l = (k + 16).min(dims);
        let mut rng = SplitMix(seed);
        let mut q: Vec<Vec<f64>> = (0..l)
            .map(|_| (0..dims).map(|_| rng.symmetric()).collect())
            .collect();
        orthonormalise(&mut q, &mut rng);
        let times = |col: &[f64]| -> Vec<f64> {
            (0..dims)
                .map(|r| {
                    g[r * dims..(r + 1) * dims]
                        .iter()
                        .zip(col)
                        .map(|(a, b)| a * b)
                        .sum()
                })
                .collect()
        };
        for _ in 0..12 {
            let mut z: Vec<Vec<f64>> = q.iter().map(|c| times(c)).collect();
            orthonormalise(&mut z, &mut rng);
            q = z;
        }
        // Rayleigh-Ritz: the eigenvectors of QᵀGQ, turned back by Q.
        let gq: Vec<Vec<f64>> = q.iter().map(|c| times(c)).collect();
        let t: Vec<Vec<f64>> = (0..l)
            .map(|i| {
                (0..l)
                    .map(|j| q[i].iter().zip(&gq[j]).map(|(a, b)| a * b).sum())
                    .collect()
            })
            .collect();
        let (values, w) = jacobi(t);
        let mut order: Vec<usize> = (0..l).collect();
        order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        let mut v = vec![0.0f32; dims * k];
        for (j, &col) in order.iter().take(k).enumerate() {
            for f in 0..dims {
                let x: f64 = (0..l).map(|i| q[i][f] * w[i][col]).sum();
                v[f * k + j] = x as f32;
            }
        }
        let singular = order
            .iter()
            .take(k)
            .map(|&i| values[i].max(0.0).sqrt() as f32)
            .collect();
        Basis {
            dims,
            k,
            v,
            singular,
        }
    }

    /// The LSI vector of a TF-IDF row, scaled to unit length so a dot
    /// product is the cosine.
    pub fn project(&self, row: &[(u16, f32)]) -> Vec<f32> {
        let mut out = vec![0.0f32; self.k];
        for &(f, w) in row {
            let axis = &self.v[usize::from(f) * self.k..][..self.k];
            out.iter_mut().zip(axis).for_each(|(o, a)| *o += w * a);
        }
        let norm = out.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            out.iter_mut().for_each(|x| *x /= norm);
        }
        out
    }
}

/// Cosine of two unit TF-IDF rows sorted by feature: the exact sparse
/// similarity LSI is compared against.
pub fn sparse_cosine(a: &[(u16, f32)], b: &[(u16, f32)]) -> f32 {
    let (mut i, mut j, mut dot) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    dot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_finds_the_eigenvalues_of_a_small_matrix() {
        let (values, vectors) = jacobi(vec![
            vec![2.0, 1.0, 0.0],
            vec![1.0, 2.0, 0.0],
            vec![0.0, 0.0, 5.0],
        ]);
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        for (got, want) in sorted.iter().zip([1.0, 3.0, 5.0]) {
            assert!((got - want).abs() < 1e-9, "{values:?}");
        }
        // Columns are unit eigenvectors.
        for c in 0..3 {
            let norm: f64 = vectors.iter().map(|row| row[c] * row[c]).sum();
            assert!((norm - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn the_basis_recovers_a_planted_low_rank_structure() {
        // Documents made of two disjoint "topics": two axes explain them all.
        let dims = 10;
        let docs: Vec<Vec<(u16, f32)>> = (0..40)
            .map(|i| {
                if i % 2 == 0 {
                    vec![(0, 1.0), (1, 1.0), (2, 1.0)]
                } else {
                    vec![(5, 1.0), (6, 1.0)]
                }
            })
            .collect();
        let idf = inverse_document_frequency(&docs, dims);
        let rows: Vec<_> = docs.iter().map(|d| weigh(d, &idf)).collect();
        let basis = Basis::fit(&rows, dims, 2, 7);
        assert!(basis.singular[0] >= basis.singular[1]);
        assert!(basis.singular[1] > 1.0);
        let (a, b) = (basis.project(&rows[0]), basis.project(&rows[1]));
        let dot = |x: &[f32], y: &[f32]| x.iter().zip(y).map(|(p, q)| p * q).sum::<f32>();
        assert!((dot(&a, &a) - 1.0).abs() < 1e-5);
        assert!(dot(&a, &b).abs() < 1e-4);
        assert!((dot(&a, &basis.project(&rows[2])) - 1.0).abs() < 1e-5);
        // Same seed, same basis.
        assert_eq!(Basis::fit(&rows, dims, 2, 7).v, basis.v);
        assert!((sparse_cosine(&rows[0], &rows[2]) - 1.0).abs() < 1e-6);
        assert_eq!(sparse_cosine(&rows[0], &rows[1]), 0.0);
    }
}
