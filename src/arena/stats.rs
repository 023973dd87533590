//! Match statistics: Elo from a score, the 95% error bar and LOS from
//! pentanomial pair statistics, and the sequential probability ratio test.
//!
//! Games are played in pairs (one opening, colours swapped). The two games of
//! a pair are correlated through the opening, so the variance is estimated from
//! the pair scores (0, ½, 1, 1½, 2 points, the "pentanomial"), not from single
//! games; this is what fastchess and OpenBench do. When no pair is complete
//! yet the per-game (trinomial) variance is used instead.
//!
//! Elo is logistic Elo (the usual scale: a score s means
//! `-400·log10(1/s − 1)`). The SPRT works on logistic Elo by default; with
//! `model=normalized` it uses normalized Elo, `nElo = (800/ln 10)·(μ − ½)/σ_game`
//! with `σ_game = √2·σ_pair`.

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from the point of view of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Score in [0, 1]; ½ for no games.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }

    /// Add one game given its points for this engine (0, 0.5 or 1).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// Counts of game pairs by their total points: index 0 = 0 points (LL),
/// 1 = ½ (LD), 2 = 1 (DD or WL), 3 = 1½ (WD), 4 = 2 (WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Add a pair given the points of its two games (each 0, 0.5 or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }

    /// Mean and variance of the per-pair score, each pair scored in [0, 1]
    /// (0, ¼, ½, ¾, 1). None without pairs.
    pub fn mean_variance(&self) -> Option<(f64, f64)> {
        moments(self.0.map(|c| c as f64))
    }

    /// Like [`Pentanomial::mean_variance`], but with every empty count
    /// replaced by 10⁻³ (as fishtest regularizes), so that a run of identical
    /// pairs has a small positive variance and the SPRT can still decide.
    pub fn regularized_mean_variance(&self) -> Option<(f64, f64)> {
        if self.pairs() == 0 {
            return None;
        }
        moments(self.regularized_counts())
    }

    fn regularized_counts(&self) -> [f64; 5] {
        self.0.map(|c| (c as f64).max(1e-3))
    }
}

fn moments(counts: [f64; 5]) -> Option<(f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let value = |i: usize| i as f64 / 4.0;
    let mean = (0..5).map(|i| counts[i] * value(i)).sum::<f64>() / n;
    let var = (0..5)
        .map(|i| counts[i] * (value(i) - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((mean, var))
}

/// Logistic Elo difference for a score in (0, 1); infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `800 / ln 10`: converts a t-value per game into normalized Elo.
pub fn nelo_per_t() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// Standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Complementary error function, relative error below 1.2e-7 everywhere
/// (the Chebyshev fit of Numerical Recipes, `erfcc`).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// What the match says about the first engine against the second.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    pub score: f64,
    pub elo: f64,
    /// Half-width of the 95% confidence interval, in Elo.
    pub error: f64,
    /// Normalized Elo (per-game t-value scaled by 800/ln 10); NaN if undefined.
    pub nelo: f64,
    /// Likelihood of superiority: probability that the true score exceeds ½.
    pub los: f64,
    pub draw_ratio: f64,
}

/// Mean score and the standard error of that mean, from complete pairs when
/// there are any, from single games otherwise.
fn mean_and_stderr(wdl: &Wdl, penta: &Pentanomial) -> Option<(f64, f64, f64)> {
    if let Some((mean, var)) = penta.mean_variance() {
        let n = penta.pairs() as f64;
        // Per-game standard deviation for nElo: a pair's score is the mean
        // of two games, so var_game = 2 var_pair.
        return Some((mean, (var / n).sqrt(), (2.0 * var).sqrt()));
    }
    let n = wdl.games();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = wdl.score();
    let var = (wdl.wins as f64 * (1.0 - mean).powi(2)
        + wdl.draws as f64 * (0.5 - mean).powi(2)
        + wdl.losses as f64 * mean.powi(2))
        / n;
    Some((mean, (var / n).sqrt(), var.sqrt()))
}

pub fn estimate(wdl: &Wdl, penta: &Pentanomial) -> Estimate {
    let score = wdl.score();
    let elo = elo_from_score(score);
    let draw_ratio = wdl.draw_ratio();
    let Some((mean, stderr, sigma_game)) = mean_and_stderr(wdl, penta) else {
        return Estimate {
            score,
            elo: 0.0,
            error: f64::INFINITY,
            nelo: f64::NAN,
            los: 0.5,
            draw_ratio,
        };
    };
    let lo = (mean - Z95 * stderr).clamp(0.0, 1.0);
    let hi = (mean + Z95 * stderr).clamp(0.0, 1.0);
    let error = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
    let los = if stderr > 0.0 {
        normal_cdf((mean - 0.5) / stderr)
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    let nelo = if sigma_game > 0.0 {
        nelo_per_t() * (mean - 0.5) / sigma_game
    } else {
        f64::NAN
    };
    Estimate {
        score,
        elo,
        error,
        nelo,
        los,
        draw_ratio,
    }
}

/// Which Elo scale the SPRT hypotheses are stated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    Logistic,
    Normalized,
}

/// Pairs an SPRT plays before it may decide (the usual minimum sample for a
/// normal approximation).
pub const SPRT_MIN_PAIRS: u64 = 30;

/// A sequential probability ratio test of H0: elo = elo0 against
/// H1: elo = elo1, on pentanomial pair statistics, using the normal
/// approximation of the generalized SPRT (Michel Van den Bergh):
/// `LLR = N·((μ−μ0)² − (μ−μ1)²) / (2σ²)` with μ the mean pair score,
/// σ² its variance and μ0, μ1 the pair scores the hypotheses predict.
#[derive(Clone, Copy, Debug)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The lower bound was crossed: elo0 is accepted.
    H0,
    /// The upper bound was crossed: elo1 is accepted.
    H1,
    Continue,
}

impl Sprt {
    /// `(lower, upper)` = `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio on the regularized pentanomial; 0 without
    /// pairs.
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        let Some((mean, var)) = penta.regularized_mean_variance() else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (mu0, mu1) = match self.model {
            EloModel::Logistic => (score_from_elo(self.elo0), score_from_elo(self.elo1)),
            EloModel::Normalized => {
                let sigma_game = (2.0 * var).sqrt();
                (
                    0.5 + self.elo0 / nelo_per_t() * sigma_game,
                    0.5 + self.elo1 / nelo_per_t() * sigma_game,
                )
            }
        };
        // The sample size that goes with the regularized moments (fishtest's N).
        let n: f64 = penta.regularized_counts().iter().sum();
        n * ((mean - mu0).powi(2) - (mean - mu1).powi(2)) / (2.0 * var)
    }

    /// The test's decision. None before [`SPRT_MIN_PAIRS`] pairs: the
    /// normal approximation needs a variance estimate, and a few pairs that
    /// happen to score alike give a near-zero one and an LLR far beyond
    /// either bound (one won pair at 5000 nodes used to "accept" H1).
    pub fn verdict(&self, penta: &Pentanomial) -> SprtVerdict {
        if penta.pairs() < SPRT_MIN_PAIRS {
            return SprtVerdict::Continue;
        }
        let llr = self.llr(penta);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}
