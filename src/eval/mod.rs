//! Static evaluation. The search talks to every evaluator through
//! [`Evaluator`], so the classical PST evaluator and the NNUE are
//! interchangeable (UCI option `Eval`). Endgame knowledge by material
//! ([`endgame`]) is laid over whichever evaluator runs, by the search.

pub mod cli;
pub mod endgame;
pub mod nnue;
pub mod pst;
pub mod report;

use std::sync::Arc;

use crate::position::{PieceChanges, Position};

/// Which evaluator the search uses (UCI option `Eval`).
#[derive(Clone, Debug)]
pub enum EvalChoice {
    /// Sunfish's material and piece-square tables ([`pst::PstEvaluator`]).
    Pst,
    /// A neural net ([`nnue::NnueEvaluator`]).
    Nnue(Arc<nnue::Network>),
}

impl Default for EvalChoice {
    /// What the engine plays with: the net built into the binary, the PST
    /// only when the binary carries none.
    fn default() -> EvalChoice {
        match nnue::Network::embedded_default() {
            Some(net) => EvalChoice::Nnue(net),
            None => EvalChoice::Pst,
        }
    }
}

impl EvalChoice {
    /// The name the UCI option `Eval` and `bench --eval` use for it.
    pub fn name(&self) -> &'static str {
        match self {
            EvalChoice::Pst => "pst",
            EvalChoice::Nnue(_) => "nnue",
        }
    }
}

/// A static evaluator that can follow the search incrementally.
///
/// The search calls `reset` at the root, then for every `Position::make` a
/// `push` with the changes that move returned (after the move is made), for
/// every null move `push_null`, and for every `unmake` a `pop`. `evaluate`
/// may be called at any node; an evaluator may do its incremental work in
/// `push` or defer it until then (NNUE does it in `push`, where it overlaps
/// the hash-table load the search starts next).
pub trait Evaluator: Send {
    /// Start from scratch at `pos` (search root, `ucinewgame`, new position).
    fn reset(&mut self, pos: &Position);
    /// `pos` is the position after the move that caused `changes`.
    fn push(&mut self, pos: &Position, changes: &PieceChanges);
    /// A null move was made: nothing on the board changed.
    fn push_null(&mut self);
    /// The last `push` or `push_null` was taken back.
    fn pop(&mut self);
    /// Centipawns from the point of view of the side to move in `pos`.
    fn evaluate(&mut self, pos: &Position) -> i32;
}
