use shakmaty::{Board, CastlingMode, Chess, FromSetup, Piece, Position as _, Setup};

use super::*;
use crate::eval::nnue::NnueEvaluator;
use crate::eval::pst::PstEvaluator;
use crate::eval::{EvalChoice, Evaluator};
use crate::position::{Position, Snapshot};
use crate::search::score::EVAL_LIMIT;
use crate::tablebase::{Tablebase, Wdl};

fn chess(fen: &str) -> Snapshot {
    Position::from_fen(fen, false)
        .expect(fen)
        .snapshot()
        .clone()
}

/// The raw evaluations of `fen` by the PST and by the embedded net (when
/// the build has one), from the side to move.
fn raw_evals(fen: &str) -> Vec<(&'static str, i32)> {
    let pos = Position::from_fen(fen, false).expect(fen);
    let mut pst = PstEvaluator::new();
    pst.reset(&pos);
    let mut evals = vec![("pst", pst.evaluate(&pos))];
    if let EvalChoice::Nnue(net) = EvalChoice::default() {
        let mut nnue = NnueEvaluator::new(net);
        nnue.reset(&pos);
        evals.push(("nnue", nnue.evaluate(&pos)));
    }
    evals
}

/// Drawn positions of every kind the module recognises, with the largest
/// evaluation it may leave (in centipawns, either sign) for each evaluator.
const DRAWS: &[(&str, &str)] = &[
    // Wrong-coloured bishop, two rook pawns, the white king next to h1
    // (issue 28: the net said -10.85).
    ("8/8/4k3/8/7p/6b1/6Kp/8 w - - 0 1", "wrong bishop"),
    // The bishop stops the pawn (issue 28).
    ("8/8/k7/8/P3K3/8/8/6b1 w - - 0 1", "bishop stops pawn"),
    ("8/8/k7/8/P3K3/8/8/6b1 b - - 0 1", "bishop stops pawn"),
    // Wrong bishop for White's h-pawn, black king in the corner.
    ("7k/8/8/7P/8/8/4B3/6K1 w - - 0 1", "wrong bishop"),
    ("6k1/8/8/7P/8/8/4B3/6K1 b - - 0 1", "wrong bishop"),
    // Doubled rook pawns and no bishop at all.
    ("7k/8/8/7P/7P/8/8/6K1 w - - 0 1", "rook pawns"),
    // A knight on the pawn's path.
    ("8/8/8/3k4/8/8/1p6/1N2K3 w - - 0 1", "knight stops pawn"),
    ("8/8/8/3k4/8/8/1p6/1N2K3 b - - 0 1", "knight stops pawn"),
    ("8/8/8/8/8/2k5/5N2/1K4n1 w - - 0 1", "minor vs minor"),
    ("8/8/8/4k3/8/8/2NN4/4K3 w - - 0 1", "KNNK"),
    ("8/8/8/4k3/8/8/2NN4/4K3 b - - 0 1", "KNNK"),
    ("8/8/8/4k3/8/4B3/8/2B1K3 w - - 0 1", "bishops of one colour"),
    ("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", "lone minor"),
    ("8/8/8/4k3/8/2N5/8/4K3 b - - 0 1", "lone minor"),
    // Opposite-coloured bishops, one pawn up.
    (
        "8/4k3/2b5/5p2/5P2/2P1B3/4K3/8 w - - 0 1",
        "opposite bishops",
    ),
    ("8/8/4k3/8/8/2b5/8/R3K3 w - - 0 1", "KRKB"),
    ("8/8/4k3/8/8/2n5/8/R3K3 w - - 0 1", "KRKN"),
    ("8/8/4k3/8/8/2n5/8/R3K3 b - - 0 1", "KRKN"),
    // KPK draws: the defender holds the opposition; rook pawn in the corner.
    ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", "KPK"),
    ("7k/8/6K1/7P/8/8/8/8 w - - 0 1", "KPK"),
    ("8/8/8/4p3/4k3/8/4K3/8 b - - 0 1", "KPK"),
];

#[test]
fn recognised_draws_are_evaluated_near_zero() {
    let mut failures = Vec::new();
    for &(fen, kind) in DRAWS {
        let pos = chess(fen);
        for (name, raw) in raw_evals(fen) {
            let adjusted = adjust(&pos, raw);
            if adjusted.abs() > 50 {
                failures.push(format!("{kind}: {fen} {name} {raw} -> {adjusted}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn issue_28_ladder_positions_are_draws() {
    for fen in [
        "8/8/4k3/8/7p/6b1/6Kp/8 w - - 0 1",
        "8/8/k7/8/P3K3/8/8/6b1 w - - 0 1",
    ] {
        let pos = chess(fen);
        for raw in [-3000, -1085, -222, 0, 222, 338, 1119, 3000] {
            assert_eq!(adjust(&pos, raw), 0, "{fen} raw {raw}");
        }
    }
}

#[test]
fn partial_scales_keep_the_sign_and_shrink() {
    // KRKB, opposite bishops, KRBKR: drawish for White, not dead drawn.
    for fen in [
        "8/8/4k3/8/8/2b5/8/R3K3 w - - 0 1",
        "8/4k3/2b5/5p2/5P2/2P1B3/4K3/8 w - - 0 1",
        "8/8/4k3/8/8/2r5/8/R1B1K3 w - - 0 1",
    ] {
        let adjusted = adjust(&chess(fen), 400);
        assert!(0 < adjusted && adjusted <= 100, "{fen}: {adjusted}");
    }
}

#[test]
fn middlegames_are_left_alone() {
    for fen in crate::bench::BENCH_FENS.lines().take(20) {
        let pos = chess(fen);
        assert!(!may_apply(pos.board()), "{fen}");
        assert_eq!(adjust(&pos, 123), fade(123, pos.halfmoves()));
    }
    let start = chess(crate::position::START_FEN);
    assert_eq!(adjust(&start, 37), 37);
}

#[test]
fn fifty_move_fade_halves_the_advantage_at_the_limit() {
    let fen = |clock: u32| format!("r3k3/pppp4/8/8/8/8/4PPPP/R3K3 w - - {clock} 60");
    assert_eq!(adjust(&chess(&fen(0)), 300), 300);
    assert_eq!(adjust(&chess(&fen(50)), 300), 225);
    assert_eq!(adjust(&chess(&fen(100)), 300), 150);
    assert_eq!(adjust(&chess(&fen(100)), -300), -150);
    // Known wins keep their score: their own terms say how to progress.
    let krk = |clock: u32| chess(&format!("8/8/4k3/8/8/8/8/R3K3 w - - {clock} 60"));
    assert_eq!(adjust(&krk(0), 0), adjust(&krk(90), 0));
}

#[test]
fn bare_king_endings_score_as_known_wins_for_the_right_side() {
    for (fen, white_wins) in [
        ("8/8/4k3/8/8/8/8/3QK3 w - - 0 1", true),
        ("8/8/4k3/8/8/8/8/3QK3 b - - 0 1", true),
        ("8/8/4K3/8/8/8/8/3rk3 w - - 0 1", false),
        ("8/8/4k3/8/8/8/8/2BBK3 w - - 0 1", true),
        ("8/8/4k3/8/8/8/8/2BNK3 b - - 0 1", true),
        ("8/8/4k3/8/8/8/3PP3/R3K3 w - - 0 1", true),
    ] {
        let pos = chess(fen);
        let white_view = |v: i32| if pos.turn() == Color::White { v } else { -v };
        for raw in [-500, 0, 500] {
            let score = white_view(adjust(&pos, raw));
            assert_eq!(score > KNOWN_WIN, white_wins, "{fen}: {score}");
            assert_eq!(score < -KNOWN_WIN, !white_wins, "{fen}: {score}");
            assert!(score.abs() < EVAL_LIMIT);
        }
    }
}

#[test]
fn mating_terms_point_to_the_edge_and_the_right_corner() {
    let score = |fen: &str| adjust(&chess(fen), 0);
    // KRK: the defending king on the edge is better for the attacker.
    assert!(score("8/8/8/8/3k4/8/8/R3K3 w - - 0 1") < score("8/8/8/8/8/8/8/R1K1k3 w - - 0 1"));
    // Kings close together beat kings far apart.
    assert!(score("k7/8/8/8/8/8/8/1R5K w - - 0 1") < score("k7/8/2K5/8/8/8/8/1R6 w - - 0 1"));
    // KBNK: a bishop on d1 covers the light corners a8 and h1, one on c1
    // the dark corners a1 and h8 (the white king on e3 is as far from a8 as
    // from h8).
    let light_a8 = score("k7/8/8/8/8/4K3/8/1N1B4 w - - 0 1");
    let light_h8 = score("7k/8/8/8/8/4K3/8/1N1B4 w - - 0 1");
    assert!(light_a8 > light_h8, "a8 {light_a8} h8 {light_h8}");
    let dark_a8 = score("k7/8/8/8/8/4K3/8/1NB5 w - - 0 1");
    let dark_h8 = score("7k/8/8/8/8/4K3/8/1NB5 w - - 0 1");
    assert!(dark_h8 > dark_a8, "h8 {dark_h8} a8 {dark_a8}");
    // Promoting is better than the KPK win.
    assert!(score("8/8/8/8/4k3/8/8/Q3K3 b - - 0 1") < -score("8/8/4k3/8/8/8/4P3/4K3 w - - 0 1"));
}

#[test]
fn kpk_textbook_results() {
    for (fen, score_is_win) in [
        // Black has the opposition: draw; with Black to move, White wins.
        ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", false),
        ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", true),
        // The king on the sixth in front of its pawn wins whoever moves.
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", true),
        ("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", true),
        // Rook pawn, defender in the corner.
        ("7k/8/6K1/7P/8/8/8/8 w - - 0 1", false),
        // The rule of the square (the double step counts): from h2 the king
        // is too late; from g2, with the move, it gets there.
        ("8/8/8/8/8/8/P6k/K7 w - - 0 1", true),
        ("8/8/8/8/8/8/P6k/K7 b - - 0 1", true),
        ("8/8/8/8/8/8/P5k1/K7 b - - 0 1", false),
        // The same with Black's pawn.
        ("8/8/8/4p3/4k3/8/4K3/8 b - - 0 1", false),
        ("8/8/8/4p3/4k3/8/4K3/8 w - - 0 1", true),
    ] {
        let pos = chess(fen);
        let score = adjust(&pos, 0).abs();
        assert_eq!(score >= KPK_WIN, score_is_win, "{fen}: {score}");
        if !score_is_win {
            assert_eq!(score, 0, "{fen}");
        }
    }
}

/// Every legal KPK position (pawn for either side, either side to move)
/// against the Syzygy KPvK table in `tests/data/syzygy`.
#[test]
fn kpk_bitbase_agrees_with_syzygy() {
    let tables = Tablebase::open("tests/data/syzygy");
    let mut checked = 0;
    for pawn_color in [Color::White, Color::Black] {
        for pawn in
            Bitboard::FULL & !Bitboard::from_rank(Rank::First) & !Bitboard::from_rank(Rank::Eighth)
        {
            for strong_king in Bitboard::FULL {
                for weak_king in Bitboard::FULL {
                    for turn in [Color::White, Color::Black] {
                        let mut board = Board::empty();
                        if strong_king == weak_king || pawn == strong_king || pawn == weak_king {
                            continue;
                        }
                        board.set_piece_at(
                            strong_king,
                            Piece {
                                color: pawn_color,
                                role: Role::King,
                            },
                        );
                        board.set_piece_at(
                            weak_king,
                            Piece {
                                color: !pawn_color,
                                role: Role::King,
                            },
                        );
                        board.set_piece_at(
                            pawn,
                            Piece {
                                color: pawn_color,
                                role: Role::Pawn,
                            },
                        );
                        let mut setup = Setup::empty();
                        setup.board = board;
                        setup.turn = turn;
                        let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) else {
                            continue;
                        };
                        let wdl = tables.probe_wdl_after_zeroing(&pos).expect("KPvK table");
                        let strong_wins = kpk::pawn_side_wins(
                            pawn_color == Color::White,
                            strong_king,
                            pawn,
                            weak_king,
                            turn == pawn_color,
                        );
                        let expected = if turn == pawn_color {
                            wdl == Wdl::Win
                        } else {
                            wdl == Wdl::Loss
                        };
                        assert_eq!(
                            strong_wins,
                            expected,
                            "{:?} {wdl:?}",
                            Position::from_chess(pos).fen()
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 600_000, "only {checked} positions");
}

/// Random legal positions with few men: `adjust` never panics, stays an
/// evaluation, and does not care which colour is which (the mirrored
/// position, colours swapped, gets the same score).
#[test]
fn random_sparse_positions_are_handled_alike_for_both_colours() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    let mut tried = 0;
    while tried < 20_000 {
        let mut setup = Setup::empty();
        setup.turn = if next(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let men = 2 + next(5);
        for i in 0..men {
            let sq = Square::new(next(64) as u32);
            let color = if next(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let role = match i {
                0 => Role::King,
                1 => Role::King,
                _ => roles[next(5) as usize],
            };
            let color = if i < 2 {
                [Color::White, Color::Black][i as usize]
            } else {
                color
            };
            setup.board.set_piece_at(sq, Piece { color, role });
        }
        let Ok(pos) = Chess::from_setup(setup.clone(), CastlingMode::Standard) else {
            continue;
        };
        let Ok(mirrored) = Chess::from_setup(setup.into_mirrored(), CastlingMode::Standard) else {
            panic!("the mirror of a legal position is legal");
        };
        tried += 1;
        for eval in [-900, -30, 0, 30, 900] {
            let score = adjust(&Snapshot::from_chess(&pos), eval);
            assert!(score.abs() < EVAL_LIMIT, "{score}");
            assert_eq!(
                score,
                adjust(&Snapshot::from_chess(&mirrored), eval),
                "{:?}",
                pos.board()
            );
        }
    }
}
