//! Nearest neighbours by brute force: the cosine of the query's unit vector
//! with every stored unit vector, read straight from the mapped bytes, and
//! the best few kept in a small sorted list. Exact, and linear in the
//! number of positions (see docs/similar.md for how it would scale).

/// A neighbour: the position's number in the index and its cosine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    pub index: usize,
    pub similarity: f32,
}

/// The dot product of a little-endian f32 row with `q`. Eight running sums
/// let the compiler use SIMD lanes (a single sum would be a serial chain).
fn dot(row: &[u8], q: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let lanes = row.chunks_exact(32).zip(q.chunks_exact(8));
    for (bytes, qs) in lanes {
        for l in 0..8 {
            let b = &bytes[4 * l..4 * l + 4];
            acc[l] += f32::from_le_bytes([b[0], b[1], b[2], b[3]]) * qs[l];
        }
    }
    let done = q.len() / 8 * 8;
    let mut sum: f32 = acc.iter().sum();
    for (j, &x) in q.iter().enumerate().skip(done) {
        let b = &row[4 * j..4 * j + 4];
        sum += f32::from_le_bytes([b[0], b[1], b[2], b[3]]) * x;
    }
    sum
}

/// The `n` rows most similar to `q` (ties: the earlier row first), skipping
/// the rows `skip` says to, and keeping only the best row of each group
/// `group` names (say, one position per game). `vectors` holds `q.len()`
/// f32 per row.
pub fn nearest(
    vectors: &[u8],
    q: &[f32],
    n: usize,
    skip: impl Fn(usize) -> bool,
    group: impl Fn(usize) -> Option<u32>,
) -> Vec<Hit> {
    let mut best: Vec<Hit> = Vec::with_capacity(n + 1);
    if n == 0 || q.is_empty() {
        return best;
    }
    for (i, row) in vectors.chunks_exact(q.len() * 4).enumerate() {
        let similarity = dot(row, q);
        // A NaN (from a damaged row) would poison the ordering: it never enters.
        let full = best.len() == n;
        if similarity.is_nan() || full && similarity <= best[n - 1].similarity || skip(i) {
            continue;
        }
        if let Some(g) = group(i)
            && let Some(at) = best.iter().position(|h| group(h.index) == Some(g))
        {
            if best[at].similarity >= similarity {
                continue;
            }
            best.remove(at);
        }
        let at = best.partition_point(|h| h.similarity >= similarity);
        best.insert(
            at,
            Hit {
                index: i,
                similarity,
            },
        );
        best.truncate(n);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(rows: &[[f32; 9]]) -> Vec<u8> {
        rows.iter()
            .flatten()
            .flat_map(|x| x.to_le_bytes())
            .collect()
    }

    #[test]
    fn nearest_ranks_by_cosine_and_breaks_ties_by_order() {
        let mut rows = vec![[0.0f32; 9]; 6];
        rows[0][0] = 1.0;
        rows[1][8] = 1.0; // the tail after the eight lanes counts too
        rows[2][0] = 0.6;
        rows[2][8] = 0.8;
        rows[3][8] = 1.0;
        rows[4][3] = f32::NAN;
        rows[5][8] = -1.0;
        let v = bytes(&rows);
        let mut q = [0.0f32; 9];
        q[8] = 1.0;
        let hits = nearest(&v, &q, 3, |_| false, |_| None);
        let order: Vec<usize> = hits.iter().map(|h| h.index).collect();
        assert_eq!(order, [1, 3, 2]);
        assert!((hits[2].similarity - 0.8).abs() < 1e-6);
        let skipped = nearest(&v, &q, 2, |i| i == 1, |_| None);
        assert_eq!(skipped.iter().map(|h| h.index).collect::<Vec<_>>(), [3, 2]);
        assert_eq!(nearest(&v, &q, 10, |_| false, |_| None).len(), 5);
        assert!(nearest(&v, &q, 0, |_| false, |_| None).is_empty());
        // Rows 1 and 2 in one group, 3 and 5 in another: the best of each.
        let group = |i: usize| Some(u32::from(i >= 3));
        let grouped = nearest(&v, &q, 3, |_| false, group);
        assert_eq!(grouped.iter().map(|h| h.index).collect::<Vec<_>>(), [1, 3]);
    }
}
