//! All integration tests in one binary: one link of the whole crate instead of one per file.

mod arena_books;
mod arena_faults;
mod arena_rules;
mod arena_smoke;
mod arena_stats;
mod arena_tablebase;
mod bad_input;
mod common;
mod endgame;
mod epd_suites;
mod explain_cli;
mod nnue;
mod nnue_uci;
mod perft;
mod position_random;
mod readme;
mod search;
mod search_api;
mod search_robustness;
mod stockfish15_eval;
mod tablebase;
mod uci_memory;
mod uci_parser_fuzz;
mod uci_protocol;
mod uci_reproducible;
mod uci_stress;
