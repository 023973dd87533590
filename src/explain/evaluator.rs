//! Which evaluator an explain mode uses: `--eval pst|nnue` and `--net FILE`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use crate::eval::nnue::{Network, NnueEvaluator};
use crate::eval::pst::PstEvaluator;
use crate::eval::{EvalChoice, Evaluator};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EvalArg {
    /// Sunfish's material and piece-square tables.
    Pst,
    /// The neural network (the built-in net, or --net FILE).
    Nnue,
}

#[derive(Args, Clone, Debug)]
pub struct EvalOptions {
    /// Evaluator at the leaves.
    #[arg(long, value_enum, default_value = "pst")]
    pub eval: EvalArg,
    /// Net file for --eval nnue (default: the net built into the binary).
    #[arg(long)]
    pub net: Option<PathBuf>,
}

impl EvalOptions {
    pub fn name(&self) -> &'static str {
        match self.eval {
            EvalArg::Pst => "pst",
            EvalArg::Nnue => "nnue",
        }
    }

    /// The evaluator as the search takes it.
    pub fn choice(&self) -> Result<EvalChoice, String> {
        match (self.eval, &self.net) {
            (EvalArg::Pst, Some(_)) => Err("--net needs --eval nnue".to_string()),
            (EvalArg::Pst, None) => Ok(EvalChoice::Pst),
            (EvalArg::Nnue, Some(path)) => Network::load(path)
                .map(|net| EvalChoice::Nnue(Arc::new(net)))
                .map_err(|e| format!("{}: {e}", path.display())),
            (EvalArg::Nnue, None) => Network::embedded_default()
                .map(EvalChoice::Nnue)
                .ok_or_else(|| {
                    "--eval nnue: this binary has no built-in net; give one with --net FILE"
                        .to_string()
                }),
        }
    }

    pub fn evaluator(&self) -> Result<Box<dyn Evaluator>, String> {
        Ok(match self.choice()? {
            EvalChoice::Pst => Box::new(PstEvaluator::new()),
            EvalChoice::Nnue(net) => Box::new(NnueEvaluator::new(net)),
        })
    }
}
