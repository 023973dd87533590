//! Static exchange evaluation: the material balance of the capture sequence
//! on one square, each side recapturing with its least valuable attacker and
//! free to stop when continuing would lose. X-ray attackers behind the
//! pieces that capture join in as the occupancy empties. The search asks
//! only whether an exchange reaches a threshold, which is cheaper to settle
//! than its value.

use shakmaty::{Bitboard, Color, Move, Role, Square, attacks};

use crate::position::Snapshot;

/// Exchange values (classical, not the evaluator's): what SEE trades in.
pub fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 300,
        Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 20000,
    }
}

/// Whether playing `m` wins at least `threshold` (from the mover's point of
/// view; negative: loses at most `-threshold`) once both sides have gone on
/// with the exchange on the target square as far as suits them. Each side
/// in turn either takes with its least valuable attacker or stops; a king
/// takes only where nothing attacks it afterwards. Pins are ignored.
/// Castling is worth 0.
///
/// The answer is settled as soon as the side to move can stop with a
/// result it likes, or could not reach one even if its capture went
/// unanswered, so most calls look at one or two captures.
///
/// Forced inline: the picker asks for every capture and the search for
/// every pruning candidate, and each caller's copy folds in what it knows
/// (a zero threshold, a move that captures nothing).
#[inline(always)]
pub fn see_at_least(chess: &Snapshot, m: Move, threshold: i32) -> bool {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Castle { .. } | Move::Put { .. } => return threshold <= 0,
    };
    let on_square = m.promotion().unwrap_or(m.role());
    // The mover's gain if the exchange stopped now, less the threshold.
    let mut margin = m.capture().map_or(0, see_value)
        + m.promotion()
            .map_or(0, |p| see_value(p) - see_value(Role::Pawn))
        - threshold;
    // The opponent may simply not recapture.
    if margin < 0 {
        return false;
    }
    // Even losing the piece for nothing would leave the mover at the threshold.
    let mut on_square_value = see_value(on_square);
    if margin - on_square_value >= 0 {
        return true;
    }

    let board = chess.board();
    let mut occupied = board.occupied() ^ Bitboard::from_square(from);
    if let Move::EnPassant { .. } = m {
        occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
    }
    // Both sides' attackers of the square, kept up to date as pieces leave:
    // only a slider behind a piece that just captured along its line can
    // join, so each step looks up at most one ray.
    let diagonal = board.bishops() | board.queens();
    let straight = board.rooks() | board.queens();
    let mut attackers = all_attackers_to(chess, to, occupied, diagonal, straight);
    let mover = chess.turn();
    let mut side = !mover;
    loop {
        debug_assert_eq!(
            attackers & board.by_color(side),
            attackers_to(chess, to, side, occupied),
            "incremental SEE attackers of {to} went wrong for {m} in {board:?}"
        );
        // Here `side` would rather take than stop (the checks below and
        // before the loop), so the answer turns on whether it can.
        let Some((sq, role)) = least_valuable(chess, attackers & board.by_color(side)) else {
            return side != mover;
        };
        if role == Role::King
            && attackers_to(chess, to, !side, occupied ^ Bitboard::from_square(sq)).any()
        {
            return side != mover;
        }
        occupied ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
        attackers &= occupied;
        // `side` takes the piece on the square: the margin moves its way.
        if side == mover {
            margin += on_square_value;
        } else {
            margin -= on_square_value;
        }
        on_square_value = see_value(role);
        side = !side;
        // Now `side` decides. Stopping settles it if that suits `side`; so
        // does a capture that could not suit it even if left unanswered.
        let (stop_suits_side, capture_cannot_suit) = if side == mover {
            (margin >= 0, margin + on_square_value < 0)
        } else {
            (margin < 0, margin - on_square_value >= 0)
        };
        if stop_suits_side || capture_cannot_suit {
            return margin >= 0;
        }
    }
}

/// The pieces of both colours on `occupied` that attack `sq`; `diagonal`
/// and `straight` are the bishops and queens, and the rooks and queens.
fn all_attackers_to(
    chess: &Snapshot,
    sq: Square,
    occupied: Bitboard,
    diagonal: Bitboard,
    straight: Bitboard,
) -> Bitboard {
    let board = chess.board();
    let pawns = (attacks::pawn_attacks(Color::White, sq) & board.black()
        | attacks::pawn_attacks(Color::Black, sq) & board.white())
        & board.pawns();
    (attacks::rook_attacks(sq, occupied) & straight
        | attacks::bishop_attacks(sq, occupied) & diagonal
        | attacks::knight_attacks(sq) & board.knights()
        | attacks::king_attacks(sq) & board.kings()
        | pawns)
        & occupied
}

fn attackers_to(chess: &Snapshot, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
    chess.board().attacks_to(sq, color, occupied) & occupied
}

fn least_valuable(chess: &Snapshot, attackers: Bitboard) -> Option<(Square, Role)> {
    let board = chess.board();
    for role in Role::ALL {
        if let Some(sq) = (attackers & board.by_role(role)).first() {
            return Some((sq, role));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// The exchange's value: the highest threshold it reaches (found by
    /// bisection over every value an exchange can take).
    fn exchange_value(chess: &Snapshot, m: Move) -> i32 {
        let (mut reached, mut missed) = (-3 * see_value(Role::King), 3 * see_value(Role::King));
        assert!(see_at_least(chess, m, reached) && !see_at_least(chess, m, missed));
        while missed - reached > 1 {
            let mid = reached + (missed - reached) / 2;
            if see_at_least(chess, m, mid) {
                reached = mid;
            } else {
                missed = mid;
            }
        }
        reached
    }

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen, false).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        exchange_value(pos.snapshot(), m)
    }

    /// SEE by its definition, recursively: each side in turn takes with its
    /// least valuable attacker (the attackers counted afresh from the
    /// occupancy, x-rays included) or stops, whichever is better for it; a
    /// king takes only where nothing attacks it afterwards.
    fn see_by_definition(chess: &Snapshot, m: Move) -> i32 {
        let (from, to) = match m {
            Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
            Move::Castle { .. } | Move::Put { .. } => return 0,
        };
        let mut occupied = chess.board().occupied() ^ Bitboard::from_square(from);
        if let Move::EnPassant { .. } = m {
            occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
        }
        let promotion_gain = m
            .promotion()
            .map_or(0, |p| see_value(p) - see_value(Role::Pawn));
        let on_square = m.promotion().unwrap_or(m.role());
        m.capture().map_or(0, see_value) + promotion_gain
            - best_continuation(chess, to, !chess.turn(), occupied, see_value(on_square))
    }

    /// What `side` wins by going on with the exchange on `to`, where a piece
    /// worth `on_square` stands: at least 0, since it may stop.
    fn best_continuation(
        chess: &Snapshot,
        to: Square,
        side: Color,
        occupied: Bitboard,
        on_square: i32,
    ) -> i32 {
        let Some((sq, role)) = least_valuable(chess, attackers_to(chess, to, side, occupied))
        else {
            return 0;
        };
        let occupied = occupied ^ Bitboard::from_square(sq);
        if role == Role::King && attackers_to(chess, to, !side, occupied).any() {
            return 0;
        }
        (on_square - best_continuation(chess, to, !side, occupied, see_value(role))).max(0)
    }

    #[test]
    fn undefended_piece_wins_its_value() {
        assert_eq!(see_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 100);
        assert_eq!(see_of("4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1", "d2d5"), 500);
    }

    #[test]
    fn defended_pawn_taken_by_queen_loses() {
        // Qxd5 exd5: +100 - 900.
        assert_eq!(see_of("4k3/8/4p3/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5"), -800);
    }

    #[test]
    fn even_trade_and_xray_recapture() {
        // Rxd5 Rxd5 Rxd5 (doubled rooks behind each other): wins the pawn and a rook for a rook.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // Nxe5 Nxe5: knight for pawn... defended pawn: 100 - 300.
        assert_eq!(see_of("4k3/8/2n5/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"), -200);
        // Bishop takes knight, pawn recaptures: even.
        assert_eq!(see_of("4k3/8/4p3/3n4/8/1B6/8/4K3 w - - 0 1", "b3d5"), 0);
    }

    #[test]
    fn a_side_stops_only_where_going_on_would_not_pay() {
        // ...Nxd5 exd5 exd5 Nxd5 Nxd5 Qxd5 (the queen behind the e4 pawn):
        // Black's ...exd5 regains the pawn but loses it again for nothing,
        // so Black ends a knight for a pawn down either way.
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1P/PPPBBP1P/R3K2R b KQkq - 0 10";
        assert_eq!(see_of(fen, "b6d5"), -200);
    }

    #[test]
    fn king_cannot_recapture_into_defence() {
        // Qxf7+: the king may not take back because the bishop on c4 guards f7.
        assert_eq!(see_of("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1", "f1f7"), 100);
    }

    #[test]
    fn threshold_test_agrees_with_the_definition() {
        // Every move of the bench positions and of the positions one move
        // later, against thresholds on both sides of every exchange value.
        let mut checked = 0;
        for pos in &crate::bench::positions_and_children() {
            for m in pos.legal_moves() {
                let value = see_by_definition(pos.snapshot(), m);
                for threshold in [
                    -20000,
                    -900,
                    -500,
                    -301,
                    -300,
                    -200,
                    -100,
                    -1,
                    0,
                    1,
                    100,
                    200,
                    300,
                    500,
                    800,
                    900,
                    1000,
                    value - 1,
                    value,
                    value + 1,
                ] {
                    assert_eq!(
                        see_at_least(pos.snapshot(), m, threshold),
                        value >= threshold,
                        "{} {m} threshold {threshold} (see {value})",
                        pos.fen()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "only {checked} checks");
    }

    #[test]
    fn quiet_and_castling_moves_are_zero_or_negative() {
        assert_eq!(see_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), 0);
        // A quiet move to an attacked square loses the piece.
        assert_eq!(see_of("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3e4"), -300);
    }
}
