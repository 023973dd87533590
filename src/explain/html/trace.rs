//! `explain trace` as a page: the board with each piece's contribution to
//! the evaluation as a heat map (green for White, red for Black), and the
//! search iteration by iteration as charts and a table. Drawn here from the
//! `--json` document; the page needs no script of its own.

use std::fmt::Write as _;

use super::board::{SquareView, square_index, svg};
use super::chart::{Chart, Point};
use super::page::{Page, escape};
use crate::explain::json::Json;

const STYLE: &str = "#eval .board { width: 100%; max-width: 420px; }\n.chart { width: 100%; }\n";

/// Scores beyond this are drawn at the edge of the chart (mates).
const CHART_LIMIT: f64 = 1000.0;

fn num(row: &Json, key: &str) -> Option<f64> {
    row.get(key).and_then(Json::as_f64)
}

/// Contributions as shades: the largest one fully, zero not at all.
fn heat_board(pieces: &[Json]) -> String {
    let largest = pieces
        .iter()
        .filter_map(|p| num(p, "contribution"))
        .fold(1.0f64, |m, v| m.max(v.abs()));
    let mut squares: [SquareView; 64] = std::array::from_fn(|_| SquareView::default());
    for p in pieces {
        let name = p.get("square").and_then(Json::as_str).unwrap_or("");
        let Some(sq) = square_index(name) else {
            continue;
        };
        let piece = p
            .get("piece")
            .and_then(Json::as_str)
            .and_then(|s| s.chars().next());
        let contribution = num(p, "contribution");
        squares[sq] = SquareView {
            piece,
            shade: contribution.map(|c| {
                let colour = if c >= 0.0 { "#1f8a4c" } else { "#c2415b" };
                (colour, 0.1 + 0.6 * c.abs() / largest)
            }),
            value: contribution.map(|c| format!("{c:+}")),
            tip: Some(match contribution {
                Some(c) => format!("{name}: {c:+} cp for White (with it minus without it)"),
                None => format!("{name}: no contribution (king, or removing it is illegal)"),
            }),
        };
    }
    svg("eval-board", &squares)
}

fn score_text(row: &Json) -> String {
    match (num(row, "cp"), num(row, "mate")) {
        (_, Some(m)) => format!("#{m}"),
        (Some(cp), None) => format!("{cp:+}"),
        _ => "?".to_string(),
    }
}

fn chart_score(row: &Json) -> f64 {
    match (num(row, "cp"), num(row, "mate")) {
        (_, Some(m)) => CHART_LIMIT.copysign(m),
        (Some(cp), None) => cp.clamp(-CHART_LIMIT, CHART_LIMIT),
        _ => 0.0,
    }
}

fn search_section(iterations: &[Json]) -> String {
    let depth = |row: &Json| num(row, "depth").unwrap_or(0.0);
    let scores: Vec<Point> = iterations
        .iter()
        .map(|row| Point {
            x: depth(row),
            y: chart_score(row),
            tip: format!("depth {}: {}", depth(row), score_text(row)),
            class: "",
        })
        .collect();
    let nodes: Vec<Point> = iterations
        .iter()
        .map(|row| {
            let n = num(row, "nodes").unwrap_or(0.0);
            Point {
                x: depth(row),
                y: n.max(1.0).log10(),
                tip: format!("depth {}: {n} nodes", depth(row)),
                class: "",
            }
        })
        .collect();
    let score_chart = Chart {
        id: "score-chart",
        x_label: "depth",
        y_label: "score, cp (side to move)",
        y_range: None,
        zero_line: true,
        y_format: |y| format!("{y:+.0}"),
    };
    let nodes_chart = Chart {
        id: "nodes-chart",
        x_label: "depth",
        y_label: "nodes (log scale)",
        y_range: None,
        zero_line: false,
        y_format: |y| {
            let n = 10f64.powf(y);
            if n >= 1e6 {
                format!("{:.1}M", n / 1e6)
            } else if n >= 1e3 {
                format!("{:.0}k", n / 1e3)
            } else {
                format!("{n:.0}")
            }
        },
    };
    let mut table = String::from(
        "<table id=\"iterations\"><thead><tr><th>depth</th><th>sel</th><th>score</th><th>nodes</th>\
         <th>ms</th><th>tt hit</th><th>1st cut</th><th>pv</th></tr></thead><tbody>\n",
    );
    for row in iterations {
        let percent = |part: &str, whole: &str| match (num(row, part), num(row, whole)) {
            (Some(p), Some(w)) if w > 0.0 => format!("{:.0}%", 100.0 * p / w),
            _ => "-".to_string(),
        };
        let pv: Vec<&str> = row
            .get("pv")
            .map(Json::items)
            .unwrap_or_default()
            .iter()
            .filter_map(Json::as_str)
            .collect();
        let _ = writeln!(
            table,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            depth(row),
            num(row, "seldepth").unwrap_or(0.0),
            score_text(row),
            num(row, "nodes").unwrap_or(0.0),
            num(row, "time_ms").unwrap_or(0.0),
            percent("tt_hits", "tt_probes"),
            percent("first_move_cutoffs", "cutoffs"),
            escape(&pv.join(" "))
        );
    }
    table.push_str("</tbody></table>\n");
    format!(
        "<section class=\"cols\" id=\"search\">\n<div class=\"panel\"><h2>Score per iteration</h2>{}</div>\n\
         <div class=\"panel\"><h2>Nodes per iteration</h2>{}</div>\n</section>\n\
         <section class=\"panel\"><h2>Iterations</h2><div class=\"scroll\">{table}</div></section>\n",
        score_chart.svg(&scores),
        nodes_chart.svg(&nodes)
    )
}

pub fn page(doc: &Json) -> String {
    let fen = doc.get("fen").and_then(Json::as_str).unwrap_or("");
    let eval = doc.get("eval").and_then(Json::as_str).unwrap_or("");
    let total = num(doc, "white_eval").unwrap_or(0.0);
    let pieces = doc.get("pieces").map(Json::items).unwrap_or_default();
    let mut body = format!(
        "<section class=\"cols\" id=\"eval\">\n<div class=\"panel\"><h2>What each piece is worth here</h2>{}</div>\n\
         <div class=\"panel\"><h2>Static evaluation ({}): {total:+} cp for White</h2>\
         <p class=\"note\">Each piece shows its contribution: the evaluation minus the evaluation \
         of the same position without it, from White's side (green helps White, red helps Black, \
         stronger colour, larger share). Kings, and pieces whose removal would leave the side not \
         to move in check, have none.</p></div>\n</section>\n",
        heat_board(pieces),
        escape(eval)
    );
    let iterations = doc.get("iterations").map(Json::items).unwrap_or_default();
    if !iterations.is_empty() {
        body.push_str(&search_section(iterations));
    }
    Page {
        title: "Evaluation and search trace",
        subtitle: fen,
        style: STYLE,
        body: &body,
        data: doc,
        script: "",
    }
    .render()
}
