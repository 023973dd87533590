//! The search's numbers: every margin, reduction and depth limit of the
//! selectivity, declared once with its default, its range and its SPSA step.
//! A normal build turns each into an inlined constant, so naming a number
//! costs nothing; a build with the `tune` feature reads each from an atomic
//! that a UCI option sets, so a tuner can change them between games without
//! rebuilding. Tables derived from parameters (the late-move reductions) live
//! here too, so they follow the values they come from.

/// One tunable number as a tuner sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Also the UCI option's name in a `tune` build.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's final perturbation size (`c_end`): big enough that a match can
    /// tell the two sides apart, small enough to stay near the optimum.
    pub step: i32,
}

/// SPSA's final learning rate (`r_end`) for every parameter: the value
/// OpenBench and Fishtest tunes commonly use.
pub const SPSA_R_END: f64 = 0.002;

/// From one table of `name = default, min, max, step;` lines, generates
/// [`PARAMS`] and one accessor function per parameter: a constant in a normal
/// build, a relaxed atomic load in a `tune` build.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $name:ident = $default:literal, $min:literal, $max:literal, $step:literal;)*) => {
        /// Every parameter in declaration order.
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
        }),*];

        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                tuned::VALUES.$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// The current values of a `tune` build, one atomic per parameter:
        /// relaxed loads are plain loads on the machines we run on, and a
        /// value changed mid-search only has to be seen by the next one.
        #[cfg(feature = "tune")]
        mod tuned {
            use std::sync::atomic::AtomicI32;

            pub struct Values {
                $(pub $name: AtomicI32,)*
            }

            pub static VALUES: Values = Values {
                $($name: AtomicI32::new($default),)*
            };

            /// The atomic behind a parameter's name (exact, as in [`super::PARAMS`]).
            pub fn cell(name: &str) -> Option<&'static AtomicI32> {
                match name {
                    $(stringify!($name) => Some(&VALUES.$name),)*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    /// Reverse futility pruning applies at this depth or less.
    rfp_depth = 5, 4, 12, 1;
    /// Reverse futility margin per ply of depth (less one ply when improving).
    rfp_margin = 120, 40, 250, 10;
    /// Null move needs at least this depth.
    nmp_min_depth = 3, 1, 6, 1;
    /// Null-move reduction: this many plies...
    nmp_base = 5, 1, 6, 1;
    /// ...plus one per this many plies of depth...
    nmp_depth_divisor = 4, 2, 8, 1;
    /// ...plus one per this many centipawns the eval exceeds beta...
    nmp_eval_divisor = 202, 60, 400, 20;
    /// ...but at most this many for the eval.
    nmp_eval_max = 3, 0, 6, 1;
    /// From this depth on a null-move cutoff is verified by a normal search.
    nmp_verify_depth = 10, 6, 16, 1;
    /// Internal iterative reduction from this depth on (no table move).
    iir_depth = 4, 2, 8, 1;
    /// Late-move pruning applies at this depth or less.
    lmp_depth = 8, 3, 12, 1;
    /// Quiets tried before late-move pruning: (this + depth²) / (2 - improving).
    lmp_base = 5, 0, 8, 1;
    /// Futility pruning of quiet moves applies at this depth or less.
    fp_depth = 9, 3, 12, 1;
    /// Futility margin: this plus `fp_margin` per ply.
    fp_base = 82, 0, 250, 10;
    fp_margin = 79, 40, 200, 10;
    /// SEE pruning of quiet moves applies at this depth or less.
    quiet_see_depth = 8, 3, 12, 1;
    /// Quiet moves losing more than this times depth² (plus a sixteenth of
    /// their quiet history) by SEE are pruned.
    quiet_see_margin = 23, 5, 80, 4;
    /// SEE pruning of captures applies at this depth or less.
    see_prune_depth = 5, 2, 10, 1;
    /// Captures losing more than this times depth by SEE are pruned.
    see_prune_margin = 88, 30, 200, 10;
    /// Moves are extended (checks, singular moves) while the ply is below
    /// this times the root depth, so extensions cannot run without end.
    check_ext_ply_factor = 2, 1, 4, 1;
    /// Late-move reductions from this depth on.
    lmr_min_depth = 3, 2, 6, 1;
    /// Late-move reduction table: (this / 100) + ln(depth)·ln(move) / (`lmr_divisor` / 100).
    lmr_base = 71, 0, 150, 10;
    lmr_divisor = 206, 150, 400, 15;
    /// Quiet score (butterfly plus continuation histories) worth one ply
    /// less (or more) of late-move reduction.
    lmr_history_divisor = 5913, 2000, 16000, 500;
    /// ProbCut from this depth on.
    probcut_depth = 5, 3, 10, 1;
    /// ProbCut looks for captures beating beta by this many centipawns...
    probcut_margin = 195, 80, 400, 20;
    /// ...in a search this many plies shallower.
    probcut_reduction = 5, 2, 6, 1;
    /// Singular extensions from this depth on.
    se_min_depth = 7, 5, 10, 1;
    /// The table move is singular when every other move fails below its
    /// score less this many centipawns per ply of depth...
    se_margin = 2, 1, 6, 1;
    /// ...and is extended twice when they fail this far below that (off PV).
    se_double_margin = 21, 5, 60, 5;
    /// At most this many double extensions on one line.
    se_double_max = 6, 2, 12, 1;
    /// Quiescence delta pruning: captures that cannot reach alpha even with
    /// this many centipawns to spare are skipped.
    delta_margin = 307, 50, 400, 20;
    /// First aspiration half-width in centipawns.
    aspiration_delta = 21, 5, 60, 3;
    /// Aspiration windows from this depth on.
    aspiration_min_depth = 5, 2, 10, 1;
    /// A failed aspiration window grows by this percentage of its width.
    aspiration_growth = 48, 20, 150, 10;
    /// Time management by the best move's share of the root's nodes: the
    /// soft limit is scaled by (`tm_node_base` − share·100) · `tm_node_scale`
    /// / 10 000, so a move that took nearly all the effort stops early and
    /// one that shared it with rivals earns more time.
    tm_node_base = 150, 100, 200, 5;
    tm_node_scale = 135, 80, 200, 8;
    /// A new iteration starts only before this percentage of the (scaled)
    /// soft limit has passed: the next one takes a few times longer than the
    /// last and would rarely finish in the rest.
    tm_iteration_start = 60, 40, 100, 5;
    /// Correction history: the weight of the pawn-structure entry, out of
    /// 1024 (an entry at its bound is then worth 32 cp)...
    corr_pawn_weight = 1062, 0, 3072, 128;
    /// ...and of each side's non-pawn entry.
    corr_non_pawn_weight = 1047, 0, 3072, 128;
}

/// Late-move reduction in plies for a move number at a depth: grows with the
/// log of both, so late moves at deep nodes are searched much shallower.
#[inline(always)]
pub fn lmr_reduction(depth: i32, moves: usize) -> i32 {
    #[cfg(not(feature = "tune"))]
    {
        use std::sync::OnceLock;
        static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
        let table = TABLE.get_or_init(|| {
            let mut t = [[0; 64]; 64];
            for (d, row) in t.iter_mut().enumerate() {
                for (m, r) in row.iter_mut().enumerate() {
                    *r = lmr_formula(d, m);
                }
            }
            t
        });
        table[depth.clamp(0, 63) as usize][moves.min(63)]
    }
    // Computed from the current values each time: a table would have to be
    // rebuilt whenever `lmr_base` or `lmr_divisor` changes, and a tuning
    // build plays fixed-node games, where a logarithm more per reduced move
    // costs time but changes no result.
    #[cfg(feature = "tune")]
    lmr_formula(depth.clamp(0, 63) as usize, moves.min(63))
}

fn lmr_formula(depth: usize, moves: usize) -> i32 {
    if depth == 0 || moves == 0 {
        return 0;
    }
    // Hundredths, so an integer tuner can move them (50 and 250 gave the
    // 0.5 and 2.5 of the original table).
    let base = f64::from(lmr_base()) / 100.0;
    let divisor = f64::from(lmr_divisor()) / 100.0;
    (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32
}

/// A parameter by its exact name.
pub fn find(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.name == name)
}

/// Sets a parameter of a `tune` build by its exact name. Refuses unknown
/// names and values outside the parameter's range (the old value stays).
#[cfg(feature = "tune")]
pub fn set(name: &str, value: i64) -> Result<(), String> {
    let param = find(name).ok_or_else(|| format!("no search parameter '{name}'"))?;
    if value < i64::from(param.min) || value > i64::from(param.max) {
        return Err(format!(
            "{name} must be between {} and {}, got {value}",
            param.min, param.max
        ));
    }
    let cell = tuned::cell(name).ok_or_else(|| format!("no search parameter '{name}'"))?;
    cell.store(value as i32, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// The parameters in the SPSA input format of OpenBench and Fishtest, one
/// `name, int, default, min, max, c_end, r_end` line each.
pub fn spsa_input() -> String {
    PARAMS
        .iter()
        .map(|p| {
            format!(
                "{}, int, {}, {}, {}, {}, {}\n",
                p.name, p.default, p.min, p.max, p.step, SPSA_R_END
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults as last tuned by SPSA on 2026-12-04
    /// (`arena/results/spsa_nodes6000_2026-12-04/`; the tunes before it:
    /// `spsa_nodes6000_2026-12-03/`, `spsa_nodes5000_2026-11-26/`): any
    /// change to one changes the search,
    /// so it must be made here too, deliberately.
    #[test]
    fn defaults_are_the_recorded_values() {
        let recorded = [
            ("rfp_depth", 5),
            ("rfp_margin", 120),
            ("nmp_min_depth", 3),
            ("nmp_base", 5),
            ("nmp_depth_divisor", 4),
            ("nmp_eval_divisor", 202),
            ("nmp_eval_max", 3),
            ("nmp_verify_depth", 10),
            ("iir_depth", 4),
            ("lmp_depth", 8),
            ("lmp_base", 5),
            ("fp_depth", 9),
            ("fp_base", 82),
            ("fp_margin", 79),
            ("quiet_see_depth", 8),
            ("quiet_see_margin", 23),
            ("see_prune_depth", 5),
            ("see_prune_margin", 88),
            ("check_ext_ply_factor", 2),
            ("lmr_min_depth", 3),
            ("lmr_base", 71),
            ("lmr_divisor", 206),
            ("lmr_history_divisor", 5913),
            ("probcut_depth", 5),
            ("probcut_margin", 195),
            ("probcut_reduction", 5),
            ("se_min_depth", 7),
            ("se_margin", 2),
            ("se_double_margin", 21),
            ("se_double_max", 6),
            ("delta_margin", 307),
            ("aspiration_delta", 21),
            ("aspiration_min_depth", 5),
            ("aspiration_growth", 48),
            ("tm_node_base", 150),
            ("tm_node_scale", 135),
            ("tm_iteration_start", 60),
            ("corr_pawn_weight", 1062),
            ("corr_non_pawn_weight", 1047),
        ];
        let table: Vec<(&str, i32)> = PARAMS.iter().map(|p| (p.name, p.default)).collect();
        assert_eq!(table, recorded);
        #[cfg(not(feature = "tune"))]
        {
            assert_eq!(rfp_margin(), 120);
            assert_eq!(delta_margin(), 307);
            assert_eq!(aspiration_delta(), 21);
        }
    }

    #[test]
    fn every_default_lies_in_its_range_with_a_positive_step() {
        for p in PARAMS {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.step > 0 && p.step <= p.max - p.min, "{p:?}");
        }
    }

    #[test]
    fn lmr_reductions_follow_their_formula() {
        // (base + ln d · ln m / divisor) truncated, base and divisor in
        // hundredths: the formula written out apart from the table's code.
        let base = f64::from(lmr_base()) / 100.0;
        let divisor = f64::from(lmr_divisor()) / 100.0;
        for d in 0..64usize {
            for m in 0..64usize {
                let expected = if d == 0 || m == 0 {
                    0
                } else {
                    (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32
                };
                assert_eq!(lmr_reduction(d as i32, m), expected, "depth {d} move {m}");
            }
        }
    }

    #[test]
    fn spsa_input_has_one_line_per_parameter() {
        let text = spsa_input();
        assert_eq!(text.lines().count(), PARAMS.len());
        // Each line: name, int, default, min, max, step, the learning rate.
        let rfp = PARAMS
            .iter()
            .find(|p| p.name == "rfp_margin")
            .expect("listed");
        let line = format!(
            "rfp_margin, int, {}, {}, {}, {}, 0.002\n",
            rfp.default, rfp.min, rfp.max, rfp.step
        );
        assert!(text.contains(&line), "{line} not in\n{text}");
    }

    #[cfg(feature = "tune")]
    #[test]
    fn set_changes_a_value_and_refuses_out_of_range() {
        // Tests share the atomics: touch a parameter no other test reads.
        assert_eq!(nmp_verify_depth(), 10);
        assert_eq!(set("nmp_verify_depth", 12), Ok(()));
        assert_eq!(nmp_verify_depth(), 12);
        assert!(set("nmp_verify_depth", 99).is_err());
        assert!(set("no_such_param", 1).is_err());
        assert_eq!(nmp_verify_depth(), 12, "a refused value keeps the old one");
        assert_eq!(set("nmp_verify_depth", 10), Ok(()));
    }
}
