//! tarpon: a UCI chess engine with NNUE evaluation, an arena for engine
//! matches, and an explainer of how engines think.
//!
//! # Module map
//!
//! Each module has one job and imports only the modules its row names
//! (`tests/integration/architecture.rs` checks the table against the source,
//! and that no two modules import each other). Read from the top: a module
//! imports only modules above it.
//!
//! | Module | Its one job | May import |
//! |---|---|---|
//! | `rng` | SplitMix64, the one seeded generator behind keys, books and random nets | |
//! | `huge_pages` | buffers for big tables read at random (hash, net rows), backed by huge pages | |
//! | `position` | the position the search plays on (its own board and make, shakmaty for rules, FEN and notation): move generation, Zobrist keys, repetition history | `rng` |
//! | `perft` | counting move-generation leaves: perft, divide, suites, the perft hash table | `position` |
//! | `tablebase` | Syzygy files: finding and validating them, guarded WDL/DTZ probes, ranking root moves | `position` |
//! | `eval` | static evaluation: PST, NNUE (format, features, accumulators, SIMD), material scale, endgame knowledge | `huge_pages`, `position`, `rng` |
//! | `search` | PVS alpha-beta, transposition table, move ordering, time, Lazy SMP, tablebase scores | `eval`, `huge_pages`, `position`, `tablebase` |
//! | `bench` | the fixed-depth bench: its signature and speed | `eval`, `position`, `search` |
//! | `uci` | the UCI protocol: reader, options, engine state, `go` jobs, strength limit | `bench`, `eval`, `perft`, `position`, `rng`, `search`, `tablebase` |
//! | `arena` | matches between engines: processes, clocks, referee, adjudication, Elo/SPRT, reports | `eval`, `rng`, `tablebase` |
//! | `train` | self-play datagen, the record format, the NNUE trainer and net averaging | `eval`, `position`, `rng`, `search`, `tablebase` |
//! | `similar` | master games that reached a position like this one: the LSI index and its queries | |
//! | `explain` | showing how engines think: search trees, evaluation traces, annotated games, mazes | `eval`, `position`, `rng`, `search` |
//! | `scan` | reading a board from a picture: finder, square classifier, printed coordinates, chess sense, boards at an angle warped flat, photos' occupancy, renderer and trainer, the reader behind UCI's `scan` (feature `scan`) | `explain`, `position`, `rng`, `search`, `train`, `uci` |
//! | `play` | `tarpon play`: the HTTP server, games by id, the engine's replies and the learner's verdicts, its page, pictures dropped on the board, and the maze and search-view pages with their controls | `eval`, `explain`, `position`, `rng`, `scan`, `search`, `uci` |
//! | `test_scratch` | unit tests' scratch folders in the system temp folder, removed on drop (`cfg(test)` only) | |

pub mod arena;
pub mod bench;
pub mod eval;
pub mod explain;
pub mod huge_pages;
pub mod perft;
pub mod play;
pub mod position;
pub mod rng;
#[cfg(feature = "scan")]
pub mod scan;
pub mod search;
pub mod similar;
pub mod tablebase;
#[cfg(test)]
mod test_scratch;
pub mod train;
pub mod uci;
