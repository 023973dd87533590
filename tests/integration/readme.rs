//! The README is the user's manual: it stays short, lists every option the
//! engine declares, and links only to pages that exist.

use std::path::Path;

use crate::common::uci_engine::Engine;

fn readme() -> String {
    std::fs::read_to_string("README.md").expect("README.md at the crate root")
}

#[test]
fn readme_is_at_most_12_kb() {
    let size = readme().len();
    assert!(size <= 12 * 1024, "README.md is {size} bytes");
}

#[test]
fn readme_option_table_lists_every_uci_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until_line("uciok");
    e.finish();
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .filter_map(|l| l.split(" type ").next())
        // A tune build's search parameters are listed by `tarpon params`.
        .filter(|name| tarpon::search::params::find(name).is_none())
        .collect();
    assert!(names.len() >= 15, "{lines:?}");
    let readme = readme();
    let table: Vec<&str> = readme.lines().filter(|l| l.starts_with("| `")).collect();
    for name in names {
        let cell = format!("| `{name}` |");
        assert!(
            table.iter().any(|row| row.starts_with(&cell)),
            "README.md's option table has no row for `{name}`"
        );
    }
}

#[test]
fn readme_links_point_at_files_that_exist() {
    let readme = readme();
    let mut checked = 0;
    for (i, _) in readme.match_indices("](") {
        let rest = &readme[i + 2..];
        let target = &rest[..rest.find(')').expect("closed link")];
        if target.starts_with("http") || target.starts_with('#') {
            continue;
        }
        let file = target.split('#').next().unwrap_or(target);
        assert!(
            Path::new(file).exists(),
            "README.md links to missing {target}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} local links found");
}
