//! A chess board in SVG: squares, coordinates, pieces as Unicode glyphs in
//! `<text>` (a generic font, no images), and per square an optional shade and
//! value. Every glyph, shade and value has an id (`{board}-p{sq}`, `-h`, `-v`,
//! squares a1 = 0 to h8 = 63) so a script can replay moves on it.

use std::fmt::Write as _;

use super::page::escape;

/// Side of a square in SVG units; the margin holds the coordinates.
const SQUARE: u32 = 40;
const MARGIN: u32 = 14;

/// What one square shows.
#[derive(Clone, Debug, Default)]
pub struct SquareView {
    /// The FEN letter of the piece on it.
    pub piece: Option<char>,
    /// A colour laid over the square and its opacity (0..1).
    pub shade: Option<(&'static str, f64)>,
    /// A small number in the corner.
    pub value: Option<String>,
    /// Shown on hover.
    pub tip: Option<String>,
}

/// The glyph of a FEN letter: the filled shapes for both sides (white ones
/// are drawn white with a dark outline), with U+FE0E asking for text, not
/// emoji, presentation.
pub fn glyph(piece: char) -> Option<&'static str> {
    Some(match piece.to_ascii_lowercase() {
        'k' => "\u{265A}\u{FE0E}",
        'q' => "\u{265B}\u{FE0E}",
        'r' => "\u{265C}\u{FE0E}",
        'b' => "\u{265D}\u{FE0E}",
        'n' => "\u{265E}\u{FE0E}",
        'p' => "\u{265F}\u{FE0E}",
        _ => return None,
    })
}

/// Square index (a1 = 0, h8 = 63) of a name like `e4`.
pub fn square_index(name: &str) -> Option<usize> {
    let mut chars = name.chars();
    let file = chars.next().filter(|c| ('a'..='h').contains(c))?;
    let rank = chars.next().filter(|c| ('1'..='8').contains(c))?;
    chars
        .next()
        .is_none()
        .then(|| usize::from(rank as u8 - b'1') * 8 + usize::from(file as u8 - b'a'))
}

/// The pieces of a FEN's placement field, by square index.
pub fn pieces_from_fen(fen: &str) -> [Option<char>; 64] {
    let mut out = [None; 64];
    let placement = fen.split_whitespace().next().unwrap_or("");
    for (row, line) in placement.split('/').take(8).enumerate() {
        let mut file = 0usize;
        for c in line.chars() {
            if let Some(skip) = c.to_digit(10) {
                file += skip as usize;
            } else if file < 8 {
                out[(7 - row) * 8 + file] = Some(c);
                file += 1;
            }
        }
    }
    out
}

/// The board as an `<svg>` element with id `id`, rank 8 on top.
pub fn svg(id: &str, squares: &[SquareView; 64]) -> String {
    let side = 8 * SQUARE + MARGIN;
    let mut out = format!(
        "<svg class=\"board\" id=\"{id}\" viewBox=\"0 0 {side} {side}\" width=\"{side}\" height=\"{side}\" \
         xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"chess board\">\n"
    );
    for (sq, view) in squares.iter().enumerate() {
        let (file, rank) = (sq as u32 % 8, sq as u32 / 8);
        let (x, y) = (MARGIN + file * SQUARE, (7 - rank) * SQUARE);
        let colour = if (file + rank) % 2 == 0 {
            "dark"
        } else {
            "light"
        };
        let _ = write!(
            out,
            "<g><rect class=\"{colour}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\"/>"
        );
        let (fill, opacity) = view.shade.unwrap_or(("#000", 0.0));
        let _ = write!(
            out,
            "<rect id=\"{id}-h{sq}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" \
             fill=\"{fill}\" fill-opacity=\"{opacity:.3}\"/>"
        );
        let piece = view.piece.and_then(|p| glyph(p).map(|g| (p, g)));
        let (class, text) = match piece {
            Some((p, g)) if p.is_ascii_uppercase() => ("piece white", g),
            Some((_, g)) => ("piece black", g),
            None => ("piece", ""),
        };
        let _ = write!(
            out,
            "<text id=\"{id}-p{sq}\" class=\"{class}\" x=\"{}\" y=\"{}\">{text}</text>",
            x + SQUARE / 2,
            y + SQUARE / 2 + 1
        );
        let _ = write!(
            out,
            "<text id=\"{id}-v{sq}\" class=\"value\" x=\"{}\" y=\"{}\">{}</text>",
            x + SQUARE - 2,
            y + SQUARE - 3,
            escape(view.value.as_deref().unwrap_or(""))
        );
        if let Some(tip) = &view.tip {
            let _ = write!(out, "<title>{}</title>", escape(tip));
        }
        out.push_str("</g>\n");
    }
    for i in 0..8u32 {
        let _ = write!(
            out,
            "<text class=\"coord\" x=\"{}\" y=\"{}\">{}</text><text class=\"coord\" x=\"3\" y=\"{}\">{}</text>",
            MARGIN + i * SQUARE + SQUARE / 2 - 3,
            8 * SQUARE + MARGIN - 3,
            char::from(b'a' + i as u8),
            (7 - i) * SQUARE + SQUARE / 2 + 3,
            i + 1
        );
        // The loop draws rank i + 1 at row 7 - i: rank 1 at the bottom.
    }
    out.push_str("\n</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::START_FEN;

    #[test]
    fn reads_fen_placement_and_square_names() {
        let pieces = pieces_from_fen(START_FEN);
        assert_eq!(pieces[0], Some('R'));
        assert_eq!(pieces[4], Some('K'));
        assert_eq!(pieces[60], Some('k'));
        assert_eq!(pieces[28], None);
        assert_eq!(square_index("a1"), Some(0));
        assert_eq!(square_index("e4"), Some(28));
        assert_eq!(square_index("h8"), Some(63));
        assert_eq!(square_index("i1"), None);
        assert_eq!(square_index("e44"), None);
    }

    #[test]
    fn draws_every_square_with_ids() {
        let squares: [SquareView; 64] = std::array::from_fn(|sq| SquareView {
            piece: pieces_from_fen(START_FEN)[sq],
            ..SquareView::default()
        });
        let svg = svg("b", &squares);
        assert_eq!(svg.matches("<text id=\"b-p").count(), 64);
        assert!(svg.contains("id=\"b-p63\" class=\"piece black\""));
        assert!(svg.contains("id=\"b-p0\" class=\"piece white\""));
    }
}
