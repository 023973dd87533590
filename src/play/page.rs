//! The one page of `tarpon play`: HTML, CSS and script compiled into the
//! binary, nothing fetched from elsewhere. The pieces are the glyphs the
//! explain pages draw (`crate::explain::html::board::glyph`).

use crate::explain::html::board::glyph;

const HTML: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

/// The page with its style, script and piece glyphs filled in.
pub fn html() -> String {
    let glyphs: Vec<String> = "KQRBNP"
        .chars()
        .map(|p| format!("\"{p}\":\"{}\"", glyph(p).unwrap_or("")))
        .collect();
    HTML.replace("/*CSS*/", CSS)
        .replace("/*GLYPHS*/", &glyphs.join(","))
        .replace("/*JS*/", JS)
}
