//! Scratch folders for tests, so that a test run leaves nothing behind in
//! the system temp folder. The integration tests include this file by path
//! (`tests/integration/common`): they cannot reach `cfg(test)` code.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A fresh, empty folder that removes itself, with everything in it, on
/// drop. Bind it to a variable that lives as long as the folder is used:
/// `ScratchDir::new(..).join(..)` alone would drop it, and the folder, at once.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// `tarpon-<name>-<pid>` in the system temp folder: the tests of one
    /// binary run as threads of one process, so `name` must differ between tests.
    pub fn new(name: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("tarpon-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        // Best effort: a panic here, in a test already unwinding, would abort the run.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
