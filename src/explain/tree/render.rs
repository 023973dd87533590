//! Views of a recorded tree: indented text, nested JSON and Graphviz DOT.
//! All three show the same selection of nodes, so a large tree is summarised
//! the same way everywhere and nothing is ever dumped without end.
//!
//! Every move line is read from the side that played the move: its value for
//! that side and the window (alpha, beta) it was searched with, seen from that
//! side; the node type is the one of the position after the move.

use std::fmt::Write as _;

use super::mcts::centipawns;
use super::node::{Kind, Node, NodeId, Tree, format_score};
use crate::explain::json::Json;

/// How much of a tree to show.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Hard cap on lines (nodes plus "more" lines).
    pub max_lines: usize,
    /// Children are listed for nodes fewer than this many plies below the
    /// focus; the principal variation is always followed.
    pub expand: usize,
    /// At most this many children per node (the best one always among them).
    pub max_children: usize,
}

/// One line of the selection.
#[derive(Clone, Debug)]
pub enum Shown {
    Node {
        id: NodeId,
        depth: usize,
        /// Its children exist but are not listed.
        collapsed: bool,
    },
    /// Children left out at this depth: how many, and their nodes in total.
    More {
        depth: usize,
        moves: usize,
        nodes: u64,
    },
    /// The line budget ran out: nodes of the tree not shown at all.
    Cut { nodes: u64 },
}

/// Walks from the root along `path` (SAN with or without +/#, or UCI).
/// A PVS re-search shares its move with the null-window probe before it; the
/// last match, the re-search, is taken.
pub fn find_path(tree: &Tree, path: &[String]) -> Result<NodeId, String> {
    let mut at = 0;
    for (i, want) in path.iter().enumerate() {
        let want = want.trim();
        let bare = |s: &str| s.trim_end_matches(['+', '#']).to_string();
        let next = tree.nodes[at]
            .children
            .iter()
            .copied()
            .rev()
            .find(|&c| bare(&tree.nodes[c].san) == bare(want) || tree.nodes[c].uci == want);
        match next {
            Some(c) => at = c,
            None => {
                let known: Vec<&str> = tree.nodes[at]
                    .children
                    .iter()
                    .map(|&c| tree.nodes[c].san.as_str())
                    .collect();
                let line = path[..i].join(",");
                return Err(if known.is_empty() {
                    format!("--path: no recorded moves after '{line}' (leaf, or not recorded)")
                } else {
                    format!(
                        "--path: move '{want}' after '{line}' not in the tree (recorded: {})",
                        known.join(" ")
                    )
                });
            }
        }
    }
    Ok(at)
}

/// Which nodes lie on the principal variation from `focus` (best child after
/// best child).
fn principal_variation(tree: &Tree, focus: NodeId) -> Vec<bool> {
    let mut on_pv = vec![false; tree.nodes.len()];
    let mut at = Some(focus);
    while let Some(id) = at {
        on_pv[id] = true;
        at = tree.nodes[id].best_child;
    }
    on_pv
}

pub fn select(tree: &Tree, focus: NodeId, limits: &Limits) -> Vec<Shown> {
    let on_pv = principal_variation(tree, focus);
    let mut out = Vec::new();
    let mut todo = vec![Shown::Node {
        id: focus,
        depth: 0,
        collapsed: false,
    }];
    let mut shown_nodes = 0u64;
    while let Some(item) = todo.pop() {
        if out.len() >= limits.max_lines.max(1) {
            let total = tree.nodes[focus].size;
            out.push(Shown::Cut {
                nodes: total.saturating_sub(shown_nodes),
            });
            break;
        }
        let Shown::Node { id, depth, .. } = item else {
            out.push(item);
            continue;
        };
        let node = &tree.nodes[id];
        let expand = !node.children.is_empty() && (depth < limits.expand || on_pv[id]);
        out.push(Shown::Node {
            id,
            depth,
            collapsed: !expand && node.size > 1,
        });
        shown_nodes += 1;
        if !expand {
            continue;
        }
        let mut listed: Vec<NodeId> = node
            .children
            .iter()
            .copied()
            .take(limits.max_children.max(1))
            .collect();
        if let Some(b) = node.best_child.filter(|b| !listed.contains(b)) {
            listed.pop();
            listed.push(b);
        }
        let left_out: Vec<NodeId> = node
            .children
            .iter()
            .copied()
            .filter(|c| !listed.contains(c))
            .collect();
        // Pushed in reverse so they come out in order, the summary last.
        if !left_out.is_empty() {
            let nodes = left_out.iter().map(|&c| tree.nodes[c].size).sum();
            todo.push(Shown::More {
                depth: depth + 1,
                moves: left_out.len(),
                nodes,
            });
        }
        for &c in listed.iter().rev() {
            todo.push(Shown::Node {
                id: c,
                depth: depth + 1,
                collapsed: false,
            });
        }
    }
    out
}

fn mover_view(node: &Node) -> (f64, Option<(f64, f64)>) {
    (-node.score, node.window.map(|(a, b)| (-b, -a)))
}

fn score_text(node: &Node, is_root: bool) -> String {
    if node.kind == Kind::Playout || node.visits > 0 {
        let q = node.score;
        return format!(
            "Q {q:.3} (~{}) visits {}",
            format_score(centipawns(q).round()),
            node.visits
        );
    }
    let (score, window) = if is_root {
        (node.score, node.window)
    } else {
        mover_view(node)
    };
    let mut s = format_score(score);
    if let Some((a, b)) = window {
        let _ = write!(s, " [{}, {}]", format_score(a), format_score(b));
    }
    s
}

fn notes(node: &Node, collapsed: bool) -> String {
    let mut s = String::new();
    if node.research {
        s.push_str(" re-search");
    }
    if node.pruned > 0 {
        let _ = write!(s, " cutoff: {} pruned", node.pruned);
    }
    if collapsed {
        if node.children.is_empty() {
            let _ = write!(s, " (+{} nodes, not recorded)", node.size - 1);
        } else {
            let _ = write!(s, " (+{} nodes below)", node.size - 1);
        }
    }
    s
}

pub fn text(tree: &Tree, focus: NodeId, focus_line: &[String], shown: &[Shown]) -> String {
    let mut out = String::new();
    for item in shown {
        match *item {
            Shown::Node {
                id,
                depth,
                collapsed,
            } => {
                let node = &tree.nodes[id];
                let name = if id == focus {
                    if focus_line.is_empty() {
                        "root".to_string()
                    } else {
                        format!("after {}", focus_line.join(" "))
                    }
                } else {
                    node.san.clone()
                };
                let _ = writeln!(
                    out,
                    "{:indent$}{name:<8} {:<5} {}{}",
                    "",
                    node.kind.label(),
                    score_text(node, id == focus),
                    notes(node, collapsed),
                    indent = 2 * depth
                );
            }
            Shown::More {
                depth,
                moves,
                nodes,
            } => {
                let _ = writeln!(
                    out,
                    "{:indent$}... {moves} more moves ({nodes} nodes)",
                    "",
                    indent = 2 * depth
                );
            }
            Shown::Cut { nodes } => {
                let _ = writeln!(
                    out,
                    "... output cut at --max-lines ({nodes} nodes not shown; use --path to focus)"
                );
            }
        }
    }
    if tree.truncated {
        out.push_str("(the tree was too large to record whole: counts are exact, some subtrees are not listed)\n");
    }
    out
}

fn node_json(
    tree: &Tree,
    id: NodeId,
    is_root: bool,
    on_pv: bool,
    collapsed: bool,
) -> Vec<(String, Json)> {
    let node = &tree.nodes[id];
    let (score, window) = if is_root {
        (node.score, node.window)
    } else {
        mover_view(node)
    };
    let mut f: Vec<(String, Json)> = vec![
        (
            "move".into(),
            if node.san.is_empty() {
                Json::Null
            } else {
                Json::str(&node.san)
            },
        ),
        (
            "uci".into(),
            if node.uci.is_empty() {
                Json::Null
            } else {
                Json::str(&node.uci)
            },
        ),
        ("type".into(), Json::str(node.kind.label())),
        ("nodes".into(), node.size.into()),
    ];
    if node.kind == Kind::Playout || node.visits > 0 {
        f.push(("visits".into(), u64::from(node.visits).into()));
        f.push(("q".into(), node.score.into()));
    } else {
        f.push(("score".into(), score.into()));
        if let Some((a, b)) = window {
            f.push(("window".into(), Json::Arr(vec![a.into(), b.into()])));
        }
    }
    if node.pruned > 0 {
        f.push(("pruned".into(), node.pruned.into()));
    }
    if node.research {
        f.push(("research".into(), true.into()));
    }
    if on_pv {
        f.push(("pv".into(), true.into()));
    }
    if collapsed {
        f.push(("collapsed".into(), true.into()));
    }
    f
}

/// A JSON object being built: its fields and its children so far.
type OpenObject = (Vec<(String, Json)>, Vec<Json>);

/// The selection as nested objects: each node's shown children under
/// `children`, left-out ones summarised under `more`; the principal
/// variation marked `pv`.
pub fn json(tree: &Tree, focus: NodeId, shown: &[Shown]) -> Json {
    let on_pv = principal_variation(tree, focus);
    // Build bottom-up with a stack of open objects indexed by depth.
    let mut open: Vec<OpenObject> = Vec::new();
    let mut cut = None;
    let close_to = |open: &mut Vec<OpenObject>, depth: usize| {
        while open.len() > depth + 1 {
            let (mut fields, children) = open.pop().expect("nonempty");
            if !children.is_empty() {
                fields.push(("children".into(), Json::Arr(children)));
            }
            if let Some(parent) = open.last_mut() {
                parent.1.push(Json::Obj(fields));
            }
        }
    };
    for item in shown {
        match *item {
            Shown::Node {
                id,
                depth,
                collapsed,
            } => {
                close_to(&mut open, depth.saturating_sub(1));
                if depth == 0 {
                    close_to(&mut open, 0);
                }
                open.push((
                    node_json(tree, id, id == focus, on_pv[id], collapsed),
                    Vec::new(),
                ));
            }
            Shown::More {
                depth,
                moves,
                nodes,
            } => {
                close_to(&mut open, depth.saturating_sub(1));
                if let Some(parent) = open.last_mut() {
                    parent.0.push((
                        "more".into(),
                        Json::obj([("moves", moves.into()), ("nodes", nodes.into())]),
                    ));
                }
            }
            Shown::Cut { nodes } => cut = Some(nodes),
        }
    }
    close_to(&mut open, 0);
    let (mut fields, children) = open.pop().unwrap_or_default();
    if !children.is_empty() {
        fields.push(("children".into(), Json::Arr(children)));
    }
    if let Some(n) = cut {
        fields.push(("not_shown_nodes".into(), n.into()));
    }
    Json::Obj(fields)
}

fn kind_colour(kind: Kind) -> &'static str {
    match kind {
        Kind::Pv => "palegreen",
        Kind::Cut => "lightpink",
        Kind::All => "lightblue",
        Kind::Leaf => "white",
        Kind::Mated => "gold",
        Kind::Draw => "lightgrey",
        Kind::Exact | Kind::Playout => "lightyellow",
    }
}

/// Graphviz: boxes coloured by node type (PV green, cut pink, all blue,
/// leaves white), labelled with move, value and window; the principal
/// variation in bold; cutoffs as dashed "pruned" boxes.
pub fn dot(tree: &Tree, focus: NodeId, shown: &[Shown]) -> String {
    let mut out = String::from(
        "digraph tree {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n  edge [arrowsize=0.6];\n",
    );
    let mut parents: Vec<String> = Vec::new();
    for (i, item) in shown.iter().enumerate() {
        let (depth, name) = match *item {
            Shown::Node {
                id,
                depth,
                collapsed,
            } => {
                let node = &tree.nodes[id];
                let title = if id == focus {
                    "root".to_string()
                } else {
                    node.san.clone()
                };
                let mut label = format!(
                    "{title}\\n{} {}",
                    node.kind.label(),
                    score_text(node, id == focus)
                );
                label.push_str(&notes(node, collapsed).replace(" (", "\\n("));
                let name = format!("n{i}");
                let _ = writeln!(
                    out,
                    "  {name} [label=\"{label}\", fillcolor={}];",
                    kind_colour(node.kind)
                );
                if node.pruned > 0 {
                    let _ = writeln!(
                        out,
                        "  {name}_p [label=\"{} pruned\", style=dashed, shape=box];",
                        node.pruned
                    );
                    let _ = writeln!(out, "  {name} -> {name}_p [style=dashed];");
                }
                (depth, name)
            }
            Shown::More {
                depth,
                moves,
                nodes,
            } => {
                let name = format!("n{i}");
                let _ = writeln!(
                    out,
                    "  {name} [label=\"{moves} more moves\\n{nodes} nodes\", style=dotted];"
                );
                (depth, name)
            }
            Shown::Cut { .. } => continue,
        };
        if let Some(parent) = depth.checked_sub(1).and_then(|d| parents.get(d)) {
            let bold = match *item {
                Shown::Node { id, .. } => shown_parent_best(tree, parent_id(shown, i, depth), id),
                _ => false,
            };
            let style = if bold { " [penwidth=2.5]" } else { "" };
            let _ = writeln!(out, "  {parent} -> {name}{style};");
        }
        parents.truncate(depth);
        parents.push(name);
    }
    out.push_str("}\n");
    out
}

/// The tree node of the nearest shown line above `i` at `depth - 1`.
fn parent_id(shown: &[Shown], i: usize, depth: usize) -> Option<NodeId> {
    shown[..i].iter().rev().find_map(|s| match *s {
        Shown::Node { id, depth: d, .. } if d + 1 == depth => Some(id),
        _ => None,
    })
}

fn shown_parent_best(tree: &Tree, parent: Option<NodeId>, child: NodeId) -> bool {
    parent.is_some_and(|p| tree.nodes[p].best_child == Some(child))
}
