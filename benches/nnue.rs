//! NNUE speed: one incremental update plus evaluation per move (the work the
//! search does per node), the evaluation step alone, and each SIMD path
//! against the scalar path, on a 256-wide random HalfKAv2_hm net.
//!
//! `cargo bench --bench nnue`

use std::hint::black_box;
use std::sync::Arc;

mod harness;

use harness::Runner;
use shakmaty::Color;
use tarpon::eval::Evaluator;
use tarpon::eval::nnue::layers::{Accumulated, Scratch};
use tarpon::eval::nnue::random::random_network;
use tarpon::eval::nnue::{FeatureSet, Kernels, Network, NnueEvaluator, SimdPath};
use tarpon::position::Position;

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn paths() -> Vec<&'static Kernels> {
    SimdPath::ALL
        .into_iter()
        .filter_map(Kernels::for_path)
        .collect()
}

/// Every legal move of every position: make, evaluate (one incremental
/// update of both perspectives, or a cached refresh after a king move, plus
/// the forward pass), unmake. Reported per move.
fn update_and_evaluate(c: &mut Runner, net: &Arc<Network>, set: &str) {
    let mut group = c.group(&format!("nnue/{set}/update+evaluate per move"));
    let moves: usize = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f, false).unwrap().legal_moves().len())
        .sum();
    group.elements(moves as u64);
    for kernels in paths() {
        let mut ev = NnueEvaluator::with_kernels(net.clone(), kernels);
        let mut positions: Vec<Position> = POSITIONS
            .iter()
            .map(|f| Position::from_fen(f, false).unwrap())
            .collect();
        group.bench_function(kernels.path.name(), |b| {
            b.iter(|| {
                let mut sum = 0;
                for pos in positions.iter_mut() {
                    ev.reset(pos);
                    sum += ev.evaluate(pos);
                    for m in pos.legal_moves() {
                        let changes = pos.make(m);
                        ev.push(pos, &changes);
                        sum += ev.evaluate(pos);
                        pos.unmake();
                        ev.pop();
                    }
                }
                black_box(sum)
            })
        });
    }
}

/// The forward pass from computed accumulators (clipped ReLU of the
/// transformer output and the dense layers): the SIMD evaluation step.
fn evaluation_step(c: &mut Runner, net: &Arc<Network>, set: &str) {
    let mut group = c.group(&format!("nnue/{set}/evaluation step"));
    let pos = Position::from_fen(POSITIONS[2], false).unwrap();
    let board = pos.snapshot().board();
    let us = net.full_accumulator(board, Color::White);
    let them = net.full_accumulator(board, Color::Black);
    for kernels in paths() {
        let mut scratch = Scratch::default();
        group.bench_function(kernels.path.name(), |b| {
            b.iter(|| {
                black_box(net.raw_output(
                    kernels,
                    black_box(Accumulated {
                        values: &us,
                        psqt: &[],
                    }),
                    black_box(Accumulated {
                        values: &them,
                        psqt: &[],
                    }),
                    30,
                    &mut scratch,
                ))
            })
        });
    }
}

/// One quiet move's accumulator update for one perspective (1 row added, 1 removed).
fn accumulator_update(c: &mut Runner, net: &Arc<Network>, set: &str) {
    let mut group = c.group(&format!("nnue/{set}/accumulator update"));
    let src = net.transformer.biases.clone();
    let mut dst = vec![0i16; src.len()];
    let (a, s) = (net.transformer.row(1000), net.transformer.row(2000));
    for kernels in paths() {
        group.bench_function(kernels.path.name(), |b| {
            b.iter(|| {
                (kernels.apply_from)(&mut dst, black_box(&src), &[a], &[s]);
                black_box(dst[0])
            })
        });
    }
}

fn benches(c: &mut Runner) {
    for (set, name) in [
        (FeatureSet::HalfKAv2Hm, "halfkav2_hm-256"),
        (FeatureSet::HalfKP, "halfkp-256"),
    ] {
        let net = Arc::new(random_network(set, 256, &[32, 32], 1, 7).unwrap());
        update_and_evaluate(c, &net, name);
        evaluation_step(c, &net, name);
        accumulator_update(c, &net, name);
    }
}

fn main() {
    benches(&mut Runner::from_args());
}
