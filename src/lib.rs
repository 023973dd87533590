//! tarpon: a UCI chess engine with NNUE evaluation, an arena for engine
//! matches, and an explainer of how engines think.

pub mod arena;
pub mod bench;
pub mod eval;
pub mod explain;
pub mod perft;
pub mod position;
pub mod search;
pub mod similar;
pub mod tablebase;
pub mod train;
pub mod uci;
