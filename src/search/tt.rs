//! The transposition table shared by all search threads.
//!
//! Lock-free: an entry is two `AtomicU64` words, `key ^ data` and `data`. A
//! reader accepts an entry only if the two words XOR back to its key, so an
//! entry torn by a concurrent writer reads as a miss instead of as garbage.
//! Entries sit in buckets of four (one 64-byte cache line); replacement
//! prefers empty slots, then entries from older searches, then shallow ones.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use shakmaty::{Move, Role, Square};

use crate::position::{Snapshot, movegen};

use crate::huge_pages::HugePageBuffer;

use super::score::{MATE_BOUND, is_mate_score};

/// What the stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Fail-high: true value >= score.
    Lower,
    /// Fail-low: true value <= score.
    Upper,
    Exact,
}

impl Bound {
    /// What a node's best score says, searched with the window
    /// `original_alpha..beta`: a fail-high is a lower bound, a score above
    /// alpha with a move that reached it is exact, anything else an upper
    /// bound.
    #[inline]
    pub fn of_search(
        best_score: i32,
        original_alpha: i32,
        beta: i32,
        has_best_move: bool,
    ) -> Bound {
        if best_score >= beta {
            Bound::Lower
        } else if has_best_move && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A table hit, with the score already converted back to the probing ply.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub depth: i32,
    pub bound: Bound,
    pub score: i32,
    pub eval: i32,
    /// Compact move, resolved against the legal moves by the caller.
    pub packed_move: u16,
}

const BUCKET: usize = 4;
/// Bytes per entry (two words).
const ENTRY_BYTES: usize = 16;
/// Depths are stored biased so quiescence entries (depth 0 and below) fit a u8.
const DEPTH_BIAS: i32 = 8;

/// Largest table accepted, in MB (the UCI option's maximum).
pub const MAX_HASH_MB: usize = 1 << 20;

/// Four entries of two words each, aligned so a bucket is exactly one cache
/// line: a probe touches one line, and one prefetch brings in all of it.
#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    words: [AtomicU64; BUCKET * 2],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET * ENTRY_BYTES);

impl Bucket {
    fn check(&self, i: usize) -> &AtomicU64 {
        &self.words[2 * i]
    }

    fn data(&self, i: usize) -> &AtomicU64 {
        &self.words[2 * i + 1]
    }

    fn write(&self, i: usize, key: u64, data: u64) {
        self.check(i).store(key ^ data, Relaxed);
        self.data(i).store(data, Relaxed);
    }
}

pub struct TranspositionTable {
    buckets: HugePageBuffer<Bucket>,
    /// Incremented for every new search; stored in entries to age them out.
    generation: AtomicU8,
}

/// Packs a move into 16 bits: from (6), to (6), promotion role (3). Castling is
/// king-to-rook square, as shakmaty stores it. Zero means "no move".
pub fn pack_move(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| s as u16);
    let to = m.to() as u16;
    let promo = m.promotion().map_or(0, |r| r as u16);
    // Bit 15 marks "a move is present", so a1a1 cannot collide with "none".
    0x8000 | from | (to << 6) | (promo << 12)
}

/// The move among `moves` whose packed form is `packed`, if any.
pub fn unpack_move(packed: u16, moves: &[Move]) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    moves.iter().copied().find(|&m| pack_move(m) == packed)
}

/// The legal move of `chess` whose packed form is `packed`, if there is
/// one, found without generating the move list: the board says which piece
/// moves and what it takes, and shakmaty checks legality. Equal to
/// [`unpack_move`] over the legal moves (a stored move may come from
/// another position whose key collided, so nothing is taken on trust).
pub fn legal_table_move(packed: u16, chess: &Snapshot) -> Option<Move> {
    // Bit 15 marks a move (see `pack_move`).
    if packed & 0x8000 == 0 {
        return None;
    }
    let from = Square::new(u32::from(packed & 0x3f));
    let to = Square::new(u32::from((packed >> 6) & 0x3f));
    let promotion = match (packed >> 12) & 7 {
        0 => None,
        r => Some(Role::ALL.into_iter().find(|&role| role as u16 == r)?),
    };
    let board = chess.board();
    let piece = board.piece_at(from).filter(|p| p.color == chess.turn())?;
    let target = board.piece_at(to);
    let m = match (piece.role, target, promotion) {
        // Castling is stored king to rook, as shakmaty writes it.
        (Role::King, Some(t), None) if t == Role::Rook.of(piece.color) => Move::Castle {
            king: from,
            rook: to,
        },
        (Role::Pawn, None, None) if from.file() != to.file() => Move::EnPassant { from, to },
        (role, _, _) => Move::Normal {
            role,
            from,
            capture: target.map(|t| t.role),
            to,
            promotion,
        },
    };
    movegen::is_legal(chess, m).then_some(m)
}

/// Scores of mates are stored relative to the node ("mate in 3 from here"),
/// not to the root, so they stay right when reached by another path.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn encode(
    packed_move: u16,
    score: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    generation: u8,
) -> u64 {
    let bound_bits = match bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    let depth = (depth + DEPTH_BIAS).clamp(0, 255) as u64;
    u64::from(packed_move)
        | (u64::from(score as i16 as u16) << 16)
        | (u64::from(eval as i16 as u16) << 32)
        | (depth << 48)
        | (bound_bits << 56)
        | (u64::from(generation & 0x3f) << 58)
}

struct Decoded {
    packed_move: u16,
    score: i32,
    eval: i32,
    depth: i32,
    bound: Option<Bound>,
    generation: u8,
}

fn decode(data: u64) -> Decoded {
    Decoded {
        packed_move: data as u16,
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 0xff) as i32 - DEPTH_BIAS,
        bound: match (data >> 56) & 3 {
            1 => Some(Bound::Lower),
            2 => Some(Bound::Upper),
            3 => Some(Bound::Exact),
            _ => None,
        },
        generation: ((data >> 58) & 0x3f) as u8,
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). A size that
    /// [`TranspositionTable::resize`] refuses (out of range, more than the
    /// machine has, or an allocation that fails) gives a 1 MB table instead;
    /// only a failure to allocate even that panics. Sizes that come from
    /// users go through `resize`, which says why it refuses.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            buckets: HugePageBuffer::try_from_fn(0, |_| Bucket::default())
                .expect("an empty table needs no memory"),
            generation: AtomicU8::new(0),
        };
        if tt.resize(mb).is_err() {
            // A small table stands in for a request the machine cannot meet.
            tt.resize(1).expect("a 1 MB table fits in memory");
        }
        tt
    }

    /// Reallocates to about `mb` megabytes, emptying the table. A size the
    /// machine cannot provide is refused with a message and leaves the old
    /// table in place.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        if mb == 0 || mb > MAX_HASH_MB {
            return Err(format!(
                "Hash must be between 1 and {MAX_HASH_MB} MB, got {mb}"
            ));
        }
        if let Some(available) = available_memory_mb()
            && mb > available
        {
            return Err(format!(
                "Hash {mb} MB exceeds the {available} MB of memory available; keeping {} MB",
                self.size_mb()
            ));
        }
        let buckets = (mb * 1024 * 1024 / (BUCKET * ENTRY_BYTES)).max(1);
        let fresh =
            HugePageBuffer::try_from_fn(buckets, |_| Bucket::default()).ok_or_else(|| {
                format!(
                    "cannot allocate {mb} MB for the hash table; keeping {} MB",
                    self.size_mb()
                )
            })?;
        self.buckets = fresh;
        Ok(())
    }

    /// Size in MB (rounded down).
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * BUCKET * ENTRY_BYTES / (1024 * 1024)
    }

    /// Empties every entry (`ucinewgame`, `Clear Hash`).
    pub fn clear(&self) {
        for w in self.buckets.iter().flat_map(|b| &b.words) {
            w.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// Called once per search so entries from earlier searches age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Relaxed) & 0x3f
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the bucket range without a division.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache, so that the probe a
    /// little later (once the move is made and the evaluation updated) does
    /// not wait on main memory for long. Has no other effect.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line: *const i8 = std::ptr::from_ref(self.bucket(key)).cast();
            // SAFETY: SSE is part of the x86-64 baseline, and a prefetch only
            // hints the cache: it never faults or reads the value (and `line`
            // points into the table anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; `ply` converts mate scores back to root distance.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let bucket = self.bucket(key);
        for i in 0..BUCKET {
            let check = bucket.check(i).load(Relaxed);
            let data = bucket.data(i).load(Relaxed);
            if check ^ data != key || data == 0 {
                continue;
            }
            let d = decode(data);
            let bound = d.bound?;
            return Some(TtHit {
                depth: d.depth,
                bound,
                score: score_from_tt(d.score, ply),
                eval: d.eval,
                packed_move: d.packed_move,
            });
        }
        None
    }

    /// Stores a search result. `packed_move` 0 keeps the move already stored
    /// for this position, so a fail-low does not erase a good move.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        packed_move: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..BUCKET {
            let check = bucket.check(i).load(Relaxed);
            let data = bucket.data(i).load(Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let d = decode(data);
            if check ^ data == key {
                // Same position: overwrite unless the old entry is much deeper
                // and from this search (then the old one is worth more).
                if bound != Bound::Exact && d.generation == generation && d.depth > depth + 3 {
                    return;
                }
                let keep_move = if packed_move == 0 {
                    d.packed_move
                } else {
                    packed_move
                };
                let new = encode(
                    keep_move,
                    score_to_tt(score, ply),
                    eval,
                    depth,
                    bound,
                    generation,
                );
                bucket.write(i, key, new);
                return;
            }
            // Older generations are worth less: 8 plies of depth per search.
            let age = i32::from(generation.wrapping_sub(d.generation) & 0x3f);
            let worth = d.depth - 8 * age;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let new = encode(
            packed_move,
            score_to_tt(score, ply),
            eval,
            depth,
            bound,
            generation,
        );
        bucket.write(victim, key, new);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = (1000 / BUCKET).min(self.buckets.len()) * BUCKET;
        if sample == 0 {
            return 0;
        }
        let used = self.buckets[..sample / BUCKET]
            .iter()
            .flat_map(|b| (0..BUCKET).map(move |i| b.data(i).load(Relaxed)))
            .filter(|&data| data != 0 && decode(data).generation == generation)
            .count();
        (used * 1000 / sample) as u32
    }
}

impl Default for TranspositionTable {
    fn default() -> Self {
        TranspositionTable::new(16)
    }
}

/// MemAvailable from /proc/meminfo, where there is one: a huge `Hash` is
/// refused up front instead of being granted by overcommit and killing the
/// process when the pages are touched.
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// True when `score` can be trusted as a cutoff against `beta`/`alpha` given
/// its bound.
pub fn bound_allows(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// Whether a stored score may replace a static evaluation as a sharper guess.
pub fn refines_eval(bound: Bound, score: i32, eval: i32) -> bool {
    !is_mate_score(score)
        && match bound {
            Bound::Exact => true,
            Bound::Lower => score > eval,
            Bound::Upper => score < eval,
        }
}

/// Unused roles are never encoded; keeps the promotion field in 3 bits.
const _: () = assert!((Role::Queen as u16) < 8);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn table_moves_resolve_without_the_list_as_with_it() {
        for pos in crate::bench::positions_and_children() {
            let legal = pos.legal_moves();
            for &m in &legal {
                let packed = pack_move(m);
                assert_eq!(
                    legal_table_move(packed, pos.snapshot()),
                    Some(m),
                    "{pos:?} {m}"
                );
            }
            // Every other 16-bit value names no legal move here (a third of
            // the values, every residue of each field, to keep it quick).
            for packed in (0..=u16::MAX).step_by(3) {
                let expected = unpack_move(packed, &legal);
                assert_eq!(
                    legal_table_move(packed, pos.snapshot()),
                    expected,
                    "{pos:?} {packed:#x}"
                );
            }
        }
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        // Mate in 5 plies seen from the root, found at ply 3: 2 plies from the node.
        let root_score = MATE - 5;
        let stored = score_to_tt(root_score, 3);
        assert_eq!(stored, MATE - 2);
        // Reached again at ply 7 by another path: mate 9 plies from the root.
        assert_eq!(score_from_tt(stored, 7), MATE - 9);
        // Being mated works the same way, mirrored.
        assert_eq!(score_to_tt(-MATE + 6, 2), -MATE + 4);
        assert_eq!(score_from_tt(-MATE + 4, 1), -MATE + 5);
        // Ordinary scores pass through untouched.
        assert_eq!(score_to_tt(123, 9), 123);
        assert_eq!(score_from_tt(-77, 9), -77);
    }

    #[test]
    fn table_round_trips_mate_scores_through_store_and_probe() {
        let tt = TranspositionTable::new(1);
        tt.new_search();
        let key = 0x1234_5678_9abc_def0;
        tt.store(key, 4, 0, MATE - 7, 10, 6, Bound::Exact);
        let hit = tt.probe(key, 2).expect("stored entry is found");
        assert_eq!(hit.score, MATE - 5);
        assert_eq!(hit.depth, 6);
        assert_eq!(hit.bound, Bound::Exact);
        assert_eq!(hit.eval, 10);
        assert!(tt.probe(key ^ 1, 2).is_none());
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = TranspositionTable::new(1);
        let key = 42u64;
        tt.store(key, 0, 0, 5, 5, 3, Bound::Lower);
        let bucket = tt.bucket(key);
        // Simulate a half-finished write by another thread.
        let idx = (0..BUCKET)
            .find(|&i| bucket.data(i).load(Relaxed) != 0)
            .unwrap();
        bucket.data(idx).fetch_xor(1 << 20, Relaxed);
        assert!(tt.probe(key, 0).is_none());
    }

    #[test]
    fn buckets_are_cache_lines_and_prefetch_changes_nothing() {
        let tt = TranspositionTable::new(1);
        assert_eq!(std::ptr::from_ref(tt.bucket(7)) as usize % 64, 0);
        let key = 0xfeed_f00d_u64;
        tt.store(key, 0, 0, 31, 30, 5, Bound::Upper);
        tt.prefetch(key);
        tt.prefetch(!key);
        let hit = tt.probe(key, 0).expect("stored entry is found");
        assert_eq!((hit.score, hit.eval, hit.depth), (31, 30, 5));
        assert_eq!(tt.size_mb(), 1);
    }

    #[test]
    fn huge_sizes_are_refused_and_the_old_table_kept() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.resize(MAX_HASH_MB + 1).is_err());
        assert!(tt.resize(0).is_err());
        assert_eq!(tt.size_mb(), 1);
    }

    #[test]
    fn moves_pack_and_resolve() {
        let pos = crate::position::Position::startpos();
        let moves = pos.legal_moves();
        for &m in &moves {
            assert_eq!(unpack_move(pack_move(m), &moves), Some(m));
        }
        assert_eq!(unpack_move(0, &moves), None);
    }
}
