//! What table file names say: the endgame of a file named like
//! `KQvKR.rtbw`, the canonical name of an endgame, the endgames one capture
//! or promotion away (to tell an incomplete set), and a few positions of an
//! endgame to check its tables on.

use std::path::Path;

use shakmaty::{Board, CastlingMode, Chess, Color, FromSetup, Position as _, Role, Setup, Square};
use shakmaty_syzygy::Metric;

/// Which of the two files of an endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    Wdl,
    Dtz,
}

impl Kind {
    pub(super) fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }

    pub(super) fn of(metric: Metric) -> Kind {
        match metric {
            Metric::Wdl => Kind::Wdl,
            Metric::Dtz => Kind::Dtz,
        }
    }
}

/// The endgame and kind of a file named like `KQvKR.rtbw`.
pub(super) fn table_name(path: &Path) -> Option<(String, Kind)> {
    let kind = match path.extension()?.to_str()? {
        "rtbw" => Kind::Wdl,
        "rtbz" => Kind::Dtz,
        _ => return None,
    };
    let stem = path.file_stem()?.to_str()?;
    let (white, black) = stem.split_once('v')?;
    let valid = |side: &str| {
        side.starts_with('K') && side[1..].chars().all(|c| "QRBNP".contains(c)) && side.len() <= 7
    };
    (valid(white) && valid(black)).then(|| (stem.to_string(), kind))
}

pub(super) fn piece_count(material: &str) -> u32 {
    material.chars().filter(|c| *c != 'v').count() as u32
}

pub(super) fn swap_sides(material: &str) -> String {
    match material.split_once('v') {
        Some((white, black)) => format!("{black}v{white}"),
        None => material.to_string(),
    }
}

/// Piece value order used in table names: K, Q, R, B, N, P.
fn role_order(c: char) -> usize {
    "KQRBNP".find(c).unwrap_or(6)
}

/// A side's pieces in table-name order.
fn sorted_side(side: &str) -> String {
    let mut chars: Vec<char> = side.chars().collect();
    chars.sort_by_key(|c| role_order(*c));
    chars.into_iter().collect()
}

/// The name a table file of this endgame has: the stronger side first
/// (more pieces, then the more valuable ones).
pub(super) fn normalize(material: &str) -> String {
    let Some((white, black)) = material.split_once('v') else {
        return material.to_string();
    };
    let (white, black) = (sorted_side(white), sorted_side(black));
    let key = |s: &str| {
        (
            s.len(),
            s.chars().map(|c| 6 - role_order(c)).collect::<Vec<_>>(),
        )
    };
    if key(&white) >= key(&black) {
        format!("{white}v{black}")
    } else {
        format!("{black}v{white}")
    }
}

/// Endgames one capture or promotion away, other than the bare kings.
pub(super) fn successors(material: &str) -> Vec<String> {
    let Some((white, black)) = material.split_once('v') else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let sides = [(white, black), (black, white)];
    for (us, them) in sides {
        for (i, c) in us.char_indices().skip(1) {
            let rest = format!("{}{}", &us[..i], &us[i + 1..]);
            // One of our pieces captured.
            out.push(format!("{rest}v{them}"));
            if c == 'P' {
                for promoted in ['Q', 'R', 'B', 'N'] {
                    out.push(format!("{rest}{promoted}v{them}"));
                }
            }
        }
    }
    out.into_iter()
        .filter(|m| m != "KvK")
        .map(|m| normalize(&m))
        .collect()
}

fn role_of(c: char) -> Option<Role> {
    Role::from_char(c.to_ascii_lowercase())
}

/// A few legal positions of `material` without captures for the side to
/// move (so a probe reads only this endgame's tables), both sides to move.
/// Deterministic: the same file is always checked on the same positions.
pub(super) fn sample_positions(material: &str, kind: Kind) -> Vec<Chess> {
    let Some((white, black)) = material.split_once('v') else {
        return Vec::new();
    };
    let pieces: Vec<(Color, Role)> = white
        .chars()
        .map(|c| (Color::White, c))
        .chain(black.chars().map(|c| (Color::Black, c)))
        .filter_map(|(color, c)| role_of(c).map(|r| (color, r)))
        .collect();
    let wanted = match kind {
        Kind::Wdl => 2,
        Kind::Dtz => 4,
    };
    let mut found = Vec::new();
    let mut rng = material.bytes().fold(0x9E37_79B9_7F4A_7C15_u64, |h, b| {
        (h ^ u64::from(b)).rotate_left(7)
    });
    for attempt in 0..400 {
        if found.len() >= wanted {
            break;
        }
        let mut board = Board::empty();
        for &(color, role) in &pieces {
            let square = loop {
                rng = rng
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let sq = Square::new(((rng >> 33) % 64) as u32);
                let back_rank = matches!(sq.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth);
                if board.piece_at(sq).is_none() && !(role == Role::Pawn && back_rank) {
                    break sq;
                }
            };
            board.set_piece_at(square, role.of(color));
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = if attempt % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) else {
            continue;
        };
        let moves = pos.legal_moves();
        if !moves.is_empty() && moves.iter().all(|m| !m.is_capture()) {
            found.push(pos);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_recognised() {
        assert_eq!(
            table_name(Path::new("/x/KQvKR.rtbw")),
            Some(("KQvKR".to_string(), Kind::Wdl))
        );
        assert_eq!(
            table_name(Path::new("KBNvK.rtbz")),
            Some(("KBNvK".to_string(), Kind::Dtz))
        );
        assert_eq!(table_name(Path::new("SOURCE.txt")), None);
        assert_eq!(table_name(Path::new("KXvK.rtbw")), None);
        assert_eq!(table_name(Path::new("QKvK.rtbw")), None);
    }

    #[test]
    fn successors_follow_captures_and_promotions() {
        let next = successors("KQPvKR");
        for m in ["KPvKR", "KQvKR", "KQPvK", "KQQvKR", "KRvKQ", "KQNvKR"] {
            let m = normalize(m);
            assert!(next.contains(&m), "{m} missing from {next:?}");
        }
        assert!(successors("KQvK").is_empty());
        assert_eq!(normalize("KRvKQ"), "KQvKR");
        assert_eq!(normalize("KPvKNN"), "KNNvKP");
    }

    #[test]
    fn sample_positions_have_the_material_and_no_captures() {
        for material in ["KQvK", "KRvKR", "KPvKP", "KBNvK"] {
            let samples = sample_positions(material, Kind::Dtz);
            assert!(!samples.is_empty(), "{material}");
            for pos in samples {
                assert_eq!(pos.board().occupied().count() as u32, piece_count(material));
                assert!(pos.legal_moves().iter().all(|m| !m.is_capture()));
            }
        }
    }
}
