//! Static exchange evaluation: the material balance of the capture sequence
//! on one square, each side recapturing with its least valuable attacker and
//! free to stop when continuing would lose. X-ray attackers behind the
//! pieces that capture join in as the occupancy empties.

use shakmaty::{Bitboard, Chess, Color, Move, Position as _, Role, Square, attacks};

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

/// Net material won by playing `m` (from the mover's point of view) if both
/// sides continue the exchange on the target square optimally. Castling is 0.
pub fn see(chess: &Chess, m: Move) -> i32 {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Castle { .. } | Move::Put { .. } => return 0,
    };
    let board = chess.board();
    let mut occupied = board.occupied();
    let mut gain = [0i32; 32];

    let mut captured_value = m.capture().map_or(0, see_value);
    let mut on_square = m.role();
    if let Some(promo) = m.promotion() {
        captured_value += see_value(promo) - see_value(Role::Pawn);
        on_square = promo;
    }
    gain[0] = captured_value;
    occupied ^= Bitboard::from_square(from);
    if let Move::EnPassant { .. } = m {
        occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
    }

    // Both sides' attackers of the square, kept up to date as pieces leave:
    // only a slider behind a piece that just captured along its line can
    // join, so each step looks up one slider ray instead of every attack.
    let diagonal = board.bishops() | board.queens();
    let straight = board.rooks() | board.queens();
    let mut attackers = all_attackers_to(chess, to, occupied);
    let mut side = !chess.turn();
    let mut depth = 0;
    loop {
        debug_assert_eq!(
            attackers & board.by_color(side),
            attackers_to(chess, to, side, occupied),
            "incremental SEE attackers of {to} went wrong for {m} in {board:?}"
        );
        let Some((sq, role)) = least_valuable(chess, attackers & board.by_color(side)) else {
            break;
        };
        depth += 1;
        if depth >= gain.len() {
            break;
        }
        // Speculative score if the piece on the square is taken now.
        gain[depth] = see_value(on_square) - gain[depth - 1];
        // A king may only take last: if the other side still attacks, stop.
        // (Rare, so the attackers are counted afresh, x-rays through the
        // king's square included.)
        if role == Role::King
            && attackers_to(chess, to, !side, occupied ^ Bitboard::from_square(sq)).any()
        {
            depth -= 1;
            break;
        }
        on_square = role;
        occupied ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
        attackers &= occupied;
        side = !side;
        // Neither side has to continue a losing exchange.
        if gain[depth].max(-gain[depth - 1]) < 0 {
            break;
        }
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

/// The pieces of both colours on `occupied` that attack `sq`.
fn all_attackers_to(chess: &Chess, sq: Square, occupied: Bitboard) -> Bitboard {
    let board = chess.board();
    (board.attacks_to(sq, Color::White, occupied) | board.attacks_to(sq, Color::Black, occupied))
        & occupied
}

fn attackers_to(chess: &Chess, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
    chess.board().attacks_to(sq, color, occupied) & occupied
}

fn least_valuable(chess: &Chess, attackers: Bitboard) -> Option<(Square, Role)> {
    let board = chess.board();
    for role in Role::ALL {
        if let Some(sq) = (attackers & board.by_role(role)).first() {
            return Some((sq, role));
        }
    }
    None
}

/// Whether the exchange started by `m` gains at least `threshold`: the
/// same answer as `see(chess, m) >= threshold`, without playing the exchange
/// out when its first capture settles it. The opponent may decline to
/// recapture, so SEE is at most what `m` takes; and recapturing can cost the
/// mover no more than the piece `m` puts on the square, so SEE is at least
/// that difference.
pub fn see_at_least(chess: &Chess, m: Move, threshold: i32) -> bool {
    let (taken, moved) = match m {
        Move::Castle { .. } | Move::Put { .. } => (0, 0),
        _ => match m.promotion() {
            Some(promo) => (
                m.capture().map_or(0, see_value) + see_value(promo) - see_value(Role::Pawn),
                see_value(promo),
            ),
            None => (m.capture().map_or(0, see_value), see_value(m.role())),
        },
    };
    if taken < threshold {
        return false;
    }
    if taken - moved >= threshold {
        return true;
    }
    see(chess, m) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen, false).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        see(pos.chess(), m)
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
    fn king_cannot_recapture_into_defence() {
        // Qxf7+: the king may not take back because the bishop on c4 guards f7.
        assert_eq!(see_of("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1", "f1f7"), 100);
    }

    #[test]
    fn threshold_test_agrees_with_the_full_exchange() {
        // Every move of the bench positions and of the positions one move
        // later, against thresholds on both sides of every exchange value.
        let mut checked = 0;
        for pos in &crate::bench::positions_and_children() {
            for m in pos.legal_moves() {
                let full = see(pos.chess(), m);
                for threshold in [
                    -20000, -900, -500, -301, -300, -200, -100, -1, 0, 1, 100, 200, 300, 500, 800,
                    900, 1000,
                ] {
                    assert_eq!(
                        see_at_least(pos.chess(), m, threshold),
                        full >= threshold,
                        "{} {m} threshold {threshold} (see {full})",
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
