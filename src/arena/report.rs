//! What the arena tells people: the live progress line, the final table and
//! the Markdown report with the exact command that reproduces it.

use std::fmt::Write as _;

use super::cli::MatchPlan;
use super::faults::FaultTally;
use super::outcome::MatchOutcome;
use super::stats::{EloModel, Pentanomial, SprtVerdict, Wdl, estimate};

/// Results of one pairing from the first engine's point of view.
#[derive(Clone, Debug)]
pub struct PairingStats {
    pub first: String,
    pub second: String,
    pub wdl: Wdl,
    pub penta: Pentanomial,
}

fn signed(x: f64) -> String {
    if x.is_finite() {
        // Adding 0.0 turns -0.0 into +0.0.
        format!("{:+.1}", x + 0.0)
    } else if x > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// An error bar, or `n/a` when it is undefined (no games, or all won/lost).
fn plus_minus(error: f64) -> String {
    if error.is_finite() {
        format!("{error:.1}")
    } else {
        "n/a".to_string()
    }
}

impl PairingStats {
    pub fn new(first: String, second: String) -> PairingStats {
        PairingStats {
            first,
            second,
            wdl: Wdl::default(),
            penta: Pentanomial::default(),
        }
    }

    pub fn live_line(&self) -> String {
        let e = estimate(&self.wdl, &self.penta);
        format!(
            "{} vs {}: W{} D{} L{} [{:.3}] Elo {} ± {}",
            self.first,
            self.second,
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            e.score,
            signed(e.elo),
            plus_minus(e.error)
        )
    }

    pub fn table(&self) -> String {
        let e = estimate(&self.wdl, &self.penta);
        let p = self.penta.0;
        let mut out = String::new();
        let _ = writeln!(out, "Results of {} vs {}:", self.first, self.second);
        let _ = writeln!(
            out,
            "Games: {}, Wins: {}, Draws: {}, Losses: {}, Points: {:.1} ({:.2} %)",
            self.wdl.games(),
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            self.wdl.points(),
            100.0 * e.score
        );
        let _ = writeln!(
            out,
            "Ptnml(0-2): [{}, {}, {}, {}, {}] ({} pairs)",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            self.penta.pairs()
        );
        let _ = writeln!(
            out,
            "Elo: {} +/- {} (95%), nElo: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
            signed(e.elo),
            plus_minus(e.error),
            if e.nelo.is_finite() {
                format!("{:+.1}", e.nelo)
            } else {
                "n/a".to_string()
            },
            100.0 * e.los,
            100.0 * e.draw_ratio
        );
        out
    }
}

pub fn verdict_name(verdict: SprtVerdict) -> &'static str {
    match verdict {
        SprtVerdict::H0 => "H0 (elo0)",
        SprtVerdict::H1 => "H1 (elo1)",
        SprtVerdict::Continue => "neither hypothesis",
    }
}

/// Per-engine standings over all its games (round-robin and gauntlet with
/// more than two engines). Error bars here use single-game variance.
fn standings(stats: &[PairingStats]) -> String {
    let mut per_engine: Vec<(String, Wdl)> = Vec::new();
    let mut add = |name: &str, wdl: Wdl| match per_engine.iter_mut().find(|(n, _)| n == name) {
        Some((_, total)) => {
            total.wins += wdl.wins;
            total.draws += wdl.draws;
            total.losses += wdl.losses;
        }
        None => per_engine.push((name.to_string(), wdl)),
    };
    for s in stats {
        add(&s.first, s.wdl);
        let flipped = Wdl {
            wins: s.wdl.losses,
            draws: s.wdl.draws,
            losses: s.wdl.wins,
        };
        add(&s.second, flipped);
    }
    per_engine.sort_by(|a, b| b.1.score().total_cmp(&a.1.score()));
    let mut out =
        String::from("Rank Name                      Elo vs field   Games  Score   Draws\n");
    for (rank, (name, wdl)) in per_engine.iter().enumerate() {
        let e = estimate(wdl, &Pentanomial::default());
        let _ = writeln!(
            out,
            "{:>4} {:<25} {:>6} ± {:<5} {:>6} {:>5.1}% {:>6.1}%",
            rank + 1,
            name,
            signed(e.elo),
            plus_minus(e.error),
            wdl.games(),
            100.0 * e.score,
            100.0 * e.draw_ratio
        );
    }
    out
}

pub fn final_table(
    plan: &MatchPlan,
    stats: &[PairingStats],
    faults: &FaultTally,
    outcome: &MatchOutcome,
) -> String {
    let mut out = String::new();
    let tcs: Vec<String> = plan.time_controls.iter().map(|t| t.pgn_tag()).collect();
    let _ = writeln!(
        out,
        "Time control: {}; openings: {} ({} positions); {} games per pairing planned",
        tcs.join(" / "),
        plan.book_name,
        plan.openings.len(),
        plan.games_per_pairing
    );
    for s in stats {
        out.push_str(&s.table());
    }
    if let Some(sprt) = plan.sprt
        && let Some(s) = stats.first()
    {
        let (lower, upper) = sprt.bounds();
        let model = match sprt.model {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        };
        let _ = writeln!(
            out,
            "SPRT ({model} Elo, pentanomial GSPRT): elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] -> {}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&s.penta),
            lower,
            upper,
            match outcome.sprt {
                Some(v) => format!("{} accepted", verdict_name(v)),
                None => "no decision".to_string(),
            }
        );
    }
    if stats.len() > 1 {
        out.push_str(&standings(stats));
    }
    out.push_str(&faults.table());
    if outcome.interrupted {
        out.push_str("Match interrupted (Ctrl-C): the table covers the finished games only.\n");
    }
    if let Some(error) = &outcome.error {
        let _ = writeln!(out, "Match stopped by an error: {error}");
    }
    out
}

/// Quote a shell word when needed, so the recorded command can be pasted.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=+./:,@%".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

pub fn markdown(plan: &MatchPlan, table: &str) -> String {
    let mut args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
    let program = args.next().unwrap_or_else(|| "tarpon".to_string());
    let command: Vec<String> = std::iter::once(program)
        .chain(args.map(|a| shell_word(&a)))
        .collect();
    let names: Vec<&str> = plan.engines.iter().map(|e| e.name.as_str()).collect();
    format!(
        "# {}\n\nCommand (run from the crate root):\n\n```sh\n{}\n```\n\nDate: {}\n\n```\n{}```\n",
        names.join(" vs "),
        command.join(" "),
        super::pgn::pgn_date(std::time::SystemTime::now()),
        table
    )
}
