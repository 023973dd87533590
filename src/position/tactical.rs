//! The moves quiescence searches when not in check, generated without the
//! quiet ones: legal captures and queen promotions, listed in the order
//! shakmaty's `legal_moves` lists them. The search's move ordering breaks
//! ties by list order, so the same order keeps the same tree.
//!
//! Also the first move of the full list (which tells whether any legal move
//! exists, and whether the full list starts with a tactical move), found
//! without generating the rest.

use std::ops::ControlFlow;

use shakmaty::{
    Bitboard, Chess, Color, File, Move, MoveList, Position as _, Role, Square, attacks,
};

/// Captures (under-promotions that capture included) and queen promotions.
/// Not for a side in check: evasions follow other rules.
pub fn tactical_moves(chess: &Chess) -> MoveList {
    debug_assert!(!chess.is_check(), "tactical_moves in check");
    let mut moves = MoveList::new();
    let _ = walk::<false>(chess, |m| {
        moves.push(m);
        ControlFlow::Continue(())
    });
    let king = king_square(chess);
    let blockers = slider_blockers(chess, king);
    // En-passant captures come first; they alone can uncover a check
    // without a pinned piece moving.
    if blockers.any() || moves.first().is_some_and(|m| m.is_en_passant()) {
        moves.retain(|m| is_safe(chess, king, *m, blockers));
    }
    moves
}

/// The first move of `legal_moves()`, or `None` when there is no legal
/// move. Not for a side in check.
pub fn first_legal_move(chess: &Chess) -> Option<Move> {
    debug_assert!(!chess.is_check(), "first_legal_move in check");
    let king = king_square(chess);
    let blockers = slider_blockers(chess, king);
    let found = walk::<true>(chess, |m| {
        if is_safe(chess, king, m, blockers) {
            ControlFlow::Break(m)
        } else {
            ControlFlow::Continue(())
        }
    });
    match found {
        ControlFlow::Break(m) => Some(m),
        // Castling comes last in the list and is not walked: with no other
        // legal move (rare), ask shakmaty.
        ControlFlow::Continue(()) => chess.legal_moves().first().copied(),
    }
}

/// Visits the pseudo-legal moves of a side not in check in shakmaty's
/// order, castling left out: en passant; pawn captures towards the a-file,
/// then towards the h-file (plain before promoting); single pushes,
/// promoting pushes, double pushes; then knights, bishops, rooks, queens
/// and the king (to squares no enemy attacks), each piece's targets by
/// square. Without `QUIETS`, only captures and queen promotions.
#[inline(always)]
fn walk<const QUIETS: bool>(
    chess: &Chess,
    mut visit: impl FnMut(Move) -> ControlFlow<Move>,
) -> ControlFlow<Move> {
    let board = chess.board();
    let turn = chess.turn();
    let occupied = board.occupied();
    let targets = if QUIETS { !chess.us() } else { chess.them() };
    let normal = |role, from, to, promotion| Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    };

    if let Some(to) = chess.maybe_ep_square() {
        for from in chess.our(Role::Pawn) & attacks::pawn_attacks(!turn, to) {
            visit(Move::EnPassant { from, to })?;
        }
    }
    let pawns = chess.our(Role::Pawn);
    for (edge, shift) in pawn_capture_shifts(turn) {
        let captures = (pawns & !Bitboard::from_file(edge)).shift(shift) & chess.them();
        for to in captures & !Bitboard::BACKRANKS {
            visit(normal(Role::Pawn, offset(to, -shift), to, None))?;
        }
        for to in captures & Bitboard::BACKRANKS {
            for promotion in PROMOTIONS {
                visit(normal(Role::Pawn, offset(to, -shift), to, Some(promotion)))?;
            }
        }
    }
    let forward = turn.fold_wb(8, -8);
    let single = pawns.shift(forward) & !occupied;
    if QUIETS {
        for to in single & !Bitboard::BACKRANKS {
            visit(normal(Role::Pawn, offset(to, -forward), to, None))?;
        }
    }
    for to in single & Bitboard::BACKRANKS {
        let promotions = if QUIETS {
            &PROMOTIONS[..]
        } else {
            &PROMOTIONS[..1]
        };
        for &promotion in promotions {
            visit(normal(
                Role::Pawn,
                offset(to, -forward),
                to,
                Some(promotion),
            ))?;
        }
    }
    if QUIETS {
        let fourth_rank = turn.fold_wb(Bitboard::SOUTH, Bitboard::NORTH);
        for to in single.shift(forward) & fourth_rank & !occupied {
            visit(normal(Role::Pawn, offset(to, -2 * forward), to, None))?;
        }
    }
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in chess.our(role) {
            for to in attacks::attacks(from, role.of(turn), occupied) & targets {
                visit(normal(role, from, to, None))?;
            }
        }
    }
    // Not in check, no slider sees through the king: the board as it is
    // tells whether a square is attacked.
    let king = king_square(chess);
    for to in attacks::king_attacks(king) & targets {
        if board.attacks_to(to, !turn, occupied).is_empty() {
            visit(normal(Role::King, king, to, None))?;
        }
    }
    ControlFlow::Continue(())
}

/// shakmaty's order of promotions.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Pawn captures in shakmaty's order, towards the a-file first: the file
/// no pawn captures from that way, and the shift from origin to target.
fn pawn_capture_shifts(turn: Color) -> [(File, i32); 2] {
    match turn {
        Color::White => [(File::A, 7), (File::H, 9)],
        Color::Black => [(File::A, -9), (File::H, -7)],
    }
}

fn offset(square: Square, delta: i32) -> Square {
    square
        .offset(delta)
        .expect("a pawn move stays on the board")
}

fn king_square(chess: &Chess) -> Square {
    chess
        .board()
        .king_of(chess.turn())
        .expect("king in standard chess")
}

/// Pieces (of either side) that alone stand between the king and an enemy
/// slider: ours among them are pinned.
fn slider_blockers(chess: &Chess, king: Square) -> Bitboard {
    let board = chess.board();
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & chess.them() {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

/// Whether the pseudo-legal `m` leaves the king (not in check) safe.
fn is_safe(chess: &Chess, king: Square, m: Move, blockers: Bitboard) -> bool {
    match m {
        Move::Normal { from, to, .. } => {
            !blockers.contains(from) || attacks::aligned(from, to, king)
        }
        Move::EnPassant { from, to } => {
            let board = chess.board();
            let captured = Square::from_coords(to.file(), from.rank());
            let occupied = board.occupied().toggled(from).toggled(captured).with(to);
            board
                .attacks_to(king, !chess.turn(), occupied)
                .without(captured)
                .is_empty()
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::movepick::is_tactical;

    /// Positions with en passant (pinned along a rank too), promotions,
    /// pins, castling and a stalemate.
    const SPECIAL_FENS: [&str; 7] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "1r2k3/P1P5/8/8/8/8/1p1p4/R5K1 b - - 0 1",
        "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
    ];

    /// The bench and special positions and every position two plies after
    /// each, those not in check.
    fn positions() -> Vec<Chess> {
        let roots = crate::bench::BENCH_FENS
            .lines()
            .filter(|l| !l.trim().is_empty())
            .chain(SPECIAL_FENS);
        let mut out = Vec::new();
        for fen in roots {
            let root = Position::from_fen(fen.trim(), false)
                .unwrap()
                .chess()
                .clone();
            for m in root.legal_moves() {
                let mut child = root.clone();
                child.play_unchecked(m);
                for m2 in child.legal_moves() {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(m2);
                    out.push(grandchild);
                }
                out.push(child);
            }
            out.push(root);
        }
        out.retain(|c| !c.is_check());
        out
    }

    #[test]
    fn tactical_moves_are_the_legal_ones_in_legal_order() {
        for chess in positions() {
            let mut expected = chess.legal_moves();
            expected.retain(|m| is_tactical(*m));
            assert_eq!(tactical_moves(&chess), expected, "{chess:?}");
        }
    }

    #[test]
    fn first_legal_move_heads_the_legal_list() {
        let all = positions();
        for chess in &all {
            let expected = chess.legal_moves().first().copied();
            assert_eq!(first_legal_move(chess), expected, "{chess:?}");
        }
        let stalemate = Position::from_fen(SPECIAL_FENS[6], false).unwrap();
        assert_eq!(first_legal_move(stalemate.chess()), None);
    }
}
