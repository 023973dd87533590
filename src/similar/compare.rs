//! `tarpon similar compare`: which vectors find better neighbours? For a
//! fixed sample of indexed positions it asks each method for the nearest
//! positions from *other* games and measures how often the nearest one has
//! the same ECO code and the same pawn structure, and how often the
//! neighbours' majority move is the move the game actually played.
//!
//! Methods: LSI as stored in the index, LSI refitted at other dimensions,
//! the raw sparse TF-IDF rows with exact cosine (through an inverted list
//! per feature), and a random position from another game as the floor.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use super::features::{DIMS, flip_move};
use super::index::{Entry, Index};
use super::lsi::{Basis, weigh};
use super::search::nearest;

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The index written by `tarpon similar index`.
    #[arg(long)]
    pub index: PathBuf,
    /// How many positions to query.
    #[arg(long, default_value_t = 1000)]
    pub queries: usize,
    /// Only query positions at or after this ply (earlier ones are shared
    /// by many games and too easy).
    #[arg(long, default_value_t = 12)]
    pub min_ply: u16,
    /// Neighbours that vote on the move.
    #[arg(long, default_value_t = 10)]
    pub neighbours: usize,
    /// Also refit LSI at these dimensions (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub dims: Vec<usize>,
    /// Seed of the query sample and of refitted bases.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// How one method did.
struct Scores {
    name: String,
    eco_same: usize,
    eco_asked: usize,
    pawns_same: usize,
    move_same: usize,
    asked: usize,
    ms_per_query: f64,
}

fn percent(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

/// A deterministic sample of `n` distinct eligible positions.
fn sample(eligible: &[usize], n: usize, seed: u64) -> Vec<usize> {
    let mut pool = eligible.to_vec();
    let mut x = seed ^ 0x5851_f42d_4c95_7f2d;
    let n = n.min(pool.len());
    for i in 0..n {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let j = i + (x >> 33) as usize % (pool.len() - i);
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool
}

struct Data {
    entries: Vec<Entry>,
    ecos: Vec<String>,
    pawns: Vec<(u64, u64)>,
}

/// Score the neighbour lists a method gave (nearest first, other games only).
fn score(name: String, data: &Data, queries: &[usize], lists: &[Vec<usize>], ms: f64) -> Scores {
    let mut s = Scores {
        name,
        eco_same: 0,
        eco_asked: 0,
        pawns_same: 0,
        move_same: 0,
        asked: queries.len(),
        ms_per_query: ms,
    };
    for (&q, list) in queries.iter().zip(lists) {
        let Some(&first) = list.first() else { continue };
        let (qe, fe) = (&data.entries[q], &data.entries[first]);
        let (qeco, feco) = (&data.ecos[qe.game as usize], &data.ecos[fe.game as usize]);
        if !qeco.is_empty() && !feco.is_empty() {
            s.eco_asked += 1;
            s.eco_same += usize::from(qeco == feco);
        }
        s.pawns_same += usize::from(data.pawns[q] == data.pawns[first]);
        // Majority vote, ties to the move first seen (the nearer neighbour).
        let mut votes: Vec<(u16, usize)> = Vec::new();
        for &n in list {
            let e = &data.entries[n];
            let code = if e.snapshot.black_to_move == qe.snapshot.black_to_move {
                e.played
            } else {
                flip_move(e.played)
            };
            match votes.iter_mut().find(|v| v.0 == code) {
                Some(v) => v.1 += 1,
                None => votes.push((code, 1)),
            }
        }
        let top = votes.iter().map(|v| v.1).max().unwrap_or(0);
        let majority = votes.iter().find(|v| v.1 == top).map(|v| v.0);
        s.move_same += usize::from(majority == Some(qe.played));
    }
    s
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64() * 1e3)
}

/// Neighbour lists from unit vectors stored as little-endian f32 rows.
fn by_vectors(
    bytes: &[u8],
    rows: &[Vec<f32>],
    data: &Data,
    qs: &[usize],
    n: usize,
) -> Vec<Vec<usize>> {
    qs.par_iter()
        .map(|&q| {
            let game = data.entries[q].game;
            nearest(
                bytes,
                &rows[q],
                n,
                |i| data.entries[i].game == game,
                |_| None,
            )
            .iter()
            .map(|h| h.index)
            .collect()
        })
        .collect()
}

/// Neighbour lists by exact cosine of the sparse TF-IDF rows: accumulate
/// each query feature's posting list into a score per position.
fn by_tfidf(tfidf: &[Vec<(u16, f32)>], data: &Data, qs: &[usize], n: usize) -> Vec<Vec<usize>> {
    let mut postings: Vec<Vec<(u32, f32)>> = vec![Vec::new(); DIMS];
    for (i, row) in tfidf.iter().enumerate() {
        for &(f, w) in row {
            postings[usize::from(f)].push((i as u32, w));
        }
    }
    qs.par_iter()
        .map(|&q| {
            let mut score = vec![0.0f32; tfidf.len()];
            for &(f, w) in &tfidf[q] {
                for &(i, x) in &postings[usize::from(f)] {
                    score[i as usize] += w * x;
                }
            }
            let game = data.entries[q].game;
            let mut best: Vec<(f32, usize)> = Vec::with_capacity(n + 1);
            for (i, &s) in score.iter().enumerate() {
                let full = best.len() == n;
                if full && s <= best[n - 1].0 || data.entries[i].game == game {
                    continue;
                }
                let at = best.partition_point(|b| b.0 >= s);
                best.insert(at, (s, i));
                best.truncate(n);
            }
            best.into_iter().map(|b| b.1).collect()
        })
        .collect()
}

fn to_bytes(rows: &[Vec<f32>]) -> Vec<u8> {
    rows.iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect()
}

pub fn run(args: &CompareArgs) -> Result<String, String> {
    let index = Index::open(&args.index)?;
    let entries: Vec<Entry> = (0..index.positions).map(|i| index.entry(i)).collect();
    let data = Data {
        ecos: (0..index.games as u32).map(|g| index.game(g).eco).collect(),
        pawns: entries.iter().map(|e| e.snapshot.pawn_key()).collect(),
        entries,
    };
    let eligible: Vec<usize> = (0..data.entries.len())
        .filter(|&i| data.entries[i].ply >= args.min_ply)
        .collect();
    let qs = sample(&eligible, args.queries, args.seed);
    if qs.is_empty() {
        return Err("no position at or after --min-ply to query".into());
    }
    let n = args.neighbours.max(1);
    let idf = index.idf();
    let tfidf: Vec<Vec<(u16, f32)>> = data
        .entries
        .iter()
        .map(|e| weigh(&e.snapshot.features(), &idf))
        .collect();

    let mut results = Vec::new();
    let stored: Vec<Vec<f32>> = {
        let b = index.basis();
        tfidf.iter().map(|r| b.project(r)).collect()
    };
    let (lists, ms) = timed(|| by_vectors(index.vector_bytes(), &stored, &data, &qs, n));
    let name = format!("LSI k={} (the index)", index.k);
    results.push(score(name, &data, &qs, &lists, ms / qs.len() as f64));
    for &k in &args.dims {
        let basis = Basis::fit(&tfidf, DIMS, k, args.seed);
        let rows: Vec<Vec<f32>> = tfidf.iter().map(|r| basis.project(r)).collect();
        let bytes = to_bytes(&rows);
        let (lists, ms) = timed(|| by_vectors(&bytes, &rows, &data, &qs, n));
        let name = format!("LSI k={}", basis.k);
        results.push(score(name, &data, &qs, &lists, ms / qs.len() as f64));
    }
    let (lists, ms) = timed(|| by_tfidf(&tfidf, &data, &qs, n));
    let name = format!("TF-IDF, {DIMS} sparse features, exact cosine");
    results.push(score(name, &data, &qs, &lists, ms / qs.len() as f64));
    // The floor: neighbours drawn at random from other games.
    let random: Vec<Vec<usize>> = qs
        .iter()
        .enumerate()
        .map(|(i, &q)| {
            let others: Vec<usize> = (0..data.entries.len())
                .filter(|&j| data.entries[j].game != data.entries[q].game)
                .collect();
            sample(&others, n, args.seed.wrapping_add(i as u64 + 1))
        })
        .collect();
    results.push(score(
        "random positions (chance)".into(),
        &data,
        &qs,
        &random,
        0.0,
    ));

    let mut out = format!(
        "{} queries (ply >= {}) over {} positions from {} games; neighbours from other games only, \
         {n} vote on the move\n\n",
        qs.len(),
        args.min_ply,
        index.positions,
        index.games
    );
    out += "| method | nearest has same ECO | nearest has same pawn structure | majority move = move played | wall ms/query (all cores) |\n";
    out += "|---|---|---|---|---|\n";
    for s in &results {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} |",
            s.name,
            percent(s.eco_same, s.eco_asked),
            percent(s.pawns_same, s.asked),
            percent(s.move_same, s.asked),
            s.ms_per_query
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::sample;

    #[test]
    fn the_sample_is_distinct_and_repeatable() {
        let pool: Vec<usize> = (0..100).collect();
        let a = sample(&pool, 30, 5);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 30);
        assert_eq!(a, sample(&pool, 30, 5));
        assert_eq!(sample(&pool, 500, 5).len(), 100);
    }
}
