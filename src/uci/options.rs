//! The engine's UCI options: their declarations (printed after `uci`), their
//! current values, and validation of `setoption`. What an option *does* when
//! it changes is up to the engine loop; this module only keeps values right.

use std::fmt::Write as _;

/// The kinds of option UCI knows, with their limits and defaults.
#[derive(Clone, Debug)]
pub enum OptionKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    Button,
    Text {
        default: &'static str,
    },
}

/// A current value. Buttons have none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Check(bool),
    Spin(i64),
    Text(String),
    None,
}

#[derive(Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

impl OptionSpec {
    fn default_value(&self) -> OptionValue {
        match &self.kind {
            OptionKind::Check { default } => OptionValue::Check(*default),
            OptionKind::Spin { default, .. } => OptionValue::Spin(*default),
            OptionKind::Combo { default, .. } => OptionValue::Text(default.to_string()),
            OptionKind::Text { default } => OptionValue::Text(default.to_string()),
            OptionKind::Button => OptionValue::None,
        }
    }

    /// The `option name ... type ...` line announced after `uci`.
    pub fn declaration(&self) -> String {
        let mut line = format!("option name {} type ", self.name);
        // Writing to a String cannot fail.
        let _ = match &self.kind {
            OptionKind::Check { default } => write!(line, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(line, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                let _ = write!(line, "combo default {default}");
                vars.iter().try_for_each(|v| write!(line, " var {v}"))
            }
            OptionKind::Button => write!(line, "button"),
            OptionKind::Text { default } => {
                let shown = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                write!(line, "string default {shown}")
            }
        };
        line
    }

    /// Checks a `setoption` value against this option's kind and limits.
    fn parse_value(&self, raw: Option<&str>) -> Result<OptionValue, String> {
        let raw = raw.map(str::trim);
        match &self.kind {
            OptionKind::Button => Ok(OptionValue::None),
            OptionKind::Check { .. } => match raw.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(OptionValue::Check(true)),
                Some("false") => Ok(OptionValue::Check(false)),
                _ => Err(format!(
                    "{} needs 'true' or 'false', got '{}'",
                    self.name,
                    raw.unwrap_or("")
                )),
            },
            OptionKind::Spin { min, max, .. } => {
                let text = raw.unwrap_or("");
                let v: i64 = text.parse().map_err(|_| {
                    format!(
                        "{} needs a whole number, got '{}'",
                        self.name,
                        shorten(text)
                    )
                })?;
                if v < *min || v > *max {
                    return Err(format!(
                        "{} must be between {min} and {max}, got {v}",
                        self.name
                    ));
                }
                Ok(OptionValue::Spin(v))
            }
            OptionKind::Combo { vars, .. } => {
                let text = raw.unwrap_or("");
                vars.iter()
                    .find(|v| v.eq_ignore_ascii_case(text))
                    .map(|v| OptionValue::Text(v.to_string()))
                    .ok_or_else(|| {
                        format!(
                            "{} must be one of {}, got '{}'",
                            self.name,
                            vars.join(", "),
                            shorten(text)
                        )
                    })
            }
            OptionKind::Text { .. } => {
                let text = raw.unwrap_or("");
                // GUIs send `<empty>` for an empty string option.
                let text = if text == "<empty>" { "" } else { text };
                Ok(OptionValue::Text(text.to_string()))
            }
        }
    }
}

fn shorten(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Option names, so the engine loop and the table cannot drift apart.
pub mod name {
    pub const HASH: &str = "Hash";
    pub const THREADS: &str = "Threads";
    pub const MULTI_PV: &str = "MultiPV";
    pub const PONDER: &str = "Ponder";
    pub const MOVE_OVERHEAD: &str = "Move Overhead";
    pub const CLEAR_HASH: &str = "Clear Hash";
    pub const EVAL: &str = "Eval";
    pub const EVAL_FILE: &str = "EvalFile";
    pub const SYZYGY_PATH: &str = "SyzygyPath";
    pub const SYZYGY_PROBE_DEPTH: &str = "SyzygyProbeDepth";
    pub const SYZYGY_PROBE_LIMIT: &str = "SyzygyProbeLimit";
    pub const SYZYGY_50_MOVE_RULE: &str = "Syzygy50MoveRule";
    pub const CHESS960: &str = "UCI_Chess960";
    pub const SHOW_WDL: &str = "UCI_ShowWDL";
    pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
    pub const ELO: &str = "UCI_Elo";
    pub const SKILL_LEVEL: &str = "Skill Level";
}

/// Largest hash table offered, in MiB (the table itself refuses sizes the
/// machine cannot allocate).
pub const MAX_HASH_MB: i64 = crate::search::tt::MAX_HASH_MB as i64;
/// The search's own limit on threads, as a spin option's maximum.
pub const MAX_THREADS: i64 = crate::search::MAX_THREADS as i64;
pub const MAX_MULTI_PV: i64 = 256;

/// The option table: declarations and current values.
pub struct Options {
    entries: Vec<(OptionSpec, OptionValue)>,
}

impl Options {
    /// The options of this engine. `eval_choices` are the evaluators this
    /// build offers, the first the default.
    pub fn new(eval_choices: &'static [&'static str]) -> Options {
        use crate::uci::strength;
        use OptionKind::*;
        let specs = [
            (
                name::HASH,
                Spin {
                    default: 16,
                    min: 1,
                    max: MAX_HASH_MB,
                },
            ),
            (
                name::THREADS,
                Spin {
                    default: 1,
                    min: 1,
                    max: MAX_THREADS,
                },
            ),
            (
                name::MULTI_PV,
                Spin {
                    default: 1,
                    min: 1,
                    max: MAX_MULTI_PV,
                },
            ),
            (name::PONDER, Check { default: false }),
            (
                name::MOVE_OVERHEAD,
                Spin {
                    default: 10,
                    min: 0,
                    max: 5000,
                },
            ),
            (name::CLEAR_HASH, Button),
            (
                name::EVAL,
                Combo {
                    default: eval_choices[0],
                    vars: eval_choices,
                },
            ),
            (name::EVAL_FILE, Text { default: "" }),
            (name::SYZYGY_PATH, Text { default: "" }),
            (
                name::SYZYGY_PROBE_DEPTH,
                Spin {
                    default: 1,
                    min: 1,
                    max: 100,
                },
            ),
            (
                name::SYZYGY_PROBE_LIMIT,
                Spin {
                    default: 7,
                    min: 0,
                    max: 7,
                },
            ),
            (name::SYZYGY_50_MOVE_RULE, Check { default: true }),
            (name::CHESS960, Check { default: false }),
            (name::SHOW_WDL, Check { default: false }),
            (name::LIMIT_STRENGTH, Check { default: false }),
            (
                name::ELO,
                Spin {
                    default: strength::DEFAULT_ELO,
                    min: strength::MIN_ELO,
                    max: strength::MAX_ELO,
                },
            ),
            (
                name::SKILL_LEVEL,
                Spin {
                    default: strength::MAX_LEVEL as i64,
                    min: 0,
                    max: strength::MAX_LEVEL as i64,
                },
            ),
        ];
        let entries = specs
            .into_iter()
            .chain(search_params())
            .map(|(name, kind)| {
                let spec = OptionSpec { name, kind };
                let value = spec.default_value();
                (spec, value)
            })
            .collect();
        Options { entries }
    }

    pub fn specs(&self) -> impl Iterator<Item = &OptionSpec> {
        self.entries.iter().map(|(spec, _)| spec)
    }

    /// Sets an option (name case-insensitive) and returns its canonical name,
    /// or a message saying why the value was refused (the old value stays).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<&'static str, String> {
        let (spec, current) = self
            .entries
            .iter_mut()
            .find(|(spec, _)| spec.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("no such option '{}'", shorten(name)))?;
        *current = spec.parse_value(value)?;
        Ok(spec.name)
    }

    fn value(&self, name: &str) -> &OptionValue {
        self.entries
            .iter()
            .find(|(spec, _)| spec.name == name)
            .map(|(_, value)| value)
            .unwrap_or(&OptionValue::None)
    }

    /// The value of a spin option (0 for a name that is not a spin: a bug the
    /// unit tests catch, not a reason to stop the engine).
    pub fn spin(&self, name: &str) -> i64 {
        match self.value(name) {
            OptionValue::Spin(v) => *v,
            _ => 0,
        }
    }

    pub fn check(&self, name: &str) -> bool {
        matches!(self.value(name), OptionValue::Check(true))
    }

    pub fn text(&self, name: &str) -> &str {
        match self.value(name) {
            OptionValue::Text(s) => s,
            _ => "",
        }
    }
}

/// A `tune` build offers every search parameter as a spin option, so a tuner
/// sets them per game with `setoption`; a normal build offers none.
fn search_params() -> impl Iterator<Item = (&'static str, OptionKind)> {
    #[cfg(feature = "tune")]
    let params = crate::search::params::PARAMS;
    #[cfg(not(feature = "tune"))]
    let params: &[crate::search::params::Param] = &[];
    params.iter().map(|p| {
        (
            p.name,
            OptionKind::Spin {
                default: p.default.into(),
                min: p.min.into(),
                max: p.max.into(),
            },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVALS: &[&str] = &["pst"];

    #[test]
    fn every_named_option_has_the_right_kind() {
        let o = Options::new(EVALS);
        for n in [
            name::HASH,
            name::THREADS,
            name::MULTI_PV,
            name::MOVE_OVERHEAD,
            name::ELO,
            name::SKILL_LEVEL,
            name::SYZYGY_PROBE_DEPTH,
            name::SYZYGY_PROBE_LIMIT,
        ] {
            assert!(o.spin(n) > 0, "{n}");
        }
        for n in [
            name::PONDER,
            name::CHESS960,
            name::SHOW_WDL,
            name::LIMIT_STRENGTH,
        ] {
            assert!(matches!(o.value(n), OptionValue::Check(false)), "{n}");
        }
        assert_eq!(o.text(name::EVAL), "pst");
        assert_eq!(o.text(name::EVAL_FILE), "");
        assert!(matches!(o.value(name::CLEAR_HASH), OptionValue::None));
        assert!(o.check(name::SYZYGY_50_MOVE_RULE));
        let tunables = if cfg!(feature = "tune") {
            crate::search::params::PARAMS.len()
        } else {
            0
        };
        assert_eq!(o.specs().count(), 17 + tunables);
    }

    #[test]
    fn set_validates_and_is_case_insensitive() {
        let mut o = Options::new(EVALS);
        assert_eq!(o.set("hash", Some("64")), Ok(name::HASH));
        assert_eq!(o.spin(name::HASH), 64);
        assert!(o.set("Hash", Some("abc")).is_err());
        assert!(o.set("Threads", Some("0")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert_eq!(o.spin(name::HASH), 64, "a refused value keeps the old one");
        assert!(o.set("move overhead", Some("250")).is_ok());
        assert_eq!(o.spin(name::MOVE_OVERHEAD), 250);
        assert!(o.set("Ponder", Some("TRUE")).is_ok());
        assert!(o.check(name::PONDER));
        assert!(o.set("Ponder", Some("yes")).is_err());
        assert!(o.set("Eval", Some("PST")).is_ok());
        assert!(o.set("Eval", Some("magic")).is_err());
        assert!(o.set("SyzygyPath", Some("/tb/a:/tb b")).is_ok());
        assert_eq!(o.text(name::SYZYGY_PATH), "/tb/a:/tb b");
        assert!(o.set("SyzygyPath", Some("<empty>")).is_ok());
        assert_eq!(o.text(name::SYZYGY_PATH), "");
        assert!(o.set("Clear Hash", None).is_ok());
        assert!(o.set("No Such Thing", Some("1")).is_err());
    }

    #[cfg(feature = "tune")]
    #[test]
    fn search_parameters_are_range_checked_spin_options() {
        let mut o = Options::new(EVALS);
        assert_eq!(o.spin("rfp_margin"), 120);
        assert_eq!(o.set("RFP_Margin", Some("150")), Ok("rfp_margin"));
        assert_eq!(o.spin("rfp_margin"), 150);
        assert!(o.set("rfp_margin", Some("100000")).is_err());
        assert_eq!(o.spin("rfp_margin"), 150);
    }

    #[test]
    fn declarations_follow_the_uci_grammar() {
        let o = Options::new(EVALS);
        let lines: Vec<String> = o.specs().map(OptionSpec::declaration).collect();
        assert!(
            lines.contains(&"option name Hash type spin default 16 min 1 max 1048576".to_string())
        );
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines.contains(&"option name Eval type combo default pst var pst".to_string()));
        assert!(lines.contains(&"option name EvalFile type string default <empty>".to_string()));
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
    }
}
