//! The maze runs of `explain maze` animated side by side: each algorithm's
//! expansions step by step (play, pause, step, a slider), visited-cell counts
//! and path lengths. Drawn by `maze.js` from the `--json --steps` document.
//! `#autoplay` plays to the end at once and then marks the page done
//! (html[data-done], for a headless browser).

use super::page::Page;
use crate::explain::json::Json;

const STYLE: &str = include_str!("maze.css");
const SCRIPT: &str = include_str!("maze.js");

pub fn page(doc: &Json) -> String {
    let label = doc.get("maze").and_then(Json::as_str).unwrap_or("");
    let size = |key| doc.get(key).and_then(Json::as_f64).unwrap_or(0.0);
    let text = doc.get("text").and_then(Json::as_str).unwrap_or("");
    let weighted = text.chars().any(|c| ('2'..='9').contains(&c));
    let subtitle = format!(
        "{label} \u{b7} {} \u{d7} {} cells",
        size("rows"),
        size("cols")
    );
    let body = format!(
        "<div class=\"controls panel\">\
         <button id=\"play\" type=\"button\">\u{25b6} play</button>\
         <button id=\"step\" type=\"button\">step</button>\
         <button id=\"reset\" type=\"button\">reset</button>\
         <label>speed <select id=\"speed\"><option value=\"1\">1\u{d7}</option>\
         <option value=\"4\" selected>4\u{d7}</option><option value=\"16\">16\u{d7}</option>\
         <option value=\"64\">64\u{d7}</option></select></label>\
         <input id=\"slider\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"step\">\
         <span id=\"clock\" class=\"note\">step 0</span></div>\n\
         <p class=\"note\">Expanded cells coloured from first (<span class=\"early\">\u{25a0}</span>) \
         to last (<span class=\"late\">\u{25a0}</span>), the frontier pale, depth-first \
         backtracking grey, the path in red once found.{}</p>\n\
         <section class=\"cols\" id=\"runs\"></section>\n",
        if weighted {
            " Darker cells cost more to enter (1 to 9)."
        } else {
            ""
        }
    );
    Page {
        title: "Maze search",
        subtitle: &subtitle,
        style: STYLE,
        body: &body,
        data: doc,
        script: SCRIPT,
    }
    .render()
}
