//! Probing, guarded: every call into `shakmaty-syzygy` goes through
//! [`guarded`], so neither an error nor a panic on a damaged table reaches
//! the caller. Failures are recorded once for the report and mark their file
//! to be left out of the next search; successful probes are counted for
//! `tbhits`.
//!
//! Why probes are wrapped in `catch_unwind`: `shakmaty-syzygy` checks what
//! it reads and answers a corrupt table with an error, and in our sweep of
//! 1800 randomly damaged copies (`random_damage_sweep` in
//! `tests/integration/tablebase.rs`) it never panicked. But it still holds
//! `assert!`s and an `expect` on the probing path and indexes arrays with
//! values that come from the file, and Syzygy files carry no checksum, so
//! nothing rules a panic out. One bad file must never end a game: the
//! release profile unwinds, catching costs nothing on the normal path.

use std::{
    collections::BTreeSet,
    panic::{self, AssertUnwindSafe},
    path::PathBuf,
    sync::atomic::Ordering,
};

use shakmaty::{Chess, Color, Position as _};
use shakmaty_syzygy::{ProbeError, SyzygyError};

use super::material::Kind;
use super::{Tablebase, Wdl};

#[derive(Default)]
pub(super) struct ProbeProblems {
    /// Every message ever reported, so each is reported once.
    seen: BTreeSet<String>,
    pending: Vec<String>,
    /// Files that failed while probing.
    pub(super) failed: BTreeSet<PathBuf>,
}

/// Why a call into `shakmaty-syzygy` gave no answer.
pub(super) enum Failure {
    Error(SyzygyError),
    Panic(String),
}

/// Calls into `shakmaty-syzygy`, turning a panic on corrupt data into a
/// failure (see the module comment for why this is needed).
pub(super) fn guarded<T>(probe: impl FnOnce() -> Result<T, SyzygyError>) -> Result<T, Failure> {
    match panic::catch_unwind(AssertUnwindSafe(probe)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(err)) => Err(Failure::Error(err)),
        Err(payload) => {
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(Failure::Panic(text))
        }
    }
}

impl Tablebase {
    /// Successful probes since the tables were opened (all threads).
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Problems met while probing since the last call (each reported once).
    pub fn take_problems(&self) -> Vec<String> {
        std::mem::take(&mut self.lock_problems().pending)
    }

    pub(super) fn lock_problems(&self) -> std::sync::MutexGuard<'_, ProbeProblems> {
        // A panic while holding this lock cannot leave it inconsistent: every
        // update is a single insert or push.
        self.probe_problems
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Most pieces a probe may have under `limit` (`SyzygyProbeLimit`).
    pub fn cardinality(&self, limit: u32) -> u32 {
        self.max_pieces.min(limit)
    }

    /// Whether the tables can answer for `pos` at all: few enough pieces and
    /// no castling rights (Syzygy tables have none).
    pub fn can_probe(&self, pos: &Chess, limit: u32) -> bool {
        let pieces = pos.board().occupied().count() as u32;
        pieces <= self.cardinality(limit) && !pos.castles().any()
    }

    /// Win/draw/loss for the side to move, assuming the halfmove clock was
    /// just reset (after a capture or pawn move: only the WDL tables are
    /// read). Cursed wins and blessed losses are reported as such.
    pub fn probe_wdl_after_zeroing(&self, pos: &Chess) -> Option<Wdl> {
        if !self.can_probe(pos, u32::MAX) {
            return None;
        }
        self.answer(guarded(|| self.tables.probe_wdl_after_zeroing(pos)))
    }

    /// Win/draw/loss for the side to move under the fifty-move rule, taking
    /// its halfmove clock into account (reads the DTZ tables too unless the
    /// clock is zero). `None` also when DTZ rounding leaves it ambiguous.
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        if pos.halfmoves() == 0 {
            return self.probe_wdl_after_zeroing(pos);
        }
        if !self.can_probe(pos, u32::MAX) {
            return None;
        }
        self.answer(guarded(|| self.tables.probe_wdl(pos)).map(|wdl| wdl.unambiguous()))
            .flatten()
    }

    /// The game's result if the tables know it: `Some(winner)` under the
    /// fifty-move rule, `Some(None)` for a draw (cursed wins and blessed
    /// losses included), `None` when the tables cannot answer.
    pub fn winner(&self, pos: &Chess) -> Option<Option<Color>> {
        let turn = pos.turn();
        Some(match self.probe_wdl(pos)? {
            Wdl::Win => Some(turn),
            Wdl::Loss => Some(!turn),
            Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => None,
        })
    }

    /// Distance to zeroing the halfmove clock (capture, pawn move or mate)
    /// in plies with best play, positive when the side to move wins and
    /// negative when it loses, 0 for a draw. Beyond ±100 the result is
    /// cursed or blessed. Some tables store moves instead of plies: such
    /// values may be one ply too large.
    pub fn probe_dtz(&self, pos: &Chess) -> Option<i32> {
        if !self.can_probe(pos, u32::MAX) {
            return None;
        }
        self.answer(guarded(|| self.tables.probe_dtz(pos)))
            .map(|dtz| dtz.ignore_rounding().0)
    }

    /// Unwraps a probe result, recording real failures (not merely missing
    /// tables) for the report and for [`Tablebase::without_failed_tables`].
    fn answer<T>(&self, result: Result<T, Failure>) -> Option<T> {
        let failure = match result {
            Ok(value) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Some(value);
            }
            Err(failure) => failure,
        };
        let (message, culprit) = match failure {
            Failure::Error(SyzygyError::ProbeFailed {
                metric,
                material,
                error,
            }) => {
                let index = self.file_index(&material.to_string(), Kind::of(metric));
                let name = index.map_or(material.to_string(), |i| self.files[i].name());
                (
                    format!(
                        "Syzygy table {name} failed: {}; leaving it out from the next search",
                        describe_probe_error(&error)
                    ),
                    index.map(|i| self.files[i].path.clone()),
                )
            }
            Failure::Error(_) => return None,
            Failure::Panic(text) => (
                format!("Syzygy prober panicked on a corrupt table ({text}); probe ignored"),
                None,
            ),
        };
        let mut problems = self.lock_problems();
        if let Some(path) = culprit {
            problems.failed.insert(path);
        }
        if problems.seen.insert(message.clone()) {
            problems.pending.push(message);
        }
        None
    }
}

pub(super) fn describe_probe_error(err: &ProbeError) -> String {
    match err {
        ProbeError::Read { error } => format!("read error: {error}"),
        ProbeError::Magic { .. } => "not a Syzygy table (wrong magic bytes)".to_string(),
        ProbeError::CorruptedTable { .. } => "inconsistent data".to_string(),
    }
}
