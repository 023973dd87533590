//! Tablebase adjudication. The arena reads Syzygy tables through the
//! engine's own [`crate::tablebase::Tablebase`], so a corrupt or missing
//! table file is handled (and reported) the same way in both.

use shakmaty::Chess;

use super::referee::{GameEnd, GameResult, Termination, color_name};
use crate::tablebase::Tablebase;

pub struct Tablebases {
    tables: Tablebase,
}

impl Tablebases {
    /// Open every directory in `paths` (separated as in `SyzygyPath`). An
    /// error when no usable table is found: adjudication was asked for.
    pub fn open(paths: &str) -> Result<Tablebases, String> {
        let tables = Tablebase::open(paths);
        if tables.is_empty() {
            let mut message = format!("no usable Syzygy tables found in {paths}");
            for line in tables.report() {
                message.push_str("; ");
                message.push_str(&line);
            }
            return Err(message);
        }
        Ok(Tablebases { tables })
    }

    /// Most pieces (kings included) the tables cover.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces() as usize
    }

    /// The game's result if the tables decide it: win, loss or draw under
    /// the fifty-move rule. None when the position is not in the tables, the
    /// probe fails, or the result depends on the fifty-move counter.
    pub fn verdict(&self, chess: &Chess) -> Option<GameEnd> {
        let (result, reason) = match self.tables.winner(chess)? {
            Some(winner) => (
                GameResult::win_for(winner),
                format!("{} wins by tablebase", color_name(winner)),
            ),
            None => (GameResult::Draw, "Draw by tablebase".to_string()),
        };
        Some(GameEnd {
            result,
            termination: Termination::Adjudication,
            reason,
        })
    }
}
