//! Stockfish's `d` command: the board as text, its FEN, Zobrist key and the
//! pieces giving check, for people debugging at the console.

use shakmaty::{File, Position as _, Rank, Square};

use crate::position::Position;
use crate::uci::output::Output;

pub fn board(position: &Position, out: &Output) {
    let board = position.snapshot().board();
    let separator = " +---+---+---+---+---+---+---+---+";
    out.line("");
    out.line(separator);
    for rank in Rank::ALL.iter().rev() {
        let mut row = String::from(" |");
        for file in File::ALL {
            let symbol = board
                .piece_at(Square::from_coords(file, *rank))
                .map_or(' ', |p| p.char());
            row.push_str(&format!(" {symbol} |"));
        }
        row.push_str(&format!(" {}", rank.char()));
        out.line(&row);
        out.line(separator);
    }
    out.line("   a   b   c   d   e   f   g   h");
    out.line("");
    out.line(&format!("Fen: {}", position.fen()));
    out.line(&format!("Key: {:016X}", position.key()));
    let checkers: Vec<String> = position
        .to_chess()
        .checkers()
        .into_iter()
        .map(|sq| sq.to_string())
        .collect();
    out.line(&format!("Checkers: {}", checkers.join(" ")));
}
