//! Tablebase adjudication with the Syzygy tables in tests/data/syzygy.

use shakmaty::{CastlingMode, Chess, fen::Fen};
use tarpon::arena::referee::{GameResult, Termination};
use tarpon::arena::tablebase::Tablebases;

fn chess(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

#[test]
fn tablebase_verdicts() {
    let tb = Tablebases::open("tests/data/syzygy").unwrap();
    assert!(tb.max_pieces() >= 4);
    // KQ v K, either side to move: White wins.
    for fen in [
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
        "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
    ] {
        let end = tb.verdict(&chess(fen)).unwrap();
        assert_eq!(end.result, GameResult::WhiteWins, "{fen}");
        assert_eq!(end.termination, Termination::Adjudication);
    }
    // KR v KR: a draw.
    let end = tb
        .verdict(&chess("8/8/3rk3/8/8/3RK3/8/8 w - - 0 1"))
        .unwrap();
    assert_eq!(end.result, GameResult::Draw);
    // Too many pieces for the tables: no verdict.
    assert!(tb.verdict(&Chess::default()).is_none());
    // A missing directory is an error, not a panic.
    assert!(Tablebases::open("/nonexistent/syzygy").is_err());
}
