//! Where the fight was: for every position of a game, each square's
//! contest is the smaller of the two sides' pressure on it, pressure being the
//! summed value (in pawns) of the pieces attacking the square. Summed over the
//! game and drawn as a text heat map.

use std::fmt::Write as _;

use shakmaty::{Color, File, Rank, Role, Square};

use crate::position::Position;

fn pawns(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 1,
    }
}

/// Summed value of `color`'s pieces attacking `sq` in `pos`.
pub fn pressure(pos: &Position, sq: Square, color: Color) -> u32 {
    let board = pos.snapshot().board();
    board
        .attacks_to(sq, color, board.occupied())
        .into_iter()
        .filter_map(|from| board.role_at(from))
        .map(pawns)
        .sum()
}

/// Adds each square's contest in `pos` to `heat`.
pub fn accumulate(heat: &mut [u32; 64], pos: &Position) {
    for sq in Square::ALL {
        let contest = pressure(pos, sq, Color::White).min(pressure(pos, sq, Color::Black));
        heat[usize::from(sq)] += contest;
    }
}

/// Shades from cold to hot.
const SHADES: &[u8] = b" .:-=+*#%@";

/// The heat map, rank 8 on top, and the hottest squares.
pub fn render(heat: &[u32; 64]) -> String {
    let max = heat.iter().copied().max().unwrap_or(0).max(1);
    let mut out = String::from(
        "most contested squares (min of both sides' attacking value, summed over the game):\n",
    );
    for rank in (0..8u32).rev() {
        let _ = write!(out, " {} ", rank + 1);
        for file in 0..8u32 {
            let sq = Square::from_coords(File::new(file), Rank::new(rank));
            let level = (heat[usize::from(sq)] as usize * (SHADES.len() - 1) + max as usize / 2)
                / max as usize;
            let c = char::from(SHADES[level]);
            let _ = write!(out, " {c}{c}");
        }
        out.push('\n');
    }
    out.push_str("    a  b  c  d  e  f  g  h\n");
    let mut squares: Vec<Square> = Square::ALL.to_vec();
    squares.sort_by_key(|&sq| std::cmp::Reverse(heat[usize::from(sq)]));
    let top: Vec<String> = squares
        .iter()
        .take(5)
        .filter(|&&sq| heat[usize::from(sq)] > 0)
        .map(|&sq| format!("{sq} {}", heat[usize::from(sq)]))
        .collect();
    let _ = writeln!(
        out,
        "hottest: {}",
        if top.is_empty() {
            "none".to_string()
        } else {
            top.join(", ")
        }
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pressure_counts_attacker_values() {
        // e5 is attacked by the white knight f3 and pawn d4, defended by the
        // black knight c6 and pawn d6.
        let pos = Position::from_fen("4k3/8/2np4/8/3P4/5N2/8/4K3 w - - 0 1", false).unwrap();
        let e5 = Square::E5;
        assert_eq!(pressure(&pos, e5, Color::White), 3 + 1);
        assert_eq!(pressure(&pos, e5, Color::Black), 3 + 1);
        let mut heat = [0; 64];
        accumulate(&mut heat, &pos);
        assert_eq!(heat[usize::from(e5)], 4);
        // A square only one side attacks is not contested.
        assert_eq!(heat[usize::from(Square::G5)], 0);
        let map = render(&heat);
        assert!(map.contains("hottest: e5 4"), "{map}");
    }
}
