//! Where training games start: a position from a book of FEN/EPD lines (or
//! the start position), then random legal moves. Shared by `tarpon datagen`
//! and OpenBench's `genfens`, so both draw their openings the same way.

use std::path::Path;

use crate::position::{Position, START_FEN};
use crate::rng::SplitMix64;

/// Most random plies an opening may have (`datagen --random-plies`,
/// `genfens ... random_plies`).
pub const MAX_RANDOM_PLIES: u32 = 200;

/// The positions openings are drawn from, validated when loaded.
pub struct Openings(Vec<String>);

impl Openings {
    /// The lines of `book` (FEN, or EPD whose operations follow the board
    /// fields; blank and `#` lines skipped), or the start position alone.
    pub fn load(book: Option<&Path>) -> Result<Openings, String> {
        let Some(path) = book else {
            return Ok(Openings(vec![START_FEN.to_string()]));
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read book {}: {e}", path.display()))?;
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let first_fields = |n| {
                line.split_whitespace()
                    .take(n)
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            // A full FEN, else the four board fields of an EPD line.
            let fen = first_fields(6);
            let fen = match Position::from_fen(&fen, false) {
                Ok(_) => fen,
                Err(_) => {
                    let four = first_fields(4);
                    Position::from_fen(&four, false)
                        .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
                    four
                }
            };
            lines.push(fen);
        }
        if lines.is_empty() {
            return Err(format!("book {} holds no positions", path.display()));
        }
        Ok(Openings(lines))
    }

    /// A random book position followed by `random_plies` random legal moves
    /// (at most [`MAX_RANDOM_PLIES`]: past that, nearly every draw runs into
    /// a finished game and is drawn again, for ever);
    /// a line that runs into a finished game is dropped and drawn again.
    pub fn draw(&self, rng: &mut SplitMix64, random_plies: u32) -> Position {
        'retry: loop {
            let fen = &self.0[rng.below(self.0.len())];
            let mut pos = Position::from_fen(fen, false).expect("validated when loaded");
            for _ in 0..random_plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    continue 'retry;
                }
                pos.make(moves[rng.below(moves.len())]);
                pos.forget_undo();
            }
            if !pos.legal_moves().is_empty() {
                return pos;
            }
        }
    }
}
