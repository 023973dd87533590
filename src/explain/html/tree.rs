//! The search trees of `explain tree` side by side: the position, the node
//! counts per algorithm as bars, and each tree as a collapsible diagram
//! (principal variation highlighted, cutoffs marked, the window and score of
//! a node shown on hover or tap). Drawn by `tree.js` from the `--json` document.

use super::board::{SquareView, pieces_from_fen, svg};
use super::page::Page;
use crate::explain::json::Json;

const STYLE: &str = include_str!("tree.css");
const SCRIPT: &str = include_str!("tree.js");

pub fn page(doc: &Json) -> String {
    let fen = doc.get("fen").and_then(Json::as_str).unwrap_or("");
    let depth = doc.get("depth").and_then(Json::as_f64).unwrap_or(0.0);
    let pieces = pieces_from_fen(fen);
    let squares: [SquareView; 64] = std::array::from_fn(|sq| SquareView {
        piece: pieces[sq],
        ..SquareView::default()
    });
    let body = format!(
        "<section class=\"cols\" id=\"overview\">\n<div class=\"panel\">{}</div>\n\
         <div class=\"panel\"><h2>Nodes searched</h2><div id=\"summary\"></div>\n\
         <p class=\"note\">Boxes: <span class=\"node k-pv\">PV</span> <span class=\"node k-cut\">cut</span> \
         <span class=\"node k-all\">all</span> <span class=\"node k-leaf\">leaf</span>; \
         <b class=\"pvtext\">bold green</b>: the principal variation; \u{2702}: a beta cutoff, \
         with the moves it pruned. Each value is for the side that made the move, \
         the window [\u{3b1}, \u{3b2}] from that side.</p></div>\n</section>\n\
         <section class=\"cols\" id=\"trees\"></section>\n",
        svg("position", &squares)
    );
    Page {
        title: "Search trees",
        subtitle: &format!("{fen} \u{b7} depth {depth}"),
        style: STYLE,
        body: &body,
        data: doc,
        script: SCRIPT,
    }
    .render()
}
