//! perft's bulk count of the last ply, `movegen::count_legal_moves`, agrees
//! with the length of shakmaty's legal move list in every position within
//! three plies of each perft suite position, and within one ply of every
//! position of random games from them (checks and double checks, pins, en
//! passant with and without a discovered check, promotions, castling and
//! Chess960 castling).

use crate::common::{Rng, SUITE, SUITE_960, load_perft_cases};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position as _, Role, attacks};
use tarpon::position::{Position, Snapshot, movegen};

/// How often the cases that a bulk count gets wrong most easily came up.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    checks: usize,
    double_checks: usize,
    /// Positions where an en-passant capture is possible on the board but
    /// illegal (pinned, or uncovering a check along the rank).
    illegal_en_passant: usize,
    en_passant: usize,
    promotions: usize,
    castles: usize,
}

fn check_subtree(chess: &Chess, plies: u32, seen: &mut Seen) {
    let legal = chess.legal_moves();
    assert_eq!(
        movegen::count_legal_moves(&Snapshot::from_chess(chess)),
        legal.len(),
        "{}",
        Fen::from_position(chess, EnPassantMode::Always)
    );
    seen.positions += 1;
    seen.checks += usize::from(chess.is_check());
    seen.double_checks += usize::from(chess.checkers().more_than_one());
    let legal_en_passant = legal.iter().filter(|m| m.is_en_passant()).count();
    let possible_en_passant = chess.maybe_ep_square().map_or(0, |to| {
        (chess.our(Role::Pawn) & attacks::pawn_attacks(!chess.turn(), to)).count()
    });
    seen.illegal_en_passant += usize::from(legal_en_passant < possible_en_passant);
    seen.en_passant += legal_en_passant;
    seen.promotions += legal.iter().filter(|m| m.is_promotion()).count();
    seen.castles += legal.iter().filter(|m| m.is_castle()).count();
    if plies == 0 {
        return;
    }
    for &m in &legal {
        let mut child = chess.clone();
        child.play_unchecked(m);
        check_subtree(&child, plies - 1, seen);
    }
}

fn suite_positions() -> Vec<Chess> {
    [(SUITE, false), (SUITE_960, true)]
        .into_iter()
        .flat_map(|(path, chess960)| {
            load_perft_cases(path)
                .into_iter()
                .map(move |case| Position::from_fen(&case.fen, chess960).unwrap().to_chess())
        })
        .collect()
}

#[test]
fn bulk_count_is_the_legal_list_length_three_plies_around_the_suites() {
    let mut seen = Seen::default();
    for chess in suite_positions() {
        check_subtree(&chess, 3, &mut seen);
    }
    println!("{seen:?}");
    assert!(seen.positions > 1_000_000, "{seen:?}");
    assert!(seen.checks > 10_000 && seen.double_checks > 5, "{seen:?}");
    assert!(
        seen.en_passant > 1_000 && seen.illegal_en_passant > 100,
        "{seen:?}"
    );
    assert!(
        seen.promotions > 10_000 && seen.castles > 10_000,
        "{seen:?}"
    );
}

/// Random games reach the sparse middlegames and endgames, where double
/// checks and checks by promoted pieces are common, that the suites' first
/// plies rarely do.
#[test]
fn bulk_count_is_the_legal_list_length_along_random_games() {
    let mut rng = Rng(0xC0_FFEE_2024);
    let mut seen = Seen::default();
    for start in suite_positions() {
        for _ in 0..8 {
            let mut chess = start.clone();
            for _ in 0..200 {
                check_subtree(&chess, 1, &mut seen);
                let moves = chess.legal_moves();
                if moves.is_empty() {
                    break;
                }
                chess.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }
    println!("{seen:?}");
    assert!(seen.positions > 1_000_000, "{seen:?}");
    assert!(seen.checks > 10_000 && seen.double_checks > 100, "{seen:?}");
    assert!(
        seen.en_passant > 100 && seen.illegal_en_passant > 10,
        "{seen:?}"
    );
    assert!(seen.promotions > 10_000 && seen.castles > 1_000, "{seen:?}");
}
