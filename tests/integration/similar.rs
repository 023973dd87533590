//! `tarpon similar` from the command line: indexing a small PGN, finding a
//! game's own position first, colour-flipped positions, and damaged index
//! files refused with a message (never a panic).

use std::path::{Path, PathBuf};
use std::process::Output;

use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, fen::Fen, san::San};

use crate::common::{stderr, stdout, tarpon, temp_dir};

const FIXTURE: &str = "tests/data/similar/three-games-and-a-bad-one.pgn";
/// The first 20 plies of game 1 (Zukertort - Steinitz, 1886); 11.Nd2 was played next.
const GAME1_20: &str = "d4 d5 c4 c6 e3 Bf5 Nc3 e6 Nf3 Nd7 a3 Bd6 c5 Bc7 b4 e5 Be2 Ngf6 Bb2 e4";

/// Index the fixture into `dir`; returns the index path and tarpon's report.
fn index(dir: &Path, every: &str) -> (PathBuf, String) {
    let out = dir.join("games.idx");
    let o = tarpon(&[
        "similar",
        "index",
        "--pgn",
        FIXTURE,
        "--out",
        out.to_str().unwrap(),
        "--every",
        every,
        "--dims",
        "16",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    (out, stdout(&o))
}

fn query(idx: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "similar",
        "query",
        "--index",
        idx.to_str().unwrap(),
        "--json",
    ];
    args.extend(extra);
    tarpon(&args)
}

/// The text of the first neighbour's JSON object, and its similarity.
fn first_neighbour(json: &str) -> (String, f32) {
    let start = json.find("\"neighbours\":[{").expect("a neighbour") + 14;
    let object = &json[start..start + json[start..].find('}').unwrap() + 1];
    let at = object.find("\"similarity\":").unwrap() + 13;
    let value = &object[at..at + object[at..].find(',').unwrap()];
    (object.to_string(), value.parse().unwrap())
}

fn position_after(sans: &str) -> Chess {
    let mut pos = Chess::default();
    for san in sans.split_whitespace() {
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    pos
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[test]
fn similar_index_counts_positions_and_skips_bad_games() {
    let dir = temp_dir("similar-count");
    let (_, report) = index(&dir, "1");
    // 92 + 92 + 93 plies: one position before each move.
    assert!(
        report.contains("indexed 277 positions from 3 games"),
        "{report}"
    );
    assert!(report.contains("skipped 1 bad games"), "{report}");
    assert!(
        report.contains("game 4: move 2 'Ke3' is illegal"),
        "{report}"
    );
    let (_, report) = index(&dir, "5");
    // Plies 0, 5, ..., 90 of each game: 19 each.
    assert!(report.contains("indexed 57 positions"), "{report}");
}

#[test]
fn similar_query_finds_the_game_of_an_indexed_position_first() {
    let dir = temp_dir("similar-self");
    let (idx, _) = index(&dir, "1");
    // By PGN and ply: game 1 (the first of the file), after 40 plies.
    let o = query(&idx, &["--pgn", FIXTURE, "--ply", "40"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (first, sim) = first_neighbour(&stdout(&o));
    assert!((sim - 1.0).abs() < 1e-4, "{first}");
    assert!(first.contains("\"ply\":40"), "{first}");
    assert!(
        first.contains("\"white\":\"Zukertort, Johannes Hermann\""),
        "{first}"
    );
    // Game 3, from a PGN holding only it: its own position comes first too.
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let third: String = text.split("[Event").nth(3).unwrap().to_string();
    let game3 = dir.join("game3.pgn");
    std::fs::write(&game3, format!("[Event{third}")).unwrap();
    let o = query(&idx, &["--pgn", game3.to_str().unwrap(), "--ply", "61"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (first, sim) = first_neighbour(&stdout(&o));
    assert!((sim - 1.0).abs() < 1e-4, "{first}");
    assert!(
        first.contains("\"ply\":61") && first.contains("\"year\":1886"),
        "{first}"
    );
    assert!(first.contains("\"result\":\"1-0\""), "{first}");
    // The text form lists the same game first.
    let o = tarpon(&[
        "similar",
        "query",
        "--index",
        idx.to_str().unwrap(),
        "--pgn",
        FIXTURE,
        "--ply",
        "40",
        "--top",
        "3",
    ]);
    let text = stdout(&o);
    assert!(text.contains("Nearest 3 positions"), "{text}");
    assert!(text.contains("What the masters played"), "{text}");
}

#[test]
fn similar_colour_flipped_positions_match_with_moves_in_their_own_frame() {
    let dir = temp_dir("similar-colour");
    let (idx, _) = index(&dir, "1");
    let pos = position_after(GAME1_20);
    let o = query(&idx, &["--fen", &fen(&pos), "--pool", "1"]);
    let json = stdout(&o);
    let (first, sim) = first_neighbour(&json);
    assert!(
        (sim - 1.0).abs() < 1e-4 && first.contains("\"ply\":20"),
        "{first}"
    );
    assert!(json.contains("\"moves\":[{\"move\":\"Nd2\""), "{json}");

    // The mirror image (board flipped, colours swapped, Black to move) is
    // the same position for the index: same neighbour, similarity 1, and
    // the master's 11.Nd2 offered as ...Nd7, the move in this frame.
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.mirror();
    let mirrored: Chess = setup
        .position(CastlingMode::Standard)
        .expect("the mirror is legal");
    let o = query(&idx, &["--fen", &fen(&mirrored), "--pool", "1"]);
    let json = stdout(&o);
    assert!(json.contains("\"side_to_move\":\"black\""), "{json}");
    let (first, sim) = first_neighbour(&json);
    assert!(
        (sim - 1.0).abs() < 1e-4 && first.contains("\"ply\":20"),
        "{first}"
    );
    assert!(first.contains("\"played\":\"Nd2\""), "{first}");
    assert!(json.contains("\"moves\":[{\"move\":\"Nd7\""), "{json}");

    // The same board with the other side to move is another position.
    let other = fen(&pos).replacen(" w ", " b ", 1);
    let o = query(&idx, &["--fen", &other]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (first, sim) = first_neighbour(&stdout(&o));
    assert!(sim < 0.999, "{first}");
}

#[test]
fn similar_refuses_damaged_indexes_and_bad_input_clearly() {
    let dir = temp_dir("similar-damage");
    let (idx, _) = index(&dir, "1");
    let good = std::fs::read(&idx).unwrap();
    let start = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
    let mut cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", good[..good.len() - 100].to_vec(), "truncated"),
        ("header-only", good[..64].to_vec(), "truncated"),
        ("empty", Vec::new(), "not a tarpon similar index"),
        (
            "pgn",
            std::fs::read(FIXTURE).unwrap(),
            "not a tarpon similar index",
        ),
    ];
    let mut version = good.clone();
    version[8] = 2;
    cases.push(("version", version, "version 2"));
    let mut flipped = good.clone();
    let middle = good.len() / 2;
    flipped[middle] ^= 0x10;
    cases.push(("flipped", flipped, "checksum"));
    let mut x: u32 = 12345;
    let random: Vec<u8> = (0..good.len())
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    cases.push(("random", random.clone(), "not a tarpon similar index"));
    let mut random_magic = random;
    random_magic[..8].copy_from_slice(&good[..8]);
    cases.push(("random-with-magic", random_magic, "index"));
    for (name, bytes, why) in cases {
        let path = dir.join(format!("{name}.idx"));
        std::fs::write(&path, bytes).unwrap();
        let o = query(&path, &["--fen", start]);
        let err = stderr(&o);
        assert!(!o.status.success(), "{name}: accepted");
        assert!(
            err.starts_with("error: ") && err.contains(why),
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    for (args, why) in [
        (vec!["--fen", "not a fen"], "bad FEN"),
        (
            vec!["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
            "illegal position",
        ),
        (vec!["--pgn", FIXTURE, "--ply", "93"], "past the end"),
        (vec!["--pgn", "no/such.pgn", "--ply", "1"], "cannot read"),
    ] {
        let o = query(&idx, &args);
        let err = stderr(&o);
        assert!(!o.status.success() && err.contains(why), "{args:?}: {err}");
    }
    let o = query(&dir.join("missing.idx"), &["--fen", start]);
    assert!(!o.status.success() && stderr(&o).contains("cannot open"));
    let o = tarpon(&["similar", "index", "--pgn", "no/such.pgn", "--out", "x.idx"]);
    assert!(!o.status.success() && stderr(&o).contains("cannot read the PGN"));
}

/// An open index is the process's own copy: truncating the file afterwards
/// (which faulted the query of a memory-mapped index) changes nothing.
#[test]
fn similar_an_open_index_survives_its_file_being_truncated() {
    let dir = temp_dir("similar-truncate-while-open");
    let (idx, _) = index(&dir, "1");
    let open = tarpon::similar::index::Index::open(&idx).expect("a good index");
    let before: Vec<u32> = (0..open.positions).map(|i| open.game_of(i)).collect();
    std::fs::File::create(&idx).unwrap().set_len(10).unwrap();
    let after: Vec<u32> = (0..before.len()).map(|i| open.game_of(i)).collect();
    assert_eq!(before, after);
    let last = open.entry(open.positions - 1);
    assert_eq!(
        open.game(last.game).white,
        open.game(before[before.len() - 1]).white
    );
    let o = query(&idx, &["--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"]);
    assert!(
        !o.status.success() && stderr(&o).contains("index"),
        "{}",
        stderr(&o)
    );
}
