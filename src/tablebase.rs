//! Syzygy endgame tablebases, through the `shakmaty-syzygy` crate.
//!
//! One small interface for the engine: [`Tablebase::open`] takes the
//! `SyzygyPath` option (several directories, separated as Stockfish does),
//! checks every table it finds and leaves out the broken ones, and says in
//! plain words what it found ([`Tablebase::report`]). Probes return `None`
//! when the answer is not known for any reason (too many pieces, castling
//! rights, a missing or corrupt table) and never panic: a table file that is
//! damaged only somewhere in its data is noticed at probe time, reported once
//! ([`Tablebase::take_problems`]) and can be left out for the next search
//! ([`Tablebase::without_failed_tables`]).
//!
//! Why probes are wrapped in `catch_unwind`: `shakmaty-syzygy` checks what
//! it reads and answers a corrupt table with an error, and in our sweep of
//! 1800 randomly damaged copies (`random_damage_sweep` in
//! `tests/tablebase.rs`) it never panicked. But it still holds `assert!`s
//! and an `expect` on the probing path and indexes arrays with values that
//! come from the file, and Syzygy files carry no checksum, so nothing rules
//! a panic out. One bad file must never end a game: the release profile
//! unwinds, catching costs nothing on the normal path, so every call into
//! the crate goes through [`guarded`].
//!
//! Scores: tablebase results map into a band just below the mate scores
//! (see [`TB_WIN`]), so a proven mate still outranks any tablebase win and
//! a tablebase win outranks any evaluation.

use std::{
    collections::BTreeSet,
    fmt,
    panic::{self, AssertUnwindSafe},
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use shakmaty::{
    Board, CastlingMode, Chess, Color, FromSetup, Move, Position as _, Role, Setup, Square,
};
use shakmaty_syzygy::{Metric, ProbeError, SyzygyError};

pub use shakmaty_syzygy::Wdl;

use crate::position::Position;
use crate::search::score::{MATE_BOUND, MAX_PLY as SEARCH_MAX_PLY};

/// Separator between directories in `SyzygyPath`: `:` on Unix, `;` on
/// Windows (where `:` follows drive letters), as in Stockfish.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Plies a search can reach, as a score distance.
const MAX_PLY: i32 = SEARCH_MAX_PLY as i32;
/// A tablebase win at the root. A win proven `ply` plies from the root
/// scores `TB_WIN - ply`: the band `TB_WIN_IN_MAX_PLY ..= TB_WIN` sits just
/// below the mate scores and above every static evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at least this large (and below `MATE_BOUND`) are tablebase wins.
pub const TB_WIN_IN_MAX_PLY: i32 = TB_WIN - MAX_PLY;
// The band must stay between the evaluations and the mates of the search.
const _: () = assert!(TB_WIN_IN_MAX_PLY > crate::search::score::EVAL_LIMIT && TB_WIN < MATE_BOUND);
/// Cursed wins and blessed losses: draws under the fifty-move rule, scored a
/// hair away from zero so the search still prefers the side with chances.
pub const CURSED_SCORE: i32 = 2;

/// The UCI options `SyzygyProbeDepth`, `SyzygyProbeLimit` and
/// `Syzygy50MoveRule`, with Stockfish's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeSettings {
    /// Probe inside the search only at this remaining depth or more (when
    /// the position has exactly as many pieces as the limit).
    pub depth: i32,
    /// Probe only positions with at most this many pieces (kings included).
    pub limit: u32,
    /// Count cursed wins and blessed losses as draws (the fifty-move rule).
    pub rule50: bool,
}

impl Default for ProbeSettings {
    fn default() -> Self {
        ProbeSettings {
            depth: 1,
            limit: 7,
            rule50: true,
        }
    }
}

/// Which of the two files of an endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Wdl,
    Dtz,
}

impl Kind {
    fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }

    fn of(metric: Metric) -> Kind {
        match metric {
            Metric::Wdl => Kind::Wdl,
            Metric::Dtz => Kind::Dtz,
        }
    }
}

/// One table file: its endgame (`KQvKR`, stronger side first as in the file
/// name) and kind.
#[derive(Clone, Debug)]
struct TableFile {
    path: PathBuf,
    material: String,
    kind: Kind,
}

impl TableFile {
    fn name(&self) -> String {
        format!("{}.{}", self.material, self.kind.extension())
    }
}

/// An open set of Syzygy tables (possibly empty).
pub struct Tablebase {
    tables: shakmaty_syzygy::Tablebase<Chess>,
    files: Vec<TableFile>,
    /// Tables found again in a later directory: used if the first is broken.
    spares: Vec<TableFile>,
    max_pieces: u32,
    /// Directories the tables came from, for the report.
    directories: Vec<PathBuf>,
    /// What went wrong while opening: missing directories, unreadable or
    /// corrupt files, incomplete sets.
    open_problems: Vec<String>,
    /// Failures met while probing, not yet handed to `take_problems`.
    probe_problems: Mutex<ProbeProblems>,
    /// Successful probes so far, for `tbhits`.
    hits: AtomicU64,
}

#[derive(Default)]
struct ProbeProblems {
    /// Every message ever reported, so each is reported once.
    seen: BTreeSet<String>,
    pending: Vec<String>,
    /// Files that failed while probing.
    failed: BTreeSet<PathBuf>,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("files", &self.files.len())
            .field("max_pieces", &self.max_pieces)
            .finish_non_exhaustive()
    }
}

impl Default for Tablebase {
    fn default() -> Self {
        Tablebase::empty()
    }
}

/// Why a call into `shakmaty-syzygy` gave no answer.
enum Failure {
    Error(SyzygyError),
    Panic(String),
}

/// Calls into `shakmaty-syzygy`, turning a panic on corrupt data into a
/// failure (see the module comment for why this is needed).
fn guarded<T>(probe: impl FnOnce() -> Result<T, SyzygyError>) -> Result<T, Failure> {
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

/// Splits a `SyzygyPath` value into directories. Empty entries and
/// Stockfish's `<empty>` default mean no directory.
pub fn split_paths(paths: &str) -> Vec<PathBuf> {
    let paths = paths.trim();
    if paths.is_empty() || paths == "<empty>" {
        return Vec::new();
    }
    paths
        .split(PATH_SEPARATOR)
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .collect()
}

impl Tablebase {
    /// No tables at all: every probe answers `None`.
    pub fn empty() -> Tablebase {
        Tablebase {
            tables: shakmaty_syzygy::Tablebase::new(),
            files: Vec::new(),
            spares: Vec::new(),
            max_pieces: 0,
            directories: Vec::new(),
            open_problems: Vec::new(),
            probe_problems: Mutex::new(ProbeProblems::default()),
            hits: AtomicU64::new(0),
        }
    }

    /// Opens every table in the directories of `paths` (the `SyzygyPath`
    /// option). Never fails: what cannot be used is left out and described
    /// in [`Tablebase::report`].
    pub fn open(paths: &str) -> Tablebase {
        let mut tb = Tablebase::empty();
        for dir in split_paths(paths) {
            tb.add_directory(&dir);
        }
        tb.rebuild();
        tb.drop_broken_tables();
        tb.note_incomplete_sets();
        tb
    }

    fn add_directory(&mut self, dir: &Path) {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) => {
                self.open_problems.push(format!(
                    "Syzygy directory '{}' cannot be read ({err}); skipped",
                    dir.display()
                ));
                return;
            }
        };
        let mut found = 0;
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let Some((material, kind)) = table_name(&path) else {
                continue;
            };
            // Check the file one at a time: the crate's `add_directory` stops
            // at the first bad file and would lose the rest of the directory.
            let mut probe_only = shakmaty_syzygy::Tablebase::<Chess>::new();
            match probe_only.add_file(&path) {
                Ok(()) => {
                    found += 1;
                    // A table found in an earlier directory wins; a later
                    // copy is kept in reserve.
                    let file = TableFile {
                        path,
                        material,
                        kind,
                    };
                    if self
                        .files
                        .iter()
                        .any(|f| f.material == file.material && f.kind == kind)
                    {
                        self.spares.push(file);
                    } else {
                        self.files.push(file);
                    }
                }
                Err(err) => self.open_problems.push(format!(
                    "Syzygy table '{}' cannot be used ({}); playing on without it",
                    path.display(),
                    describe_io(&err)
                )),
            }
        }
        if found == 0 {
            self.open_problems.push(format!(
                "Syzygy directory '{}' holds no tables",
                dir.display()
            ));
        }
        self.directories.push(dir.to_path_buf());
    }

    /// Rebuilds the crate's table set from `self.files`.
    fn rebuild(&mut self) {
        let mut tables = shakmaty_syzygy::Tablebase::new();
        let mut max_pieces = 0;
        self.files.retain(|file| match tables.add_file(&file.path) {
            Ok(()) => {
                max_pieces = max_pieces.max(piece_count(&file.material));
                true
            }
            Err(_) => false,
        });
        self.tables = tables;
        self.max_pieces = max_pieces;
    }

    /// Probes a few positions of every endgame so that tables with a broken
    /// header or unreadable files are found now, reported, and left out.
    fn drop_broken_tables(&mut self) {
        // WDL tables first: a DTZ probe also reads the WDL table of its own
        // endgame, so a failure there is then the DTZ file's.
        for kind in [Kind::Wdl, Kind::Dtz] {
            loop {
                let broken = self.find_broken(kind);
                if broken.is_empty() {
                    break;
                }
                for (index, reason) in broken.iter().rev() {
                    let file = self.files.remove(*index);
                    let spare = self
                        .spares
                        .iter()
                        .position(|s| s.material == file.material && s.kind == file.kind)
                        .map(|i| self.spares.remove(i));
                    let instead = match spare {
                        Some(spare) => {
                            let text = format!("using '{}' instead", spare.path.display());
                            self.files.push(spare);
                            text
                        }
                        None => "playing on without it".to_string(),
                    };
                    self.open_problems.push(format!(
                        "Syzygy table '{}' is corrupt or unreadable ({reason}); {instead}",
                        file.path.display()
                    ));
                }
                self.rebuild();
            }
        }
    }

    /// Indexes (ascending) of the tables of `kind` that fail on a sample
    /// position, with the reason.
    fn find_broken(&self, kind: Kind) -> Vec<(usize, String)> {
        let mut broken: Vec<(usize, String)> = Vec::new();
        for (index, file) in self.files.iter().enumerate() {
            if file.kind != kind || broken.iter().any(|(i, _)| *i == index) {
                continue;
            }
            for sample in sample_positions(&file.material, kind) {
                let outcome = match kind {
                    Kind::Wdl => guarded(|| self.tables.probe_wdl_after_zeroing(&sample)).map(drop),
                    Kind::Dtz => guarded(|| self.tables.probe_dtz(&sample)).map(drop),
                };
                match outcome {
                    Ok(()) | Err(Failure::Error(SyzygyError::MissingTable { .. })) => {}
                    Err(Failure::Error(SyzygyError::ProbeFailed {
                        metric,
                        material,
                        error,
                    })) => {
                        let culprit = self
                            .file_index(&material.to_string(), Kind::of(metric))
                            .unwrap_or(index);
                        if !broken.iter().any(|(i, _)| *i == culprit) {
                            broken.push((culprit, describe_probe_error(&error)));
                        }
                        break;
                    }
                    Err(Failure::Error(_)) => {}
                    Err(Failure::Panic(text)) => {
                        broken.push((index, format!("the prober panicked: {text}")));
                        break;
                    }
                }
            }
        }
        broken.sort_by_key(|(i, _)| *i);
        broken
    }

    fn file_index(&self, material: &str, kind: Kind) -> Option<usize> {
        let swapped = swap_sides(material);
        self.files
            .iter()
            .position(|f| f.kind == kind && (f.material == material || f.material == swapped))
    }

    /// Notes endgames whose captures or promotions lead to endgames without
    /// a WDL table: positions there cannot be probed.
    fn note_incomplete_sets(&mut self) {
        let have: BTreeSet<String> = self
            .files
            .iter()
            .filter(|f| f.kind == Kind::Wdl)
            .map(|f| normalize(&f.material))
            .collect();
        let mut missing: BTreeSet<String> = BTreeSet::new();
        for material in &have {
            for next in successors(material) {
                if !have.contains(&next) {
                    missing.insert(next);
                }
            }
        }
        if !missing.is_empty() {
            let list: Vec<&str> = missing.iter().map(String::as_str).take(12).collect();
            self.open_problems.push(format!(
                "Syzygy set incomplete: {} endgame(s) reachable by a capture or promotion have no table ({}{}); positions leading there are not probed",
                missing.len(),
                list.join(" "),
                if missing.len() > list.len() { " ..." } else { "" }
            ));
        }
    }

    /// A copy without the tables that failed while probing since the last
    /// call, or `None` if none did. The engine swaps it in between searches.
    pub fn without_failed_tables(&self) -> Option<Tablebase> {
        let failed = {
            let mut problems = self.lock_problems();
            std::mem::take(&mut problems.failed)
        };
        if failed.is_empty() {
            return None;
        }
        let mut tb = Tablebase::empty();
        tb.directories = self.directories.clone();
        tb.files = self
            .files
            .iter()
            .filter(|f| !failed.contains(&f.path))
            .cloned()
            .collect();
        tb.open_problems = self.open_problems.clone();
        for path in &failed {
            tb.open_problems.push(format!(
                "Syzygy table '{}' failed while probing; playing on without it",
                path.display()
            ));
        }
        tb.rebuild();
        Some(tb)
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Number of table files in use (WDL and DTZ counted separately).
    pub fn table_count(&self) -> usize {
        self.files.len()
    }

    /// Number of WDL and of DTZ tables in use.
    pub fn counts(&self) -> (usize, usize) {
        let wdl = self.files.iter().filter(|f| f.kind == Kind::Wdl).count();
        (wdl, self.files.len() - wdl)
    }

    /// Successful probes since the tables were opened (all threads).
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Most pieces (kings included) of any table in use; 0 without tables.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Lines for `info string`: what was found, then every problem met while
    /// opening.
    pub fn report(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.directories.is_empty() && self.open_problems.is_empty() {
            lines.push("Syzygy tablebases off (SyzygyPath is empty)".to_string());
            return lines;
        }
        let (wdl, dtz) = self.counts();
        lines.push(format!(
            "Syzygy: found {} tables ({wdl} WDL, {dtz} DTZ) up to {} pieces",
            self.files.len(),
            self.max_pieces
        ));
        lines.extend(self.open_problems.iter().cloned());
        lines
    }

    /// Problems met while probing since the last call (each reported once).
    pub fn take_problems(&self) -> Vec<String> {
        std::mem::take(&mut self.lock_problems().pending)
    }

    fn lock_problems(&self) -> std::sync::MutexGuard<'_, ProbeProblems> {
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

    /// Ranks the root moves by DTZ (or by WDL where a DTZ table is missing)
    /// so the search looks only at moves that keep the best result under
    /// `settings.rule50`. `None` when the position cannot be probed or has no
    /// legal move. `pos` is left as it was.
    pub fn rank_root_moves(
        &self,
        pos: &mut Position,
        settings: &ProbeSettings,
    ) -> Option<RootRanking> {
        if !self.can_probe(pos.chess(), settings.limit) || pos.legal_moves().is_empty() {
            return None;
        }
        self.rank_by_dtz(pos, settings)
            .or_else(|| self.rank_by_wdl(pos, settings))
    }

    fn rank_by_dtz(&self, pos: &mut Position, settings: &ProbeSettings) -> Option<RootRanking> {
        let clock = pos.halfmoves();
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            pos.make(m);
            let dtz = self.root_move_dtz(pos, &m);
            pos.unmake();
            let dtz = dtz?;
            let result = result_of_dtz(dtz, clock, settings.rule50);
            moves.push(RankedMove {
                mv: m,
                result,
                dtz: Some(dtz),
                rank: rank(result, dtz),
            });
        }
        Some(RootRanking::new(moves, clock, settings.rule50))
    }

    /// DTZ of the root move that led to `pos`, from the root's point of view.
    fn root_move_dtz(&self, pos: &Position, m: &Move) -> Option<i32> {
        let chess = pos.chess();
        if chess.is_checkmate() {
            return Some(1);
        }
        if pos.is_repetition_draw(1) || pos.is_fifty_move_draw() {
            return Some(0);
        }
        if m.is_zeroing() {
            // The clock restarts: the WDL tables alone give the answer.
            let wdl = -self.probe_wdl_after_zeroing(chess)?;
            return Some(dtz_before_zeroing(wdl));
        }
        let dtz = -self.probe_dtz(chess)?;
        // One more ply: the root move itself.
        Some(dtz + dtz.signum())
    }

    fn rank_by_wdl(&self, pos: &mut Position, settings: &ProbeSettings) -> Option<RootRanking> {
        let clock = pos.halfmoves();
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            pos.make(m);
            let result = if pos.chess().is_checkmate() {
                Some(Wdl::Win)
            } else if pos.is_repetition_draw(1) || pos.is_fifty_move_draw() {
                Some(Wdl::Draw)
            } else {
                self.probe_wdl_after_zeroing(pos.chess()).map(|w| -w)
            };
            pos.unmake();
            let result = fold_rule50(result?, settings.rule50);
            moves.push(RankedMove {
                mv: m,
                result,
                dtz: None,
                rank: rank(result, 0),
            });
        }
        Some(RootRanking::new(moves, clock, settings.rule50))
    }

    /// Whether the search should probe `pos` (reached `depth` plies before
    /// the horizon): only right after a capture or pawn move, where the WDL
    /// tables are exact, and with few enough pieces (`SyzygyProbeLimit`);
    /// at exactly the limit only from `SyzygyProbeDepth` on.
    pub fn should_probe_in_search(
        &self,
        pos: &Chess,
        depth: i32,
        settings: &ProbeSettings,
    ) -> bool {
        if pos.halfmoves() != 0 || pos.castles().any() {
            return false;
        }
        let cardinality = self.cardinality(settings.limit);
        let pieces = pos.board().occupied().count() as u32;
        pieces < cardinality || (pieces == cardinality && depth >= settings.depth)
    }
}

/// The tables and probe options a search runs with (part of the search
/// configuration; `tables` is `None` while `SyzygyPath` is empty).
#[derive(Clone, Debug, Default)]
pub struct Syzygy {
    pub tables: Option<Arc<Tablebase>>,
    pub settings: ProbeSettings,
}

impl Syzygy {
    /// Opens `paths` (the `SyzygyPath` option) and returns the lines to
    /// show as `info string`.
    pub fn set_path(&mut self, paths: &str) -> Vec<String> {
        let tables = Tablebase::open(paths);
        let report = tables.report();
        self.tables = (!tables.is_empty()).then(|| Arc::new(tables));
        report
    }

    /// After a search: lines to show for tables that failed while probing,
    /// which are then left out of the next search.
    pub fn after_search(&mut self) -> Vec<String> {
        let Some(tables) = &self.tables else {
            return Vec::new();
        };
        let problems = tables.take_problems();
        if let Some(repaired) = tables.without_failed_tables() {
            self.tables = Some(Arc::new(repaired));
        }
        problems
    }
}

/// One search thread's use of the tables: ranks the root moves, probes the
/// tree, counts hits and says what result to report.
#[derive(Debug, Default)]
pub struct SearchProbe {
    tables: Option<Arc<Tablebase>>,
    settings: ProbeSettings,
    /// Probe inside the tree: off once the root moves were ranked by DTZ,
    /// whose filtering already secures the result (the search then looks
    /// for the quickest way among them), as in Stockfish.
    in_tree: bool,
    root: Option<RootRanking>,
    hits_before: u64,
}

impl SearchProbe {
    pub fn new(syzygy: &Syzygy) -> SearchProbe {
        SearchProbe {
            tables: syzygy.tables.clone(),
            settings: syzygy.settings,
            in_tree: syzygy.tables.is_some(),
            root: None,
            hits_before: syzygy.tables.as_ref().map_or(0, |t| t.hits()),
        }
    }

    /// At the root: when the tables know the position, keeps in `moves`
    /// only the moves that keep the best result (in table order), unless
    /// none of those was among `moves` (`go searchmoves`).
    pub fn filter_root_moves(&mut self, pos: &mut Position, moves: &mut Vec<Move>) {
        let Some(tables) = &self.tables else {
            return;
        };
        let Some(ranking) = tables.rank_root_moves(pos, &self.settings) else {
            return;
        };
        let kept: Vec<Move> = ranking.best_moves().filter(|m| moves.contains(m)).collect();
        if !kept.is_empty() {
            *moves = kept;
        }
        let winning = matches!(ranking.result(), Wdl::Win | Wdl::CursedWin);
        self.in_tree = ranking.dtz().is_none() && winning;
        self.root = Some(ranking);
    }

    /// Probes a node `ply` plies from the root with `depth` plies left and
    /// returns its score when the tables know it. The node ends there
    /// whatever the window: the WDL result is certain, only the distance
    /// is not, and the search does not look for a quicker mate below it
    /// (a mate found elsewhere still outranks the tablebase band).
    pub fn probe(&self, pos: &Position, depth: i32, ply: usize) -> Option<i32> {
        if !self.in_tree || ply == 0 {
            return None;
        }
        let tables = self.tables.as_ref()?;
        if !tables.should_probe_in_search(pos.chess(), depth, &self.settings) {
            return None;
        }
        let wdl = tables.probe_wdl_after_zeroing(pos.chess())?;
        Some(result_score(wdl, ply, self.settings.rule50))
    }

    /// Table hits since this thread started its search, counting every
    /// thread's probes (root ranking included).
    pub fn hits(&self) -> u64 {
        let total = self.tables.as_ref().map_or(0, |t| t.hits());
        total.saturating_sub(self.hits_before)
    }

    /// What the tables say about the root, if they were asked.
    pub fn root(&self) -> Option<&RootRanking> {
        self.root.as_ref()
    }

    /// The score and UCI `wdl` to report for the root given the search's
    /// `score`: a mate the search found in the winning direction stands,
    /// anything else gives way to the true result from the tables.
    pub fn report(&self, score: i32) -> Option<(i32, (u32, u32, u32))> {
        let root = self.root.as_ref()?;
        let result = root.result();
        let found_mate = match result {
            Wdl::Win => score >= MATE_BOUND,
            Wdl::Loss => score <= -MATE_BOUND,
            _ => false,
        };
        let score = if found_mate { score } else { root.score() };
        Some((score, root.wdl_permille()))
    }
}

/// A root move with its tablebase result from the root's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// The result this move keeps, the fifty-move rule applied as set.
    pub result: Wdl,
    /// Plies from the root until the halfmove clock is zeroed with best
    /// play (positive when winning); `None` when ranked by WDL only.
    pub dtz: Option<i32>,
    /// Larger is better.
    pub rank: i32,
}

/// The root moves ranked by the tables.
#[derive(Clone, Debug)]
pub struct RootRanking {
    /// Every legal move, best first.
    pub moves: Vec<RankedMove>,
    /// The first `keep` moves keep the best result: search only those.
    pub keep: usize,
}

impl RootRanking {
    fn new(mut moves: Vec<RankedMove>, clock: u32, rule50: bool) -> RootRanking {
        moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
        let best = moves[0];
        let ranked_by_dtz = best.dtz.is_some();
        let keep = moves
            .iter()
            .take_while(|m| {
                if !ranked_by_dtz {
                    return m.result == best.result;
                }
                match best.result {
                    // Wins: only the moves that zero the clock soonest. The
                    // distance to zeroing then drops every move, so the win
                    // comes within the fifty-move rule and no position can
                    // repeat on the way.
                    Wdl::Win | Wdl::CursedWin => m.rank == best.rank,
                    Wdl::Draw | Wdl::BlessedLoss => m.result == best.result,
                    // Losses: any losing move while the fifty-move rule is out
                    // of reach (the search picks the most stubborn one), the
                    // longest resistance once it comes near.
                    Wdl::Loss => {
                        let longest = best.dtz.map_or(0, i32::abs);
                        if rule50 && 2 * longest + clock as i32 >= 100 {
                            m.rank == best.rank
                        } else {
                            m.result == best.result
                        }
                    }
                }
            })
            .count();
        RootRanking { moves, keep }
    }

    /// The true result of the root position for the side to move.
    pub fn result(&self) -> Wdl {
        self.moves[0].result
    }

    /// Plies to zeroing with best play, when known.
    pub fn dtz(&self) -> Option<i32> {
        self.moves[0].dtz
    }

    /// The moves that keep the best result, best first.
    pub fn best_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[..self.keep].iter().map(|m| m.mv)
    }

    /// The score to report for the root: the tablebase band for wins and
    /// losses (nearer the top the closer the zeroing move), a hair from
    /// zero for cursed wins and blessed losses, zero for draws.
    pub fn score(&self) -> i32 {
        let distance = self.dtz().map_or(0, |d| d.abs().min(MAX_PLY));
        match self.result() {
            Wdl::Win => TB_WIN - distance,
            Wdl::Loss => -TB_WIN + distance,
            other => result_score(other, 0, true),
        }
    }

    /// UCI `wdl` triple (per mille win, draw, loss) of the true result.
    pub fn wdl_permille(&self) -> (u32, u32, u32) {
        wdl_permille(self.result())
    }
}

/// UCI `wdl` triple for a tablebase result (cursed wins and blessed losses
/// are draws under the fifty-move rule).
pub fn wdl_permille(result: Wdl) -> (u32, u32, u32) {
    match result {
        Wdl::Win => (1000, 0, 0),
        Wdl::Loss => (0, 0, 1000),
        _ => (0, 1000, 0),
    }
}

/// The search's score for a tablebase result found `ply` plies from the
/// root: wins and losses in the tablebase band (nearer wins higher), cursed
/// wins and blessed losses nearly draws when the fifty-move rule counts and
/// plain wins or losses when it does not.
pub fn result_score(result: Wdl, ply: usize, rule50: bool) -> i32 {
    let ply = (ply as i32).min(MAX_PLY);
    match fold_rule50(result, rule50) {
        Wdl::Win => TB_WIN - ply,
        Wdl::Loss => -TB_WIN + ply,
        Wdl::CursedWin => CURSED_SCORE,
        Wdl::BlessedLoss => -CURSED_SCORE,
        Wdl::Draw => 0,
    }
}

/// Whether a score is a tablebase win or loss (and not a mate).
pub fn is_tb_score(score: i32) -> bool {
    (TB_WIN_IN_MAX_PLY..=TB_WIN).contains(&score.abs())
}

/// Without the fifty-move rule a cursed win is a win and a blessed loss a loss.
fn fold_rule50(result: Wdl, rule50: bool) -> Wdl {
    match result {
        Wdl::CursedWin if !rule50 => Wdl::Win,
        Wdl::BlessedLoss if !rule50 => Wdl::Loss,
        other => other,
    }
}

/// The result of a root move `dtz` plies from zeroing when the clock
/// already stands at `clock`: a zeroing move on the hundredth ply still
/// counts.
fn result_of_dtz(dtz: i32, clock: u32, rule50: bool) -> Wdl {
    let in_time = dtz.abs() + clock as i32 <= 100;
    match dtz.signum() {
        1 if in_time || !rule50 => Wdl::Win,
        1 => Wdl::CursedWin,
        -1 if in_time || !rule50 => Wdl::Loss,
        -1 => Wdl::BlessedLoss,
        _ => Wdl::Draw,
    }
}

/// Sort key: the result first, then fewer plies to zeroing when winning and
/// more when losing.
fn rank(result: Wdl, dtz: i32) -> i32 {
    i32::from(result) * 10_000 - dtz
}

/// DTZ of a zeroing move, from the WDL it reaches (Syzygy's convention).
fn dtz_before_zeroing(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Win => 1,
        Wdl::CursedWin => 101,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -101,
        Wdl::Loss => -1,
    }
}

/// The endgame and kind of a file named like `KQvKR.rtbw`.
fn table_name(path: &Path) -> Option<(String, Kind)> {
    let kind = match path.extension()?.to_str()? {
        "rtbw" => Kind::Wdl,
        "rtbz" => Kind::Dtz,
        _ => return None,
    };
    let stem = path.file_stem()?.to_str()?;
    let (white, black) = stem.split_once('v')?;
    let valid = |side: &str| {
        side.starts_with('K') && side[1..].chars().all(|c| "QRBNP".contains(c)) && side.len() <= 7
    };
    (valid(white) && valid(black)).then(|| (stem.to_string(), kind))
}

fn piece_count(material: &str) -> u32 {
    material.chars().filter(|c| *c != 'v').count() as u32
}

fn swap_sides(material: &str) -> String {
    match material.split_once('v') {
        Some((white, black)) => format!("{black}v{white}"),
        None => material.to_string(),
    }
}

/// Piece value order used in table names: K, Q, R, B, N, P.
fn role_order(c: char) -> usize {
    "KQRBNP".find(c).unwrap_or(6)
}

/// A side's pieces in table-name order.
fn sorted_side(side: &str) -> String {
    let mut chars: Vec<char> = side.chars().collect();
    chars.sort_by_key(|c| role_order(*c));
    chars.into_iter().collect()
}

/// The name a table file of this endgame has: the stronger side first
/// (more pieces, then the more valuable ones).
fn normalize(material: &str) -> String {
    let Some((white, black)) = material.split_once('v') else {
        return material.to_string();
    };
    let (white, black) = (sorted_side(white), sorted_side(black));
    let key = |s: &str| {
        (
            s.len(),
            s.chars().map(|c| 6 - role_order(c)).collect::<Vec<_>>(),
        )
    };
    if key(&white) >= key(&black) {
        format!("{white}v{black}")
    } else {
        format!("{black}v{white}")
    }
}

/// Endgames one capture or promotion away, other than the bare kings.
fn successors(material: &str) -> Vec<String> {
    let Some((white, black)) = material.split_once('v') else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let sides = [(white, black), (black, white)];
    for (us, them) in sides {
        for (i, c) in us.char_indices().skip(1) {
            let rest = format!("{}{}", &us[..i], &us[i + 1..]);
            // One of our pieces captured.
            out.push(format!("{rest}v{them}"));
            if c == 'P' {
                for promoted in ['Q', 'R', 'B', 'N'] {
                    out.push(format!("{rest}{promoted}v{them}"));
                }
            }
        }
    }
    out.into_iter()
        .filter(|m| m != "KvK")
        .map(|m| normalize(&m))
        .collect()
}

fn role_of(c: char) -> Option<Role> {
    Role::from_char(c.to_ascii_lowercase())
}

/// A few legal positions of `material` without captures for the side to
/// move (so a probe reads only this endgame's tables), both sides to move.
/// Deterministic: the same file is always checked on the same positions.
fn sample_positions(material: &str, kind: Kind) -> Vec<Chess> {
    let Some((white, black)) = material.split_once('v') else {
        return Vec::new();
    };
    let pieces: Vec<(Color, Role)> = white
        .chars()
        .map(|c| (Color::White, c))
        .chain(black.chars().map(|c| (Color::Black, c)))
        .filter_map(|(color, c)| role_of(c).map(|r| (color, r)))
        .collect();
    let wanted = match kind {
        Kind::Wdl => 2,
        Kind::Dtz => 4,
    };
    let mut found = Vec::new();
    let mut rng = material.bytes().fold(0x9E37_79B9_7F4A_7C15_u64, |h, b| {
        (h ^ u64::from(b)).rotate_left(7)
    });
    for attempt in 0..400 {
        if found.len() >= wanted {
            break;
        }
        let mut board = Board::empty();
        for &(color, role) in &pieces {
            let square = loop {
                rng = rng
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let sq = Square::new(((rng >> 33) % 64) as u32);
                let back_rank = matches!(sq.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth);
                if board.piece_at(sq).is_none() && !(role == Role::Pawn && back_rank) {
                    break sq;
                }
            };
            board.set_piece_at(square, role.of(color));
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = if attempt % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) else {
            continue;
        };
        let moves = pos.legal_moves();
        if !moves.is_empty() && moves.iter().all(|m| !m.is_capture()) {
            found.push(pos);
        }
    }
    found
}

fn describe_io(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::InvalidData => {
            "its size is impossible for a Syzygy table: truncated?".to_string()
        }
        _ => err.to_string(),
    }
}

fn describe_probe_error(err: &ProbeError) -> String {
    match err {
        ProbeError::Read { error } => format!("read error: {error}"),
        ProbeError::Magic { .. } => "not a Syzygy table (wrong magic bytes)".to_string(),
        ProbeError::CorruptedTable { .. } => "inconsistent data".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_as_stockfish_does() {
        let sep = PATH_SEPARATOR;
        assert_eq!(
            split_paths(&format!("/a{sep}/b c{sep}{sep} /d ")),
            vec![
                PathBuf::from("/a"),
                PathBuf::from("/b c"),
                PathBuf::from("/d")
            ]
        );
        assert!(split_paths("<empty>").is_empty());
        assert!(split_paths("  ").is_empty());
    }

    #[test]
    fn table_names_are_recognised() {
        assert_eq!(
            table_name(Path::new("/x/KQvKR.rtbw")),
            Some(("KQvKR".to_string(), Kind::Wdl))
        );
        assert_eq!(
            table_name(Path::new("KBNvK.rtbz")),
            Some(("KBNvK".to_string(), Kind::Dtz))
        );
        assert_eq!(table_name(Path::new("SOURCE.txt")), None);
        assert_eq!(table_name(Path::new("KXvK.rtbw")), None);
        assert_eq!(table_name(Path::new("QKvK.rtbw")), None);
    }

    #[test]
    fn successors_follow_captures_and_promotions() {
        let next = successors("KQPvKR");
        for m in ["KPvKR", "KQvKR", "KQPvK", "KQQvKR", "KRvKQ", "KQNvKR"] {
            let m = normalize(m);
            assert!(next.contains(&m), "{m} missing from {next:?}");
        }
        assert!(successors("KQvK").is_empty());
        assert_eq!(normalize("KRvKQ"), "KQvKR");
        assert_eq!(normalize("KPvKNN"), "KNNvKP");
    }

    #[test]
    fn result_of_dtz_respects_the_fifty_move_rule() {
        assert_eq!(result_of_dtz(5, 0, true), Wdl::Win);
        assert_eq!(result_of_dtz(5, 95, true), Wdl::Win);
        assert_eq!(result_of_dtz(5, 96, true), Wdl::CursedWin);
        assert_eq!(result_of_dtz(5, 96, false), Wdl::Win);
        assert_eq!(result_of_dtz(101, 0, true), Wdl::CursedWin);
        assert_eq!(result_of_dtz(-101, 0, true), Wdl::BlessedLoss);
        assert_eq!(result_of_dtz(-101, 0, false), Wdl::Loss);
        assert_eq!(result_of_dtz(0, 50, true), Wdl::Draw);
    }

    #[test]
    fn scores_sit_below_mate_and_above_evaluations() {
        use crate::search::score::{MATE, Score};
        assert!(matches!(Score::from_internal(TB_WIN), Score::Cp(_)));
        let win = result_score(Wdl::Win, 3, true);
        assert!(is_tb_score(win) && win < MATE_BOUND && win > 10_000);
        assert_eq!(result_score(Wdl::Loss, 3, true), -win);
        assert!(
            result_score(Wdl::Win, 2, true) > win,
            "nearer wins score higher"
        );
        assert_eq!(result_score(Wdl::CursedWin, 3, true), CURSED_SCORE);
        assert_eq!(result_score(Wdl::CursedWin, 3, false), win);
        assert_eq!(result_score(Wdl::BlessedLoss, 3, false), -win);
        assert!(!is_tb_score(MATE - 5) && !is_tb_score(MATE_BOUND) && !is_tb_score(900));
    }

    #[test]
    fn sample_positions_have_the_material_and_no_captures() {
        for material in ["KQvK", "KRvKR", "KPvKP", "KBNvK"] {
            let samples = sample_positions(material, Kind::Dtz);
            assert!(!samples.is_empty(), "{material}");
            for pos in samples {
                assert_eq!(pos.board().occupied().count() as u32, piece_count(material));
                assert!(pos.legal_moves().iter().all(|m| !m.is_capture()));
            }
        }
    }

    #[test]
    fn missing_directory_is_reported_and_harmless() {
        let tb = Tablebase::open("/nonexistent/tarpon-syzygy");
        assert!(tb.is_empty());
        let report = tb.report().join("\n");
        assert!(report.contains("cannot be read"), "{report}");
        let pos = Chess::default();
        assert_eq!(tb.probe_wdl(&pos), None);
    }

    #[test]
    fn empty_path_means_off() {
        let tb = Tablebase::open("<empty>");
        assert_eq!(
            tb.report(),
            vec!["Syzygy tablebases off (SyzygyPath is empty)"]
        );
        assert_eq!(tb.max_pieces(), 0);
    }
}
