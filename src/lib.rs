//! tarpon: a UCI chess engine with NNUE evaluation, an arena for engine
//! matches, and an explainer of how engines think.

pub mod eval;
pub mod position;
pub mod train;
