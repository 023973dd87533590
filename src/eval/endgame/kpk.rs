//! The KPK bitbase: does king and pawn beat a bare king? One bit per
//! position, computed at first use by retrograde analysis.
//!
//! Positions are normalised so that the pawn is White's and stands on files
//! a–d (mirroring the board left to right changes nothing in KPK), which
//! leaves 2 sides to move × 24 pawn squares × 64 × 64 king squares = 196 608
//! positions: a 24 KiB bit set, built in some tens of milliseconds.
//!
//! The analysis: every position starts unknown, except the ones decided on
//! the spot (illegal, the pawn captured, a promotion that keeps its queen or
//! rook, stalemate). Then it sweeps over the unknown positions until nothing
//! changes: White to move wins if one move reaches a won position; Black to
//! move is lost if every move does. What is still unknown at the end is a
//! draw, since White cannot force anything from there. The win flag ignores
//! the fifty-move rule, which never matters in KPK (every win takes far
//! fewer than fifty moves to the next pawn move).

use std::sync::OnceLock;

use shakmaty::{Bitboard, File, Rank, Square, attacks};

/// Pawn squares after normalisation: files a–d, ranks 2–7.
const PAWN_SQUARES: usize = 24;
const POSITIONS: usize = 2 * PAWN_SQUARES * 64 * 64;

/// One normalised position: the pawn is White's and on files a–d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kpk {
    pub white_to_move: bool,
    pub white_king: Square,
    pub black_king: Square,
    pub pawn: Square,
}

/// What the analysis knows about a position while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Illegal,
    Unknown,
    Draw,
    Win,
}

impl Kpk {
    fn index(self) -> usize {
        debug_assert!(self.pawn.file() <= File::D, "not normalised: {self:?}");
        debug_assert!((Rank::Second..=Rank::Seventh).contains(&self.pawn.rank()));
        let pawn = (self.pawn.rank().to_usize() - 1) * 4 + self.pawn.file().to_usize();
        let side = usize::from(!self.white_to_move);
        ((side * PAWN_SQUARES + pawn) * 64 + self.white_king.to_usize()) * 64
            + self.black_king.to_usize()
    }

    fn from_index(index: usize) -> Kpk {
        let black_king = Square::new((index % 64) as u32);
        let white_king = Square::new((index / 64 % 64) as u32);
        let pawn = index / (64 * 64) % PAWN_SQUARES;
        let side = index / (64 * 64 * PAWN_SQUARES);
        Kpk {
            white_to_move: side == 0,
            white_king,
            black_king,
            pawn: Square::from_coords(
                File::new((pawn % 4) as u32),
                Rank::new((pawn / 4 + 1) as u32),
            ),
        }
    }

    /// Kings apart, no two men on one square, and the side not to move not
    /// in check (only the pawn can give check: the kings never touch).
    fn is_legal(self) -> bool {
        let Kpk {
            white_to_move,
            white_king: wk,
            black_king: bk,
            pawn,
        } = self;
        wk != bk
            && wk != pawn
            && bk != pawn
            && wk.distance(bk) > 1
            && !(white_to_move && pawn_attacks(pawn).contains(bk))
    }

    /// The label this position gets from what its successors have so far.
    fn classify(self, labels: &[Label]) -> Label {
        if self.white_to_move {
            self.classify_white(labels)
        } else {
            self.classify_black(labels)
        }
    }

    fn classify_white(self, labels: &[Label]) -> Label {
        let Kpk {
            white_king: wk,
            black_king: bk,
            pawn,
            ..
        } = self;
        // With no successors at all (king boxed in, pawn blocked) it is stalemate: a draw.
        let mut all_drawn = true;
        let mut see = |label: Label| {
            debug_assert_ne!(label, Label::Illegal, "move into an illegal position");
            match label {
                Label::Win => true,
                Label::Unknown => {
                    all_drawn = false;
                    false
                }
                _ => false,
            }
        };
        let king_moves =
            attacks::king_attacks(wk) & !attacks::king_attacks(bk) & !Bitboard::from(pawn);
        for to in king_moves {
            let next = Kpk {
                white_to_move: false,
                white_king: to,
                ..self
            };
            if see(labels[next.index()]) {
                return Label::Win;
            }
        }
        let occupied = Bitboard::from(wk) | Bitboard::from(bk);
        if let Some(push) = pawn.offset(8).filter(|&sq| !occupied.contains(sq)) {
            if push.rank() == Rank::Eighth {
                if see(promotion(wk, bk, push)) {
                    return Label::Win;
                }
            } else {
                let next = Kpk {
                    white_to_move: false,
                    pawn: push,
                    ..self
                };
                if see(labels[next.index()]) {
                    return Label::Win;
                }
                if pawn.rank() == Rank::Second
                    && let Some(double) = push.offset(8).filter(|&sq| !occupied.contains(sq))
                {
                    let next = Kpk {
                        white_to_move: false,
                        pawn: double,
                        ..self
                    };
                    if see(labels[next.index()]) {
                        return Label::Win;
                    }
                }
            }
        }
        if all_drawn {
            Label::Draw
        } else {
            Label::Unknown
        }
    }

    fn classify_black(self, labels: &[Label]) -> Label {
        let Kpk {
            white_king: wk,
            black_king: bk,
            pawn,
            ..
        } = self;
        // The pawn's square is a legal target only when the white king does
        // not guard it: taking it leaves a bare-king draw.
        let moves = attacks::king_attacks(bk) & !attacks::king_attacks(wk) & !pawn_attacks(pawn);
        if moves.contains(pawn) {
            return Label::Draw;
        }
        if moves.is_empty() {
            return if pawn_attacks(pawn).contains(bk) {
                Label::Win
            } else {
                Label::Draw
            };
        }
        let mut all_won = true;
        for to in moves {
            let next = Kpk {
                white_to_move: true,
                black_king: to,
                ..self
            };
            match labels[next.index()] {
                Label::Draw => return Label::Draw,
                Label::Unknown => all_won = false,
                Label::Win => {}
                Label::Illegal => debug_assert!(false, "move into an illegal position"),
            }
        }
        if all_won { Label::Win } else { Label::Unknown }
    }
}

fn pawn_attacks(pawn: Square) -> Bitboard {
    attacks::pawn_attacks(shakmaty::Color::White, pawn)
}

/// The pawn promotes on `square`, Black to move. King and queen (or rook)
/// win against a bare king unless the new piece is taken at once or Black is
/// stalemated; a rook is tried too because it sometimes avoids the
/// stalemate a queen would give.
fn promotion(wk: Square, bk: Square, square: Square) -> Label {
    let guarded = attacks::king_attacks(wk);
    if attacks::king_attacks(bk).contains(square) && !guarded.contains(square) {
        return Label::Draw;
    }
    // The black king does not shield the squares behind it from a slider.
    let occupied = Bitboard::from(wk);
    let new_piece_attacks = [
        attacks::queen_attacks(square, occupied),
        attacks::rook_attacks(square, occupied),
    ];
    for covered in new_piece_attacks {
        let escapes = attacks::king_attacks(bk) & !guarded & !covered;
        let check = covered.contains(bk);
        if escapes.any() || check {
            return Label::Win;
        }
    }
    Label::Draw
}

/// Wins as bits, by [`Kpk::index`].
pub struct Bitbase {
    wins: Vec<u64>,
}

impl Bitbase {
    fn generate() -> Bitbase {
        let mut labels: Vec<Label> = (0..POSITIONS)
            .map(|i| {
                if Kpk::from_index(i).is_legal() {
                    Label::Unknown
                } else {
                    Label::Illegal
                }
            })
            .collect();
        loop {
            let mut changed = false;
            for i in 0..POSITIONS {
                if labels[i] == Label::Unknown {
                    let label = Kpk::from_index(i).classify(&labels);
                    if label != Label::Unknown {
                        labels[i] = label;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut wins = vec![0u64; POSITIONS.div_ceil(64)];
        for (i, _) in labels.iter().enumerate().filter(|(_, l)| **l == Label::Win) {
            wins[i / 64] |= 1 << (i % 64);
        }
        Bitbase { wins }
    }

    /// Whether White wins (the position must be legal and normalised).
    pub fn white_wins(&self, kpk: Kpk) -> bool {
        debug_assert!(kpk.is_legal(), "illegal KPK position {kpk:?}");
        let i = kpk.index();
        self.wins[i / 64] & (1 << (i % 64)) != 0
    }

    /// The bitbase, built on first use (by whichever thread gets there first).
    pub fn get() -> &'static Bitbase {
        static BITBASE: OnceLock<Bitbase> = OnceLock::new();
        BITBASE.get_or_init(Bitbase::generate)
    }
}

/// Whether the side with the pawn wins: `strong_*` are its king and pawn,
/// `weak_king` the bare king, `white_pawn` whether the pawn is White's.
/// Any legal KPK position; the squares are normalised here.
pub fn pawn_side_wins(
    white_pawn: bool,
    strong_king: Square,
    pawn: Square,
    weak_king: Square,
    strong_to_move: bool,
) -> bool {
    // Black's pawn: look at the board from Black's side.
    let orient = |sq: Square| if white_pawn { sq } else { sq.flip_vertical() };
    let (sk, p, wk) = (orient(strong_king), orient(pawn), orient(weak_king));
    // Pawn on e–h: mirror to a–d.
    let mirror = |sq: Square| {
        if p.file() > File::D {
            sq.flip_horizontal()
        } else {
            sq
        }
    };
    Bitbase::get().white_wins(Kpk {
        white_to_move: strong_to_move,
        white_king: mirror(sk),
        black_king: mirror(wk),
        pawn: mirror(p),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips() {
        for i in (0..POSITIONS).step_by(97) {
            assert_eq!(Kpk::from_index(i).index(), i);
        }
    }

    #[test]
    fn promotion_cases() {
        // The new queen on c8 is defended by the king on b7.
        assert_eq!(promotion(Square::B7, Square::D7, Square::C8), Label::Win);
        // The black king takes the undefended queen on a8.
        assert_eq!(promotion(Square::E4, Square::B7, Square::A8), Label::Draw);
        // Promoting on c8 mates the king on a8 (the king on a6 covers a7 and b7).
        assert_eq!(promotion(Square::A6, Square::A8, Square::C8), Label::Win);
    }
}
