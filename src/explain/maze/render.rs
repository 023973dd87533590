//! Text, JSON and Graphviz views of a maze and its solutions.

use std::fmt::Write as _;

use super::Source;
use super::grid::{Cell, Grid};
use super::solve::Solution;
use crate::explain::json::Json;

/// Symbols for the exploration-order map: the expanded cells are cut into 36
/// equal slices by expansion rank, first slice `0`, last `z`.
const ORDER_DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

fn draw(grid: &Grid, mut cell_char: impl FnMut(Cell) -> Option<char>) -> Vec<String> {
    (0..grid.rows)
        .map(|r| {
            (0..grid.cols)
                .map(|c| {
                    let p = (r, c);
                    if p == grid.start {
                        'S'
                    } else if p == grid.goal {
                        'G'
                    } else if !grid.is_open(p) {
                        '#'
                    } else {
                        cell_char(p).unwrap_or(' ')
                    }
                })
                .collect()
        })
        .collect()
}

/// The path as `*`, other expanded cells as `.`.
fn path_map(grid: &Grid, s: &Solution) -> Vec<String> {
    let mut mark = vec![' '; grid.rows * grid.cols];
    for (r, c) in s.expanded() {
        mark[r * grid.cols + c] = '.';
    }
    for &(r, c) in s.path.iter().flatten() {
        mark[r * grid.cols + c] = '*';
    }
    draw(grid, |(r, c)| Some(mark[r * grid.cols + c]))
}

/// When each cell was expanded, as one of 36 symbols from first to last.
fn order_map(grid: &Grid, s: &Solution) -> Vec<String> {
    let total = s.expanded_count().max(1);
    let mut mark = vec![None; grid.rows * grid.cols];
    for (rank, (r, c)) in s.expanded().enumerate() {
        mark[r * grid.cols + c] = Some(char::from(ORDER_DIGITS[rank * 36 / total]));
    }
    draw(grid, |(r, c)| mark[r * grid.cols + c])
}

fn side_by_side(out: &mut String, left: &[String], right: &[String], width: usize) {
    for (a, b) in left.iter().zip(right) {
        let _ = writeln!(out, "{a:<width$}   {b}");
    }
}

fn time_ms(s: &Solution) -> f64 {
    s.time.as_secs_f64() * 1e3
}

pub fn text(source: &Source, solutions: &[Solution], steps: bool) -> String {
    let grid = &source.grid;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "maze: {} ({}x{} cells, start {} {}, goal {} {})",
        source.label, grid.rows, grid.cols, grid.start.0, grid.start.1, grid.goal.0, grid.goal.1
    );
    if grid.has_weights() {
        out.push_str("cell costs (. = 1):\n");
        out.push_str(&grid.to_text());
    }
    for s in solutions {
        let _ = writeln!(out, "\n== {}", s.algo.name());
        match (s.length(), s.cost(grid)) {
            (Some(len), Some(cost)) => {
                let _ = writeln!(
                    out,
                    "path {len} moves, cost {cost}; {} cells expanded; * path, . expanded | \
                     exploration order 0..9a..z",
                    s.expanded_count()
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    "no path to the goal; {} cells expanded",
                    s.expanded_count()
                );
            }
        }
        let (left, right) = (path_map(grid, s), order_map(grid, s));
        if grid.cols <= 80 {
            side_by_side(&mut out, &left, &right, grid.cols);
        } else {
            for line in left
                .iter()
                .chain(std::iter::once(&String::new()))
                .chain(&right)
            {
                let _ = writeln!(out, "{line}");
            }
        }
        if steps {
            let _ = writeln!(out, "steps ({}):", s.steps.len());
            for step in &s.steps {
                let _ = writeln!(out, "{step}");
            }
        }
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "{:<10} {:>9} {:>7} {:>7} {:>10}",
        "algo", "expanded", "length", "cost", "time ms"
    );
    for s in solutions {
        let show = |x: Option<u64>| x.map_or("-".to_string(), |v| v.to_string());
        let _ = writeln!(
            out,
            "{:<10} {:>9} {:>7} {:>7} {:>10.3}",
            s.algo.name(),
            s.expanded_count(),
            show(s.length().map(|v| v as u64)),
            show(s.cost(grid).map(u64::from)),
            time_ms(s)
        );
    }
    out
}

fn cell_json((r, c): Cell) -> Json {
    Json::Arr(vec![r.into(), c.into()])
}

pub fn json(source: &Source, solutions: &[Solution], steps: bool) -> Json {
    let grid = &source.grid;
    let results = solutions
        .iter()
        .map(|s| {
            let mut fields = vec![
                ("algo".to_string(), Json::str(s.algo.name())),
                ("expanded".to_string(), s.expanded_count().into()),
                ("length".to_string(), s.length().into()),
                ("cost".to_string(), s.cost(grid).map(u64::from).into()),
                ("time_ms".to_string(), time_ms(s).into()),
                (
                    "path".to_string(),
                    s.path.as_ref().map_or(Json::Null, |p| {
                        Json::Arr(p.iter().map(|&c| cell_json(c)).collect())
                    }),
                ),
            ];
            if steps {
                let log = s.steps.iter().map(|st| Json::str(st.to_string())).collect();
                fields.push(("steps".to_string(), Json::Arr(log)));
            }
            Json::Obj(fields)
        })
        .collect();
    Json::obj([
        ("maze", Json::str(&source.label)),
        ("rows", grid.rows.into()),
        ("cols", grid.cols.into()),
        ("start", cell_json(grid.start)),
        ("goal", cell_json(grid.goal)),
        ("text", Json::str(grid.to_text())),
        ("results", Json::Arr(results)),
    ])
}

/// The passages as a grid graph pinned to their positions (`neato -n`), the
/// path drawn thick and red.
pub fn dot(grid: &Grid, solution: Option<&Solution>) -> String {
    let on_path: Vec<(Cell, Cell)> = solution
        .and_then(|s| s.path.as_ref())
        .map(|p| p.windows(2).map(|w| (w[0], w[1])).collect())
        .unwrap_or_default();
    let mut out = String::from("graph maze {\n  node [shape=point, width=0.08];\n");
    let name = |(r, c): Cell| format!("c{r}_{c}");
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            if !grid.is_open((r, c)) {
                continue;
            }
            let extra = if (r, c) == grid.start {
                ", shape=circle, label=\"S\", width=0.3"
            } else if (r, c) == grid.goal {
                ", shape=circle, label=\"G\", width=0.3"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  {} [pos=\"{},{}\"{extra}];",
                name((r, c)),
                c * 20,
                (grid.rows - r) * 20
            );
            for n in [(r, c + 1), (r + 1, c)] {
                if n.0 < grid.rows && n.1 < grid.cols && grid.is_open(n) {
                    let bold = on_path.contains(&((r, c), n)) || on_path.contains(&(n, (r, c)));
                    let style = if bold { " [color=red, penwidth=3]" } else { "" };
                    let _ = writeln!(out, "  {} -- {}{style};", name((r, c)), name(n));
                }
            }
        }
    }
    out.push_str("}\n");
    out
}
