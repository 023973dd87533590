//! Syzygy tablebase probing with the tables in `tests/data/syzygy/`
//! (all 3- and 4-piece endgames): probe values, root move ranking, the
//! fifty-move rule, and damaged table files.

use std::{fs, path::Path};

use shakmaty::Position as _;
use tarpon::{
    position::Position,
    search::{
        score::MATE_BOUND,
        tb_probe::SearchProbe,
        tb_score::{TB_WIN_IN_MAX_PLY, result_score, root_score},
    },
    tablebase::{ProbeSettings, Syzygy, Tablebase, Wdl},
};

use crate::common::{ScratchDir, temp_dir};

const SYZYGY: &str = "tests/data/syzygy";

fn tables() -> Tablebase {
    let tb = Tablebase::open(SYZYGY);
    assert!(!tb.is_empty(), "no tables in {SYZYGY}: {:?}", tb.report());
    tb
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, false).expect(fen)
}

fn wdl_of(n: i32) -> Wdl {
    match n {
        -2 => Wdl::Loss,
        -1 => Wdl::BlessedLoss,
        0 => Wdl::Draw,
        1 => Wdl::CursedWin,
        _ => Wdl::Win,
    }
}

/// Random legal positions of 16 endgames with their WDL and DTZ, computed
/// by python-chess 1.11.2's own Syzygy prober (`chess.syzygy`), an
/// implementation independent of shakmaty-syzygy.
const REFERENCE: &[(&str, i32, i32)] = &[
    ("8/KQ6/8/8/8/7k/8/8 w - - 0 1", 2, 13),
    ("8/6k1/8/8/8/8/1K2Q3/8 b - - 0 1", -2, -16),
    ("8/8/8/4k3/8/8/6K1/6Q1 b - - 0 1", -2, -16),
    ("3K4/8/1R6/8/8/8/8/5k2 w - - 0 1", 2, 21),
    ("4k3/8/8/2K5/8/8/8/6R1 w - - 0 1", 2, 13),
    ("5R2/8/8/8/1K6/8/6k1/8 b - - 0 1", -2, -22),
    ("8/8/8/1B4kN/8/8/8/6K1 w - - 0 1", 2, 58),
    ("7k/2N5/2B5/8/8/8/8/7K w - - 0 1", 2, 54),
    ("3k4/6N1/8/2K5/8/8/8/1B6 b - - 0 1", -2, -49),
    ("4k3/8/8/8/P7/7K/8/8 b - - 0 1", 0, 0),
    ("8/4P3/8/8/8/5K2/8/4k3 w - - 0 1", 2, 1),
    ("8/6k1/8/1K6/8/8/7P/8 w - - 0 1", 0, 0),
    ("8/8/3K4/r4k2/8/4R3/8/8 b - - 0 1", 0, 0),
    ("8/3K3k/8/7r/8/7R/8/8 w - - 0 1", 2, 1),
    ("8/8/8/8/4R3/8/1K2k3/7r b - - 0 1", 0, 0),
    ("6K1/3q4/8/8/1Q5k/8/8/8 b - - 0 1", 0, 0),
    ("8/k7/6Q1/8/8/3K4/8/5q2 w - - 0 1", 0, 0),
    ("8/4K3/k7/8/8/q7/2Q5/8 w - - 0 1", 0, 0),
    ("8/8/8/2k5/3r4/8/3Q4/7K b - - 0 1", 2, 1),
    ("8/1k5r/8/8/8/8/6KQ/8 w - - 0 1", 2, 1),
    ("6r1/8/4Q3/1K6/4k3/8/8/8 b - - 0 1", -2, -2),
    ("8/8/1b4K1/6R1/6k1/8/8/8 b - - 0 1", 0, 0),
    ("8/3K4/8/7R/7k/8/8/4b3 b - - 0 1", 0, 0),
    ("8/1R6/8/8/7K/6b1/3k4/8 w - - 0 1", 2, 1),
    ("8/5p2/8/8/8/3k1P2/7K/8 w - - 0 1", 0, 0),
    ("8/2K5/8/8/1k1p4/8/4P3/8 b - - 0 1", 0, 0),
    ("8/2p2K2/8/1P6/5k2/8/8/8 b - - 0 1", 0, 0),
    ("k6K/8/8/4B3/8/8/2b5/8 w - - 0 1", 0, 0),
    ("8/K7/8/8/8/8/b4B2/7k b - - 0 1", 0, 0),
    ("8/6B1/8/3b4/3k4/8/8/3K4 b - - 0 1", 0, 0),
    ("4k3/8/Q7/4K2p/8/8/8/8 w - - 0 1", 2, 3),
    ("8/8/6k1/8/1Q6/4p3/7K/8 w - - 0 1", 2, 3),
    ("8/8/1Q5K/1k6/p7/8/8/8 b - - 0 1", 2, 1),
    ("8/1p6/8/4k3/7R/5K2/8/8 b - - 0 1", -2, -12),
    ("R7/8/7k/8/8/5p2/8/3K4 b - - 0 1", -2, -8),
    ("8/2k5/8/8/1K5p/4R3/8/8 w - - 0 1", 2, 3),
    ("3K4/8/8/4N3/4k3/8/N7/8 w - - 0 1", 0, 0),
    ("8/3K4/2N5/k7/8/8/8/4N3 b - - 0 1", 0, 0),
    ("8/6N1/K1N5/8/8/8/8/5k2 w - - 0 1", 0, 0),
    ("8/8/4K3/8/2B3k1/6B1/8/8 w - - 0 1", 2, 24),
    ("8/4B3/8/8/4B3/7K/5k2/8 b - - 0 1", -2, -33),
    ("8/2B5/8/8/7k/8/4B3/5K2 b - - 0 1", -2, -31),
    ("8/3k3K/2P5/8/8/1P6/8/8 b - - 0 1", 0, 0),
    ("8/P4K2/8/2P5/8/8/8/1k6 w - - 0 1", 2, 1),
    ("8/3P4/5P2/8/3K3k/8/8/8 b - - 0 1", -2, -2),
    ("8/8/8/3P4/8/8/6k1/K5R1 b - - 0 1", -2, -2),
    ("8/8/8/1P6/8/3K4/6R1/3k4 b - - 0 1", -2, -2),
    ("8/6P1/8/1R6/1k6/8/3K4/8 b - - 0 1", -2, -2),
    // En passant is the only capture; checkmated; stalemated.
    ("8/8/8/8/3Pp3/8/8/4K2k b - d3 0 1", 0, 0),
    ("8/8/8/8/8/6k1/6q1/7K w - - 0 1", -2, -1),
    ("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1", 0, 0),
];

/// Winning starts (white to move) with long distances to mate, chosen at
/// random by python-chess among positions with at least 15 (KQ), 25 (KR)
/// and 55 (KBN) plies to mate.
pub const KQK: &[&str] = &[
    "8/8/6K1/8/3k4/8/8/7Q w - - 0 1",
    "8/8/8/5k2/8/1Q6/8/5K2 w - - 0 1",
    "8/5k2/8/8/8/2Q5/8/K7 w - - 0 1",
    "5K2/8/8/7Q/8/8/2k5/8 w - - 0 1",
];
pub const KRK: &[&str] = &[
    "5R2/8/8/1K6/8/4k3/8/8 w - - 0 1",
    "8/8/6k1/8/2R5/8/8/2K5 w - - 0 1",
    "5R2/8/4k3/8/8/8/8/K7 w - - 0 1",
    "8/7K/2R5/8/8/8/3k4/8 w - - 0 1",
];
pub const KBNK: &[&str] = &[
    "8/8/8/8/8/2kB2N1/8/K7 w - - 0 1",
    "8/8/8/3B4/K7/8/4k3/5N2 w - - 0 1",
    "5K2/8/8/1N6/1k5B/8/8/8 w - - 0 1",
    "8/8/8/1B6/4k3/8/2NK4/8 w - - 0 1",
];

#[test]
fn opens_every_table_in_the_directory() {
    let tb = tables();
    let names: Vec<String> = fs::read_dir(SYZYGY)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rtbw") || n.ends_with(".rtbz"))
        .collect();
    let wdl = names.iter().filter(|n| n.ends_with(".rtbw")).count();
    let most = names
        .iter()
        .map(|n| n.split('.').next().unwrap().len() as u32 - 1)
        .max()
        .unwrap();
    assert_eq!(tb.counts(), (wdl, names.len() - wdl));
    assert_eq!(tb.max_pieces(), most);
    let report = tb.report();
    assert_eq!(
        report,
        vec![format!(
            "Syzygy: found {} tables ({wdl} WDL, {} DTZ) up to {most} pieces",
            names.len(),
            names.len() - wdl
        )],
        "a complete, healthy set reports no problem"
    );
}

#[test]
fn several_directories_are_joined() {
    let dir = temp_dir("tb-split");
    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        fs::copy(Path::new(SYZYGY).join(name), dir.join(name)).unwrap();
    }
    let sep = tarpon::tablebase::PATH_SEPARATOR;
    let tb = Tablebase::open(&format!(
        "{}{sep}/nonexistent/tarpon{sep}{SYZYGY}",
        dir.display()
    ));
    assert_eq!(tables().counts(), tb.counts(), "duplicates count once");
    let report = tb.report().join("\n");
    assert!(
        report.contains("'/nonexistent/tarpon' cannot be read"),
        "{report}"
    );
}

#[test]
fn probes_agree_with_an_independent_prober() {
    let tb = tables();
    for &(fen, wdl, dtz) in REFERENCE {
        let p = pos(fen);
        assert_eq!(
            tb.probe_wdl_after_zeroing(&p.to_chess()),
            Some(wdl_of(wdl)),
            "WDL of {fen}"
        );
        assert_eq!(
            tb.probe_wdl(&p.to_chess()),
            Some(wdl_of(wdl)),
            "WDL of {fen}"
        );
        assert_eq!(tb.probe_dtz(&p.to_chess()), Some(dtz), "DTZ of {fen}");
    }
}

#[test]
fn positions_outside_the_tables_are_not_probed() {
    let tb = tables();
    for fen in [
        tarpon::position::START_FEN,
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 1",
    ] {
        let p = pos(fen);
        assert_eq!(tb.probe_wdl(&p.to_chess()), None, "{fen}");
        assert_eq!(tb.probe_dtz(&p.to_chess()), None, "{fen}");
        assert!(
            tb.rank_root_moves(&mut p.clone(), &ProbeSettings::default())
                .is_none()
        );
    }
    let limited = ProbeSettings {
        limit: 3,
        ..ProbeSettings::default()
    };
    let mut kbnk = pos(KBNK[0]);
    assert!(tb.rank_root_moves(&mut kbnk, &limited).is_none());
    assert!(tb.take_problems().is_empty(), "{:?}", tb.take_problems());
}

/// DTZ of the move `m` seen from the side that plays it, computed here
/// from plain probes of the position after it.
fn move_dtz(tb: &Tablebase, p: &mut Position, m: shakmaty::Move) -> i32 {
    p.make(m);
    let d = if p.to_chess().is_checkmate() {
        1
    } else if m.is_zeroing() {
        match tb.probe_wdl_after_zeroing(&p.to_chess()).unwrap() {
            Wdl::Win => -1,
            Wdl::Loss => 1,
            _ => 0,
        }
    } else {
        let d = -tb.probe_dtz(&p.to_chess()).unwrap();
        d + d.signum()
    };
    p.unmake();
    d
}

#[test]
fn root_ranking_keeps_exactly_the_fastest_wins() {
    let tb = tables();
    let settings = ProbeSettings::default();
    for fen in KQK.iter().chain(KRK).chain(KBNK).chain(&[
        "4k3/8/Q7/4K2p/8/8/8/8 w - - 0 1",
        "8/8/4K3/8/2B3k1/6B1/8/8 w - - 0 1",
    ]) {
        let mut p = pos(fen);
        let before = p.fen();
        let ranking = tb.rank_root_moves(&mut p, &settings).unwrap();
        assert_eq!(p.fen(), before, "ranking leaves the position as it was");
        assert_eq!(ranking.result(), Wdl::Win, "{fen}");
        assert_eq!(ranking.dtz(), tb.probe_dtz(&p.to_chess()), "{fen}");
        assert!(root_score(&ranking) >= TB_WIN_IN_MAX_PLY);
        assert_eq!(ranking.wdl_permille(), (1000, 0, 0));
        let root_dtz = ranking.dtz().unwrap();
        let kept: Vec<_> = ranking.best_moves().collect();
        assert!(!kept.is_empty());
        for m in p.legal_moves() {
            let d = move_dtz(&tb, &mut p, m);
            assert!(d <= 0 || d >= root_dtz, "{fen}: no move beats the table");
            assert_eq!(
                kept.contains(&m),
                d == root_dtz,
                "{fen}: {} (dtz {d}, best {root_dtz}) kept iff DTZ-optimal",
                p.uci(m)
            );
        }
    }
}

#[test]
fn root_ranking_holds_draws_and_avoids_losing_moves() {
    let tb = tables();
    for fen in [
        "4K3/2R5/8/8/5r2/3k4/8/8 w - - 0 1",
        "8/1K6/8/8/8/4r3/k7/1R6 w - - 0 1",
        "4q3/8/8/2k3K1/8/8/8/3Q4 b - - 0 1",
        "k7/2Q3K1/8/8/8/1q6/8/8 b - - 0 1",
    ] {
        let mut p = pos(fen);
        let ranking = tb
            .rank_root_moves(&mut p, &ProbeSettings::default())
            .unwrap();
        assert_eq!(ranking.result(), Wdl::Draw, "{fen}");
        assert_eq!(root_score(&ranking), 0);
        let kept: Vec<_> = ranking.best_moves().collect();
        let mut losing = 0;
        for m in p.legal_moves() {
            let d = move_dtz(&tb, &mut p, m);
            assert!(d <= 0, "{fen}: a drawn position has no winning move");
            losing += usize::from(d < 0);
            assert_eq!(kept.contains(&m), d == 0, "{fen}: {}", p.uci(m));
        }
        assert!(losing > 0, "{fen}: chosen so that some move loses");
    }
}

#[test]
fn fifty_move_rule_turns_late_wins_into_cursed_wins() {
    let tb = tables();
    // 13 plies to mate (stored rounded: 12 or 13): a win while the clock
    // leaves room, cursed after, ambiguous in between (not asserted).
    let in_time = pos("8/KQ6/8/8/8/7k/8/8 w - - 86 80");
    let too_late = pos("8/KQ6/8/8/8/7k/8/8 w - - 88 80");
    assert_eq!(tb.probe_wdl(&in_time.to_chess()), Some(Wdl::Win));
    assert_eq!(tb.probe_wdl(&too_late.to_chess()), Some(Wdl::CursedWin));
    let losing = pos("8/6k1/8/8/8/8/1K2Q3/8 b - - 90 80");
    assert_eq!(tb.probe_wdl(&losing.to_chess()), Some(Wdl::BlessedLoss));

    let rule50 = ProbeSettings::default();
    let no_rule50 = ProbeSettings {
        rule50: false,
        ..rule50
    };
    let ranking = tb.rank_root_moves(&mut in_time.clone(), &rule50).unwrap();
    assert_eq!(ranking.result(), Wdl::Win);
    let ranking = tb.rank_root_moves(&mut too_late.clone(), &rule50).unwrap();
    assert_eq!(ranking.result(), Wdl::CursedWin);
    assert!(
        root_score(&ranking) > 0 && root_score(&ranking) < 100,
        "nearly a draw"
    );
    assert_eq!(ranking.wdl_permille(), (0, 1000, 0));
    let ranking = tb
        .rank_root_moves(&mut too_late.clone(), &no_rule50)
        .unwrap();
    assert_eq!(ranking.result(), Wdl::Win, "Syzygy50MoveRule off");
    let ranking = tb.rank_root_moves(&mut losing.clone(), &rule50).unwrap();
    assert_eq!(ranking.result(), Wdl::BlessedLoss);
    assert_eq!(ranking.keep, ranking.moves.len(), "every move is saved");
    let ranking = tb.rank_root_moves(&mut losing.clone(), &no_rule50).unwrap();
    assert_eq!(ranking.result(), Wdl::Loss);
}

/// Plays the first move the tables keep, for both sides, until the game
/// ends; returns the final position.
fn play_out_by_ranking(tb: &Tablebase, fen: &str) -> Position {
    let mut p = pos(fen);
    let settings = ProbeSettings::default();
    for _ in 0..200 {
        if p.legal_moves().is_empty() || p.is_fifty_move_draw() || p.repetitions() >= 2 {
            break;
        }
        let ranking = tb.rank_root_moves(&mut p, &settings).unwrap();
        let m = ranking.best_moves().next().unwrap();
        p.make(m);
    }
    p
}

#[test]
fn following_the_ranking_mates_within_the_fifty_move_rule() {
    let tb = tables();
    for fen in KQK.iter().chain(KRK).chain(KBNK) {
        let end = play_out_by_ranking(&tb, fen);
        assert!(
            end.to_chess().is_checkmate(),
            "{fen}: ended in {} without mate",
            end.fen()
        );
        assert!(end.halfmoves() <= 100, "{fen}: mate after the 50-move rule");
    }
}

/// A scratch folder with a copy of the shared tables, to damage at will.
fn scratch_with_tables(name: &str) -> ScratchDir {
    let dir = temp_dir(&format!("tb-{name}"));
    for entry in fs::read_dir(SYZYGY).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    dir
}

/// Legal placements of a white piece (`Q`, `R`, ...) beside four pairs of
/// kings: a broad sweep over a table's index space.
fn sweep(piece: char) -> Vec<Position> {
    use shakmaty::{Board, CastlingMode, Chess, Color, FromSetup, Role, Setup, Square};
    let role = Role::from_char(piece.to_ascii_lowercase()).unwrap();
    let mut out = Vec::new();
    for (i, (wk, bk)) in [(0, 63), (27, 45), (7, 56), (12, 50)]
        .into_iter()
        .enumerate()
    {
        for sq in (0..64).filter(|&sq| sq != wk && sq != bk) {
            let mut board = Board::empty();
            board.set_piece_at(Square::new(wk), Role::King.of(Color::White));
            board.set_piece_at(Square::new(bk), Role::King.of(Color::Black));
            board.set_piece_at(Square::new(sq), role.of(Color::White));
            let mut setup = Setup::empty();
            setup.board = board;
            setup.turn = if (i as u32 + sq).is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            };
            if let Ok(chess) = Chess::from_setup(setup, CastlingMode::Standard) {
                out.push(Position::from_chess(chess));
            }
        }
    }
    out
}

#[test]
fn truncated_tables_are_reported_and_left_out() {
    let dir = scratch_with_tables("truncated");
    // Cut to a size the format allows (16 mod 64): only probing shows it.
    let wdl = dir.join("KQvK.rtbw");
    let len = fs::metadata(&wdl).unwrap().len();
    let cut = (len / 2) / 64 * 64 + 16;
    let data = fs::read(&wdl).unwrap();
    fs::write(&wdl, &data[..cut as usize]).unwrap();
    // Cut to an impossible size: refused when opening.
    let dtz = dir.join("KRvK.rtbz");
    let data = fs::read(&dtz).unwrap();
    fs::write(&dtz, &data[..data.len() - 5]).unwrap();

    let tb = Tablebase::open(dir.to_str().unwrap());
    let report = tb.report().join("\n");
    assert!(report.contains("KRvK.rtbz' cannot be used"), "{report}");
    let healthy = tables();
    assert_eq!(tb.counts().1, healthy.counts().1 - 1);

    // Whatever the damaged KQvK table answers, nothing panics; where it
    // fails the answer is None and the failure is reported once.
    let mut failures = 0;
    for p in sweep('Q') {
        let got = tb.probe_wdl_after_zeroing(&p.to_chess());
        if got.is_none() {
            failures += 1;
        } else {
            assert_eq!(got, healthy.probe_wdl_after_zeroing(&p.to_chess()));
        }
    }
    let problems = tb.take_problems();
    let reported_at_open = report.contains("KQvK.rtbw");
    assert!(
        reported_at_open || (failures > 0 && problems.iter().any(|m| m.contains("KQvK.rtbw"))),
        "the truncation is noticed: {report} / {problems:?}"
    );
    assert!(tb.take_problems().is_empty(), "reported once");

    // The engine swaps in a set without the failed table.
    if !reported_at_open {
        let repaired = tb.without_failed_tables().unwrap();
        assert_eq!(repaired.counts().0, healthy.counts().0 - 1);
        assert!(tb.without_failed_tables().is_none());
    }
    // Other endgames still work.
    let p = pos(KRK[0]);
    assert_eq!(tb.probe_wdl(&p.to_chess()), Some(Wdl::Win));
}

#[test]
fn bit_flipped_tables_never_panic() {
    let dir = temp_dir("tb-flipped");
    for name in ["KRvK.rtbw", "KRvK.rtbz", "KQvK.rtbw", "KQvK.rtbz"] {
        fs::copy(Path::new(SYZYGY).join(name), dir.join(name)).unwrap();
    }
    let (mut detected, mut answered) = (0, 0);
    for (name, piece) in [("KRvK.rtbw", 'R'), ("KQvK.rtbz", 'Q'), ("KRvK.rtbz", 'R')] {
        let path = dir.join(name);
        let original = fs::read(&path).unwrap();
        // Flips in the header (magic, layout, piece order, Huffman tables)
        // and spread over the data.
        let offsets: Vec<usize> = (0..24)
            .chain((0..24).map(|i| 24 + i * (original.len() - 24) / 24))
            .collect();
        for offset in offsets {
            for bit in [1, 6] {
                let mut data = original.clone();
                data[offset] ^= 1 << bit;
                fs::write(&path, &data).unwrap();
                let tb = Tablebase::open(dir.to_str().unwrap());
                let at_open = tb.report().len() > 1;
                if offset < 4 {
                    assert!(at_open, "{name}: a flipped magic byte is caught at once");
                }
                // Any answer or None, but no panic.
                for p in sweep(piece).iter().step_by(5) {
                    answered += usize::from(tb.probe_wdl(&p.to_chess()).is_some());
                    answered += usize::from(tb.probe_dtz(&p.to_chess()).is_some());
                    let _ = tb.rank_root_moves(&mut p.clone(), &ProbeSettings::default());
                }
                detected += usize::from(at_open || !tb.take_problems().is_empty());
            }
        }
        fs::write(&path, &original).unwrap();
    }
    eprintln!("bit flips: {detected} of 288 noticed, {answered} probes answered");
    assert!(detected >= 12 && answered > 0);
}

#[test]
fn garbage_and_unreadable_files_are_reported() {
    let dir = temp_dir("tb-garbage");
    // Right size, wrong contents.
    fs::write(dir.join("KQvK.rtbw"), vec![0x5au8; 64 * 3 + 16]).unwrap();
    // A dangling link: listed in the directory but cannot be read.
    #[cfg(unix)]
    std::os::unix::fs::symlink("/nonexistent/KRvK.rtbw", dir.join("KRvK.rtbw")).unwrap();
    fs::copy(Path::new(SYZYGY).join("KBvK.rtbw"), dir.join("KBvK.rtbw")).unwrap();
    let tb = Tablebase::open(dir.to_str().unwrap());
    let report = tb.report().join("\n");
    assert!(
        report.contains("KQvK.rtbw' is corrupt or unreadable"),
        "{report}"
    );
    #[cfg(unix)]
    assert!(report.contains("KRvK.rtbw' cannot be used"), "{report}");
    assert_eq!(tb.counts(), (1, 0), "only the good table is kept");
    assert_eq!(tb.probe_wdl(&pos(KQK[0]).to_chess()), None);
    assert_eq!(
        tb.probe_wdl(&pos("8/8/8/3k4/8/8/8/KB6 w - - 0 1").to_chess()),
        Some(Wdl::Draw)
    );
}

/// A longer sweep over random byte damage in several tables, counting how
/// often the prober itself panicked (caught) — the evidence behind the
/// `catch_unwind` guard. Run: `cargo test --release --test tablebase -- --ignored --nocapture`.
#[test]
#[ignore]
fn random_damage_sweep() {
    let dir = temp_dir("tb-sweep");
    let names = [
        "KRvK.rtbw",
        "KRvK.rtbz",
        "KQvK.rtbw",
        "KQvK.rtbz",
        "KPvK.rtbw",
        "KPvK.rtbz",
    ];
    for name in names {
        fs::copy(Path::new(SYZYGY).join(name), dir.join(name)).unwrap();
    }
    let mut rng = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut panics, mut errors, mut rounds) = (0, 0, 0);
    for name in names {
        let path = dir.join(name);
        let original = fs::read(&path).unwrap();
        let piece = name.as_bytes()[1] as char;
        for _ in 0..300 {
            let mut data = original.clone();
            // A few random bytes, mostly in the first kilobyte where the
            // header and Huffman tables live.
            for _ in 0..1 + next() % 4 {
                let span = if next() % 2 == 0 {
                    1024.min(data.len())
                } else {
                    data.len()
                };
                let at = (next() % span as u64) as usize;
                data[at] = next() as u8;
            }
            fs::write(&path, &data).unwrap();
            let tb = Tablebase::open(dir.to_str().unwrap());
            panics += tb
                .report()
                .iter()
                .filter(|l| l.contains("panicked"))
                .count();
            for p in sweep(piece) {
                let _ = tb.probe_wdl(&p.to_chess());
                let _ = tb.probe_dtz(&p.to_chess());
            }
            for problem in tb.take_problems() {
                if problem.contains("panicked") {
                    panics += 1;
                } else {
                    errors += 1;
                }
            }
            rounds += 1;
        }
        fs::write(&path, &original).unwrap();
    }
    eprintln!("{rounds} damaged copies: {panics} prober panics caught, {errors} errors reported");
}

fn syzygy(settings: ProbeSettings) -> Syzygy {
    let mut s = Syzygy {
        settings,
        ..Syzygy::default()
    };
    let report = s.set_path(SYZYGY);
    assert_eq!(report.len(), 1, "{report:?}");
    s
}

#[test]
fn search_probes_score_wins_draws_and_losses() {
    let config = syzygy(ProbeSettings::default());
    let probe = SearchProbe::new(&config);
    // Right after a capture or pawn move (clock 0).
    let draw = pos("4K3/2R5/8/8/5r2/3k4/8/8 w - - 0 1");
    let win = pos(KQK[0]);
    let loss = pos("8/6k1/8/8/8/8/1K2Q3/8 b - - 0 1");
    assert_eq!(probe.probe(&draw, 5, 3), Some(0));
    let won = probe.probe(&win, 5, 2).unwrap();
    assert_eq!(won, result_score(Wdl::Win, 2, true));
    assert!((TB_WIN_IN_MAX_PLY..MATE_BOUND).contains(&won));
    assert!(
        probe.probe(&win, 5, 1).unwrap() > won,
        "nearer wins score higher"
    );
    assert_eq!(probe.probe(&loss, 5, 2), Some(-won));
    assert_eq!(probe.probe(&win, 5, 0), None, "never at the root");
    // Not right after a zeroing move: the clock may matter, no probe.
    assert_eq!(
        probe.probe(&pos("8/8/6K1/8/3k4/8/8/7Q w - - 3 9"), 5, 2),
        None
    );
    assert!(probe.hits() >= 3, "hits counted: {}", probe.hits());

    // SyzygyProbeDepth: at the piece limit only from that depth on.
    let deep = SearchProbe::new(&Syzygy {
        settings: ProbeSettings {
            depth: 6,
            limit: 4,
            rule50: true,
        },
        ..config.clone()
    });
    assert_eq!(deep.probe(&draw, 5, 3), None, "4 pieces, depth 5 < 6");
    assert_eq!(deep.probe(&draw, 6, 3), Some(0));
    assert!(
        deep.probe(&win, 1, 3).is_some(),
        "3 pieces: below the limit"
    );
}

#[test]
fn search_probe_ranks_the_root_and_reports_the_true_result() {
    let config = syzygy(ProbeSettings::default());
    let mut probe = SearchProbe::new(&config);
    let mut root = pos(KBNK[0]);
    let mut moves: Vec<_> = root.legal_moves().to_vec();
    let all = moves.len();
    probe.filter_root_moves(&mut root, &mut moves);
    assert!(!moves.is_empty() && moves.len() < all);
    let ranking = probe.root().unwrap();
    assert_eq!(moves, ranking.best_moves().collect::<Vec<_>>());
    // Root ranked by DTZ: the tree is not probed any more.
    assert_eq!(probe.probe(&pos(KQK[0]), 5, 2), None);
    let (score, wdl) = probe.report(250).unwrap();
    assert_eq!((score, wdl), (root_score(ranking), (1000, 0, 0)));
    assert!(score >= TB_WIN_IN_MAX_PLY);
    let mate = MATE_BOUND + 40;
    assert_eq!(probe.report(mate).unwrap().0, mate, "a found mate stands");

    // searchmoves outside the kept moves: the searchmoves stay.
    let mut probe = SearchProbe::new(&config);
    let losing = pos("4K3/2R5/8/8/5r2/3k4/8/8 w - - 0 1");
    let hanging: Vec<_> = {
        let mut p = losing.clone();
        let ranking = config
            .tables
            .as_ref()
            .unwrap()
            .rank_root_moves(&mut p, &config.settings)
            .unwrap();
        ranking.moves[ranking.keep..].iter().map(|m| m.mv).collect()
    };
    let mut moves = hanging.clone();
    probe.filter_root_moves(&mut losing.clone(), &mut moves);
    assert_eq!(moves, hanging);
    assert_eq!(
        probe.report(-300).unwrap(),
        (0, (0, 1000, 0)),
        "the root is a draw"
    );
}

// ---- The search with tables (phase 2) ----

use tarpon::search::{Limits, SearchConfig, SearchControl, TranspositionTable, run_search};

/// Runs `f` on a thread with room for a deep search.
fn with_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(s, f)
            .unwrap()
            .join()
            .unwrap()
    })
}

fn config(syzygy: Option<&Syzygy>) -> SearchConfig {
    SearchConfig {
        syzygy: syzygy.cloned().unwrap_or_default(),
        show_wdl: true,
        ..SearchConfig::default()
    }
}

/// One search from `p`; returns the best move and the `info` lines.
fn think(
    p: &Position,
    limits: &Limits,
    config: &SearchConfig,
    tt: &TranspositionTable,
) -> (shakmaty::Move, Vec<String>) {
    let mut lines = Vec::new();
    let outcome = run_search(p, limits, config, tt, &SearchControl::new(), &mut |l| {
        lines.push(l.to_string())
    });
    (outcome.best.expect("a legal move"), lines)
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

/// Plays a game from `fen` with `white` and `black` configurations, a few
/// thousand nodes a move, until it ends or `max_plies` pass. `after_move`
/// sees each position reached and the side that moved.
fn play(
    fen: &str,
    white: &SearchConfig,
    black: &SearchConfig,
    max_plies: usize,
    mut after_move: impl FnMut(&Position, shakmaty::Color),
) -> Position {
    let tt_white = TranspositionTable::new(4);
    let tt_black = TranspositionTable::new(4);
    let mut p = pos(fen);
    for _ in 0..max_plies {
        if p.legal_moves().is_empty()
            || p.is_fifty_move_draw()
            || p.repetitions() >= 2
            || p.is_insufficient_material()
        {
            break;
        }
        let mover = p.turn();
        let (config, tt) = if mover.is_white() {
            (white, &tt_white)
        } else {
            (black, &tt_black)
        };
        let (m, _) = think(&p, &nodes(3000), config, tt);
        p.make(m);
        after_move(&p, mover);
    }
    p
}

#[test]
fn engine_mates_within_the_fifty_move_rule_with_tables() {
    let syzygy = syzygy(ProbeSettings::default());
    let with = config(Some(&syzygy));
    with_stack(|| {
        for fen in KQK.iter().chain(KRK).chain(KBNK) {
            let end = play(fen, &with, &with, 200, |_, _| {});
            assert!(
                end.to_chess().is_checkmate() && end.halfmoves() <= 100,
                "{fen}: ended in {} (clock {})",
                end.fen(),
                end.halfmoves()
            );
            assert_eq!(end.turn(), shakmaty::Color::Black, "{fen}: white mates");
        }
    });
}

#[test]
fn engine_holds_drawn_rook_and_queen_endings_with_tables() {
    let syzygy = syzygy(ProbeSettings::default());
    let tables = syzygy.tables.clone().unwrap();
    let with = config(Some(&syzygy));
    let without = config(None);
    with_stack(|| {
        // Drawn, with losing moves available to the side to move.
        for fen in [
            "4K3/2R5/8/8/5r2/3k4/8/8 w - - 0 1",
            "8/1K6/8/8/8/4r3/k7/1R6 w - - 0 1",
            "4q3/8/8/2k3K1/8/8/8/3Q4 b - - 0 1",
            "k7/2Q3K1/8/8/8/1q6/8/8 b - - 0 1",
        ] {
            let defender = pos(fen).turn();
            let (white, black) = if defender.is_white() {
                (&with, &without)
            } else {
                (&without, &with)
            };
            let end = play(fen, white, black, 60, |p, mover| {
                if mover == defender {
                    let theirs = tables.probe_wdl_after_zeroing(&p.to_chess());
                    assert!(
                        !matches!(theirs, Some(Wdl::Win | Wdl::CursedWin)),
                        "{fen}: the table side let {} become lost",
                        p.fen()
                    );
                }
            });
            assert!(
                !(end.to_chess().is_checkmate() && end.turn() == defender),
                "{fen}: the table side was mated in {}",
                end.fen()
            );
        }
    });
}

/// The `tbhits`, `score` and `wdl` fields of the last `info ... pv` line.
fn last_info(lines: &[String]) -> (u64, String, String) {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" pv"))
        .expect("an info line");
    let field = |name: &str, n: usize| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words
            .iter()
            .position(|w| *w == name)
            .unwrap_or_else(|| panic!("{name} in {line}"));
        words[i + 1..i + 1 + n].join(" ")
    };
    (
        field("tbhits", 1).parse().unwrap(),
        field("score", 2),
        field("wdl", 3),
    )
}

#[test]
fn info_lines_report_tbhits_and_the_true_result() {
    let syzygy = syzygy(ProbeSettings::default());
    let with = config(Some(&syzygy));
    let without = config(None);
    let tt = TranspositionTable::new(4);
    let depth = |d| Limits {
        depth: Some(d),
        ..Limits::default()
    };
    with_stack(|| {
        // Root in the tables: a win, far from mate.
        let (_, lines) = think(&pos(KBNK[0]), &depth(5), &with, &tt);
        let (hits, score, wdl) = last_info(&lines);
        assert!(hits > 0);
        let cp: i32 = score.strip_prefix("cp ").unwrap().parse().unwrap();
        assert!((TB_WIN_IN_MAX_PLY..MATE_BOUND).contains(&cp), "{score}");
        assert_eq!(wdl, "1000 0 0");

        // Root in the tables: a draw, whatever the evaluation says.
        tt.clear();
        let (_, lines) = think(
            &pos("4K3/2R5/8/8/5r2/3k4/8/8 w - - 0 1"),
            &depth(5),
            &with,
            &tt,
        );
        let (_, score, wdl) = last_info(&lines);
        assert_eq!((score.as_str(), wdl.as_str()), ("cp 0", "0 1000 0"));

        // Five pieces: outside the tables until a capture; the probes after
        // the capture show the win.
        let five = pos("K7/8/8/8/3k4/8/3r4/3R3Q w - - 0 1");
        tt.clear();
        let (m, lines) = think(&five, &depth(5), &with, &tt);
        let (hits, score, _) = last_info(&lines);
        assert!(hits > 0, "probes after captures");
        let cp: i32 = score
            .strip_prefix("cp ")
            .map_or(MATE_BOUND, |s| s.parse().unwrap());
        assert!(cp >= TB_WIN_IN_MAX_PLY, "{score}");
        assert_eq!(five.uci(m), "d1d2", "takes the rook into a won table");

        tt.clear();
        let (_, lines) = think(&five, &depth(5), &without, &tt);
        assert_eq!(last_info(&lines).0, 0, "no tables, no hits");
        let limited = config(Some(&Syzygy {
            settings: ProbeSettings {
                limit: 0,
                ..ProbeSettings::default()
            },
            ..syzygy.clone()
        }));
        tt.clear();
        let (_, lines) = think(&five, &depth(5), &limited, &tt);
        assert_eq!(
            last_info(&lines).0,
            0,
            "SyzygyProbeLimit 0 turns probing off"
        );
    });
}

// ---- Over UCI ----

/// Feeds `input` to the engine binary and returns what it printed.
fn uci_session(input: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tarpon"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the tarpon binary");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn uci_options_open_tables_and_survive_bad_ones() {
    let dir = temp_dir("tb-uci");
    fs::write(dir.join("KQvK.rtbw"), vec![7u8; 64 + 16]).unwrap();
    let sep = tarpon::tablebase::PATH_SEPARATOR;
    let out = uci_session(&format!(
        "uci\n\
         setoption name SyzygyPath value {}{sep}{SYZYGY}\n\
         setoption name SyzygyProbeLimit value 9\n\
         isready\n\
         position fen {}\n\
         go depth 4\n\
         isready\n\
         quit\n",
        dir.to_str().unwrap(),
        KBNK[0]
    ));
    for expected in [
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
        "info string Syzygy: found 70 tables (35 WDL, 35 DTZ) up to 4 pieces",
        "KQvK.rtbw' is corrupt or unreadable (not a Syzygy table (wrong magic bytes)); \
         using 'tests/data/syzygy/KQvK.rtbw' instead",
        "info string error: setoption: SyzygyProbeLimit must be between 0 and 7, got 9",
    ] {
        assert!(out.contains(expected), "missing '{expected}' in:\n{out}");
    }
    let info = out
        .lines()
        .rfind(|l| l.starts_with("info depth"))
        .expect("a search");
    let hits: u64 = info
        .split(" tbhits ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("tbhits");
    assert!(hits > 0, "{info}");
    let best = out.lines().find(|l| l.starts_with("bestmove")).unwrap();
    let mut p = pos(KBNK[0]);
    let ranking = tables()
        .rank_root_moves(&mut p, &ProbeSettings::default())
        .unwrap();
    let played = p
        .parse_uci(best.split_whitespace().nth(1).unwrap())
        .unwrap();
    assert!(
        ranking.best_moves().any(|m| m == played),
        "{best} keeps the fastest win"
    );
    assert_eq!(out.matches("readyok").count(), 2);
}
