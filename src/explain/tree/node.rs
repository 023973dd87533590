//! The explainer's tree: one record per searched node, kept apart from the
//! engine's search, which records nothing. Every algorithm fills the same
//! type, so one renderer serves them all.

use shakmaty::{Move, san::SanPlus};

use crate::position::Position;

pub type NodeId = usize;

/// Mate scores: mated at ply p scores `-(MATE - p)` for the side to move.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;

/// What a node turned out to be (Knuth and Moore's types for the windowed
/// searches: PV inside the window, cut at or above beta, all at or below alpha).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Pv,
    Cut,
    All,
    /// Searched without a window (minimax, soft alpha-beta).
    Exact,
    /// Depth reached: the evaluator was asked.
    Leaf,
    /// Checkmate on the board.
    Mated,
    /// Stalemate, repetition, fifty moves or insufficient material.
    Draw,
    /// An MCTS node: visit counts and mean value instead of a window.
    Playout,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Pv => "PV",
            Kind::Cut => "cut",
            Kind::All => "all",
            Kind::Exact => "exact",
            Kind::Leaf => "leaf",
            Kind::Mated => "mate",
            Kind::Draw => "draw",
            Kind::Playout => "mcts",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Node {
    pub mv: Option<Move>,
    /// SAN with check suffix; empty at the root.
    pub san: String,
    pub uci: String,
    pub children: Vec<NodeId>,
    /// (alpha, beta) the node was searched with, from its side to move.
    pub window: Option<(f64, f64)>,
    /// Negamax score from the node's side to move (for MCTS: the mean value
    /// for the side that made the move into the node, 0..1).
    pub score: f64,
    pub kind: Kind,
    /// Legal moves left unsearched after a beta cutoff here.
    pub pruned: usize,
    /// Nodes in this subtree, itself included (also those not recorded).
    pub size: u64,
    /// MCTS visits.
    pub visits: u32,
    /// The child that gave the score (its last search, for PVS re-searches).
    pub best_child: Option<NodeId>,
    /// A PVS re-search with the full window after a null-window fail high.
    pub research: bool,
}

/// Records nodes up to a limit, so a deep minimax cannot exhaust memory; past
/// the limit the search goes on and only the counts stay exact.
#[derive(Clone, Debug)]
pub struct Tree {
    pub nodes: Vec<Node>,
    limit: usize,
    /// Some nodes were not recorded because of the limit.
    pub truncated: bool,
}

/// How many nodes a tree records by default (about 100 MB at worst).
pub const DEFAULT_RECORD_LIMIT: usize = 1_000_000;

impl Tree {
    /// A tree that records up to `limit` nodes (0: records nothing).
    pub fn new(limit: usize) -> Tree {
        Tree {
            nodes: Vec::new(),
            limit,
            truncated: false,
        }
    }

    fn push(&mut self, mv: Option<Move>, san: String, uci: String) -> NodeId {
        self.nodes.push(Node {
            mv,
            san,
            uci,
            children: Vec::new(),
            window: None,
            score: 0.0,
            kind: Kind::Exact,
            pruned: 0,
            size: 1,
            visits: 0,
            best_child: None,
            research: false,
        });
        self.nodes.len() - 1
    }

    /// The root node, if this tree records at all.
    pub fn root(&mut self) -> Option<NodeId> {
        (self.limit > 0).then(|| self.push(None, String::new(), String::new()))
    }

    /// A child for move `m`, played from `pos` (before the move is made), or
    /// `None` when the parent is not recorded or the limit is reached.
    pub fn child(&mut self, parent: Option<NodeId>, pos: &Position, m: Move) -> Option<NodeId> {
        let parent = parent?;
        if self.nodes.len() >= self.limit {
            self.truncated = true;
            return None;
        }
        let san = SanPlus::from_move(pos.to_chess(), m).to_string();
        let id = self.push(Some(m), san, pos.uci(m));
        self.nodes[parent].children.push(id);
        Some(id)
    }

    pub fn get_mut(&mut self, id: Option<NodeId>) -> Option<&mut Node> {
        id.map(|i| &mut self.nodes[i])
    }
}

/// A child's score seen from its parent: negated, and a mate one ply further
/// away (mate scores count plies from the position searched).
pub fn parent_view(child_score: f64) -> f64 {
    let s = -child_score;
    if s.abs() > f64::from(MATE_BOUND) {
        s - s.signum()
    } else {
        s
    }
}

/// A centipawn score for people: `+35`, `-120`, `#3` (mate in 3 moves for
/// the side to move), `#-2` (mated in 2).
pub fn format_score(score: f64) -> String {
    if score.is_infinite() {
        return if score > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    let s = score.round() as i32;
    if s.abs() > MATE_BOUND && s.abs() <= MATE {
        let plies = MATE - s.abs();
        if plies == 0 {
            return "mated".to_string();
        }
        let moves = (plies + 1) / 2;
        return if s > 0 {
            format!("#{moves}")
        } else {
            format!("#-{moves}")
        };
    }
    if (score - score.round()).abs() < 1e-9 {
        format!("{s:+}")
    } else {
        format!("{score:+.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_well() {
        assert_eq!(format_score(35.0), "+35");
        assert_eq!(format_score(-120.0), "-120");
        assert_eq!(format_score(0.0), "+0");
        assert_eq!(format_score(f64::from(MATE - 1)), "#1");
        assert_eq!(format_score(f64::from(MATE - 5)), "#3");
        assert_eq!(format_score(f64::from(-(MATE - 2))), "#-1");
        assert_eq!(format_score(f64::from(-MATE)), "mated");
        assert_eq!(format_score(12.345), "+12.35");
        assert_eq!(format_score(f64::NEG_INFINITY), "-inf");
        assert_eq!(parent_view(f64::from(-MATE)), f64::from(MATE - 1));
        assert_eq!(parent_view(f64::from(MATE - 3)), f64::from(-(MATE - 4)));
        assert_eq!(parent_view(-35.0), 35.0);
    }

    #[test]
    fn recording_stops_at_the_limit() {
        let pos = Position::startpos();
        let mut tree = Tree::new(3);
        let root = tree.root();
        let moves = pos.legal_moves();
        assert!(tree.child(root, &pos, moves[0]).is_some());
        assert!(tree.child(root, &pos, moves[1]).is_some());
        assert!(tree.child(root, &pos, moves[2]).is_none());
        assert!(tree.truncated);
        assert_eq!(tree.nodes[0].children.len(), 2);
        assert!(Tree::new(0).root().is_none());
    }
}
