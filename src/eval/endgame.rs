//! Endgame knowledge by material, laid over whichever evaluator runs.
//!
//! The nets learn from self-play games that the tablebases adjudicated
//! long before a lone king was ever mated, so they never saw how K+R or
//! K+B+N beat a bare king, nor which material cannot win. Without Syzygy
//! tables that showed: fifty-move draws in won endings, and dead draws
//! scored like big advantages. The search passes every static evaluation
//! through [`adjust`], which
//!
//! - replaces it in won endings against a bare king by a score that leads
//!   the search to mate: a large constant, the material, and terms that
//!   drive the defending king to the edge (for K+B+N to a corner of the
//!   bishop's colour) and bring the attacking king close;
//! - replaces it in KPK by the exact result of a bitbase (the `kpk`
//!   submodule, built at first use);
//! - scales it towards 0 where the material cannot win or rarely does (a
//!   factor of [`SCALE_NORMAL`]ths, as Stockfish and Ethereal do);
//! - fades the winning side's advantage as the fifty-move counter runs up,
//!   so that the side ahead prefers moves that reset it.
//!
//! Almost every middlegame position leaves by the first test ([`may_apply`]),
//! a handful of bitboard operations.

mod kpk;

use shakmaty::{Bitboard, Color, File, Rank, Role, Square, attacks};

use crate::position::{Board, Snapshot};

/// Known wins score this plus the winner's material plus progress terms:
/// clear of every ordinary evaluation, below the search's `EVAL_LIMIT`
/// (the search knows the band, see `search::score::is_known_win`, and
/// asserts that [`MAX_KNOWN_WIN`] stays below its limit). Defined here, not
/// in the search, so evaluation does not depend on search.
pub const KNOWN_WIN: i32 = 10_000;

/// A won KPK: a known win with a pawn's material, plus
/// [`KPK_RANK_STEP`] per rank the pawn has advanced. Below every queen
/// against king score, so the pawn is still worth promoting.
pub const KPK_WIN: i32 = KNOWN_WIN + PAWN;
const KPK_RANK_STEP: i32 = 20;
/// The scale factor that leaves an evaluation as it is.
pub const SCALE_NORMAL: i32 = 64;

/// The fifty-move fade: an evaluation keeps `(FADE_BASE - halfmoves) /
/// FADE_BASE` of itself, half of it when the counter reaches 100 plies.
const FADE_BASE: i32 = 200;

/// Piece values for the material balance (centipawns).
const PAWN: i32 = 100;
const KNIGHT: i32 = 320;
const BISHOP: i32 = 330;
const ROOK: i32 = 500;
const QUEEN: i32 = 950;

/// Mating terms, per step: the defending king one step further from the
/// centre, the kings one step closer, the defender one step further from the
/// long diagonal that avoids the bishop's corners (K+B+N only).
const EDGE_STEP: i32 = 30;
const CLOSE_STEP: i32 = 20;
const CORNER_STEP: i32 = 80;
/// K+B+N only, per step: the knight, and the king once more, closer to the
/// defending king.
const KBN_KNIGHT_STEP: i32 = 15;
const KBN_KING_STEP: i32 = 20;

/// Material counted in a known win at most: nine queens and two of every
/// other piece. (FENs may hold more; more does not win more surely.)
const MATERIAL_CAP: i32 = 9 * QUEEN + 2 * (ROOK + BISHOP + KNIGHT);
/// Largest known-win score: all material and mating terms at their
/// maximum. It must stay an evaluation, not a mate.
pub const MAX_KNOWN_WIN: i32 = KNOWN_WIN
    + MATERIAL_CAP
    + 6 * EDGE_STEP
    + 7 * CLOSE_STEP
    + 7 * CORNER_STEP
    + 7 * KBN_KNIGHT_STEP
    + 7 * KBN_KING_STEP;
const _: () = assert!(KPK_WIN + 7 * KPK_RANK_STEP < KNOWN_WIN + QUEEN);

/// Builds the tables the rules read (the KPK bitbase, a few milliseconds),
/// so that no search stops to build them mid-move. Optional: they are
/// otherwise built on first use.
pub fn prepare() {
    kpk::Bitbase::get();
}

/// The evaluation `eval` (centipawns from the side to move in `pos`, from
/// any evaluator) with the endgame knowledge applied.
pub fn adjust(pos: &Snapshot, eval: i32) -> i32 {
    let board = pos.board();
    let halfmoves = pos.halfmoves();
    if !may_apply(board) {
        return fade(eval, halfmoves);
    }
    let white = Material::of(board, Color::White);
    let black = Material::of(board, Color::Black);
    if let Some(score) = known_win_or_draw(pos, white, black) {
        debug_assert!(score.abs() <= MAX_KNOWN_WIN, "{score} for {board:?}");
        return score;
    }
    // The side the evaluation favours is the one whose chances are in doubt.
    let strong = if eval >= 0 { pos.turn() } else { !pos.turn() };
    let (ours, theirs) = match strong {
        Color::White => (white, black),
        Color::Black => (black, white),
    };
    let scale = scale_factor(board, strong, ours, theirs);
    debug_assert!((0..=SCALE_NORMAL).contains(&scale));
    fade(eval * scale / SCALE_NORMAL, halfmoves)
}

/// Whether any rule here can apply: one side has no pawns (bare kings,
/// KPK, the pawnless and lone-pawn rules) or the only pieces are two
/// bishops (opposite colours). With pawns on both sides and anything else
/// on the board, nothing below would change the evaluation.
pub fn may_apply(board: &Board) -> bool {
    let pawns = board.pawns();
    if !(pawns & board.white()).any() || !(pawns & board.black()).any() {
        return true;
    }
    let pieces = board.occupied() & !pawns & !board.kings();
    pieces == board.bishops() && pieces.count() == 2
}

/// The advantage shrinks linearly with the halfmove clock. Known wins are
/// not faded (see [`known_win_or_draw`]): their progress terms move by a
/// few dozen centipawns per step, and a fade of `KNOWN_WIN / FADE_BASE` =
/// 50 cp per ply would drown them and make leaves at different depths
/// incomparable.
fn fade(eval: i32, halfmoves: u32) -> i32 {
    let halfmoves = halfmoves.min(100) as i32;
    eval * (FADE_BASE - halfmoves) / FADE_BASE
}

/// One side's men by kind.
#[derive(Clone, Copy, Debug)]
struct Material {
    pawns: i32,
    knights: i32,
    bishops: i32,
    rooks: i32,
    queens: i32,
    /// Bishops on light and on dark squares.
    light_bishops: i32,
    dark_bishops: i32,
}

impl Material {
    fn of(board: &Board, color: Color) -> Material {
        let ours = board.by_color(color);
        let count = |role: Role| (board.by_role(role) & ours).count() as i32;
        let bishops = board.bishops() & ours;
        Material {
            pawns: count(Role::Pawn),
            knights: count(Role::Knight),
            bishops: count(Role::Bishop),
            rooks: count(Role::Rook),
            queens: count(Role::Queen),
            light_bishops: (bishops & Bitboard::LIGHT_SQUARES).count() as i32,
            dark_bishops: (bishops & Bitboard::DARK_SQUARES).count() as i32,
        }
    }

    fn pieces(self) -> i32 {
        self.knights + self.bishops + self.rooks + self.queens
    }

    fn non_pawn(self) -> i32 {
        KNIGHT * self.knights + BISHOP * self.bishops + ROOK * self.rooks + QUEEN * self.queens
    }

    fn total(self) -> i32 {
        PAWN * self.pawns + self.non_pawn()
    }

    fn is_bare_king(self) -> bool {
        self.pawns == 0 && self.pieces() == 0
    }

    /// Enough to mate a bare king without promoting a pawn.
    fn can_force_mate(self) -> bool {
        self.queens > 0
            || self.rooks > 0
            || (self.light_bishops > 0 && self.dark_bishops > 0)
            || (self.bishops > 0 && self.knights > 0)
            || self.knights >= 3
    }

    /// The only pieces are bishops (at least one), all on squares of one colour.
    fn only_bishops_of_one_colour(self) -> bool {
        self.bishops > 0
            && self.pieces() == self.bishops
            && (self.light_bishops == 0 || self.dark_bishops == 0)
    }
}

/// Won endings against a bare king and KPK: the exact verdict, from the
/// side to move, or `None` when the material is not one of these.
fn known_win_or_draw(pos: &Snapshot, white: Material, black: Material) -> Option<i32> {
    let board = pos.board();
    for (strong, ours, theirs) in [(Color::White, white, black), (Color::Black, black, white)] {
        if !theirs.is_bare_king() || ours.is_bare_king() {
            continue;
        }
        let (strong_king, weak_king) = (board.king_of(strong)?, board.king_of(!strong)?);
        let score = if ours.can_force_mate() {
            mating_score(board, strong, ours, strong_king, weak_king)
        } else if ours.pawns == 1 && ours.pieces() == 0 {
            let pawn = (board.pawns() & board.by_color(strong)).first()?;
            let wins = kpk::pawn_side_wins(
                strong == Color::White,
                strong_king,
                pawn,
                weak_king,
                pos.turn() == strong,
            );
            if wins {
                KPK_WIN + KPK_RANK_STEP * relative_rank(strong, pawn)
            } else {
                0
            }
        } else {
            // Bishops of one colour, two knights, pawns with a minor: the
            // scale factors and the evaluator handle these.
            return None;
        };
        return Some(if pos.turn() == strong { score } else { -score });
    }
    None
}

/// Rank 0–7 from `color`'s side of the board.
fn relative_rank(color: Color, sq: Square) -> i32 {
    let rank = sq.rank().to_u32() as i32;
    match color {
        Color::White => rank,
        Color::Black => 7 - rank,
    }
}

/// Steps from the centre, file and rank added: 0 on d4–e5, 6 in a corner.
fn distance_from_centre(sq: Square) -> i32 {
    let from_centre = |i: u32| {
        let i = i as i32;
        (3 - i).max(i - 4)
    };
    from_centre(sq.file().to_u32()) + from_centre(sq.rank().to_u32())
}

/// Score for the side with mating material against a bare king: higher as
/// the defending king nears the edge (and, for K+B+N, a corner of the
/// bishop's colour, the only place that mate can happen) and as the
/// attacker's king (for K+B+N also its knight) closes in. Every term grows
/// as the attacker makes progress, so the search always has something to
/// improve.
fn mating_score(
    board: &Board,
    strong: Color,
    ours: Material,
    strong_king: Square,
    weak_king: Square,
) -> i32 {
    let kings_close = 7 - strong_king.distance(weak_king) as i32;
    let mut score = KNOWN_WIN
        + ours.total().min(MATERIAL_CAP)
        + EDGE_STEP * distance_from_centre(weak_king)
        + CLOSE_STEP * kings_close;
    let bishop_and_knight_only =
        ours.pawns == 0 && ours.pieces() == 2 && ours.bishops == 1 && ours.knights == 1;
    if bishop_and_knight_only {
        let ours_bb = board.by_color(strong);
        let light = (board.bishops() & ours_bb & Bitboard::LIGHT_SQUARES).any();
        score += CORNER_STEP * toward_bishop_corners(weak_king, light);
        // The net in the corner needs king and knight next to the defender.
        // With the distance to the nearest right corner instead of the
        // diagonal term, 16 of 360 random starts ended in fifty-move draws
        // at 20 000 nodes a move; with it, 1 (`bishop_and_knight_sweep`).
        let knight = (board.knights() & ours_bb).first().unwrap_or(weak_king);
        score +=
            KBN_KNIGHT_STEP * (7 - knight.distance(weak_king) as i32) + KBN_KING_STEP * kings_close;
    }
    debug_assert!(score > KNOWN_WIN && score <= MAX_KNOWN_WIN);
    score
}

/// How far the defending king stands from the long diagonal that does not
/// end in the bishop's corners: 7 in either of those corners, 0 on that
/// diagonal. Unlike the distance to the nearest corner it rises with every
/// step towards a right corner, along the edge too, so the search is pulled
/// there square by square.
fn toward_bishop_corners(weak_king: Square, light_bishop: bool) -> i32 {
    let file = weak_king.file() as i32;
    let rank = weak_king.rank() as i32;
    // Light corners a8 and h1 lie farthest from the a1-h8 diagonal, dark
    // corners a1 and h8 farthest from the a8-h1 one.
    if light_bishop {
        (rank - file).abs()
    } else {
        (7 - rank - file).abs()
    }
}

/// How much of `strong`'s advantage its material can turn into a win, in
/// [`SCALE_NORMAL`]ths. `ours` is `strong`'s material, `theirs` the other
/// side's.
fn scale_factor(board: &Board, strong: Color, ours: Material, theirs: Material) -> i32 {
    if ours.pawns == 0 {
        return pawnless_scale(ours, theirs);
    }
    if rook_pawns_with_wrong_bishop(board, strong, ours, theirs) {
        return 0;
    }
    if lone_pawn_stopped_by_minor(board, strong, ours, theirs) {
        return 0;
    }
    if ours.pieces() == 1 && ours.bishops == 1 && theirs.pieces() == 1 && theirs.bishops == 1 {
        let ours_light = ours.light_bishops == 1;
        let theirs_light = theirs.light_bishops == 1;
        if ours_light != theirs_light {
            // Opposite-coloured bishops alone: one or two extra pawns are
            // usually not enough, the blockade holds.
            return match ours.pawns - theirs.pawns {
                ..=1 => 12,
                2 => 24,
                _ => 40,
            };
        }
    }
    SCALE_NORMAL
}

/// The strong side has no pawns, so it has to mate with its pieces.
fn pawnless_scale(ours: Material, theirs: Material) -> i32 {
    // A king, or a king and a minor piece, cannot mate (bar helpmates).
    if ours.non_pawn() < ROOK {
        return 0;
    }
    // Bishops of one colour cannot cover the other colour; two knights
    // cannot force mate on a bare king (with pawns to block the defender's
    // king they sometimes can).
    if ours.only_bishops_of_one_colour() && theirs.pawns == 0 {
        return 0;
    }
    if ours.pieces() == 2 && ours.knights == 2 {
        return if theirs.pawns == 0 { 0 } else { 16 };
    }
    // Up by less than a rook without pawns: KRKB, KRKN, KRBKR, KQKRB, ...
    // are mostly drawn, those against a lone minor more so.
    if ours.non_pawn() - theirs.non_pawn() <= BISHOP {
        return if theirs.non_pawn() <= BISHOP { 8 } else { 16 };
    }
    SCALE_NORMAL
}

/// Pawns all on one rook file, no other piece than bishops that cannot
/// cover the promotion square (or none), and the defending king, alone, at
/// that square or next to it: it cannot be driven out of the corner.
fn rook_pawns_with_wrong_bishop(
    board: &Board,
    strong: Color,
    ours: Material,
    theirs: Material,
) -> bool {
    if !theirs.is_bare_king() || ours.pieces() != ours.bishops {
        return false;
    }
    if ours.bishops > 0 && !ours.only_bishops_of_one_colour() {
        return false;
    }
    let pawns = board.pawns() & board.by_color(strong);
    let file = if pawns.is_subset(Bitboard::from_file(File::A)) {
        File::A
    } else if pawns.is_subset(Bitboard::from_file(File::H)) {
        File::H
    } else {
        return false;
    };
    let queening = Square::from_coords(file, strong.fold_wb(Rank::Eighth, Rank::First));
    let bishop_covers = if ours.light_bishops > 0 {
        queening.is_light()
    } else {
        ours.dark_bishops > 0 && queening.is_dark()
    };
    let Some(defender) = board.king_of(!strong) else {
        return false;
    };
    !bishop_covers && defender.distance(queening) <= 1
}

/// One pawn and no piece against a lone knight or bishop that watches a
/// square of the pawn's path (or the defending king stands on it): the
/// pawn will never promote, and the minor piece cannot be won by force.
fn lone_pawn_stopped_by_minor(
    board: &Board,
    strong: Color,
    ours: Material,
    theirs: Material,
) -> bool {
    if ours.pawns != 1 || ours.pieces() != 0 || theirs.pawns != 0 || theirs.pieces() != 1 {
        return false;
    }
    if theirs.knights + theirs.bishops != 1 {
        return false;
    }
    let defender = board.by_color(!strong);
    let (Some(pawn), Some(minor), Some(king)) = (
        (board.pawns() & board.by_color(strong)).first(),
        (defender & (board.knights() | board.bishops())).first(),
        board.king_of(!strong),
    ) else {
        return false;
    };
    let watched = if theirs.knights == 1 {
        attacks::knight_attacks(minor)
    } else {
        attacks::bishop_attacks(minor, board.occupied())
    };
    let stoppers = watched | Bitboard::from(minor) | Bitboard::from(king);
    front_span(strong, pawn).intersects(stoppers)
}

/// The squares in front of a pawn of `color` on `sq`, up to its promotion square.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank().to_u32();
    // Ranks above (White) or below (Black) the pawn's; a shift by 64 is none.
    let ahead = match color {
        Color::White => u64::MAX.checked_shl(8 * (rank + 1)).unwrap_or(0),
        Color::Black => !u64::MAX.checked_shl(8 * rank).unwrap_or(0),
    };
    Bitboard(ahead) & Bitboard::from_file(sq.file())
}

#[cfg(test)]
mod tests;
