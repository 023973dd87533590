//! The one random number generator of the project: SplitMix64, small, fast,
//! well mixed and written here rather than taken from a crate, so a seed
//! gives the same Zobrist keys, book order, maze, random net, training
//! shuffle and strength-limiting noise on every machine and in every build.
//!
//! It reduces to a range in three ways because existing reproducible streams
//! were built on each: [`SplitMix64::below`] (modulo: nets, training, data
//! generation, strength noise), [`SplitMix64::below_unbiased`] (rejection:
//! book shuffles) and [`SplitMix64::below_scaled`] (multiply-shift: mazes).
//! Changing one of them would change every game, maze or net seeded through it.

#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// Seeded from the clock, so games against a person differ.
    pub fn from_time() -> SplitMix64 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        SplitMix64::new(nanos)
    }

    /// `const` so the Zobrist tables can be generated at compile time.
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0) by modulo; its bias, below n / 2^64, is far
    /// below anything its users could see.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `0..n` (n > 0) with no bias at all: draws falling in the
    /// incomplete last stretch of `u64` are rejected and drawn again.
    pub fn below_unbiased(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// Uniform in `0..n` (n > 0) by multiply-shift, which maps the draw
    /// onto the range without a division.
    pub fn below_scaled(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in `lo..=hi` (by [`SplitMix64::below`]).
    pub fn range_i32(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as usize) as i32
    }

    /// Uniform in [0, 1), from the top 53 bits.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[-bound, bound]`, from the top 24 bits.
    pub fn symmetric_f32(&mut self, bound: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * unit - 1.0) * bound
    }

    /// Fisher–Yates shuffle drawing with [`SplitMix64::below`].
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.shuffle_with(items, SplitMix64::below);
    }

    /// Fisher–Yates shuffle drawing with [`SplitMix64::below_unbiased`].
    pub fn shuffle_unbiased<T>(&mut self, items: &mut [T]) {
        self.shuffle_with(items, SplitMix64::below_unbiased);
    }

    fn shuffle_with<T>(&mut self, items: &mut [T], below: fn(&mut SplitMix64, usize) -> usize) {
        for i in (1..items.len()).rev() {
            items.swap(i, below(self, i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pins the stream: Zobrist keys, books, mazes, nets and saved training
    /// runs all depend on exactly these numbers.
    #[test]
    fn a_seed_gives_the_same_numbers_as_ever() {
        let four_drawn = || {
            let mut rng = SplitMix64::new(5);
            let first: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
            assert_eq!(
                first,
                [
                    7134611160154358618,
                    13877614986023876344,
                    4292726422858613063,
                    1832488697174800709
                ]
            );
            rng
        };
        let mut rng = four_drawn();
        let modulo: Vec<usize> = (0..8).map(|i| rng.below(3 + i * 1000)).collect();
        assert_eq!(modulo, [1, 398, 911, 2724, 3278, 4211, 2178, 371]);
        let range: Vec<i32> = (0..8).map(|_| rng.range_i32(-30, 70)).collect();
        assert_eq!(range, [43, -30, 65, 40, 46, 5, -6, 23]);
        let floats: Vec<f32> = (0..4).map(|_| rng.symmetric_f32(0.5)).collect();
        assert_eq!(floats, [-0.38513547, 0.48746502, -0.3199194, 0.37565237]);
        let mut rng = four_drawn();
        let unbiased: Vec<usize> = (0..8).map(|i| rng.below_unbiased(3 + i * 1000)).collect();
        assert_eq!(unbiased, [1, 398, 911, 2724, 3278, 4211, 2178, 371]);
        let mut rng = four_drawn();
        let scaled: Vec<usize> = (0..8).map(|i| rng.below_scaled(3 + i * 1000)).collect();
        assert_eq!(scaled, [0, 381, 1974, 1534, 1707, 3019, 2704, 957]);
        assert_eq!(rng.unit_f64(), 0.874250597673692);
    }

    #[test]
    fn values_stay_in_their_ranges() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..1000 {
            assert!(rng.below(13) < 13);
            assert!(rng.below_unbiased(13) < 13);
            assert!(rng.below_scaled(13) < 13);
            assert!((-3..=4).contains(&rng.range_i32(-3, 4)));
            assert!((0.0..1.0).contains(&rng.unit_f64()));
            assert!((-0.5..=0.5).contains(&rng.symmetric_f32(0.5)));
        }
        let mut items: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut items);
        items.sort_unstable();
        assert_eq!(items, (0..50).collect::<Vec<_>>());
    }
}
