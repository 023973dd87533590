//! The module map at the top of `src/lib.rs` is the truth about who may import
//! whom: these tests read every source file, collect the `crate::`, `super::`
//! and `self::` paths it names (`use` trees, inline paths, and re-exports
//! followed to where the item really lives), and check that
//! - each top-level module imports exactly the modules its map row allows;
//! - no two modules that sit side by side import each other, directly or
//!   round a longer loop, at any depth of the tree.
//!
//! Test code (`tests` modules and `#[cfg(test)]` items) is left out: a test
//! may reach across the tree to set up what it checks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type ModulePath = Vec<String>;

/// One source file: the module it defines and its text with comments, string
/// contents and test code removed.
struct SourceModule {
    path: ModulePath,
    code: String,
}

struct Crate {
    modules: BTreeMap<ModulePath, SourceModule>,
}

/// A path named in a module, already made absolute: `crate::a::b::Item`.
struct NamedPath {
    segments: Vec<String>,
    reexported: bool,
}

impl Crate {
    fn read(root: &Path) -> Crate {
        let mut files = Vec::new();
        collect_rs_files(root, &mut files);
        let sources = files
            .iter()
            .map(|file| {
                let relative = file
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                (relative, std::fs::read_to_string(file).unwrap())
            })
            .collect::<Vec<_>>();
        Crate::from_sources(&sources)
    }

    /// `sources`: (path relative to `src/`, text) pairs.
    fn from_sources(sources: &[(String, String)]) -> Crate {
        let mut modules = BTreeMap::new();
        for (relative, text) in sources {
            if relative == "main.rs" {
                continue; // the binary uses the library by name, not `crate::`
            }
            let stem = relative.trim_end_matches(".rs");
            let mut path: ModulePath = stem.split('/').map(str::to_string).collect();
            if matches!(path.last().map(String::as_str), Some("mod") | Some("lib")) {
                path.pop();
            }
            if path.iter().any(|segment| segment == "tests") {
                continue;
            }
            let code = remove_test_items(&strip_comments_and_strings(text));
            modules.insert(path.clone(), SourceModule { path, code });
        }
        Crate { modules }
    }

    /// The deepest module a path reaches and the item segments left over.
    fn split_module<'a>(&self, segments: &'a [String]) -> (ModulePath, &'a [String]) {
        for length in (0..=segments.len()).rev() {
            if self.modules.contains_key(&segments[..length]) {
                return (segments[..length].to_vec(), &segments[length..]);
            }
        }
        (Vec::new(), segments)
    }

    /// The module an absolute path really points into, following `pub use`
    /// re-exports of the item it names.
    fn resolve(
        &self,
        segments: &[String],
        reexports: &BTreeMap<ModulePath, Vec<NamedPath>>,
    ) -> ModulePath {
        let mut current = segments.to_vec();
        for _ in 0..8 {
            let (module, rest) = self.split_module(&current);
            let Some(item) = rest.first() else {
                return module;
            };
            let target = reexports.get(&module).and_then(|paths| {
                paths
                    .iter()
                    .find(|named| named.segments.last() == Some(item) && named.segments != current)
            });
            match target {
                Some(named) => {
                    let mut next = named.segments.clone();
                    next.extend_from_slice(&rest[1..]);
                    current = next;
                }
                None => return module,
            }
        }
        self.split_module(&current).0
    }

    /// Every module's imports, each resolved to the module that defines it.
    fn imports(&self) -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
        let named: BTreeMap<ModulePath, Vec<NamedPath>> = self
            .modules
            .values()
            .map(|module| (module.path.clone(), named_paths(module, self)))
            .collect();
        let reexports: BTreeMap<ModulePath, Vec<NamedPath>> = named
            .iter()
            .map(|(path, paths)| {
                let exported = paths
                    .iter()
                    .filter(|named| named.reexported)
                    .map(|named| NamedPath {
                        segments: named.segments.clone(),
                        reexported: true,
                    })
                    .collect();
                (path.clone(), exported)
            })
            .collect();
        named
            .iter()
            .map(|(path, paths)| {
                let targets = paths
                    .iter()
                    .map(|named| self.resolve(&named.segments, &reexports))
                    .filter(|target| target != path)
                    .collect();
                (path.clone(), targets)
            })
            .collect()
    }

    /// Imports between siblings: `a::x::y` naming `a::z::w` is the edge
    /// `a::x` → `a::z`. A module naming its own ancestor or descendant adds
    /// nothing (a facade re-exporting its children is not a loop).
    fn sibling_edges(&self) -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
        let mut edges: BTreeMap<ModulePath, BTreeSet<ModulePath>> = BTreeMap::new();
        for (from, targets) in self.imports() {
            for to in targets {
                let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                if shared == from.len() || shared == to.len() {
                    continue;
                }
                edges
                    .entry(from[..=shared].to_vec())
                    .or_default()
                    .insert(to[..=shared].to_vec());
            }
        }
        edges
    }
}

fn collect_rs_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_rs_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// Blanks comments and the insides of string and char literals, so that
/// `"crate::x"` in a message or `// see super::y` is not taken for a path.
fn strip_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !preceded_by_ident(&chars, i)
        {
            // Raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < chars.len() {
                if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A char literal ('x', '\n', '\''); a lifetime has no closing quote.
            i += if next == Some('\\') { 2 } else { 1 };
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            out.push_str("' '");
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn preceded_by_ident(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// Removes every item marked `#[cfg(test)]`: a module, function or impl with
/// its brace block, a `use` up to its `;`, an enum variant, field or match
/// arm up to its `,` (or to the bracket that closes the list it stands in).
fn remove_test_items(code: &str) -> String {
    let mut code = code.to_string();
    while let Some(start) = code.find("#[cfg(test)]") {
        let bytes = code.as_bytes();
        let mut end = start + "#[cfg(test)]".len();
        let mut depth = 0usize;
        while end < bytes.len() {
            match bytes[end] {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' | b')' | b']' if depth == 0 => break,
                b'}' if depth == 1 => {
                    end += 1;
                    break;
                }
                b'}' | b')' | b']' => depth -= 1,
                b';' | b',' if depth == 0 => {
                    end += 1;
                    break;
                }
                _ => {}
            }
            end += 1;
        }
        code.replace_range(start..end, "");
    }
    code
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every `crate::`/`super::`/`self::` path a module names, made absolute.
fn named_paths(module: &SourceModule, krate: &Crate) -> Vec<NamedPath> {
    let code = &module.code;
    let mut found = Vec::new();
    let mut use_spans = Vec::new();
    // `use` declarations, with their trees expanded.
    let mut search_from = 0;
    while let Some(offset) = code[search_from..].find("use ") {
        let start = search_from + offset;
        search_from = start + 4;
        if code[..start].chars().next_back().is_some_and(is_ident_char) {
            continue;
        }
        let Some(length) = code[start..].find(';') else {
            break;
        };
        let declaration = &code[start + 4..start + length];
        let before = code[..start].trim_end();
        let reexported =
            before.ends_with("pub") || before.ends_with(')') && before.contains("pub(");
        let mut leaves = Vec::new();
        expand_use_tree(declaration.trim(), &[], &mut leaves);
        for leaf in leaves {
            if let Some(segments) = absolute(module, krate, &leaf) {
                found.push(NamedPath {
                    segments,
                    reexported,
                });
            }
        }
        use_spans.push(start..start + length);
    }
    // Inline paths anywhere else: `crate::a::b(...)`, `super::Type`.
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (byte, _) = chars[i];
        let rest = &code[byte..];
        let starts_path = ["crate::", "super::", "self::"]
            .iter()
            .any(|head| rest.starts_with(head));
        if starts_path
            && (i == 0 || !is_ident_char(chars[i - 1].1) && chars[i - 1].1 != ':')
            && !use_spans.iter().any(|span| span.contains(&byte))
        {
            let length = rest
                .find(|c: char| !(is_ident_char(c) || c == ':'))
                .unwrap_or(rest.len());
            let text = rest[..length].trim_end_matches(':');
            let segments: Vec<String> = text.split("::").map(str::to_string).collect();
            if let Some(segments) = absolute(module, krate, &segments) {
                found.push(NamedPath {
                    segments,
                    reexported: false,
                });
            }
            i += text.chars().count();
        } else {
            i += 1;
        }
    }
    found
}

/// `a::{b, c::{d, e as f}, self}` → `a::b`, `a::c::d`, `a::c::e`, `a`.
fn expand_use_tree(tree: &str, prefix: &[String], leaves: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let mut base = prefix.to_vec();
        base.extend(head);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut piece_start = 0;
        for (index, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use_tree(&inner[piece_start..index], &base, leaves);
                    piece_start = index + 1;
                }
                _ => {}
            }
        }
        expand_use_tree(&inner[piece_start..], &base, leaves);
    } else {
        let name = tree.split(" as ").next().unwrap().trim();
        let mut leaf = prefix.to_vec();
        leaf.extend(
            name.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "*")
                .map(str::to_string),
        );
        if leaf.last().map(String::as_str) == Some("self") {
            leaf.pop();
        }
        leaves.push(leaf);
    }
}

/// Makes a path absolute from the crate root; `None` for paths into other
/// crates (`std::`, `shakmaty::`) and for empty leaves. A path that starts
/// with a child module's name is relative to the module (`use child::Item`).
fn absolute(module: &SourceModule, krate: &Crate, segments: &[String]) -> Option<Vec<String>> {
    let first = segments.first()?;
    let mut rest = segments;
    let mut child = module.path.clone();
    child.push(first.clone());
    let mut base: Vec<String> = match first.as_str() {
        _ if krate.modules.contains_key(&child) => module.path.clone(),
        "crate" => {
            rest = &segments[1..];
            Vec::new()
        }
        "self" => {
            rest = &segments[1..];
            module.path.clone()
        }
        "super" => module.path.clone(),
        _ => return None,
    };
    while rest.first().map(String::as_str) == Some("super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Loops among sibling modules: each strongly connected group of two or more.
fn cycles(edges: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<Vec<ModulePath>> {
    let nodes: BTreeSet<&ModulePath> = edges.keys().chain(edges.values().flatten()).collect();
    let reaches = |from: &ModulePath, to: &ModulePath| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(node) = stack.pop() {
            for next in edges.get(&node).into_iter().flatten() {
                if next == to {
                    return true;
                }
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        false
    };
    let mut groups: Vec<Vec<ModulePath>> = Vec::new();
    for node in nodes {
        if groups.iter().any(|group| group.contains(node)) || !reaches(node, node) {
            continue;
        }
        let group = edges
            .keys()
            .chain(edges.values().flatten())
            .filter(|other| reaches(node, other) && reaches(other, node))
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        groups.push(group);
    }
    groups
}

/// The map's rows: `| `module` | job | `a`, `b` |` → module → allowed imports.
fn module_map(lib_rs: &str) -> BTreeMap<String, BTreeSet<String>> {
    let backticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(|name| name.trim().to_string())
            .collect()
    };
    lib_rs
        .lines()
        .filter_map(|line| line.strip_prefix("//! |"))
        .filter_map(|row| {
            let cells: Vec<&str> = row.split('|').collect();
            if cells.len() < 3 {
                return None;
            }
            let name = backticked(cells[0]).into_iter().next()?;
            Some((name, backticked(cells[2]).into_iter().collect()))
        })
        .collect()
}

fn declared_modules(lib_rs: &str) -> BTreeSet<String> {
    lib_rs
        .lines()
        .filter_map(|line| {
            line.trim()
                .strip_prefix("pub mod ")
                .or_else(|| line.trim().strip_prefix("mod "))
        })
        .map(|rest| rest.trim_end_matches(';').trim().to_string())
        .collect()
}

fn display(path: &ModulePath) -> String {
    path.join("::")
}

fn top_level_imports(krate: &Crate) -> BTreeMap<String, BTreeSet<String>> {
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in krate.sibling_edges() {
        if from.len() == 1 {
            imports
                .entry(from[0].clone())
                .or_default()
                .extend(targets.iter().map(|target| target[0].clone()));
        }
    }
    imports
}

#[test]
fn the_module_map_in_lib_rs_matches_the_imports() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib_rs = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let map = module_map(&lib_rs);
    let declared = declared_modules(&lib_rs);
    let mapped: BTreeSet<String> = map.keys().cloned().collect();
    assert_eq!(
        mapped, declared,
        "the map in src/lib.rs must have one row per module lib.rs declares"
    );

    let imports = top_level_imports(&Crate::read(&src));
    let mut wrong = Vec::new();
    for (module, allowed) in &map {
        let actual = imports.get(module).cloned().unwrap_or_default();
        let unlisted: Vec<_> = actual.difference(allowed).collect();
        let unused: Vec<_> = allowed.difference(&actual).collect();
        if !unlisted.is_empty() || !unused.is_empty() {
            wrong.push(format!("{module}: imports {unlisted:?} the map does not allow; allows {unused:?} it does not import"));
        }
    }
    assert!(
        wrong.is_empty(),
        "src/lib.rs's module map is out of date:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_modules_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let krate = Crate::read(&src);
    let loops: Vec<String> = cycles(&krate.sibling_edges())
        .iter()
        .map(|group| group.iter().map(display).collect::<Vec<_>>().join(" ↔ "))
        .collect();
    assert!(
        loops.is_empty(),
        "import circles in src/:\n{}",
        loops.join("\n")
    );
}

fn sources(files: &[(&str, &str)]) -> Crate {
    let owned: Vec<(String, String)> = files
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect();
    Crate::from_sources(&owned)
}

#[test]
fn the_checker_finds_a_circle_through_a_reexport_and_a_use_group() {
    let krate = sources(&[
        ("lib.rs", "pub mod a; pub mod b;"),
        ("a/mod.rs", "mod inner; pub use inner::Thing;"),
        (
            "a/inner.rs",
            "use crate::{b::Other, position};\npub struct Thing;",
        ),
        (
            "b.rs",
            "pub struct Other; fn f() -> super::a::Thing { todo!() }",
        ),
    ]);
    let loops = cycles(&krate.sibling_edges());
    assert_eq!(
        loops,
        vec![vec![vec!["a".to_string()], vec!["b".to_string()]]]
    );
}

#[test]
fn the_checker_ignores_tests_comments_strings_and_facades() {
    let krate = sources(&[
        ("lib.rs", "pub mod a; pub mod b;"),
        (
            "a/mod.rs",
            "mod child; pub use child::Thing; // uses crate::b::Other\nconst S: &str = \"crate::b::x\";",
        ),
        (
            "a/child.rs",
            "use super::super::a::Helper; pub struct Thing;\n#[cfg(test)]\nmod tests { use crate::b::Other; }",
        ),
        ("b.rs", "use crate::a::Thing; pub struct Other;"),
        ("a/tests.rs", "use crate::b::Other;"),
    ]);
    assert!(cycles(&krate.sibling_edges()).is_empty());
    let imports = top_level_imports(&krate);
    assert_eq!(
        imports.get("b").cloned().unwrap_or_default(),
        BTreeSet::from(["a".to_string()])
    );
    assert!(!imports.contains_key("a"));
}

#[test]
fn the_checker_reads_on_after_a_test_only_variant_or_match_arm() {
    let krate = sources(&[
        ("lib.rs", "pub mod a; pub mod c;"),
        (
            "a.rs",
            "pub enum Bytes {\n    #[cfg(test)]\n    Owned(Vec<u8>),\n    Mapped(u8),\n}\n\
             fn f(b: Bytes) { match b {\n #[cfg(test)]\n Bytes::Owned(v) => drop(v),\n _ => {} } }\n\
             fn g() -> crate::c::Other { todo!() }",
        ),
        ("c.rs", "pub struct Other;"),
    ]);
    let imports = top_level_imports(&krate);
    assert_eq!(
        imports.get("a").cloned().unwrap_or_default(),
        BTreeSet::from(["c".to_string()])
    );
}
