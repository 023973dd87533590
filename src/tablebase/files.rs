//! Finding and checking the table files: the directories of `SyzygyPath`,
//! which files in them are Syzygy tables, which of those can be read (a few
//! sample probes per endgame, so a broken header is noticed when the tables
//! are opened rather than in a game), which endgames a set lacks, and the
//! report of it all in plain words.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
};

use shakmaty::Chess;
use shakmaty_syzygy::SyzygyError;

use super::Tablebase;
use super::material::{
    Kind, normalize, piece_count, sample_positions, successors, swap_sides, table_name,
};
use super::probe::{Failure, describe_probe_error, guarded};

/// Separator between directories in `SyzygyPath`: `:` on Unix, `;` on
/// Windows (where `:` follows drive letters), as in Stockfish.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// One table file: its endgame (`KQvKR`, stronger side first as in the file
/// name) and kind.
#[derive(Clone, Debug)]
pub(super) struct TableFile {
    pub(super) path: PathBuf,
    material: String,
    kind: Kind,
}

impl TableFile {
    pub(super) fn name(&self) -> String {
        format!("{}.{}", self.material, self.kind.extension())
    }
}

/// Splits a `SyzygyPath` value into directories. Empty entries and
/// Stockfish's `<empty>` default mean no directory.
fn split_paths(paths: &str) -> Vec<PathBuf> {
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

    pub(super) fn file_index(&self, material: &str, kind: Kind) -> Option<usize> {
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

    /// Number of WDL and of DTZ tables in use.
    pub fn counts(&self) -> (usize, usize) {
        let wdl = self.files.iter().filter(|f| f.kind == Kind::Wdl).count();
        (wdl, self.files.len() - wdl)
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
}

fn describe_io(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::InvalidData => {
            "its size is impossible for a Syzygy table: truncated?".to_string()
        }
        _ => err.to_string(),
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
