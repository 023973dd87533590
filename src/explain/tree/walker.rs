//! Walking a game tree: the position and the evaluator kept in step through
//! make/unmake, and the scores of positions where the game is over.

use shakmaty::Move;

use super::node::MATE;
use crate::eval::Evaluator;
use crate::position::Position;

pub struct Walker<'e> {
    pub pos: Position,
    eval: &'e mut dyn Evaluator,
}

impl<'e> Walker<'e> {
    pub fn new(pos: &Position, eval: &'e mut dyn Evaluator) -> Walker<'e> {
        let mut pos = pos.clone();
        pos.forget_undo();
        eval.reset(&pos);
        Walker { pos, eval }
    }

    pub fn play(&mut self, m: Move) {
        let changes = self.pos.make(m);
        self.eval.push(&self.pos, &changes);
    }

    pub fn undo(&mut self) {
        self.pos.unmake();
        self.eval.pop();
    }

    pub fn evaluate(&mut self) -> i32 {
        self.eval.evaluate(&self.pos)
    }

    /// The legal moves, or the score of a finished game `ply` plies below the
    /// root (from the side to move): mated, stalemate, or a draw by rule.
    pub fn moves_or_result(&self, ply: usize) -> Result<Vec<Move>, i32> {
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return Err(if self.pos.is_check() {
                -(MATE - ply as i32)
            } else {
                0
            });
        }
        if ply > 0
            && (self.pos.is_repetition_draw(ply)
                || self.pos.is_fifty_move_draw()
                || self.pos.is_insufficient_material())
        {
            return Err(0);
        }
        Ok(moves.into_iter().collect())
    }
}
