//! Legal moves for the search, in the order shakmaty's `legal_moves` lists
//! them (the search's move ordering breaks ties by list order, so the same
//! order keeps the same tree), written into the caller's list rather than
//! returned: a list returned by value is copied whole, which costs as much
//! as a fifth of generating it.
//!
//! Out of check there are also the two parts of that list the move picker
//! wants one at a time, each in the list's order: the tactical moves
//! (captures and queen promotions, all quiescence searches) and the quiet
//! moves (the rest). The first move of the full list tells whether any
//! legal move exists, and whether a quiet move from elsewhere (a killer) is
//! legal here is decided from the board. In check, the evasions come in
//! shakmaty's order too: en passant, the king, then the other pieces.
//!
//! For perft, [`count_legal_moves`] counts the legal moves, in check or
//! not, without building them.

use std::ops::ControlFlow;

use shakmaty::{
    Bitboard, CastlingSide, Color, File, Move, MoveList, Position as _, Role, Square, attacks,
};

use super::{Board, Snapshot};

/// Every legal move, into `moves` (cleared first).
pub fn legal_moves(chess: &Snapshot, moves: &mut MoveList) {
    moves.clear();
    if chess.is_check() {
        evasions(chess, moves);
    } else {
        generate::<true, true>(chess, moves);
    }
}

/// Captures (under-promotions that capture included) and queen promotions,
/// into `moves` (cleared first). Not for a side in check.
pub fn tactical_moves(chess: &Snapshot, moves: &mut MoveList) {
    debug_assert!(!chess.is_check(), "tactical_moves in check");
    moves.clear();
    generate::<true, false>(chess, moves);
}

/// The legal moves that are not tactical (quiet moves, pushes that promote
/// to anything but a queen, castling), appended to `moves`. Not for a side
/// in check.
pub fn quiet_moves(chess: &Snapshot, moves: &mut MoveList) {
    debug_assert!(!chess.is_check(), "quiet_moves in check");
    generate::<false, true>(chess, moves);
}

/// Appends the legal moves [`walk`] visits, in its order.
fn generate<const TACTICAL: bool, const QUIET: bool>(chess: &Snapshot, moves: &mut MoveList) {
    let start = moves.len();
    let _ = walk::<TACTICAL, QUIET>(chess, |m| {
        moves.push(m);
        ControlFlow::Continue(())
    });
    keep_legal(chess, moves, start);
}

/// Appends the legal moves of a side in check, in shakmaty's order: en
/// passant, the king's moves, then (against a single checker) the other
/// pieces' captures of the checker and steps between it and the king.
fn evasions(chess: &Snapshot, moves: &mut MoveList) {
    debug_assert!(chess.is_check(), "evasions out of check");
    let start = moves.len();
    let king = king_square(chess);
    let mut push = |m| {
        moves.push(m);
        ControlFlow::<Move>::Continue(())
    };
    let _ = walk_en_passant(chess, &mut push);
    // The squares behind the king on a checker's line are found attacked
    // with the king lifted off the board.
    let _ = walk_king(chess, king, !chess.us(), &mut push);
    if let Some(checker) = chess.checkers().single_square() {
        let _ = walk_non_king::<true, true>(chess, check_answers(king, checker), &mut push);
    }
    keep_legal(chess, moves, start);
}

/// Drops from `moves[start..]`, pseudo-legal moves with any en-passant
/// captures first, the ones that leave the king attacked: moves of pinned
/// pieces off their line, and en-passant captures that uncover a check or
/// leave one standing.
#[inline(always)]
fn keep_legal(chess: &Snapshot, moves: &mut MoveList, start: usize) {
    let king = king_square(chess);
    let blockers = slider_blockers(chess.board(), chess.them(), king);
    // En-passant captures come first; they alone can uncover a check
    // without a pinned piece moving.
    let new = &moves[start..];
    if blockers.any() || new.first().is_some_and(|m| m.is_en_passant()) {
        let mut kept = start;
        for i in start..moves.len() {
            let m = moves[i];
            if is_safe(chess, king, m, blockers) {
                moves[kept] = m;
                kept += 1;
            }
        }
        moves.truncate(kept);
    }
}

/// Whether `m`, a move that captures nothing (a killer or counter-move met
/// in another position), is legal in `chess`: decided from the board,
/// without generating moves. Not for a side in check.
pub fn is_legal_quiet(chess: &Snapshot, m: Move) -> bool {
    debug_assert!(!chess.is_check(), "is_legal_quiet in check");
    let board = chess.board();
    let turn = chess.turn();
    let king = king_square(chess);
    match m {
        Move::Normal {
            role,
            from,
            capture: None,
            to,
            ..
        } => {
            let occupied = board.occupied();
            if board.piece_at(from) != Some(role.of(turn)) || occupied.contains(to) {
                return false;
            }
            let reaches = match role {
                Role::Pawn => {
                    let pushes = PawnTargets::of(chess, Bitboard::from_square(from));
                    (pushes.single | pushes.double).contains(to)
                }
                _ => attacks::attacks(from, role.of(turn), occupied).contains(to),
            };
            reaches && promotes_rightly_and_keeps_king_safe(chess, king, m)
        }
        Move::Castle { king: from, rook } => {
            let side = if from.file() < rook.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            from == king && legal_castling_rook(chess, king, side) == Some(rook)
        }
        _ => false,
    }
}

/// Whether `m` is legal in `chess`, for a move met elsewhere (the
/// transposition table's): in check, looked up among the evasions; out of
/// check decided from the board, without generating moves.
pub fn is_legal(chess: &Snapshot, m: Move) -> bool {
    if chess.is_check() {
        let mut evading = MoveList::new();
        evasions(chess, &mut evading);
        return evading.contains(&m);
    }
    let board = chess.board();
    let turn = chess.turn();
    let king = king_square(chess);
    match m {
        Move::Normal {
            capture: Some(captured),
            role,
            from,
            to,
            ..
        } => {
            if board.piece_at(from) != Some(role.of(turn))
                || board.piece_at(to) != Some(captured.of(!turn))
            {
                return false;
            }
            let reaches = match role {
                Role::Pawn => attacks::pawn_attacks(turn, from).contains(to),
                _ => attacks::attacks(from, role.of(turn), board.occupied()).contains(to),
            };
            reaches && promotes_rightly_and_keeps_king_safe(chess, king, m)
        }
        Move::EnPassant { from, to } => {
            chess.maybe_ep_square() == Some(to)
                && (chess.our(Role::Pawn) & attacks::pawn_attacks(!turn, to)).contains(from)
                && is_safe_en_passant(chess, king, from, to)
        }
        _ => is_legal_quiet(chess, m),
    }
}

/// For a normal move (not in check) whose piece reaches its target: it
/// promotes exactly when a pawn reaches the last rank, to a piece it may
/// promote to, and leaves the king safe.
#[inline(always)]
fn promotes_rightly_and_keeps_king_safe(chess: &Snapshot, king: Square, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        return false;
    };
    let promotes = role == Role::Pawn && Bitboard::BACKRANKS.contains(to);
    let promotion_fits = match promotion {
        None => !promotes,
        Some(r) => promotes && PROMOTIONS.contains(&r),
    };
    if !promotion_fits {
        false
    } else if role == Role::King {
        safe_king_targets(chess, king, Bitboard::from_square(to)).any()
    } else {
        // A piece off every line through the king cannot be pinned: the
        // blockers are looked for only when it is on one.
        attacks::ray(king, from).is_empty()
            || is_safe(
                chess,
                king,
                m,
                slider_blockers(chess.board(), chess.them(), king),
            )
    }
}

/// The first move of `legal_moves()`, or `None` when there is no legal
/// move. Not for a side in check.
pub fn first_legal_move(chess: &Snapshot) -> Option<Move> {
    debug_assert!(!chess.is_check(), "first_legal_move in check");
    let king = king_square(chess);
    let blockers = slider_blockers(chess.board(), chess.them(), king);
    let found = walk::<true, true>(chess, |m| {
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

/// The number of legal moves, in check or not, counted from target
/// bitboards without building a move (perft's last ply). Each piece's
/// targets are cut to the squares that answer a check and, for a pinned
/// piece, to the line through its king and pinner; en passant, which can
/// uncover a check along the rank, is tried move by move.
pub fn count_legal_moves(chess: &Snapshot) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the CPU has POPCNT and BMI2 (detected just above; BMI1
        // comes with BMI2 on every CPU that has it), the only instructions
        // the function may use beyond the baseline.
        return unsafe { count_legal_moves_bmi2(chess) };
    }
    count_legal_moves_portable(chess)
}

/// [`count_legal_moves_portable`] compiled with POPCNT, BMI1 and BMI2: a
/// bitboard's count in one instruction instead of a dozen, and one-instruction
/// bit scans. The baseline build cannot assume them; perft's last ply is
/// mostly counting, so it runs about a quarter faster this way.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn count_legal_moves_bmi2(chess: &Snapshot) -> usize {
    count_legal_moves_portable(chess)
}

#[inline(always)]
fn count_legal_moves_portable(chess: &Snapshot) -> usize {
    let board = chess.board();
    let turn = chess.turn();
    let king = king_square(chess);
    let checkers = chess.checkers();
    let king_moves = safe_king_targets(chess, king, !chess.us()).count();
    if checkers.more_than_one() {
        return king_moves;
    }
    // Out of check every square will do; in check, the other pieces must
    // capture the checker or step between it and the king.
    let answers_check = checkers
        .single_square()
        .map_or(Bitboard::FULL, |checker| check_answers(king, checker));
    let targets = !chess.us() & answers_check;
    let pinned = slider_blockers(board, chess.them(), king) & chess.us();
    let pin_line = |from| {
        if pinned.contains(from) {
            attacks::ray(king, from)
        } else {
            Bitboard::FULL
        }
    };

    let mut count = king_moves;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in chess.our(role) {
            let reach = attacks::attacks(from, role.of(turn), board.occupied());
            count += (reach & targets & pin_line(from)).count();
        }
    }
    let pawns = chess.our(Role::Pawn);
    count += PawnTargets::of(chess, pawns & !pinned).count(targets);
    for pawn in pawns & pinned {
        count += PawnTargets::of(chess, pawn.into()).count(targets & pin_line(pawn));
    }
    if let Some(to) = chess.maybe_ep_square() {
        let capturers = pawns & attacks::pawn_attacks(!turn, to);
        count += capturers
            .into_iter()
            .filter(|&from| is_safe_en_passant(chess, king, from, to))
            .count();
    }
    if checkers.is_empty() {
        count += [CastlingSide::KingSide, CastlingSide::QueenSide]
            .into_iter()
            .filter(|&side| legal_castling_rook(chess, king, side).is_some())
            .count();
    }
    debug_assert_eq!(count, chess.to_chess().legal_moves().len(), "{chess:?}");
    count
}

/// Visits the pseudo-legal moves of a side not in check in shakmaty's
/// order (castling legal already): en passant; pawn captures towards the a-file,
/// then towards the h-file (plain before promoting); single pushes,
/// promoting pushes, double pushes; then knights, bishops, rooks, queens
/// and the king (to squares no enemy attacks), each piece's targets by
/// square; castling king side, then queen side. `TACTICAL` asks for the
/// captures and queen promotions, `QUIET` for the other moves.
#[inline(always)]
fn walk<const TACTICAL: bool, const QUIET: bool>(
    chess: &Snapshot,
    mut visit: impl FnMut(Move) -> ControlFlow<Move>,
) -> ControlFlow<Move> {
    if TACTICAL {
        walk_en_passant(chess, &mut visit)?;
    }
    walk_non_king::<TACTICAL, QUIET>(chess, Bitboard::FULL, &mut visit)?;
    let king = king_square(chess);
    walk_king(
        chess,
        king,
        move_targets::<TACTICAL, QUIET>(chess),
        &mut visit,
    )?;
    if QUIET {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(rook) = legal_castling_rook(chess, king, side) {
                visit(Move::Castle { king, rook })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The squares a piece may move to for the kind of moves asked: any not
/// our own, the enemy's (tactical only: captures) or the empty ones.
#[inline(always)]
fn move_targets<const TACTICAL: bool, const QUIET: bool>(chess: &Snapshot) -> Bitboard {
    match (TACTICAL, QUIET) {
        (true, true) => !chess.us(),
        (true, false) => chess.them(),
        (false, _) => !chess.board().occupied(),
    }
}

/// The king's moves to squares in `targets` that no enemy attacks once it
/// has left its own.
#[inline(always)]
fn walk_king(
    chess: &Snapshot,
    king: Square,
    targets: Bitboard,
    mut visit: impl FnMut(Move) -> ControlFlow<Move>,
) -> ControlFlow<Move> {
    for to in safe_king_targets(chess, king, targets) {
        visit(Move::Normal {
            role: Role::King,
            from: king,
            capture: chess.board().role_at(to),
            to,
            promotion: None,
        })?;
    }
    ControlFlow::Continue(())
}

/// The squares where a piece other than the king answers a check by
/// `checker`: its own, or between it and the king.
#[inline]
fn check_answers(king: Square, checker: Square) -> Bitboard {
    attacks::between(king, checker).with(checker)
}

/// The en-passant captures, pseudo-legal, towards the a-file first.
#[inline(always)]
fn walk_en_passant(
    chess: &Snapshot,
    mut visit: impl FnMut(Move) -> ControlFlow<Move>,
) -> ControlFlow<Move> {
    if let Some(to) = chess.maybe_ep_square() {
        for from in chess.our(Role::Pawn) & attacks::pawn_attacks(!chess.turn(), to) {
            visit(Move::EnPassant { from, to })?;
        }
    }
    ControlFlow::Continue(())
}

/// The pawns' moves (en passant aside), then the knights', bishops',
/// rooks' and queens', pseudo-legal, to squares in `allowed`, in
/// [`walk`]'s order.
#[inline(always)]
fn walk_non_king<const TACTICAL: bool, const QUIET: bool>(
    chess: &Snapshot,
    allowed: Bitboard,
    mut visit: impl FnMut(Move) -> ControlFlow<Move>,
) -> ControlFlow<Move> {
    let board = chess.board();
    let turn = chess.turn();
    let occupied = board.occupied();
    let targets = move_targets::<TACTICAL, QUIET>(chess) & allowed;
    let normal = |role, from, to, promotion| Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    };

    let pawns = PawnTargets::of(chess, chess.our(Role::Pawn));
    let single = pawns.single & allowed;
    if TACTICAL {
        for (captures, shift) in pawns.captures {
            let captures = captures & allowed;
            for to in captures & !Bitboard::BACKRANKS {
                visit(normal(Role::Pawn, offset(to, -shift), to, None))?;
            }
            for to in captures & Bitboard::BACKRANKS {
                for promotion in PROMOTIONS {
                    visit(normal(Role::Pawn, offset(to, -shift), to, Some(promotion)))?;
                }
            }
        }
    }
    let forward = pawns.forward;
    if QUIET {
        for to in single & !Bitboard::BACKRANKS {
            visit(normal(Role::Pawn, offset(to, -forward), to, None))?;
        }
    }
    for to in single & Bitboard::BACKRANKS {
        // The queen first, then the under-promotions.
        let promotions = match (TACTICAL, QUIET) {
            (true, true) => &PROMOTIONS[..],
            (true, false) => &PROMOTIONS[..1],
            (false, _) => &PROMOTIONS[1..],
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
    if QUIET {
        for to in pawns.double & allowed {
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
    ControlFlow::Continue(())
}

/// The rook the king may castle with on `side` (not in check): the path
/// is empty, and no square the king crosses or lands on is attacked, with
/// king and rook lifted as castling lifts them (Chess960 included).
fn legal_castling_rook(chess: &Snapshot, king: Square, side: CastlingSide) -> Option<Square> {
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

/// Where the king can step (within `targets`) without being attacked
/// there. The king is lifted off the board first, so that a slider giving
/// check also covers the squares behind the king.
fn safe_king_targets(chess: &Snapshot, king: Square, targets: Bitboard) -> Bitboard {
    let board = chess.board();
    let without_king = board.occupied().without(king);
    let mut safe = Bitboard::EMPTY;
    for to in attacks::king_attacks(king) & targets {
        if board.attacks_to(to, !chess.turn(), without_king).is_empty() {
            safe.add(to);
        }
    }
    safe
}

/// The squares some pawns move to (en passant aside), by kind of move,
/// before any check for pins or checks.
struct PawnTargets {
    /// Captures towards the a-file, then towards the h-file, each with the
    /// shift from origin to target.
    captures: [(Bitboard, i32); 2],
    /// Single pushes, promoting or not.
    single: Bitboard,
    double: Bitboard,
    /// The shift of a single push.
    forward: i32,
}

impl PawnTargets {
    fn of(chess: &Snapshot, pawns: Bitboard) -> PawnTargets {
        let turn = chess.turn();
        let empty = !chess.board().occupied();
        let captures = pawn_capture_shifts(turn).map(|(edge, shift)| {
            let targets = (pawns & !Bitboard::from_file(edge)).shift(shift) & chess.them();
            (targets, shift)
        });
        let forward = turn.fold_wb(8, -8);
        let single = pawns.shift(forward) & empty;
        // A second push from the third rank lands on the fourth, which is
        // in the half of the board the pawns start in.
        let fourth_rank = turn.fold_wb(Bitboard::SOUTH, Bitboard::NORTH);
        let double = single.shift(forward) & fourth_rank & empty;
        PawnTargets {
            captures,
            single,
            double,
            forward,
        }
    }

    /// The moves to squares in `allowed`, a promotion counting once per
    /// piece it can promote to.
    fn count(&self, allowed: Bitboard) -> usize {
        let with_promotions = |to: Bitboard| {
            let to = to & allowed;
            (to & !Bitboard::BACKRANKS).count()
                + PROMOTIONS.len() * (to & Bitboard::BACKRANKS).count()
        };
        let [(towards_a, _), (towards_h, _)] = self.captures;
        with_promotions(towards_a)
            + with_promotions(towards_h)
            + with_promotions(self.single)
            + (self.double & allowed).count()
    }
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

fn king_square(chess: &Snapshot) -> Square {
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
fn is_safe(chess: &Snapshot, king: Square, m: Move, blockers: Bitboard) -> bool {
    match m {
        Move::Normal { from, to, .. } => {
            !blockers.contains(from) || attacks::aligned(from, to, king)
        }
        Move::EnPassant { from, to } => is_safe_en_passant(chess, king, from, to),
        _ => true,
    }
}

/// Whether the side to move has a legal en-passant capture onto `to`
/// (the Zobrist key counts only such en-passant squares).
pub fn has_legal_en_passant(chess: &Snapshot, to: Square) -> bool {
    let king = king_square(chess);
    (chess.our(Role::Pawn) & attacks::pawn_attacks(!chess.turn(), to))
        .into_iter()
        .any(|from| is_safe_en_passant(chess, king, from, to))
}

/// Whether capturing en passant from `from` to `to` leaves the king safe,
/// in check or not: the board after the capture is looked at whole, as
/// two pawns leave a rank or diagonal at once.
fn is_safe_en_passant(chess: &Snapshot, king: Square, from: Square, to: Square) -> bool {
    let board = chess.board();
    let captured = Square::from_coords(to.file(), from.rank());
    let occupied = board.occupied().toggled(from).toggled(captured).with(to);
    board
        .attacks_to(king, !chess.turn(), occupied)
        .without(captured)
        .is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::movepick::is_tactical;
    use shakmaty::Chess;

    /// Positions with en passant (pinned along a rank too), promotions,
    /// pins, castling (Chess960 too), a stalemate, checks answered by en
    /// passant or by a double push, a pinned pawn that promotes by capturing
    /// its pinner, and a double check.
    const SPECIAL_FENS: [&str; 13] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "1r2k3/P1P5/8/8/8/8/1p1p4/R5K1 b - - 0 1",
        "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "1r2k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "7k/8/8/8/K6q/4P3/3P4/8 w - - 0 1",
        "2b1k3/1P6/K7/8/8/8/8/8 w - - 0 1",
        "k3r3/8/8/8/8/5n2/8/4K3 w - - 0 1",
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
            let root = Position::from_fen(fen.trim(), false).unwrap().to_chess();
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
            legal_moves(&Snapshot::from_chess(&chess), &mut generated);
            assert_eq!(generated, chess.legal_moves(), "{chess:?}");
        }
    }

    #[test]
    fn count_legal_moves_is_the_legal_list_length() {
        for chess in positions() {
            // The dispatched count (with POPCNT and BMI2 where the CPU has
            // them) and the portable one.
            let expected = chess.legal_moves().len();
            assert_eq!(
                count_legal_moves(&Snapshot::from_chess(&chess)),
                expected,
                "{chess:?}"
            );
            assert_eq!(
                count_legal_moves_portable(&Snapshot::from_chess(&chess)),
                expected,
                "{chess:?}"
            );
        }
    }

    #[test]
    fn tactical_moves_are_the_legal_ones_in_legal_order() {
        for chess in not_in_check() {
            let mut expected = chess.legal_moves();
            expected.retain(|m| is_tactical(*m));
            let mut generated = MoveList::new();
            tactical_moves(&Snapshot::from_chess(&chess), &mut generated);
            assert_eq!(generated, expected, "{chess:?}");
        }
    }

    #[test]
    fn quiet_moves_follow_the_tactical_ones_in_legal_order() {
        for chess in not_in_check() {
            let legal = chess.legal_moves();
            let (tactical, quiet): (Vec<Move>, Vec<Move>) =
                legal.iter().partition(|m| is_tactical(**m));
            let mut generated = MoveList::new();
            let snapshot = Snapshot::from_chess(&chess);
            tactical_moves(&snapshot, &mut generated);
            quiet_moves(&snapshot, &mut generated);
            assert_eq!(generated[..tactical.len()], tactical[..], "{chess:?}");
            assert_eq!(generated[tactical.len()..], quiet[..], "{chess:?}");
        }
    }

    #[test]
    fn is_legal_quiet_agrees_with_shakmaty() {
        let all = positions();
        // Quiet moves met anywhere: pushes, under-promotions, castling
        // (Chess960 too), king and piece moves, legal in some positions only.
        let mut quiets: Vec<Move> = all
            .iter()
            .step_by(5)
            .flat_map(|c| c.legal_moves())
            .filter(|&m| !is_tactical(m))
            .collect();
        quiets.sort_by_key(|m| format!("{m:?}"));
        quiets.dedup();
        let mut legal_found = 0;
        for chess in all.iter().filter(|c| !c.is_check()).step_by(17) {
            let snapshot = Snapshot::from_chess(chess);
            for &m in &quiets {
                let legal = chess.is_legal(m);
                assert_eq!(is_legal_quiet(&snapshot, m), legal, "{m:?} in {chess:?}");
                legal_found += usize::from(legal);
            }
        }
        assert!(legal_found > 1000, "{legal_found}");
    }

    #[test]
    fn is_legal_agrees_with_shakmaty() {
        let all = positions();
        // Every kind of move, met in some position and tried in others:
        // captures (king captures, under-promotions, en passant) as well
        // as quiet moves, in check and out of it.
        let mut moves: Vec<Move> = all
            .iter()
            .step_by(3)
            .flat_map(|c| c.legal_moves())
            .collect();
        moves.sort_by_key(|m| format!("{m:?}"));
        moves.dedup();
        let (mut legal_found, mut in_check) = (0, 0);
        for chess in all.iter().step_by(23) {
            let snapshot = Snapshot::from_chess(chess);
            for &m in &moves {
                let legal = chess.is_legal(m);
                assert_eq!(is_legal(&snapshot, m), legal, "{m:?} in {chess:?}");
                legal_found += usize::from(legal);
                in_check += usize::from(legal && chess.is_check());
            }
        }
        assert!(
            legal_found > 1000 && in_check > 10,
            "{legal_found} {in_check}"
        );
    }

    #[test]
    fn first_legal_move_heads_the_legal_list() {
        for chess in not_in_check() {
            let expected = chess.legal_moves().first().copied();
            assert_eq!(
                first_legal_move(&Snapshot::from_chess(&chess)),
                expected,
                "{chess:?}"
            );
        }
        let stalemate = Position::from_fen(SPECIAL_FENS[6], false).unwrap();
        assert_eq!(first_legal_move(stalemate.snapshot()), None);
    }
}
