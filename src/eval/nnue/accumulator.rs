//! The accumulator stack: the feature transformer's output for both
//! perspectives at every ply of the current search path.
//!
//! `push` only records the move's piece changes (the NNUE evaluator reads
//! the new ply at once, but other callers may not); when a ply is read,
//! each perspective walks back to the nearest ply whose accumulator is
//! already computed and replays the changes from there (one pass over the
//! accumulator per move). If the walk meets a move of that
//! perspective's own king to another king slot (another square for the
//! Stockfish feature sets, another bucket or mirror side for Chess768), every
//! input of that perspective changes, so the accumulator is rebuilt instead,
//! from the refresh cache ("Finny table"): one saved accumulator per
//! perspective and king slot together with the pieces it was computed for,
//! so a rebuild only applies the difference between that board and the
//! current one. Null moves change nothing: their
//! ply reads its parent's accumulator. Nets with a PSQT part keep its sums
//! alongside each accumulator and update them with the same feature changes.

use shakmaty::{Color, Square};

use crate::position::Board;

use super::features::{FeatureSet, PieceBoards, color_index, piece_boards};
use super::layers::{Accumulated, apply_psqt};
use super::network::Network;
use super::simd::Kernels;
use crate::position::PieceChanges;

/// Rows applied per kernel call during a rebuild.
const REFRESH_BATCH: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Ply {
    /// The move that led here (empty for the root and null moves).
    changes: PieceChanges,
    null: bool,
    /// Whether `values` holds this ply's accumulator, per perspective.
    computed: [bool; 2],
    /// That perspective's king moved to another king slot into this ply: no
    /// parent can be reused.
    king_moved: [bool; 2],
    kings: [Square; 2],
}

/// A saved accumulator and the pieces it was computed for.
#[derive(Clone, Debug)]
struct CacheEntry {
    acc: Vec<i16>,
    psqt: Vec<i32>,
    pieces: PieceBoards,
}

#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    features: FeatureSet,
    half: usize,
    plies: Vec<Ply>,
    /// Accumulator of ply `p`, perspective `c` at `(2p + c) × half`.
    values: Vec<i16>,
    /// PSQT buckets per perspective (0 without a PSQT part).
    psqt_len: usize,
    /// PSQT sums of ply `p`, perspective `c` at `(2p + c) × psqt_len`.
    psqt: Vec<i32>,
    top: usize,
    /// Indexed by `64 × perspective + king slot` ([`FeatureSet::king_slot`]).
    cache: Vec<CacheEntry>,
}

impl AccumulatorStack {
    /// An empty stack for `net`; call [`AccumulatorStack::reset`] before use.
    pub fn new(net: &Network) -> AccumulatorStack {
        let half = net.half_dims();
        let psqt_len = net.transformer.psqt_buckets;
        let empty = CacheEntry {
            acc: net.transformer.biases.clone(),
            psqt: vec![0; psqt_len],
            pieces: Default::default(),
        };
        let mut stack = AccumulatorStack {
            features: net.features(),
            half,
            plies: Vec::new(),
            values: Vec::new(),
            psqt_len,
            psqt: Vec::new(),
            top: 0,
            cache: vec![empty; 2 * 64],
        };
        stack.reset(&Board::from_shakmaty(&shakmaty::Board::new()));
        stack
    }

    /// Starts a new root at `board`.
    pub fn reset(&mut self, board: &Board) {
        self.top = 0;
        self.ensure_capacity(1);
        let king = |c| board.king_of(c).unwrap_or(Square::A1);
        self.plies[0] = Ply {
            changes: PieceChanges::default(),
            null: false,
            computed: [false; 2],
            king_moved: [false; 2],
            kings: [king(Color::White), king(Color::Black)],
        };
    }

    #[inline]
    fn ensure_capacity(&mut self, plies: usize) {
        if self.plies.len() < plies {
            self.grow(plies);
        }
    }

    /// Room for `plies` plies: taken once per new depth, so kept out of `push`.
    #[cold]
    fn grow(&mut self, plies: usize) {
        while self.plies.len() < plies {
            self.plies.push(Ply {
                changes: PieceChanges::default(),
                null: false,
                computed: [false; 2],
                king_moved: [false; 2],
                kings: [Square::A1; 2],
            });
            self.values.resize(self.plies.len() * 2 * self.half, 0);
            self.psqt.resize(self.plies.len() * 2 * self.psqt_len, 0);
        }
    }

    /// Records a move (after it was made on the board).
    pub fn push(&mut self, changes: &PieceChanges) {
        let parent = self.plies[self.top];
        let mut ply = Ply {
            changes: *changes,
            null: false,
            computed: [false; 2],
            king_moved: [false; 2],
            kings: parent.kings,
        };
        if let Some((color, square)) = changes.king_move() {
            let c = color_index(color);
            let slot = |king| self.features.king_slot(color, king);
            ply.king_moved[c] = slot(square) != slot(parent.kings[c]);
            ply.kings[c] = square;
        }
        self.top += 1;
        self.ensure_capacity(self.top + 1);
        self.plies[self.top] = ply;
    }

    /// Records a null move.
    pub fn push_null(&mut self) {
        let kings = self.plies[self.top].kings;
        self.top += 1;
        self.ensure_capacity(self.top + 1);
        self.plies[self.top] = Ply {
            changes: PieceChanges::default(),
            null: true,
            computed: [false; 2],
            king_moved: [false; 2],
            kings,
        };
    }

    /// Takes back the last push (a pop at the root is ignored).
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop at the root");
        self.top = self.top.saturating_sub(1);
    }

    /// Number of plies above the root.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// Brings the current ply's accumulators up to date without reading
    /// them; returns the ply that holds them (a null move's is its parent's).
    #[inline]
    pub fn update(&mut self, net: &Network, kernels: &Kernels, board: &Board) -> usize {
        let mut t = self.top;
        while self.plies[t].null {
            t -= 1;
        }
        // Usually both are up to date (the evaluator brings them up at every
        // push): the work stays out of line, so this path sets nothing up.
        if self.plies[t].computed != [true; 2] {
            self.bring_both_up_to_date(net, kernels, board, t);
        }
        t
    }

    /// The accumulators of the current ply, white's then black's, brought up
    /// to date; `board` is the current position.
    pub fn current(
        &mut self,
        net: &Network,
        kernels: &Kernels,
        board: &Board,
    ) -> [Accumulated<'_>; 2] {
        let t = self.update(net, kernels, board);
        let side = |c: usize| Accumulated {
            values: &self.values[(2 * t + c) * self.half..(2 * t + c + 1) * self.half],
            psqt: &self.psqt[(2 * t + c) * self.psqt_len..(2 * t + c + 1) * self.psqt_len],
        };
        [side(0), side(1)]
    }

    #[inline(never)]
    fn bring_both_up_to_date(&mut self, net: &Network, kernels: &Kernels, board: &Board, t: usize) {
        // The usual case, one move on top of a computed parent, without
        // the walk back.
        if t > 0 && !self.plies[t - 1].null {
            for c in 0..2 {
                let ply = &self.plies[t];
                if !ply.computed[c] && !ply.king_moved[c] && self.plies[t - 1].computed[c] {
                    self.apply_move(net, kernels, t - 1, t, c);
                }
            }
        }
        for c in 0..2 {
            if !self.plies[t].computed[c] {
                self.bring_up_to_date(net, kernels, board, t, c);
            }
        }
    }

    fn bring_up_to_date(
        &mut self,
        net: &Network,
        kernels: &Kernels,
        board: &Board,
        target: usize,
        c: usize,
    ) {
        let mut j = target;
        let base = loop {
            let ply = &self.plies[j];
            if !ply.null {
                if ply.computed[c] {
                    break Some(j);
                }
                if ply.king_moved[c] || j == 0 {
                    break None;
                }
            }
            j -= 1;
        };
        match base {
            None => self.refresh(net, kernels, board, target, c),
            Some(mut parent) => {
                for j in parent + 1..=target {
                    if !self.plies[j].null {
                        self.apply_move(net, kernels, parent, j, c);
                        parent = j;
                    }
                }
            }
        }
    }

    /// Ply `child`'s accumulator from its parent's and the move's changes.
    fn apply_move(
        &mut self,
        net: &Network,
        kernels: &Kernels,
        parent: usize,
        child: usize,
        c: usize,
    ) {
        let ply = &self.plies[child];
        let perspective = if c == 0 { Color::White } else { Color::Black };
        let features = net.features();
        let view = features.view(perspective, ply.kings[c]);
        let mut added = [0usize; 2];
        let mut removed = [0usize; 2];
        let mut add: [&[i16]; 2] = [&[]; 2];
        let mut sub: [&[i16]; 2] = [&[]; 2];
        let (mut na, mut ns) = (0, 0);
        for change in ply.changes.added() {
            if let Some(i) = view.index(change.piece, change.square) {
                added[na] = i;
                add[na] = net.transformer.row(i);
                na += 1;
            }
        }
        for change in ply.changes.removed() {
            if let Some(i) = view.index(change.piece, change.square) {
                removed[ns] = i;
                sub[ns] = net.transformer.row(i);
                ns += 1;
            }
        }
        debug_assert_rows_exist(features.dimensions(), &added[..na], &removed[..ns]);
        let half = self.half;
        let (below, above) = self.values.split_at_mut(2 * child * half);
        let src = &below[(2 * parent + c) * half..(2 * parent + c + 1) * half];
        let dst = &mut above[c * half..(c + 1) * half];
        (kernels.apply_from)(dst, src, &add[..na], &sub[..ns]);
        if self.psqt_len > 0 {
            let n = self.psqt_len;
            let (below, above) = self.psqt.split_at_mut(2 * child * n);
            let sums = &mut above[c * n..(c + 1) * n];
            sums.copy_from_slice(&below[(2 * parent + c) * n..(2 * parent + c + 1) * n]);
            for &i in &added[..na] {
                apply_psqt(sums, net.transformer.psqt_row(i), 1);
            }
            for &i in &removed[..ns] {
                apply_psqt(sums, net.transformer.psqt_row(i), -1);
            }
        }
        self.plies[child].computed[c] = true;
    }

    /// Rebuilds ply `target`'s accumulator through the refresh cache. Out
    /// of line: one update in ten or fewer is a rebuild, and its setup
    /// would otherwise run before every incremental update.
    #[inline(never)]
    fn refresh(
        &mut self,
        net: &Network,
        kernels: &Kernels,
        board: &Board,
        target: usize,
        c: usize,
    ) {
        let perspective = if c == 0 { Color::White } else { Color::Black };
        let king = self.plies[target].kings[c];
        let features = net.features();
        debug_assert_eq!(features, self.features, "the stack belongs to another net");
        let entry = &mut self.cache[64 * c + features.king_slot(perspective, king)];
        let current = piece_boards(board);
        let view = features.view(perspective, king);

        let mut added = [0usize; 64];
        let mut removed = [0usize; 64];
        let (mut na, mut nr) = (0, 0);
        for color in Color::ALL {
            for (role_index, role) in shakmaty::Role::ALL.into_iter().enumerate() {
                let piece = role.of(color);
                let before = entry.pieces[color_index(color)][role_index];
                let now = current[color_index(color)][role_index];
                for square in now & !before {
                    if let Some(i) = view.index(piece, square) {
                        added[na] = i;
                        na += 1;
                    }
                }
                for square in before & !now {
                    if let Some(i) = view.index(piece, square) {
                        removed[nr] = i;
                        nr += 1;
                    }
                }
            }
        }
        debug_assert_rows_exist(features.dimensions(), &added[..na], &removed[..nr]);
        let (mut ai, mut ri) = (0, 0);
        while ai < na || ri < nr {
            let take_a = (na - ai).min(REFRESH_BATCH);
            let take_r = (nr - ri).min(REFRESH_BATCH);
            let mut add: [&[i16]; REFRESH_BATCH] = [&[]; REFRESH_BATCH];
            let mut sub: [&[i16]; REFRESH_BATCH] = [&[]; REFRESH_BATCH];
            for k in 0..take_a {
                add[k] = net.transformer.row(added[ai + k]);
            }
            for k in 0..take_r {
                sub[k] = net.transformer.row(removed[ri + k]);
            }
            (kernels.apply)(&mut entry.acc, &add[..take_a], &sub[..take_r]);
            ai += take_a;
            ri += take_r;
        }
        for &i in &added[..na] {
            apply_psqt(&mut entry.psqt, net.transformer.psqt_row(i), 1);
        }
        for &i in &removed[..nr] {
            apply_psqt(&mut entry.psqt, net.transformer.psqt_row(i), -1);
        }
        entry.pieces = current;
        let at = (2 * target + c) * self.half;
        self.values[at..at + self.half].copy_from_slice(&entry.acc);
        let at = (2 * target + c) * self.psqt_len;
        self.psqt[at..at + self.psqt_len].copy_from_slice(&entry.psqt);
        self.plies[target].computed[c] = true;
    }
}

/// Every feature row an update adds or removes lies inside the transformer:
/// a wrong index would read another feature's weights without a panic.
#[inline]
fn debug_assert_rows_exist(dimensions: usize, added: &[usize], removed: &[usize]) {
    debug_assert!(
        added.iter().chain(removed).all(|&i| i < dimensions),
        "feature index out of range"
    );
}
