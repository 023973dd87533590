//! The UCI engine's net: the one behind the options `EvalFile` and
//! `Eval=nnue`, which a `setoption` may replace while the engine runs.

use std::sync::Arc;

use crate::eval::EvalChoice;
use crate::eval::nnue::Network;

/// The net behind the UCI options `EvalFile` and `Eval=nnue`: the embedded
/// default until a file is loaded. A file that fails to load leaves the
/// current net in place.
#[derive(Clone, Debug)]
pub struct LoadedNet {
    net: Option<Arc<Network>>,
    source: String,
}

impl Default for LoadedNet {
    fn default() -> LoadedNet {
        LoadedNet::embedded()
    }
}

impl LoadedNet {
    /// The net built into the binary (none until a trained net exists).
    pub fn embedded() -> LoadedNet {
        LoadedNet {
            net: Network::embedded_default(),
            source: "the embedded net".to_string(),
        }
    }

    /// The `Eval` values to offer, the default first: the engine's default
    /// evaluator ([`EvalChoice::default`]).
    pub fn eval_option_values() -> &'static [&'static str] {
        match EvalChoice::default() {
            EvalChoice::Nnue(_) => &["nnue", "pst"],
            EvalChoice::Pst => &["pst", "nnue"],
        }
    }

    pub fn net(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Applies `setoption name EvalFile value PATH` (empty: back to the
    /// embedded net). The message, success or error, is for an `info string`.
    pub fn set_eval_file(&mut self, path: &str) -> Result<String, String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            *self = LoadedNet::embedded();
            return Ok(match &self.net {
                Some(net) => format!("EvalFile: using the embedded net, {}", net.architecture()),
                None => "EvalFile: no net loaded (the binary carries none)".to_string(),
            });
        }
        match Network::load(path) {
            Ok(net) => {
                let message = format!("EvalFile: loaded {path}, {}", net.architecture());
                self.net = Some(Arc::new(net));
                self.source = path.to_string();
                Ok(message)
            }
            Err(e) => Err(format!(
                "error: EvalFile {path}: {e}; keeping {}",
                if self.net.is_some() {
                    self.source.as_str()
                } else {
                    "no net"
                }
            )),
        }
    }

    /// The evaluator for an `Eval` option value; `nnue` without a net is an
    /// error the caller reports before falling back to the PST.
    pub fn choice(&self, eval_option: &str) -> Result<EvalChoice, String> {
        if eval_option.eq_ignore_ascii_case("nnue") {
            match &self.net {
                Some(net) => Ok(EvalChoice::Nnue(net.clone())),
                None => Err("error: Eval nnue needs a net (setoption name EvalFile value <file>); using pst".to_string()),
            }
        } else {
            Ok(EvalChoice::Pst)
        }
    }
}
