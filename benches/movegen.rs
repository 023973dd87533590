//! Move generation and make/unmake speed: `cargo bench --bench movegen`.

use std::hint::black_box;

mod harness;

use harness::Runner;

use tarpon::perft;
use tarpon::position::Position;

const POSITIONS: [(&str, &str); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
];

fn positions() -> Vec<(&'static str, Position)> {
    POSITIONS
        .iter()
        .map(|&(name, fen)| (name, Position::from_fen(fen, false).unwrap()))
        .collect()
}

fn legal_moves(c: &mut Runner) {
    for (name, pos) in positions() {
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves().len())
        });
    }
}

/// Every legal move made and unmade once: includes the Zobrist update, the
/// undo record and the piece-change list.
fn make_unmake(c: &mut Runner) {
    for (name, mut pos) in positions() {
        let moves = pos.legal_moves();
        c.bench_function(&format!("make_unmake_all/{name}"), |b| {
            b.iter(|| {
                for &m in &moves {
                    black_box(pos.make(m));
                    pos.unmake();
                }
            })
        });
    }
    let (_, mut pos) = positions().swap_remove(1);
    c.bench_function("make_null_unmake/kiwipete", |b| {
        b.iter(|| {
            assert!(pos.make_null());
            pos.unmake();
        })
    });
}

fn perft_plain(c: &mut Runner) {
    let (_, mut pos) = positions().swap_remove(1);
    c.bench_function("perft3_plain/kiwipete", |b| {
        b.iter(|| perft::perft(&mut pos, 3))
    });
}

fn main() {
    let mut runner = Runner::from_args();
    legal_moves(&mut runner);
    make_unmake(&mut runner);
    perft_plain(&mut runner);
}
