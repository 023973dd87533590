//! Thousands of random moves (castling, Chess960 castling, en passant,
//! promotions, null moves, take-backs): each move round-trips through UCI
//! notation; after each, the incremental key equals the key computed from
//! scratch, the piece changes turn the old board into the new one, repetition
//! detection agrees with a naive scan comparing positions, and every unmake
//! restores the position exactly.

use crate::common::{Rng, SUITE, SUITE_960, load_perft_cases};
use shakmaty::{Board, Chess, Color, EnPassantMode, Move, Position as _};
use tarpon::position::{PieceChanges, Position, START_FEN};

/// What makes two positions the same for the repetition rule, compared
/// directly rather than through keys.
#[derive(Clone, PartialEq, Debug)]
struct Snapshot {
    board: Board,
    turn: Color,
    castling_rights: shakmaty::Bitboard,
    en_passant: Option<shakmaty::Square>,
}

impl Snapshot {
    fn of(chess: &Chess) -> Snapshot {
        Snapshot {
            board: chess.board().clone(),
            turn: chess.turn(),
            castling_rights: chess.castles().castling_rights(),
            en_passant: chess.ep_square(EnPassantMode::Legal),
        }
    }
}

/// The test's own record of the line played, kept independently of Position.
struct Line {
    /// Snapshot of every position since the start, current last.
    history: Vec<Snapshot>,
    /// Index in `history` of the position right after the latest null move:
    /// no repetition reaches across a null move.
    null_floor: Vec<usize>,
    /// FEN and key before each move that can still be unmade.
    undoable: Vec<(String, u64)>,
}

impl Line {
    fn earlier_equal(&self) -> Vec<usize> {
        let n = self.history.len();
        let floor = *self.null_floor.last().unwrap();
        let now = &self.history[n - 1];
        (floor..n - 1)
            .filter(|&i| self.history[i] == *now)
            .map(|i| n - 1 - i)
            .collect()
    }
}

#[derive(Default, Debug)]
struct Seen {
    moves: usize,
    castles: usize,
    castles_960: usize,
    en_passant: usize,
    promotions: usize,
    nulls: usize,
    refused_nulls: usize,
    unmakes: usize,
    repetitions: usize,
    threefolds: usize,
}

fn apply_changes(board: &Board, changes: &PieceChanges) -> Board {
    let mut board = board.clone();
    for c in changes.removed() {
        assert_eq!(
            board.remove_piece_at(c.square),
            Some(c.piece),
            "{changes:?}"
        );
    }
    for c in changes.added() {
        assert_eq!(board.piece_at(c.square), None, "{changes:?}");
        board.set_piece_at(c.square, c.piece);
    }
    board
}

fn check_position(pos: &Position, line: &Line, seen: &mut Seen) {
    assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
    assert!(
        pos.snapshot().board().part_keys_are_fresh(),
        "{}",
        pos.fen()
    );
    assert_eq!(Snapshot::of(&pos.to_chess()), *line.history.last().unwrap());
    let earlier = line.earlier_equal();
    assert_eq!(pos.repetitions(), earlier.len(), "{}", pos.fen());
    for search_ply in 0..8 {
        let naive = earlier.len() >= 2 || earlier.iter().any(|&back| back < search_ply);
        assert_eq!(pos.is_repetition_draw(search_ply), naive, "{}", pos.fen());
    }
    seen.repetitions += usize::from(!earlier.is_empty());
    seen.threefolds += usize::from(earlier.len() >= 2);
}

/// Picks a move, favouring the rare kinds and moves that undo the mover's
/// previous move (which produce repetitions).
fn pick(rng: &mut Rng, pos: &Position, last_own: Option<Move>) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
        .collect();
    if !special.is_empty() && rng.chance(2) {
        return Some(special[rng.below(special.len())]);
    }
    // Double pawn pushes make en-passant captures possible.
    let double_pushes: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            m.role() == shakmaty::Role::Pawn && m.from().is_some_and(|f| f.distance(m.to()) == 2)
        })
        .collect();
    if !double_pushes.is_empty() && rng.chance(3) {
        return Some(double_pushes[rng.below(double_pushes.len())]);
    }
    if let Some(Move::Normal { from, to, role, .. }) = last_own
        && rng.chance(2)
        && let Some(back) = moves.iter().copied().find(|m| {
            matches!(m, Move::Normal { from: f, to: t, role: r, capture: None, .. }
                if *f == to && *t == from && *r == role)
        })
    {
        return Some(back);
    }
    Some(moves[rng.below(moves.len())])
}

fn random_walk(fen: &str, chess960: bool, plies: usize, rng: &mut Rng, seen: &mut Seen) {
    let mut pos = Position::from_fen(fen, chess960).unwrap();
    let mut line = Line {
        history: vec![Snapshot::of(&pos.to_chess())],
        null_floor: vec![0],
        undoable: Vec::new(),
    };
    // The mover's own move two plies back, and whether each ply was a null.
    let mut played: Vec<Option<Move>> = Vec::new();
    check_position(&pos, &line, seen);

    for _ in 0..plies {
        // Sometimes the game moves so far become history the search cannot
        // unmake, as after `position ... moves`.
        if rng.chance(40) {
            pos.forget_undo();
            line.undoable.clear();
        }
        if !line.undoable.is_empty() && rng.chance(6) {
            pos.unmake();
            let (fen, key) = line.undoable.pop().unwrap();
            let was_null = played.pop().unwrap().is_none();
            line.history.pop();
            if was_null {
                line.null_floor.pop();
            }
            assert_eq!((pos.fen(), pos.key()), (fen, key), "unmake did not restore");
            seen.unmakes += 1;
            check_position(&pos, &line, seen);
            continue;
        }
        let before = (pos.fen(), pos.key());
        if rng.chance(12) {
            if pos.is_check() {
                assert!(!pos.make_null(), "null move allowed in check");
                assert_eq!(
                    (pos.fen(), pos.key()),
                    before,
                    "refused null changed the position"
                );
                seen.refused_nulls += 1;
                continue;
            }
            assert!(pos.make_null());
            seen.nulls += 1;
            line.undoable.push(before);
            line.history.push(Snapshot::of(&pos.to_chess()));
            line.null_floor.push(line.history.len() - 1);
            played.push(None);
            check_position(&pos, &line, seen);
            continue;
        }
        let last_own = played.len().checked_sub(2).and_then(|i| played[i]);
        let Some(m) = pick(rng, &pos, last_own) else {
            break; // mate or stalemate
        };
        // UCI notation round-trips, Chess960 castling (king takes rook) included.
        assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m), "{}", pos.fen());
        let board_before = pos.snapshot().board().to_shakmaty();
        let changes = pos.make(m);
        assert_eq!(
            apply_changes(&board_before, &changes),
            pos.snapshot().board().to_shakmaty(),
            "{m:?}"
        );
        if m.role() == shakmaty::Role::King {
            let to = changes.king_move().expect("king moves are reported").1;
            assert_eq!(pos.snapshot().board().king_of(!pos.turn()), Some(to));
        } else {
            assert_eq!(changes.king_move(), None);
        }
        seen.moves += 1;
        seen.castles += usize::from(m.is_castle());
        seen.castles_960 += usize::from(m.is_castle() && pos.is_chess960());
        seen.en_passant += usize::from(m.is_en_passant());
        seen.promotions += usize::from(m.is_promotion());
        line.undoable.push(before);
        line.history.push(Snapshot::of(&pos.to_chess()));
        played.push(Some(m));
        check_position(&pos, &line, seen);
    }

    // Take everything back that can be taken back.
    while let Some((fen, key)) = line.undoable.pop() {
        pos.unmake();
        assert_eq!((pos.fen(), pos.key()), (fen, key), "unmake did not restore");
    }
}

#[test]
fn random_games_keep_key_changes_repetition_and_unmake_right() {
    let mut rng = Rng(0x5EED_0F7A_2B11);
    let mut seen = Seen::default();
    let mut starts: Vec<(String, bool)> = vec![(START_FEN.to_string(), false)];
    starts.extend(load_perft_cases(SUITE).into_iter().map(|c| (c.fen, false)));
    starts.extend(
        load_perft_cases(SUITE_960)
            .into_iter()
            .map(|c| (c.fen, true)),
    );
    for round in 0..3 {
        for (fen, chess960) in &starts {
            random_walk(fen, *chess960, 120 + 40 * round, &mut rng, &mut seen);
        }
    }
    println!("{seen:?}");
    assert!(seen.moves > 5000, "{seen:?}");
    assert!(seen.castles > 50 && seen.castles_960 > 20, "{seen:?}");
    assert!(seen.en_passant > 20 && seen.promotions > 50, "{seen:?}");
    assert!(seen.nulls > 200 && seen.refused_nulls > 0, "{seen:?}");
    assert!(seen.unmakes > 500, "{seen:?}");
    assert!(seen.repetitions > 100 && seen.threefolds > 20, "{seen:?}");
}

#[test]
fn null_move_is_refused_in_check_and_clears_en_passant() {
    let mut pos = Position::from_fen(
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        false,
    )
    .unwrap();
    assert!(pos.to_chess().ep_square(EnPassantMode::Legal).is_some());
    let key = pos.key();
    assert!(pos.make_null());
    assert_eq!(pos.to_chess().ep_square(EnPassantMode::Always), None);
    assert_eq!(pos.key(), pos.key_from_scratch());
    pos.unmake();
    assert_eq!(pos.key(), key);

    let mut in_check = Position::from_fen("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", false).unwrap();
    assert!(!in_check.make_null());
    assert_eq!(in_check.game_ply(), 0);
}

#[test]
fn too_much_material_positions_allow_null_moves() {
    // Eleven white queens: impossible in a game, accepted (GUIs send such
    // set-ups), and then every operation must work on it.
    let mut pos = Position::from_fen("k7/pp6/8/8/8/8/QQQQQQQQ/QQQ1K3 b - - 0 1", false).unwrap();
    assert!(!pos.is_check());
    assert!(pos.make_null());
    assert_eq!(pos.key(), pos.key_from_scratch());
    pos.unmake();
    assert_eq!(pos.fen(), "k7/pp6/8/8/8/8/QQQQQQQQ/QQQ1K3 b - - 0 1");
}

#[test]
fn repetition_over_game_history_and_in_search() {
    let mut pos = Position::startpos();
    // Two knight dances from the start: the start position occurs 3 times.
    for (i, mv) in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ]
    .iter()
    .enumerate()
    {
        let m = pos.parse_uci(mv).unwrap();
        pos.make(m);
        let expected = match i {
            3 => 1,
            7 => 2,
            _ => usize::from(i >= 4),
        };
        assert_eq!(pos.repetitions(), expected, "after {mv}");
    }
    assert!(pos.is_repetition_draw(0), "threefold");
    pos.forget_undo();
    assert!(
        pos.is_repetition_draw(0),
        "game history survives forget_undo"
    );

    // In the search a single repetition after the root already counts.
    let mut pos = Position::startpos();
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        let m = pos.parse_uci(mv).unwrap();
        pos.make(m);
    }
    assert!(
        !pos.is_repetition_draw(4),
        "the repeated position is the root itself"
    );
    assert!(pos.is_repetition_draw(5), "repetition inside the search");
    // A pawn move cuts the history.
    let m = pos.parse_uci("e2e4").unwrap();
    pos.make(m);
    assert_eq!(pos.repetitions(), 0);
}
