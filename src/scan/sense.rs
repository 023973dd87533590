//! Chess sense on top of the net's square calls: pawns never on the first or
//! last row, one king a side, which side is at the bottom, castling rights
//! from kings and rooks on their home squares, side to move, and a legality
//! check with shakmaty. En passant is never guessed.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use super::{CLASSES, Displayed, EMPTY, class_of};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Bottom {
    Auto,
    White,
    Black,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }
}

/// What the orientation of a reading comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrientedBy {
    /// `--bottom white|black`.
    Given,
    /// The board's printed coordinates.
    Coordinates,
    /// Pawns and kings (and legality).
    Pieces,
}

impl OrientedBy {
    pub fn name(self) -> &'static str {
        match self {
            OrientedBy::Given => "given",
            OrientedBy::Coordinates => "coordinates",
            OrientedBy::Pieces => "pieces",
        }
    }
}

/// The position read from a picture.
#[derive(Clone, Debug)]
pub struct Reading {
    /// Classes in FEN order (a8 … h1).
    pub board: [usize; 64],
    /// The probability of each square's call, FEN order.
    pub confidence: [f32; 64],
    /// Every class's probability per square, FEN order (after the pawn rule).
    pub probabilities: [[f32; 13]; 64],
    pub white_at_bottom: bool,
    /// What decided `white_at_bottom`.
    pub oriented_by: OrientedBy,
    pub to_move: Side,
    pub fen: String,
    /// Why shakmaty refuses the position, if it does.
    pub illegal: Option<String>,
}

/// The name of square `i` in FEN order: 0 is a8, 63 is h1.
pub fn square_name(i: usize) -> String {
    format!("{}{}", (b'a' + (i % 8) as u8) as char, 8 - i / 8)
}

fn argmax(p: &[f32; 13], except: &[usize]) -> usize {
    (0..13)
        .filter(|c| !except.contains(c))
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))
        .expect("13 classes")
}

/// No pawn on the top or bottom row: those probabilities are zeroed and
/// the rest renormalised.
fn no_pawns_on_back_rows(probs: &mut Displayed<[f32; 13]>) {
    let pawns = [class_of('P').expect("P"), class_of('p').expect("p")];
    for (i, p) in probs.iter_mut().enumerate() {
        if i / 8 == 0 || i / 8 == 7 {
            for &pawn in &pawns {
                p[pawn] = 0.0;
            }
            let sum: f32 = p.iter().sum();
            if sum > 0.0 {
                p.iter_mut().for_each(|v| *v /= sum);
            }
        }
    }
}

/// The classes of White's king and Black's.
fn king_classes() -> [usize; 2] {
    [class_of('K').expect("K"), class_of('k').expect("k")]
}

/// How many squares are tried for each king, the likeliest first...
const KING_CANDIDATES: usize = 3;
/// ... of those at least this fraction as likely to hold it as the first.
const KING_CANDIDATE_SHARE: f32 = 0.3;

/// The squares likeliest to hold king class `king`, at most
/// [`KING_CANDIDATES`]; when `strict`, none the net calls the `other`
/// king and none much less likely than the first.
fn king_candidates(
    probs: &Displayed<[f32; 13]>,
    king: usize,
    other: usize,
    strict: bool,
) -> Vec<usize> {
    let mut squares: Vec<usize> = (0..64)
        .filter(|&i| !strict || argmax(&probs[i], &[]) != other)
        .collect();
    squares.sort_by(|&a, &b| probs[b][king].total_cmp(&probs[a][king]));
    if strict && let Some(&first) = squares.first() {
        let floor = KING_CANDIDATE_SHARE * probs[first][king];
        squares.retain(|&i| probs[i][king] >= floor);
    }
    squares.truncate(KING_CANDIDATES);
    squares
}

/// A call's log-probability, floored so an impossible call is very
/// unlikely rather than infinitely so.
fn log_probability(p: f32) -> f32 {
    p.max(1e-6).ln()
}

/// The log-probability of a reading: each square's call, less what its
/// material counts cost.
fn reading_score(calls: &[usize; 64], probs: &Displayed<[f32; 13]>) -> f32 {
    calls
        .iter()
        .zip(probs)
        .map(|(&c, p)| log_probability(p[c]))
        .sum::<f32>()
        - material_cost(calls)
}

/// Calls per displayed square under the rules that do not depend on
/// orientation: exactly one king of each colour, the other squares' calls
/// weighed against the material counts. Each colour's king is tried on its
/// [`KING_CANDIDATES`] likeliest squares and the likeliest whole reading
/// kept, so a king the net half takes for a rook is not passed over for a
/// queen the net half takes for a king when that leaves three rooks and
/// no queen.
fn constrained_calls(probs: &Displayed<[f32; 13]>) -> [usize; 64] {
    let kings = king_classes();
    let others: [usize; 64] = std::array::from_fn(|i| argmax(&probs[i], &kings));
    let mut best: Option<(f32, [usize; 64])> = None;
    // Loosened when the strict candidates leave no two squares apart (both
    // kings likeliest on one square and nowhere else).
    for strict in [true, false] {
        for white in king_candidates(probs, kings[0], kings[1], strict) {
            for black in king_candidates(probs, kings[1], kings[0], strict) {
                if white == black {
                    continue;
                }
                let mut calls = others;
                calls[white] = kings[0];
                calls[black] = kings[1];
                let calls = weigh_material(calls, probs);
                let score = reading_score(&calls, probs);
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, calls));
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    let calls = best
        .expect("three squares for each king include two apart")
        .1;
    debug_assert!(
        kings
            .iter()
            .all(|&king| calls.iter().filter(|&&c| c == king).count() == 1),
        "one king of each colour"
    );
    calls
}

/// A piece beyond the start position's count (a third bishop, a second
/// queen) needs a promotion; real positions rarely hold one, so each costs
/// the reading this much log-probability: a call that implies one must be
/// this many times likelier than its alternative.
const PROMOTION_COST: f32 = 5.0; // e^5 ≈ 150
/// More promotions than a side has missing pawns is impossible.
const IMPOSSIBLE_COST: f32 = 30.0;

/// The promotions a side's men imply: pieces beyond two knights, two
/// bishops, two rooks and a queen; and how many men are impossible:
/// promotions beyond the pawns it has lost, pawns beyond eight.
fn promotions(calls: &[usize; 64], white: bool) -> (u32, u32) {
    let count = |letter: char| {
        let class = class_of(if white {
            letter
        } else {
            letter.to_ascii_lowercase()
        })
        .expect("a piece");
        calls.iter().filter(|&&c| c == class).count() as u32
    };
    let needed = count('N').saturating_sub(2)
        + count('B').saturating_sub(2)
        + count('R').saturating_sub(2)
        + count('Q').saturating_sub(1);
    let pawns = count('P');
    let lost_pawns = 8u32.saturating_sub(pawns);
    // A ninth pawn is as impossible as a promotion without a pawn lost.
    let extra_pawns = pawns.saturating_sub(8);
    (needed, needed.saturating_sub(lost_pawns) + extra_pawns)
}

/// What the material counts cost a reading (log-probability).
fn material_cost(calls: &[usize; 64]) -> f32 {
    [true, false]
        .into_iter()
        .map(|white| {
            let (needed, impossible) = promotions(calls, white);
            PROMOTION_COST * needed as f32 + IMPOSSIBLE_COST * impossible as f32
        })
        .sum()
}

/// The calls changed, one square at a time, wherever another class (not a
/// king: those are settled) is likelier once the material counts are
/// weighed: a set whose pawns look like bishops then reads as eight pawns,
/// not five bishops a side.
fn weigh_material(mut calls: [usize; 64], probs: &Displayed<[f32; 13]>) -> [usize; 64] {
    let kings = king_classes();
    for _ in 0..64 {
        let cost = material_cost(&calls);
        if cost == 0.0 {
            break;
        }
        let mut best: Option<(f32, usize, usize)> = None;
        for i in 0..64 {
            let current = calls[i];
            if kings.contains(&current) {
                continue;
            }
            for class in (0..13).filter(|c| *c != current && !kings.contains(c)) {
                if probs[i][class] <= 0.0 {
                    continue;
                }
                calls[i] = class;
                let gain = cost - material_cost(&calls) + log_probability(probs[i][class])
                    - log_probability(probs[i][current]);
                calls[i] = current;
                if gain > 0.0 && best.is_none_or(|b| gain > b.0) {
                    best = Some((gain, i, class));
                }
            }
        }
        let Some((_, i, class)) = best else {
            break;
        };
        calls[i] = class;
    }
    calls
}

/// Positive when the pieces say Black is at the bottom: White's pawns and king
/// sit high on the picture, Black's low.
fn black_at_bottom_score(calls: &[usize; 64]) -> f32 {
    let mut score = 0.0;
    for (i, &c) in calls.iter().enumerate() {
        let height = 3.5 - (i / 8) as f32; // bottom row −3.5 … top row 3.5
        score += match CLASSES[c] {
            'P' => height,
            'p' => -height,
            'K' => 2.0 * height,
            'k' => -2.0 * height,
            _ => 0.0,
        };
    }
    score
}

fn castling(board: &[usize; 64]) -> String {
    let at = |name: &str| {
        let file = (name.as_bytes()[0] - b'a') as usize;
        let rank = (name.as_bytes()[1] - b'0') as usize;
        CLASSES[board[(8 - rank) * 8 + file]]
    };
    let mut rights = String::new();
    if at("e1") == 'K' {
        if at("h1") == 'R' {
            rights.push('K');
        }
        if at("a1") == 'R' {
            rights.push('Q');
        }
    }
    if at("e8") == 'k' {
        if at("h8") == 'r' {
            rights.push('k');
        }
        if at("a8") == 'r' {
            rights.push('q');
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    rights
}

fn placement(board: &[usize; 64]) -> String {
    let mut out = String::new();
    for row in 0..8 {
        let mut empty = 0;
        for col in 0..8 {
            let c = board[row * 8 + col];
            if c == EMPTY {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(CLASSES[c]);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if row < 7 {
            out.push('/');
        }
    }
    out
}

fn legality(fen: &str) -> Result<Chess, String> {
    let parsed: Fen = fen.parse().map_err(|e| format!("{e}"))?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("{e}"))
}

/// The FEN of `board` with `to_move`; whether shakmaty accepts it.
fn fen_of(board: &[usize; 64], to_move: Side) -> (String, Option<String>) {
    let fen = format!(
        "{} {} {} - 0 1",
        placement(board),
        to_move.letter(),
        castling(board)
    );
    let illegal = legality(&fen).err();
    (fen, illegal)
}

/// The most probable legal reading of the net's per-square probabilities
/// (`probs` as displayed, row 0 at the top).
pub fn read(mut probs: Displayed<[f32; 13]>, bottom: Bottom, to_move: Option<Side>) -> Reading {
    no_pawns_on_back_rows(&mut probs);
    let calls = constrained_calls(&probs);
    let in_fen_order = |flipped: bool| -> [usize; 64] {
        std::array::from_fn(|i| calls[if flipped { 63 - i } else { i }])
    };
    let choose_side = |board: &[usize; 64]| -> Side {
        // White moves unless told otherwise, or unless only Black can be the
        // side to move (White would be giving check with Black to play).
        to_move.unwrap_or_else(|| {
            let white = fen_of(board, Side::White);
            let black = fen_of(board, Side::Black);
            if white.1.is_some() && black.1.is_none() {
                Side::Black
            } else {
                Side::White
            }
        })
    };
    let flipped = match bottom {
        Bottom::White => false,
        Bottom::Black => true,
        Bottom::Auto => {
            let guess = black_at_bottom_score(&calls) > 0.0;
            // Where only the other orientation is a legal position, take it.
            let legal = |flipped: bool| {
                let board = in_fen_order(flipped);
                fen_of(&board, choose_side(&board)).1.is_none()
            };
            if !legal(guess) && legal(!guess) {
                !guess
            } else {
                guess
            }
        }
    };
    let board = in_fen_order(flipped);
    let side = choose_side(&board);
    let (fen, illegal) = fen_of(&board, side);
    let probabilities: [[f32; 13]; 64] =
        std::array::from_fn(|i| probs[if flipped { 63 - i } else { i }]);
    let confidence = std::array::from_fn(|i| probabilities[i][board[i]]);
    Reading {
        board,
        confidence,
        probabilities,
        white_at_bottom: !flipped,
        oriented_by: if bottom == Bottom::Auto {
            OrientedBy::Pieces
        } else {
            OrientedBy::Given
        },
        to_move: side,
        fen,
        illegal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn certain(placement: &str) -> Displayed<[f32; 13]> {
        let mut probs = [[0.0; 13]; 64];
        let mut i = 0;
        for c in placement.chars() {
            match c {
                '/' => {}
                '1'..='8' => {
                    for _ in 0..c.to_digit(10).expect("digit") {
                        probs[i][EMPTY] = 1.0;
                        i += 1;
                    }
                }
                _ => {
                    probs[i][class_of(c).expect("piece")] = 1.0;
                    i += 1;
                }
            }
        }
        probs
    }

    #[test]
    fn start_position_reads_with_castling_rights() {
        let r = read(
            certain("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
            Bottom::Auto,
            None,
        );
        assert_eq!(
            r.fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert!(r.illegal.is_none());
    }

    #[test]
    fn pawns_that_look_like_bishops_are_weighed_against_the_material() {
        // A set whose pawns the net finds more bishop-like than pawn-like:
        // five bishops a side would need three promotions each.
        let mut probs = certain("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        for i in (8..13).chain(48..53) {
            let (pawn, bishop) = if i < 16 { ('p', 'b') } else { ('P', 'B') };
            probs[i] = [0.0; 13];
            probs[i][class_of(pawn).expect("pawn")] = 0.3;
            probs[i][class_of(bishop).expect("bishop")] = 0.7;
        }
        let r = read(probs, Bottom::White, None);
        assert_eq!(
            r.fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn more_than_eight_pawns_a_side_are_read_in_the_other_colour() {
        // Black's pawns drawn in a colour the net half takes for White's.
        let mut probs = certain("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        for square in &mut probs[8..16] {
            *square = [0.0; 13];
            square[class_of('P').expect("pawn")] = 0.55;
            square[class_of('p').expect("pawn")] = 0.45;
        }
        let r = read(probs, Bottom::White, None);
        assert_eq!(
            r.fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn kings_are_placed_with_the_material_weighed() {
        // White's king drawn like a rook (0.6) and its queen like a king
        // (0.5): the likeliest king square alone would leave three rooks
        // and no queen.
        let mut probs = certain("r3k2r/8/8/8/8/8/8/R2QK2R");
        let (q, k, r) = (
            class_of('Q').expect("Q"),
            class_of('K').expect("K"),
            class_of('R').expect("R"),
        );
        probs[59] = [0.0; 13];
        probs[59][q] = 0.5;
        probs[59][k] = 0.5;
        probs[60] = [0.0; 13];
        probs[60][r] = 0.6;
        probs[60][k] = 0.4;
        let r = read(probs, Bottom::White, None);
        assert_eq!(r.fen, "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1");
    }

    #[test]
    fn a_promotion_the_picture_is_sure_of_stays() {
        let r = read(certain("4k3/8/8/8/8/8/8/QQ2K3"), Bottom::White, None);
        assert_eq!(r.fen, "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1");
    }

    #[test]
    fn a_flipped_board_is_turned_round() {
        // The start position drawn with Black at the bottom.
        let r = read(
            certain("RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr"),
            Bottom::Auto,
            None,
        );
        assert!(!r.white_at_bottom);
        assert_eq!(
            r.fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn black_to_move_when_black_is_in_check() {
        let r = read(certain("4k3/8/8/8/8/8/8/4K2R"), Bottom::White, None);
        assert!(r.illegal.is_none());
        let r = read(certain("4k3/8/8/8/8/8/8/R3K3"), Bottom::White, None);
        assert_eq!(r.to_move, Side::White);
        let r = read(certain("4k3/4R3/8/8/8/8/8/4K3"), Bottom::White, None);
        assert_eq!(r.to_move, Side::Black);
    }

    #[test]
    fn pawns_on_back_rows_and_extra_kings_are_corrected() {
        let mut probs = certain("4k2P/8/8/8/8/8/8/K3K3");
        // h8 second choice: a queen; the weaker e1 king: second choice a rook.
        probs[7][class_of('Q').expect("Q")] = 0.4;
        probs[60][class_of('K').expect("K")] = 0.6;
        probs[60][class_of('R').expect("R")] = 0.4;
        let r = read(probs, Bottom::White, None);
        assert_eq!(r.fen.split(' ').next(), Some("4k2Q/8/8/8/8/8/8/K3R3"));
    }
}
