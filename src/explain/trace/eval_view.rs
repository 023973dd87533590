//! The static evaluation taken apart: the PST terms of every piece, and for
//! any evaluator each piece's contribution, that is the evaluation minus the
//! evaluation of the same position with that piece removed, drawn on a board.
//! All numbers here are from White's point of view, as a board is read.

use std::fmt::Write as _;

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, FromSetup, Piece, Position as _, Role, Square,
};

use crate::eval::Evaluator;
use crate::eval::pst::{PIECE_VALUES, TABLES, table_index};
use crate::explain::json::Json;
use crate::position::Position;

/// The static evaluation of `pos` from White's point of view.
pub fn white_eval(eval: &mut dyn Evaluator, pos: &Position) -> i32 {
    eval.reset(pos);
    let own = eval.evaluate(pos);
    if pos.turn() == Color::White {
        own
    } else {
        -own
    }
}

/// `pos` without the piece on `square`, if that is still a position the
/// evaluator can be given (both kings stay; castling rights that lose their
/// rook and en-passant squares that lose their pawn are dropped).
pub fn without_piece(pos: &Position, square: Square) -> Option<Position> {
    let mut setup = pos.to_chess().to_setup(EnPassantMode::Legal);
    let piece = setup.board.remove_piece_at(square)?;
    if piece.role == Role::King {
        return None;
    }
    // Neither right can matter to a static evaluation.
    setup.castling_rights &= setup.board.by_role(Role::Rook);
    setup.ep_square = None;
    let chess = match Chess::from_setup(setup, CastlingMode::Chess960) {
        Ok(chess) => chess,
        Err(e) => e.ignore_impossible_check().ok()?,
    };
    Some(Position::from_chess(chess))
}

/// Evaluation minus evaluation without the piece, per square (White's view);
/// `None` for empty squares, kings, and pieces whose removal leaves an
/// impossible position (the side not to move in check).
pub fn contributions(eval: &mut dyn Evaluator, pos: &Position) -> [Option<i32>; 64] {
    let full = white_eval(eval, pos);
    let mut out = [None; 64];
    for (square, _) in pos.snapshot().board().iter() {
        if let Some(reduced) = without_piece(pos, square) {
            out[usize::from(square)] = Some(full - white_eval(eval, &reduced));
        }
    }
    out
}

/// A piece's PST terms, White's view: material and square bonus (the king's
/// 60000 "material" is left out: it cancels).
pub fn pst_terms(piece: Piece, square: Square) -> (i32, i32) {
    let r = piece.role as usize - 1;
    let material = if piece.role == Role::King {
        0
    } else {
        PIECE_VALUES[r]
    };
    let bonus = TABLES[r][table_index(piece.color, square)];
    let sign = if piece.color == Color::White { 1 } else { -1 };
    (sign * material, sign * bonus)
}

fn piece_char(p: Piece) -> char {
    p.char()
}

/// An 8×8 board, rank 8 on top, each occupied square showing the piece and
/// `value(square)`.
pub fn board(pos: &Position, value: impl Fn(Square) -> Option<i32>) -> String {
    let mut out = String::from("    ");
    for f in 'a'..='h' {
        let _ = write!(out, "{f:^7}");
    }
    out.push('\n');
    for rank in (0..8u32).rev() {
        let _ = write!(out, " {}  ", rank + 1);
        for file in 0..8u32 {
            let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            match pos.snapshot().board().piece_at(sq) {
                Some(p) => match value(sq) {
                    Some(v) => {
                        let _ = write!(out, "{}{:<+6}", piece_char(p), v);
                    }
                    None => {
                        let _ = write!(out, "{}{:<6}", piece_char(p), "");
                    }
                },
                None => out.push_str("   .   "),
            }
        }
        out.push('\n');
    }
    out
}

/// The PST breakdown: a board of each piece's total term and a table by
/// piece type and side.
pub fn pst_breakdown(pos: &Position) -> String {
    let mut out = String::from("PST terms of each piece (material + square, White's view):\n");
    out.push_str(&board(pos, |sq| {
        pos.snapshot().board().piece_at(sq).map(|p| {
            let (m, b) = pst_terms(p, sq);
            m + b
        })
    }));
    let _ = writeln!(
        out,
        "\n{:<7} {:>6} {:>9} {:>7} {:>6} {:>9} {:>7} {:>7}",
        "piece", "white", "material", "square", "black", "material", "square", "net"
    );
    let mut total = 0;
    for role in Role::ALL {
        let mut row = [(0, 0, 0); 2];
        for (sq, p) in pos.snapshot().board().iter() {
            if p.role == role {
                let (m, b) = pst_terms(p, sq);
                let side = &mut row[usize::from(p.color == Color::Black)];
                *side = (side.0 + 1, side.1 + m, side.2 + b);
            }
        }
        let net = row[0].1 + row[0].2 + row[1].1 + row[1].2;
        total += net;
        let _ = writeln!(
            out,
            "{:<7} {:>6} {:>+9} {:>+7} {:>6} {:>+9} {:>+7} {:>+7}",
            format!("{role:?}").to_lowercase(),
            row[0].0,
            row[0].1,
            row[0].2,
            row[1].0,
            row[1].1,
            row[1].2,
            net
        );
    }
    let _ = writeln!(out, "{:<7} {:>65}", "total", format!("{total:+}"));
    out
}

pub fn contributions_json(pos: &Position, contrib: &[Option<i32>; 64]) -> Json {
    Json::Arr(
        pos.to_chess()
            .board()
            .iter()
            .map(|(sq, p)| {
                Json::obj([
                    ("square", Json::str(sq.to_string())),
                    ("piece", Json::str(piece_char(p).to_string())),
                    ("contribution", contrib[usize::from(sq)].into()),
                ])
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pst::{PstEvaluator, piece_square_value};

    const FENS: [&str; 3] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
    ];

    #[test]
    fn each_contribution_is_the_evaluators_difference() {
        let mut eval = PstEvaluator::new();
        for fen in FENS {
            let pos = Position::from_fen(fen, false).unwrap();
            let contrib = contributions(&mut eval, &pos);
            let full = white_eval(&mut eval, &pos);
            let mut blank = 0;
            for (sq, p) in pos.snapshot().board().iter() {
                let c = contrib[usize::from(sq)];
                if p.role == Role::King {
                    assert_eq!(c, None);
                    continue;
                }
                // Removing a blocker may leave the side not to move in check:
                // no such position, no contribution.
                let Some(reduced) = without_piece(&pos, sq) else {
                    assert_eq!(c, None);
                    blank += 1;
                    continue;
                };
                assert_eq!(reduced.snapshot().board().piece_at(sq), None);
                assert_eq!(
                    c,
                    Some(full - white_eval(&mut eval, &reduced)),
                    "{fen} {sq}"
                );
                // The PST is linear: the difference is the piece's own term.
                let own = piece_square_value(p, sq);
                assert_eq!(c, Some(if p.color == Color::White { own } else { -own }));
                let (m, b) = pst_terms(p, sq);
                assert_eq!(c, Some(m + b));
            }
            assert!(blank <= 1, "{fen}");
        }
    }

    /// The NNUE is not linear: a piece's contribution depends on the others.
    #[test]
    fn nnue_contributions_are_the_evaluators_differences() {
        use crate::eval::nnue::{NnueEvaluator, features::FeatureSet, random::random_network};
        let net = random_network(FeatureSet::HalfKP, 32, &[16, 16], 1, 3).unwrap();
        let mut eval = NnueEvaluator::new(std::sync::Arc::new(net));
        for fen in FENS {
            let pos = Position::from_fen(fen, false).unwrap();
            let contrib = contributions(&mut eval, &pos);
            let full = white_eval(&mut eval, &pos);
            let mut checked = 0;
            for (sq, p) in pos.snapshot().board().iter() {
                if let Some(reduced) = without_piece(&pos, sq) {
                    // A fresh evaluator on the reduced position, so no state leaks.
                    let mut fresh = NnueEvaluator::new(eval.network().clone());
                    assert_eq!(
                        contrib[usize::from(sq)],
                        Some(full - white_eval(&mut fresh, &reduced)),
                        "{fen} {sq} {p:?}"
                    );
                    checked += 1;
                }
            }
            assert!(checked >= 4);
        }
    }

    #[test]
    fn breakdown_totals_the_evaluation() {
        let mut eval = PstEvaluator::new();
        for fen in FENS {
            let pos = Position::from_fen(fen, false).unwrap();
            let text = pst_breakdown(&pos);
            let total = white_eval(&mut eval, &pos);
            let last = text.lines().last().unwrap();
            assert!(last.ends_with(&format!("{total:+}")), "{last} vs {total}");
            assert_eq!(text.lines().filter(|l| l.starts_with(" 8 ")).count(), 1);
        }
    }
}
