//! Mating a bare king without tablebases (issue 28): from seeded random
//! starts of KQvK, KRvK, KBBvK and KBNvK, tarpon plays both sides at a
//! fixed node budget per move and must mate within the fifty-move rule.
//! The evaluation's endgame knowledge (`tarpon::eval::endgame`) is what
//! makes this work; the net alone never learned it.

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Position as _, Role, Setup,
    Square,
};
use tarpon::eval::EvalChoice;
use tarpon::position::Position;
use tarpon::search::{
    GameMemory, HistoryStore, Limits, SearchConfig, SearchControl, TranspositionTable,
    run_search_in_game,
};

use crate::common::Rng;

/// Nodes per move for either side.
const NODES: u64 = 20_000;

/// A random legal start: `strong` has a king and `pieces`, the other side a
/// bare king, `strong` to move. The defending king attacks none of the
/// attacker's men (nothing hangs at the start), and bishops stand on
/// squares of both colours when there are two.
fn random_start(rng: &mut Rng, strong: Color, pieces: &[Role]) -> Position {
    loop {
        let mut board = Board::empty();
        let mut free = Bitboard::FULL;
        let mut place = |rng: &mut Rng, piece: Piece, allowed: Bitboard| {
            let choices: Vec<Square> = (free & allowed).into_iter().collect();
            let sq = choices[rng.below(choices.len())];
            board.set_piece_at(sq, piece);
            free.discard(sq);
            sq
        };
        place(rng, strong.king(), Bitboard::FULL);
        let weak_king = place(rng, (!strong).king(), Bitboard::FULL);
        let mut bishop_colours = [Bitboard::LIGHT_SQUARES, Bitboard::DARK_SQUARES].into_iter();
        for &role in pieces {
            let allowed = match role {
                Role::Bishop => bishop_colours.next().unwrap_or(Bitboard::FULL),
                _ => Bitboard::FULL,
            };
            place(rng, role.of(strong), allowed);
        }
        let attacked = shakmaty::attacks::king_attacks(weak_king) & board.by_color(strong);
        if attacked.any() {
            continue;
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = strong;
        if let Ok(chess) = Chess::from_setup(setup, CastlingMode::Standard)
            && !chess.legal_moves().is_empty()
        {
            return Position::from_chess(chess);
        }
    }
}

/// Plays the game out with tarpon on both sides (each side with its own
/// hash table and history, as two engines would have). Returns the plies to
/// mate, or why the game did not end in mate.
fn play_out(start: &Position, eval: &EvalChoice) -> Result<usize, String> {
    let config = SearchConfig {
        eval: eval.clone(),
        ..SearchConfig::default()
    };
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let control = SearchControl::new();
    let tables = [TranspositionTable::new(4), TranspositionTable::new(4)];
    let mut histories = [HistoryStore::new(), HistoryStore::new()];
    let strong = start.turn();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    loop {
        let failure = if pos.legal_moves().is_empty() {
            if pos.is_check() && pos.turn() != strong {
                return Ok(moves.len());
            }
            "stalemate"
        } else if pos.is_fifty_move_draw() {
            "fifty-move draw"
        } else if pos.repetitions() >= 2 {
            "threefold repetition"
        } else if pos.to_chess().is_insufficient_material() {
            "insufficient material"
        } else {
            let side = usize::from(pos.turn() != strong);
            let memory = GameMemory {
                tt: &tables[side],
                histories: &mut histories[side],
                evaluators: None,
            };
            let outcome = run_search_in_game(&pos, &limits, &config, memory, &control, None);
            let best = outcome.best.ok_or("no move")?;
            moves.push(pos.uci(best));
            pos.make(best);
            continue;
        };
        return Err(format!(
            "{failure} after {} plies from {}: {}",
            moves.len(),
            start.fen(),
            moves.join(" ")
        ));
    }
}

/// `count` seeded starts of one class (the strong side White and Black in
/// turn), played with the evaluator users run: the embedded net when the
/// build has one. Against a bare king the endgame knowledge replaces the
/// evaluator's score altogether, so the PST would play the same games.
fn mates_every_start(pieces: &[Role], seed: u64, count: usize) {
    let eval = EvalChoice::default();
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut plies = Vec::new();
    for i in 0..count {
        let strong = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let start = random_start(&mut rng, strong, pieces);
        match play_out(&start, &eval) {
            Ok(n) => plies.push(n),
            Err(why) => failures.push(why),
        }
    }
    println!(
        "{pieces:?}: {} of {count} starts mated; plies to mate {plies:?}",
        plies.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn mates_with_queen() {
    mates_every_start(&[Role::Queen], 0x51, 10);
}

#[test]
fn mates_with_rook() {
    mates_every_start(&[Role::Rook], 0x52, 10);
}

#[test]
fn mates_with_two_bishops() {
    mates_every_start(&[Role::Bishop, Role::Bishop], 0x53, 10);
}

/// K+B+N is the hard one. With the defending king pulled away from the long
/// diagonal that avoids the bishop's corners, 359 of 360 random starts mate
/// at this budget (`bishop_and_knight_sweep`, seeds 0x55 and 153); pulled
/// only towards the nearest such corner, 16 did not. More time per move
/// helps (`arena/endgame_check.py` plays it against Stockfish).
#[test]
fn mates_with_bishop_and_knight() {
    mates_every_start(&[Role::Bishop, Role::Knight], 0x54, 10);
}

/// Many K+B+N starts, to measure a change to the endgame knowledge or the
/// search: `TARPON_KBN_STARTS` (default 120) starts from `TARPON_KBN_SEED`
/// (default 0x55), each failure printed.
#[test]
#[ignore = "minutes: a sweep for measuring, not a gate"]
fn bishop_and_knight_sweep() {
    let setting = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let starts = setting("TARPON_KBN_STARTS", 120) as usize;
    mates_every_start(
        &[Role::Bishop, Role::Knight],
        setting("TARPON_KBN_SEED", 0x55),
        starts,
    );
}

/// The same against a defender that cannot go wrong: Stockfish 15.1 with the
/// Syzygy tables of `tests/data/syzygy`, through `arena/endgame_check.py`
/// (python-chess), 5 seeded starts a class at 0.1 s a move. The recorded
/// 40-start run is in docs/measurements.md.
#[test]
#[ignore = "needs /usr/games/stockfish (Debian's stockfish) and python-chess"]
fn mates_stockfish_defending_with_tables() {
    let out = std::process::Command::new("python3")
        .args([
            "arena/endgame_check.py",
            env!("CARGO_BIN_EXE_tarpon"),
            "tests/data/syzygy",
            "--starts",
            "5",
            "--seed",
            "1",
        ])
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .filter(|l| l.starts_with("| K"))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 4, "{stdout}");
    for row in rows {
        // | class | starts | won | ...
        assert_eq!(row[2], row[3], "not every start won: {stdout}");
    }
}
