//! Tablebase adjudication. All use of Syzygy tables by the arena goes
//! through [`Tablebases::verdict`], so the arena can switch to the engine's
//! own tablebase module without touching the rest.

use shakmaty::{Chess, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase};

use super::referee::{GameEnd, GameResult, Termination, color_name};

pub struct Tablebases {
    tables: Tablebase<Chess>,
}

impl Tablebases {
    /// Open every directory in `paths` (separated by `:` as Stockfish does).
    pub fn open(paths: &str) -> Result<Tablebases, String> {
        let mut tables = Tablebase::new();
        let mut found = 0;
        for dir in paths.split(':').filter(|d| !d.is_empty()) {
            found += tables
                .add_directory(dir)
                .map_err(|e| format!("cannot read tablebase directory {dir}: {e}"))?;
        }
        if found == 0 {
            return Err(format!("no Syzygy tables found in {paths}"));
        }
        Ok(Tablebases { tables })
    }

    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The game's result if the tables decide it: win, loss or draw under
    /// the fifty-move rule. None when the position is not in the tables, the
    /// probe fails, or the result depends on the fifty-move counter.
    pub fn verdict(&self, chess: &Chess) -> Option<GameEnd> {
        if chess.board().occupied().count() > self.max_pieces() || chess.castles().any() {
            return None;
        }
        let side = chess.turn();
        let (result, reason) = match self.tables.probe_wdl(chess).ok()? {
            AmbiguousWdl::Win => (
                GameResult::win_for(side),
                format!("{} wins by tablebase", color_name(side)),
            ),
            AmbiguousWdl::Loss => (
                GameResult::win_for(!side),
                format!("{} wins by tablebase", color_name(!side)),
            ),
            AmbiguousWdl::Draw | AmbiguousWdl::CursedWin | AmbiguousWdl::BlessedLoss => {
                (GameResult::Draw, "Draw by tablebase".to_string())
            }
            AmbiguousWdl::MaybeWin | AmbiguousWdl::MaybeLoss => return None,
        };
        Some(GameEnd {
            result,
            termination: Termination::Adjudication,
            reason,
        })
    }
}
