//! `explain game` as a page: each game replayable move by move on a board
//! (buttons, arrow keys, or a click on the graph or a move), the evaluation
//! over the game as a graph, the contested squares of the position shown as
//! a heat map, and the annotations beside it. Boards, graphs and move lists
//! are drawn here; `game.js` replays them from the embedded document.

use std::fmt::Write as _;

use super::board::{SquareView, pieces_from_fen, svg};
use super::chart::{Chart, Point};
use super::page::{Page, escape};
use crate::explain::json::Json;

const STYLE: &str = include_str!("game.css");
const SCRIPT: &str = include_str!("game.js");

fn text<'a>(value: &'a Json, key: &str) -> &'a str {
    value.get(key).and_then(Json::as_str).unwrap_or("")
}

fn num(value: &Json, key: &str) -> f64 {
    value.get(key).and_then(Json::as_f64).unwrap_or(0.0)
}

/// PGN's move suffix for a label.
fn suffix(label: &str) -> &'static str {
    match label {
        "inaccuracy" => "?!",
        "mistake" => "?",
        "blunder" => "??",
        _ => "",
    }
}

fn eval_graph(id: &str, start: &Json, moves: &[Json]) -> String {
    let mut points = vec![Point {
        x: 0.0,
        y: num(start, "graph_cp"),
        tip: format!("start: {}", text(start, "eval")),
        class: "",
    }];
    for (i, m) in moves.iter().enumerate() {
        let dots = if m.get("white") == Some(&Json::Bool(true)) {
            "."
        } else {
            "..."
        };
        points.push(Point {
            x: (i + 1) as f64,
            y: num(m, "graph_cp"),
            tip: format!(
                "{}{dots} {}{}: {} ({})",
                num(m, "number"),
                text(m, "san"),
                suffix(text(m, "label")),
                text(m, "eval"),
                text(m, "label")
            ),
            class: match text(m, "label") {
                "blunder" => "blunder",
                "mistake" => "mistake",
                "inaccuracy" => "inaccuracy",
                _ => "",
            },
        });
    }
    Chart {
        id,
        x_label: "ply",
        y_label: "evaluation, cp (White)",
        y_range: Some((-1000.0, 1000.0)),
        zero_line: true,
        y_format: |y| format!("{y:+.0}"),
    }
    .svg(&points)
}

fn move_list(moves: &[Json]) -> String {
    let mut out = String::from("<ol class=\"moves\">");
    let mut after_comment = false;
    for (i, m) in moves.iter().enumerate() {
        let label = text(m, "label");
        let white = m.get("white") == Some(&Json::Bool(true));
        if white || i == 0 {
            out.push_str("<li>");
        }
        // A black move gets its number when it opens the line or follows a comment.
        if white || i == 0 || after_comment {
            let dots = if white { "." } else { "..." };
            let _ = write!(out, "<span class=\"num\">{}{dots}</span>", num(m, "number"));
        }
        let comment = if matches!(label, "inaccuracy" | "mistake" | "blunder") {
            format!(
                "<span class=\"comment\">{label}: {} was best ({} \u{2192} {})</span>",
                escape(text(m, "best")),
                escape(text(m, "before")),
                escape(text(m, "after"))
            )
        } else {
            String::new()
        };
        after_comment = !comment.is_empty();
        let _ = write!(
            out,
            "<button type=\"button\" class=\"mv {label}\" data-ply=\"{}\" title=\"{label}; eval {}\">{}{}</button>{comment}",
            i + 1,
            escape(text(m, "eval")),
            escape(text(m, "san")),
            suffix(label)
        );
        if !white || i + 1 == moves.len() {
            out.push_str("</li>");
        }
    }
    out.push_str("</ol>");
    out
}

fn game_section(index: usize, game: &Json) -> String {
    let tags = game.get("tags");
    let tag = |name| {
        tags.and_then(|t| t.get(name))
            .and_then(Json::as_str)
            .unwrap_or("?")
    };
    let start = game.get("start").unwrap_or(&Json::Null);
    let moves = game.get("moves").map(Json::items).unwrap_or_default();
    let pieces = pieces_from_fen(text(start, "fen"));
    let squares: [SquareView; 64] = std::array::from_fn(|sq| SquareView {
        piece: pieces[sq],
        ..SquareView::default()
    });
    let id = format!("g{index}");
    format!(
        "<section class=\"game\" id=\"{id}\" data-game=\"{index}\">\n\
         <h2>{} \u{2013} {} <span class=\"note\">{} {} ({})</span></h2>\n\
         <div class=\"cols\">\n<div class=\"panel\">{}\
         <div class=\"controls\"><button type=\"button\" data-go=\"first\" title=\"start\">\u{ab}</button>\
         <button type=\"button\" data-go=\"back\" title=\"back\">\u{2039}</button>\
         <button type=\"button\" data-go=\"next\" title=\"next\">\u{203a}</button>\
         <button type=\"button\" data-go=\"last\" title=\"end\">\u{bb}</button>\
         <label><input type=\"checkbox\" class=\"heat\" checked> contested squares</label></div>\
         <p class=\"now\"></p></div>\n\
         <div class=\"panel\"><h2>Evaluation</h2>{}<h2>Moves</h2><div class=\"movebox\">{}</div></div>\n</div>\n</section>\n",
        escape(tag("White")),
        escape(tag("Black")),
        escape(tag("Event")),
        escape(tag("Date")),
        escape(text(game, "result")),
        svg(&format!("{id}-board"), &squares),
        eval_graph(&format!("{id}-eval"), start, moves),
        move_list(moves)
    )
}

pub fn page(doc: &Json) -> String {
    let games = doc.get("games").map(Json::items).unwrap_or_default();
    let mut body = String::from(
        "<p class=\"note\">Step through a game with the buttons, the arrow keys, or a click on \
         a move or a point of the graph. Red squares: where both sides attack most (the \
         smaller of the two sides' summed attacker values). Labels by the win probability a \
         move gave away: inaccuracy ?! (5 points), mistake ? (10), blunder ?? (15).</p>\n",
    );
    for (i, g) in games.iter().enumerate() {
        body.push_str(&game_section(i, g));
    }
    let count = match games.len() {
        1 => "1 game".to_string(),
        n => format!("{n} games"),
    };
    let subtitle = format!("{} \u{b7} {count}", text(doc, "pgn"));
    Page {
        title: "Annotated games",
        subtitle: &subtitle,
        style: STYLE,
        body: &body,
        data: doc,
        script: SCRIPT,
    }
    .render()
}
