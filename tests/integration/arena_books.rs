//! The opening books shipped in arena/openings/ load completely.

use std::path::Path;

use tarpon::arena::openings::{BookFormat, load};

#[test]
fn shipped_books_load_without_skipping() {
    let cases = [
        (
            "arena/openings/uho_4060_v2_2000.epd",
            BookFormat::Epd,
            false,
            2000,
        ),
        (
            "arena/openings/8moves_v3_400.pgn",
            BookFormat::Pgn,
            false,
            400,
        ),
        (
            "arena/openings/endgames_200.epd",
            BookFormat::Epd,
            false,
            200,
        ),
        ("arena/openings/frc_960.epd", BookFormat::Epd, true, 960),
    ];
    for (path, format, chess960, expected) in cases {
        let (book, skipped) = load(Path::new(path), format, chess960, None).unwrap();
        assert_eq!((book.len(), skipped), (expected, 0), "{path}");
    }
    // 8moves openings are 16 plies from the start position.
    let (book, _) = load(
        Path::new("arena/openings/8moves_v3_400.pgn"),
        BookFormat::Pgn,
        false,
        Some(3),
    )
    .unwrap();
    assert!(book.iter().all(|o| o.moves.len() == 16), "{book:?}");
}
