//! The NNUE through the UCI loop: `EvalFile` loads a net (also from a path
//! with spaces), `Eval nnue` searches with it, `eval` shows it, and a
//! missing or corrupt file is reported while the engine keeps its net.

use std::io::Write;
use std::process::{Command, Stdio};

use tarpon::eval::nnue::FeatureSet;
use tarpon::eval::nnue::random::random_network;

#[test]
fn evalfile_loads_and_bad_files_keep_the_current_net() {
    // Spaces in the folder's name too: the path reaches `setoption` as is.
    let dir = super::common::temp_dir("nnue uci");
    let good = dir.join("net with spaces.nnue");
    let corrupt = dir.join("corrupt.nnue");
    let net = random_network(FeatureSet::HalfKAv2Hm, 32, &[8, 8], 1, 5).unwrap();
    net.save(&good).unwrap();
    let mut bytes = net.to_bytes();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&corrupt, &bytes).unwrap();

    let script = format!(
        "uci\nsetoption name EvalFile value {}\nsetoption name Eval value nnue\neval\n\
         setoption name EvalFile value {}\nsetoption name EvalFile value /no/such/file.nnue\neval\n\
         go depth 3\nisready\nquit\n",
        good.display(),
        corrupt.display()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_tarpon"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();

    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Eval type combo") && l.contains("var nnue")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string EvalFile: loaded") && l.contains("HalfKAv2_hm")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: EvalFile") && l.contains("checksum")),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.contains("/no/such/file.nnue")
            && l.contains("keeping")
            && l.contains("net with spaces")),
        "{text}"
    );
    // Both `eval`s show the same net: the bad files did not replace it.
    let nnue_lines: Vec<&&str> = lines.iter().filter(|l| l.starts_with("NNUE ")).collect();
    assert_eq!(nnue_lines.len(), 2, "{text}");
    assert_eq!(nnue_lines[0], nnue_lines[1]);
    assert!(nnue_lines[0].contains(" cp"), "{text}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("features") && l.contains("HalfKAv2_hm")),
        "{text}"
    );
    assert!(lines.iter().any(|l| l.starts_with("PST ")), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{text}");
}

/// A Chess768 net with the SCReLU head loads through `EvalFile` and
/// searches to a legal move, and `tarpon eval --net` shows it.
#[test]
fn chess768_screlu_nets_load_search_and_evaluate() {
    use super::common::uci_engine::Engine;
    use super::common::{stdout, tarpon, temp_dir};
    use tarpon::eval::nnue::features::KingBuckets;
    use tarpon::eval::nnue::random::random_screlu_network;
    use tarpon::position::Position;

    let dir = temp_dir("screlu-uci");
    let path = dir.join("chess768.nnue");
    let set = FeatureSet::Chess768(KingBuckets::RANKS4);
    random_screlu_network(set, 32, 8, 6)
        .unwrap()
        .save(&path)
        .unwrap();
    let mut engine = Engine::start();
    engine.send(&format!("setoption name EvalFile value {}", path.display()));
    engine.send("setoption name Eval value nnue");
    let loaded = engine.ready();
    assert!(
        loaded
            .iter()
            .any(|l| l.starts_with("info string EvalFile: loaded")
                && l.contains("Chess768_hm")
                && l.contains("SCReLU (4 king buckets)")),
        "{loaded:?}"
    );
    engine.send("position startpos moves e2e4 e7e5");
    let mut position = Position::startpos();
    for mv in ["e2e4", "e7e5"] {
        let m = position.parse_uci(mv).unwrap();
        position.make(m);
    }
    engine.go_legal(&position, "go depth 4");
    engine.finish();
    let eval = stdout(&tarpon(&["eval", "--net", path.to_str().unwrap()]));
    assert!(
        eval.lines()
            .any(|l| l.starts_with("NNUE ") && l.contains(" cp")),
        "{eval}"
    );
    assert!(eval.contains("Chess768_hm[3072->32x2] SCReLU"), "{eval}");
}
