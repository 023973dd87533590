//! A simple good move ordering for the explainer's alpha-beta: captures by
//! MVV-LVA (most valuable victim, then least valuable attacker), promotions,
//! two killer moves per ply, then quiet moves by a history score. Kept here,
//! apart from the engine's staged move picker, so the teaching code stays
//! small and the engine's hot path free to change.

use shakmaty::{Move, Role};

/// How the explainer orders moves before searching them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OrderingKind {
    /// Move generator order: what a textbook alpha-beta sees.
    None,
    /// MVV-LVA captures, promotions, killers, history.
    Tarpon,
}

fn role_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 10,
    }
}

/// MVV-LVA score of a capture (en passant is pawn takes pawn), or `None`.
pub fn capture_score(m: Move) -> Option<i32> {
    match m {
        Move::EnPassant { .. } => Some(10 * role_value(Role::Pawn) - role_value(Role::Pawn)),
        Move::Normal {
            role,
            capture: Some(victim),
            ..
        } => Some(10 * role_value(victim) - role_value(role)),
        _ => None,
    }
}

/// Killers and history, learned while one search runs.
#[derive(Clone, Debug)]
pub struct Ordering {
    kind: OrderingKind,
    killers: Vec<[Option<Move>; 2]>,
    /// Indexed by moving role and destination square.
    history: [[i32; 64]; 7],
}

impl Ordering {
    pub fn new(kind: OrderingKind) -> Ordering {
        Ordering {
            kind,
            killers: Vec::new(),
            history: [[0; 64]; 7],
        }
    }

    fn history_index(m: Move) -> (usize, usize) {
        (m.role() as usize, usize::from(m.to()))
    }

    fn score(&self, m: Move, ply: usize) -> i32 {
        if let Some(s) = capture_score(m) {
            return 3_000_000 + s;
        }
        if let Some(p) = m.promotion() {
            return 2_000_000 + role_value(p);
        }
        let killers = self.killers.get(ply).copied().unwrap_or_default();
        if killers[0] == Some(m) {
            return 1_000_001;
        }
        if killers[1] == Some(m) {
            return 1_000_000;
        }
        let (r, to) = Self::history_index(m);
        self.history[r][to]
    }

    /// Sorts `moves` best first (stable, so ties keep generator order).
    pub fn sort(&self, moves: &mut [Move], ply: usize) {
        if self.kind == OrderingKind::Tarpon {
            moves.sort_by_cached_key(|m| std::cmp::Reverse(self.score(*m, ply)));
        }
    }

    /// A quiet move caused a beta cutoff at `ply` with `depth` plies left.
    pub fn reward(&mut self, m: Move, ply: usize, depth: u32) {
        if self.kind == OrderingKind::None || m.is_capture() || m.is_promotion() {
            return;
        }
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0].take();
            k[0] = Some(m);
        }
        let (r, to) = Self::history_index(m);
        // Capped far below the killer and capture bands.
        self.history[r][to] = (self.history[r][to] + (depth * depth) as i32).min(900_000);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn captures_of_big_pieces_by_small_ones_come_first() {
        // White can take the queen with the pawn or the knight, or play quietly.
        let pos = Position::from_fen("4k3/8/8/3q4/4P3/2N5/8/4K3 w - - 0 1", false).unwrap();
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        Ordering::new(OrderingKind::Tarpon).sort(&mut moves, 0);
        assert_eq!(pos.uci(moves[0]), "e4d5");
        assert_eq!(pos.uci(moves[1]), "c3d5");
        assert!(!moves[2].is_capture());
    }

    #[test]
    fn a_rewarded_quiet_move_becomes_the_first_quiet_move() {
        let pos = Position::startpos();
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        let mut ordering = Ordering::new(OrderingKind::Tarpon);
        let g1f3 = pos.parse_uci("g1f3").unwrap();
        ordering.reward(g1f3, 3, 2);
        ordering.sort(&mut moves, 3);
        assert_eq!(moves[0], g1f3);
    }
}
