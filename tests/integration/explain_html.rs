//! `tarpon explain ... --html FILE`: each mode writes one self-contained page
//! whose markup is balanced, whose embedded document parses and holds what
//! the page draws, and which names nothing on the network. The `#[ignore]`d
//! test opens the pages in headless Chromium (docs/explain-screenshots.sh).

use std::path::{Path, PathBuf};

use crate::common::html::{Json, Page, check};
use crate::common::{stderr, stdout, tarpon, temp_dir};

const SCHOLAR: &str = "[Event \"test\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
    1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

/// Runs `tarpon explain <args> --html <dir>/<name>.html` and checks the page.
fn page(dir: &Path, name: &str, args: &[&str]) -> Page {
    let file: PathBuf = dir.join(format!("{name}.html"));
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--html", file.to_str().unwrap()]);
    let o = tarpon(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    assert!(
        stdout(&o).contains("HTML report written to"),
        "{}",
        stdout(&o)
    );
    let html = std::fs::read_to_string(&file).unwrap();
    check(&html).unwrap_or_else(|e| panic!("{name}.html is not well formed: {e}"))
}

fn has_ids(page: &Page, ids: &[&str]) {
    for id in ids {
        assert!(page.ids.contains(*id), "no element with id {id}");
    }
}

/// The value of `key`, or null when there is none.
fn get<'a>(value: &'a Json, key: &str) -> &'a Json {
    value.get(key).unwrap_or(&Json::Null)
}

fn find_node(node: &Json, found: &dyn Fn(&Json) -> bool) -> bool {
    found(node)
        || get(node, "children")
            .items()
            .iter()
            .any(|c| find_node(c, found))
}

#[test]
fn tree_page_holds_every_algorithm_with_its_pv_and_cutoffs() {
    let dir = temp_dir("html-tree");
    let p = page(
        &dir,
        "tree",
        &["tree", "--depth", "3", "--algo", "minimax,alphabeta,pvs"],
    );
    has_ids(&p, &["data", "overview", "summary", "trees", "position"]);
    assert_eq!(p.elements["svg"], 1, "the position's board");
    let results = get(&p.data, "results").items();
    let algos: Vec<&Json> = results.iter().map(|r| get(r, "algo")).collect();
    assert_eq!(
        algos,
        ["minimax", "alphabeta", "pvs"]
            .map(|a| Json::Str(a.into()))
            .iter()
            .collect::<Vec<_>>()
    );
    for r in results {
        let tree = get(r, "tree");
        assert_eq!(get(tree, "pv"), &Json::Bool(true), "the root is on the PV");
        assert!(get(r, "nodes").as_f64().unwrap() > 0.0);
        assert!(find_node(tree, &|n| get(n, "window").items().len() == 2
            || get(n, "type") == &Json::Str("exact".into())));
    }
    assert!(
        find_node(get(&results[1], "tree"), &|n| get(n, "pruned")
            .as_f64()
            .is_some()),
        "alpha-beta's cutoffs are marked"
    );
}

#[test]
fn maze_page_holds_every_run_step_by_step() {
    let dir = temp_dir("html-maze");
    let p = page(
        &dir,
        "maze",
        &["maze", "--width", "8", "--height", "6", "--seed", "3"],
    );
    has_ids(
        &p,
        &["data", "runs", "play", "step", "reset", "slider", "speed"],
    );
    assert_eq!(
        (get(&p.data, "rows").as_f64(), get(&p.data, "cols").as_f64()),
        (Some(13.0), Some(17.0))
    );
    let results = get(&p.data, "results").items();
    assert_eq!(results.len(), 4);
    for r in results {
        let visits = get(r, "steps")
            .items()
            .iter()
            .filter(|s| matches!(s, Json::Str(t) if t.starts_with("visit ")))
            .count();
        assert_eq!(Some(visits as f64), get(r, "expanded").as_f64());
        assert!(!get(r, "path").items().is_empty());
    }
}

#[test]
fn trace_page_draws_the_heat_map_and_the_iterations() {
    let dir = temp_dir("html-trace");
    let p = page(&dir, "trace", &["trace", "--depth", "4"]);
    has_ids(
        &p,
        &[
            "data",
            "eval",
            "eval-board",
            "search",
            "score-chart",
            "nodes-chart",
            "iterations",
        ],
    );
    assert_eq!(get(&p.data, "pieces").items().len(), 32);
    assert_eq!(get(&p.data, "iterations").items().len(), 4);
    // One row per iteration in the table, one dot per iteration in each chart.
    assert_eq!(p.elements["tr"], 1 + 4);
    assert_eq!(p.elements["circle"], 2 * 4);
    let no_search = page(&dir, "eval-only", &["trace", "--no-search"]);
    assert!(!no_search.ids.contains("search"));
}

#[test]
fn game_page_replays_every_move() {
    let dir = temp_dir("html-game");
    let pgn = dir.join("scholar.pgn");
    std::fs::write(&pgn, SCHOLAR).unwrap();
    let p = page(
        &dir,
        "game",
        &["game", "--pgn", pgn.to_str().unwrap(), "--depth", "3"],
    );
    has_ids(
        &p,
        &[
            "data",
            "g0",
            "g0-board",
            "g0-eval",
            "g0-eval-cursor",
            "g0-board-p63",
        ],
    );
    let game = &get(&p.data, "games").items()[0];
    let moves = get(game, "moves").items();
    assert_eq!(moves.len(), 7);
    for m in moves {
        assert_eq!(get(m, "contest").items().len(), 64);
        assert!(matches!(get(m, "fen"), Json::Str(f) if f.contains('/')));
    }
    assert_eq!(get(&moves[6], "san"), &Json::Str("Qxf7#".into()));
    assert_eq!(get(&moves[5], "label"), &Json::Str("blunder".into()));
    // A move button each, a graph dot each plus the start.
    assert_eq!(p.elements["button"], 7 + 4);
    assert_eq!(p.elements["circle"], 8);
}

#[test]
fn html_goes_to_stdout_with_a_dash_and_bad_requests_fail_clearly() {
    let o = tarpon(&["explain", "maze", "--preset", "tiny", "--html", "-"]);
    assert!(o.status.success());
    check(&stdout(&o)).unwrap();

    let dir = temp_dir("html-bad");
    let nowhere = dir.join("missing-dir").join("x.html");
    let o = tarpon(&[
        "explain",
        "maze",
        "--preset",
        "tiny",
        "--html",
        nowhere.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).starts_with("error: cannot write"),
        "{}",
        stderr(&o)
    );

    let o = tarpon(&[
        "explain",
        "tree",
        "--bench-positions",
        "src/bench-fens.txt",
        "--html",
        "-",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--bench-positions"), "{}", stderr(&o));

    let o = tarpon(&["explain", "trace", "--json", "--html", "-"]);
    assert!(!o.status.success(), "--json and --html conflict");
}

/// Headless Chromium runs every page's script: no errors, the maze animation
/// reaches its last step, and a screenshot of each page is taken. Needs
/// `chromium` (Debian: `apt-get install chromium`); about half a minute.
#[test]
#[ignore]
fn pages_run_cleanly_in_headless_chromium() {
    let dir = temp_dir("html-browser");
    let o = std::process::Command::new("docs/explain-screenshots.sh")
        .args([env!("CARGO_BIN_EXE_tarpon"), dir.to_str().unwrap()])
        .output()
        .expect("docs/explain-screenshots.sh runs");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    for mode in ["tree", "maze", "trace", "game"] {
        let shot = dir.join(format!("explain-{mode}.png"));
        let bytes = std::fs::read(&shot).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
        assert!(
            bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
            "{mode}"
        );
    }
}
