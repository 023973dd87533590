//! Static evaluation. The search talks to every evaluator through
//! [`Evaluator`], so the classical PST evaluator and the NNUE are
//! interchangeable (UCI option `Eval`). The search sees every evaluator's
//! score through [`as_search_sees`]: a net's scaled by the pieces left
//! ([`material_scale`]), then with endgame knowledge by material
//! ([`endgame`]) laid over it.

pub mod cli;
pub mod endgame;
pub mod material_scale;
pub mod nnue;
pub mod pst;
pub mod report;

use std::sync::Arc;

use crate::position::{PieceChanges, Position, Snapshot};

/// An evaluator's score at `pos` (centipawns from the side to move) as the
/// search sees it: scaled by the material left where the evaluator asks for
/// it ([`Evaluator::scaled_by_material`]), then with the endgame knowledge
/// the evaluators lack laid over it. The one place both happen, so the
/// search, `eval` and `tarpon eval` agree.
pub fn as_search_sees(pos: &Snapshot, raw: i32, scaled_by_material: bool) -> i32 {
    let scaled = if scaled_by_material {
        material_scale::scale(pos.board(), raw)
    } else {
        raw
    };
    endgame::adjust(pos, scaled)
}

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
    /// Whether the search scales this evaluator's scores by the material on
    /// the board ([`material_scale`]). The nets do (measured, docs/search.md);
    /// the PST does not: the playing levels, which search with it, were
    /// fitted without.
    fn scaled_by_material(&self) -> bool {
        false
    }
}
