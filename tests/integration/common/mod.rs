//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod html;
pub mod uci_engine;

use std::process::{Command, Output};

// The unit tests' scratch folders, shared by file: integration tests cannot
// reach the library's `cfg(test)` code.
#[path = "../../../src/test_scratch.rs"]
mod test_scratch;
pub use test_scratch::ScratchDir;

/// Runs the tarpon binary with these arguments to the end.
pub fn tarpon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tarpon"))
        .args(args)
        .output()
        .expect("the tarpon binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty folder for one test, unique to this process; it is
/// removed when the returned guard drops, so test runs leave nothing in the
/// system temp folder.
pub fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(name)
}

/// One line of a perft EPD file: `FEN ;D1 n ;D2 n ...`.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

pub const SUITE: &str = "tests/data/perft/perft-suite.epd";
pub const SUITE_960: &str = "tests/data/perft/perft960.epd";

pub fn load_perft_cases(path: &str) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let cases: Vec<PerftCase> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim().to_string();
            let counts = fields
                .map(|f| {
                    let (depth, count) = f.trim().split_once(' ').expect("`Dn count`");
                    let depth = depth.strip_prefix('D').expect("`Dn`").parse().unwrap();
                    (depth, count.trim().parse().unwrap())
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect();
    assert!(!cases.is_empty(), "{path} holds no positions");
    cases
}

/// xorshift64*: a tiny deterministic generator, so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform enough in 0..n for tests.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, one_in: u64) -> bool {
        self.next().is_multiple_of(one_in)
    }
}
