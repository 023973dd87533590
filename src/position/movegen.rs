//! Legal moves for the search, in the order shakmaty's `legal_moves` lists
//! them (the search's move ordering breaks ties by list order, so the same
//! order keeps the same tree), written into the caller's list rather than
//! returned: a list returned by value is copied whole, which costs as much
//! as a fifth of generating it.
//!
//! Out of check there are also the moves quiescence searches alone
//! (captures and queen promotions) and the first move of the full list
//! (which tells whether any legal move exists, and whether the full list
//! starts with a tactical move), each without generating the rest. In
//! check, shakmaty generates the evasions.

use std::ops::ControlFlow;

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, File, Move, MoveList, Position as _, Role, Square,
    attacks,
};

/// Every legal move, into `moves` (cleared first).
pub fn legal_moves(chess: &Chess, moves: &mut MoveList) {
    if chess.is_check() {
        *moves = chess.legal_moves();
    } else {
        generate::<true>(chess, moves);
    }
}

/// Captures (under-promotions that capture included) and queen promotions,
/// into `moves` (cleared first). Not for a side in check.
pub fn tactical_moves(chess: &Chess, moves: &mut MoveList) {
    debug_assert!(!chess.is_check(), "tactical_moves in check");
    generate::<false>(chess, moves);
}

/// The legal moves [`walk`] visits, in its order.
fn generate<const QUIETS: bool>(chess: &Chess, moves: &mut MoveList) {
    moves.clear();
    let _ = walk::<QUIETS>(chess, |m| {
        moves.push(m);
        ControlFlow::Continue(())
    });
    let king = king_square(chess);
    let blockers = slider_blockers(chess.board(), chess.them(), king);
    // En-passant captures come first; they alone can uncover a check
    // without a pinned piece moving.
    if blockers.any() || moves.first().is_some_and(|m| m.is_en_passant()) {
        moves.retain(|m| is_safe(chess, king, *m, blockers));
    }
}

/// The first move of `legal_moves()`, or `None` when there is no legal
/// move. Not for a side in check.
pub fn first_legal_move(chess: &Chess) -> Option<Move> {
    debug_assert!(!chess.is_check(), "first_legal_move in check");
    let king = king_square(chess);
    let blockers = slider_blockers(chess.board(), chess.them(), king);
    let found = walk::<true>(chess, |m| {
        if is_safe(chess, king, m, blockers) {
            ControlFlow::Break(m)
        } else {
            ControlFlow::Continue(())
        }
    });
    match found {
        ControlFlow::Break(m) => Some(m),
        ControlFlow::Continue(()) => None,
    }
}

/// Visits the pseudo-legal moves of a side not in check in shakmaty's
/// order (castling legal already): en passant; pawn captures towards the a-file,
/// then towards the h-file (plain before promoting); single pushes,
/// promoting pushes, double pushes; then knights, bishops, rooks, queens
/// and the king (to squares no enemy attacks), each piece's targets by
/// square; castling king side, then queen side. Without `QUIETS`, only
/// captures and queen promotions.
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
    if QUIETS {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(rook) = legal_castling_rook(chess, king, side) {
                visit(Move::Castle { king, rook })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The rook the king may castle with on `side` (not in check): the path
/// is empty, and no square the king crosses or lands on is attacked, with
/// king and rook lifted as castling lifts them (Chess960 included).
fn legal_castling_rook(chess: &Chess, king: Square, side: CastlingSide) -> Option<Square> {
    let turn = chess.turn();
    let castles = chess.castles();
    let rook = castles.rook(turn, side)?;
    let board = chess.board();
    let occupied = board.occupied();
    if (castles.path(turn, side) & occupied).any() {
        return None;
    }
    let attacked = |square, occupied| board.attacks_to(square, !turn, occupied).any();
    let king_to = side.king_to(turn);
    if attacked(king_to, occupied ^ king ^ rook ^ side.rook_to(turn)) {
        return None;
    }
    let crossed = attacks::between(king, king_to).with(king);
    let without_king = occupied ^ king;
    if crossed
        .into_iter()
        .any(|square| attacked(square, without_king))
    {
        return None;
    }
    Some(rook)
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

/// Pieces (of either side) that alone stand between `king` and one of
/// `sliders`: with the king's enemies as sliders, its own pieces among them
/// are pinned; with its enemies' own pieces, a move of one of those may
/// uncover a check.
pub fn slider_blockers(board: &Board, sliders: Bitboard, king: Square) -> Bitboard {
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & sliders {
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
    /// pins, castling (Chess960 too) and a stalemate.
    const SPECIAL_FENS: [&str; 9] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "1r2k3/P1P5/8/8/8/8/1p1p4/R5K1 b - - 0 1",
        "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "1r2k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    ];

    /// The bench and special positions and every position two plies after
    /// each.
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
        out
    }

    fn not_in_check() -> impl Iterator<Item = Chess> {
        positions().into_iter().filter(|c| !c.is_check())
    }

    #[test]
    fn legal_moves_are_shakmatys_in_its_order() {
        let mut generated = MoveList::new();
        for chess in positions() {
            legal_moves(&chess, &mut generated);
            assert_eq!(generated, chess.legal_moves(), "{chess:?}");
        }
    }

    #[test]
    fn tactical_moves_are_the_legal_ones_in_legal_order() {
        for chess in not_in_check() {
            let mut expected = chess.legal_moves();
            expected.retain(|m| is_tactical(*m));
            let mut generated = MoveList::new();
            tactical_moves(&chess, &mut generated);
            assert_eq!(generated, expected, "{chess:?}");
        }
    }

    #[test]
    fn first_legal_move_heads_the_legal_list() {
        for chess in not_in_check() {
            let expected = chess.legal_moves().first().copied();
            assert_eq!(first_legal_move(&chess), expected, "{chess:?}");
        }
        let stalemate = Position::from_fen(SPECIAL_FENS[6], false).unwrap();
        assert_eq!(first_legal_move(stalemate.chess()), None);
    }
}
