//! The algorithm pages of the play server: the maze runs (`/maze`) and the
//! search views of a position (`/explain/tree`, `/explain/trace`) as
//! interactive pages. Each is the `explain` mode's own HTML page with a form
//! on top that chooses what it shows (algorithm, size, seed and walls; FEN
//! and depth); every choice is a query parameter, so a page is a link.

use clap::Parser;

use super::game::{Refusal, bad};
use crate::explain::html::page::escape;
use crate::explain::maze::MazeArgs;
use crate::explain::trace::TraceArgs;
use crate::explain::tree::TreeArgs;
use crate::position::{Position, START_FEN};

/// Largest maze generated here, in rooms, and largest maze text accepted:
/// the page animates every step, so the size is what a browser handles.
const MAX_ROOMS: (usize, usize) = (40, 25);
const MAX_MAZE_TEXT: usize = 8 * 1024;
/// Deepest search tree and trace served: a tree of depth 5 has too many
/// nodes for a page, a trace past 12 plies takes seconds.
const MAX_TREE_DEPTH: u32 = 4;
const MAX_TRACE_DEPTH: u32 = 12;

#[derive(Parser)]
struct MazeCli {
    #[command(flatten)]
    args: MazeArgs,
}

#[derive(Parser)]
struct TraceCli {
    #[command(flatten)]
    args: TraceArgs,
}

#[derive(Parser)]
struct TreeCli {
    #[command(flatten)]
    args: TreeArgs,
}

/// A whole-number parameter within `range`, or `default` when absent.
fn number<T>(
    query: &str,
    key: &str,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, Refusal>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let Some(text) = query_value(query, key).filter(|t| !t.is_empty()) else {
        return Ok(default);
    };
    let value: T = text
        .trim()
        .parse()
        .map_err(|_| bad(format!("{key} {text:?}: a whole number")))?;
    if !range.contains(&value) {
        return Err(bad(format!(
            "{key} {value}: between {} and {}",
            range.start(),
            range.end()
        )));
    }
    Ok(value)
}

/// Inserts the controls at the top of an explain page's main column.
fn with_controls(html: String, controls: &str) -> String {
    html.replacen("<main>\n", &format!("<main>\n{controls}"), 1)
}

/// `/maze?width=&height=&seed=&algo=&loops=&weights=&preset=&text=`: the maze
/// runs animated side by side, with a form to choose another maze, and walls
/// that toggle on a click (the page then reruns on the edited text).
pub fn maze_page(query: &str) -> Result<String, Refusal> {
    let width = number(query, "width", 20usize, 2..=MAX_ROOMS.0)?;
    let height = number(query, "height", 10usize, 2..=MAX_ROOMS.1)?;
    let seed = number(query, "seed", 1u64, 0..=u64::MAX)?;
    let algos: Vec<String> = ["bfs", "dfs", "dijkstra", "astar"]
        .into_iter()
        .filter(|a| query_value(query, a).is_some())
        .map(String::from)
        .collect();
    let algo_list = if algos.is_empty() {
        "all".to_string()
    } else {
        algos.join(",")
    };
    let mut argv = vec![
        "maze".to_string(),
        format!("--width={width}"),
        format!("--height={height}"),
        format!("--seed={seed}"),
        format!("--algo={algo_list}"),
    ];
    let loops = query_value(query, "loops").filter(|l| !l.trim().is_empty());
    if let Some(loops) = &loops {
        argv.push(format!("--loops={}", loops.trim()));
    }
    let weights = query_value(query, "weights").is_some();
    if weights {
        argv.push("--weights".into());
    }
    let preset = query_value(query, "preset").filter(|p| !p.is_empty());
    if let Some(preset) = &preset {
        argv.push(format!("--preset={preset}"));
    }
    let mut args = MazeCli::try_parse_from(&argv)
        .map_err(|e| bad(e.render().to_string()))?
        .args;
    let text = query_value(query, "text").filter(|t| !t.trim().is_empty());
    if let Some(text) = &text {
        if text.len() > MAX_MAZE_TEXT {
            return Err(bad(format!(
                "the maze text is {} bytes; at most {MAX_MAZE_TEXT}",
                text.len()
            )));
        }
        args.text = Some(text.clone());
    }
    let doc = crate::explain::maze::document(&args).map_err(bad)?;
    let drawn = doc
        .get("text")
        .and_then(crate::explain::json::Json::as_str)
        .unwrap_or("")
        .to_string();
    let checkbox = |name: &str, label: &str| {
        let on = algos.is_empty() || algos.iter().any(|a| a == name);
        format!(
            "<label><input type=\"checkbox\" name=\"{name}\"{}> {label}</label>",
            if on { " checked" } else { "" }
        )
    };
    let presets: String = std::iter::once("")
        .chain(crate::explain::maze::preset_names())
        .map(|name| {
            let selected = preset.as_deref() == Some(name);
            format!(
                "<option value=\"{name}\"{}>{}</option>",
                if selected { " selected" } else { "" },
                if name.is_empty() { "generated" } else { name }
            )
        })
        .collect();
    let controls = format!(
        "<form id=\"maze-form\" class=\"panel controls\" method=\"get\" action=\"/maze\">\
         {} {} {} {}\
         <label>width <input name=\"width\" type=\"number\" min=\"2\" max=\"{}\" value=\"{width}\"></label>\
         <label>height <input name=\"height\" type=\"number\" min=\"2\" max=\"{}\" value=\"{height}\"></label>\
         <label>seed <input name=\"seed\" type=\"number\" min=\"0\" value=\"{seed}\"></label>\
         <label>loops <input name=\"loops\" type=\"number\" min=\"0\" max=\"1\" step=\"0.05\" value=\"{}\"></label>\
         <label><input type=\"checkbox\" name=\"weights\"{}> weights</label>\
         <label>maze <select name=\"preset\">{presets}</select></label>\
         <button type=\"submit\" id=\"maze-new\">new maze</button>\
         <details{}><summary>walls (click a cell on a maze to toggle its wall)</summary>\
         <textarea name=\"text\" id=\"maze-text\" rows=\"8\" cols=\"60\" spellcheck=\"false\">{}</textarea>\
         <button type=\"submit\" id=\"maze-run-text\">run on these walls</button></details>\
         </form>\n",
        checkbox("bfs", "BFS"),
        checkbox("dfs", "DFS"),
        checkbox("dijkstra", "Dijkstra"),
        checkbox("astar", "A*"),
        MAX_ROOMS.0,
        MAX_ROOMS.1,
        loops.as_deref().map(escape).unwrap_or_default(),
        if weights { " checked" } else { "" },
        if text.is_some() { " open" } else { "" },
        escape(&drawn),
    );
    Ok(with_controls(
        crate::explain::html::maze::page(&doc),
        &controls,
    ))
}

/// `/explain/tree?fen=&depth=` and `/explain/trace?fen=&depth=`: the search
/// views of a position, with a form for another FEN and depth.
pub fn explain_page(view: &str, query: &str) -> Result<String, Refusal> {
    let fen = query_value(query, "fen")
        .filter(|f| !f.trim().is_empty())
        .unwrap_or_else(|| START_FEN.to_string());
    let fen = fen.trim().to_string();
    Position::from_fen(&fen, false).map_err(|e| bad(format!("bad FEN: {e}")))?;
    let (default_depth, max_depth) = match view {
        "trace" => (10, MAX_TRACE_DEPTH),
        "tree" => (3, MAX_TREE_DEPTH),
        other => return Err(Refusal::NotFound(format!("no explain view {other:?}"))),
    };
    let depth = number(query, "depth", default_depth, 1..=max_depth)?;
    let depth_text = depth.to_string();
    let argv = [view, "--fen", &fen, "--depth", &depth_text, "--html", "-"];
    let html = if view == "trace" {
        let cli = TraceCli::try_parse_from(argv).map_err(|e| bad(e.to_string()))?;
        crate::explain::trace::document(&cli.args).map(|d| crate::explain::html::trace::page(&d))
    } else {
        let cli = TreeCli::try_parse_from(argv).map_err(|e| bad(e.to_string()))?;
        crate::explain::tree::document(&cli.args).map(|d| crate::explain::html::tree::page(&d))
    }
    .map_err(bad)?;
    let depths: String = (1..=max_depth)
        .map(|d| {
            format!(
                "<option{}>{d}</option>",
                if d == depth { " selected" } else { "" }
            )
        })
        .collect();
    let controls = format!(
        "<form id=\"explain-form\" class=\"panel controls\" method=\"get\" action=\"/explain/{view}\">\
         <label>FEN <input name=\"fen\" id=\"explain-fen\" size=\"60\" value=\"{}\"></label>\
         <label>depth <select name=\"depth\" id=\"explain-depth\">{depths}</select></label>\
         <button type=\"submit\" id=\"explain-go\">show</button> \
         <a href=\"/explain/{}?fen={}\">{}</a> \u{b7} <a href=\"/\">play</a></form>\n",
        escape(&fen),
        if view == "tree" { "trace" } else { "tree" },
        percent_encode(&fen),
        if view == "tree" {
            "evaluation trace"
        } else {
            "search tree"
        },
    );
    Ok(with_controls(html, &controls))
}

/// The value of `key` in a query string, percent-decoded.
pub fn query_value(query: &str, key: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| percent_decode(v))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| Some(hex(*bytes.get(i + 1)?)? * 16 + hex(*bytes.get(i + 2)?)?))
            .flatten();
        match (bytes[i], escaped) {
            (_, Some(byte)) => {
                out.push(byte as u8);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (b, None) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A query value made safe for a link.
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
