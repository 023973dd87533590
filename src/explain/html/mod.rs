//! `--html FILE`: each explain mode as one self-contained HTML page (inline
//! SVG and a little JavaScript, no network). Every page is drawn from the same
//! JSON document the mode's `--json` prints (or, for games, would print), which
//! is also embedded in the page; nothing is analysed here.

pub mod board;
pub mod chart;
pub mod game;
pub mod maze;
pub mod page;
pub mod trace;
pub mod tree;

/// Writes a page to `path` (`-`: standard output) and says where it went.
pub fn write(path: &std::path::Path, html: &str) -> Result<String, String> {
    if path.as_os_str() == "-" {
        return Ok(html.to_string());
    }
    std::fs::write(path, html).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(format!(
        "HTML report written to {} ({} bytes)\n",
        path.display(),
        html.len()
    ))
}
