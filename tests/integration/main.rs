//! All integration tests in one binary: one link of the whole crate instead of one per file.

mod architecture;
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
mod explain_html;
mod legal_move_count;
mod nnue;
mod nnue_screlu;
mod nnue_uci;
mod openbench;
mod perft;
mod position_random;
mod readme;
#[cfg(feature = "scan")]
mod scan;
mod search;
mod search_api;
mod search_robustness;
mod similar;
mod stockfish15_eval;
mod tablebase;
mod tune_options;
mod uci_memory;
mod uci_parser_fuzz;
mod uci_protocol;
mod uci_reproducible;
mod uci_stress;
