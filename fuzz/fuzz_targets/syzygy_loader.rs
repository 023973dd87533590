//! Coverage-guided fuzzing of Syzygy table loading and probing: any bytes,
//! written as a KQvK table pair, must be refused or probed without a panic
//! (tarpon guards the probing library's panics; this checks the guard).
//! Seed the corpus with the real KQvK and KRvK files of `tests/data/syzygy`.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tarpon::position::Position;
use tarpon::tablebase::Tablebase;

fn folder() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tarpon-fuzz-syzygy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the table folder");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    // The first half is the WDL table, the rest the DTZ table.
    let (wdl, dtz) = data.split_at(data.len() / 2);
    let dir = folder();
    std::fs::write(dir.join("KQvK.rtbw"), wdl).expect("write the WDL table");
    std::fs::write(dir.join("KQvK.rtbz"), dtz).expect("write the DTZ table");
    let tables = Tablebase::open(&dir.to_string_lossy());
    for fen in ["8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "8/8/8/4k3/8/8/8/KQ6 b - - 0 1"] {
        let pos = Position::from_fen(fen, false).expect("a valid FEN");
        let _ = tables.probe_wdl(&pos.to_chess());
        let _ = tables.probe_dtz(&pos.to_chess());
    }
    let _ = tables.take_problems();
});
