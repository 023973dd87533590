//! The search never panics and always answers with a legal move, on
//! positions from random games (promotions, castling, en passant, Chess960,
//! long histories) under varied limits and settings.

use tarpon::position::Position;
use tarpon::search::{Limits, SearchConfig, SearchControl, TranspositionTable, run_search};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn random_positions_and_limits_always_give_a_legal_move() {
    let starts = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            true,
        ),
        ("8/P6k/8/8/8/8/6Kp/8 w - - 0 1", false),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        ),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let tt = TranspositionTable::new(4);
    let control = SearchControl::new();
    let mut searches = 0;
    for (fen, chess960) in starts {
        for _game in 0..6 {
            let mut pos = Position::from_fen(fen, chess960).unwrap();
            for _ply in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if rng.below(6) == 0 {
                    let limits = match rng.below(3) {
                        0 => Limits {
                            depth: Some(1 + rng.below(5) as u32),
                            ..Limits::default()
                        },
                        1 => Limits {
                            nodes: Some(500 + rng.below(3000) as u64),
                            ..Limits::default()
                        },
                        _ => Limits {
                            mate: Some(1 + rng.below(3) as u32),
                            depth: Some(4),
                            ..Limits::default()
                        },
                    };
                    let config = SearchConfig {
                        threads: 1 + rng.below(2),
                        multipv: 1 + rng.below(3),
                        show_wdl: rng.below(2) == 0,
                        chess960,
                        ..SearchConfig::default()
                    };
                    let mut root = pos.clone();
                    root.forget_undo();
                    let outcome = run_search(&root, &limits, &config, &tt, &control, &mut |line| {
                        assert!(line.starts_with("info "), "{line}");
                    });
                    let best = outcome.best.expect("legal moves exist");
                    assert!(moves.contains(&best), "{}: illegal {best:?}", pos.fen());
                    for line in &outcome.lines {
                        let mut p = root.clone();
                        for &m in &line.pv {
                            assert!(p.legal_moves().contains(&m), "{}: illegal pv", pos.fen());
                            p.make(m);
                        }
                    }
                    searches += 1;
                }
                let m = moves[rng.below(moves.len())];
                pos.make(m);
            }
        }
    }
    assert!(searches > 50);
}
