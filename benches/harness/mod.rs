//! A small benchmark harness shared by the benches: each function is timed in
//! repeated samples and reported as the median time per iteration with the
//! spread, so a busy machine shows as spread rather than a wrong figure.
//!
//! It replaces criterion, whose dependencies (serde, regex, clap features…)
//! changed the features of crates the engine shares with it, so a
//! `cargo run --release` after `cargo test --release` rebuilt the whole
//! engine.
//!
//! `cargo bench --bench NAME [FILTER]` runs the benchmarks whose name contains
//! FILTER; without `--bench` (as `cargo test --benches` runs them) each runs
//! once, as a smoke test.

// Each bench uses only part of the harness.
#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times one benchmark: the closure given to [`Bencher::iter`] runs `iters`
/// times per sample.
pub struct Bencher {
    iters: u64,
    elapsed: Duration,
}

impl Bencher {
    pub fn iter<R>(&mut self, mut routine: impl FnMut() -> R) {
        let start = Instant::now();
        for _ in 0..self.iters {
            black_box(routine());
        }
        self.elapsed = start.elapsed();
    }
}

pub struct Runner {
    filter: Option<String>,
    /// `false` under `cargo test`: run each benchmark once, time nothing.
    measure: bool,
    samples: usize,
    sample_time: Duration,
}

impl Runner {
    /// Reads `cargo bench`'s arguments: `--bench` and an optional filter.
    pub fn from_args() -> Runner {
        let args: Vec<String> = std::env::args().skip(1).collect();
        Runner {
            filter: args.iter().find(|a| !a.starts_with("--")).cloned(),
            measure: args.iter().any(|a| a == "--bench"),
            samples: 15,
            sample_time: Duration::from_millis(200),
        }
    }

    pub fn bench_function(&mut self, name: &str, routine: impl FnMut(&mut Bencher)) {
        self.run(name, None, routine);
    }

    /// Benchmarks that share a name prefix and, optionally, a count of
    /// elements each iteration handles (reported as a rate).
    pub fn group(&mut self, name: &str) -> Group<'_> {
        Group {
            runner: self,
            name: name.to_string(),
            elements: None,
        }
    }

    fn run(&mut self, name: &str, elements: Option<u64>, mut routine: impl FnMut(&mut Bencher)) {
        if self
            .filter
            .as_ref()
            .is_some_and(|f| !name.contains(f.as_str()))
        {
            return;
        }
        let mut bencher = Bencher {
            iters: 1,
            elapsed: Duration::ZERO,
        };
        routine(&mut bencher);
        if !self.measure {
            println!("{name}: ran once");
            return;
        }
        // Enough iterations that one sample lasts about `sample_time`.
        while bencher.elapsed < self.sample_time / 4 && bencher.iters < 1 << 40 {
            bencher.iters *= 2;
            routine(&mut bencher);
        }
        let per_sample = self.sample_time.as_secs_f64() / bencher.elapsed.as_secs_f64().max(1e-9);
        bencher.iters = ((bencher.iters as f64 * per_sample) as u64).max(1);
        let mut nanos: Vec<f64> = (0..self.samples)
            .map(|_| {
                routine(&mut bencher);
                bencher.elapsed.as_nanos() as f64 / bencher.iters as f64
            })
            .collect();
        nanos.sort_by(f64::total_cmp);
        let median = nanos[nanos.len() / 2];
        let rate = elements.map_or(String::new(), |n| {
            let per_second = n as f64 * 1e9 / median;
            if per_second >= 1e5 {
                format!(", {:.1} M elements/s", per_second / 1e6)
            } else {
                format!(", {:.1} k elements/s", per_second / 1e3)
            }
        });
        println!(
            "{name:<50} median {} (min {}, max {}; {} samples of {} iterations){rate}",
            readable(median),
            readable(nanos[0]),
            readable(nanos[nanos.len() - 1]),
            self.samples,
            bencher.iters
        );
    }
}

pub struct Group<'a> {
    runner: &'a mut Runner,
    name: String,
    elements: Option<u64>,
}

impl Group<'_> {
    /// Each iteration handles `n` elements (moves, positions).
    pub fn elements(&mut self, n: u64) {
        self.elements = Some(n);
    }

    pub fn bench_function(&mut self, name: &str, routine: impl FnMut(&mut Bencher)) {
        let full = format!("{}/{name}", self.name);
        self.runner.run(&full, self.elements, routine);
    }
}

fn readable(nanos: f64) -> String {
    match nanos {
        n if n >= 1e6 => format!("{:.3} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.3} µs", n / 1e3),
        n => format!("{n:.1} ns"),
    }
}
