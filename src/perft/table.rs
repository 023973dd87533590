//! The perft hash table: subtree leaf counts keyed by Zobrist key and depth,
//! shared by all threads without locks.
//!
//! Each entry is two atomics, `check = key ^ data` and `data = count << 8 |
//! depth`, written independently with relaxed ordering. Two threads storing
//! into one entry at once can leave the halves of different stores side by
//! side; such a torn entry fails the `check ^ data == key` test and reads as a
//! miss, so a probe never returns a count that was not stored for that key
//! ("lockless hashing", Hyatt and Mann).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const DEPTH_BITS: u32 = 8;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;
/// Counts from 2^56 up cannot be packed next to the depth; they are not stored.
const MAX_COUNT: u64 = u64::MAX >> DEPTH_BITS;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    fn depth(&self) -> u64 {
        self.data.load(Relaxed) & DEPTH_MASK
    }
}

/// Four entries filling one 64-byte cache line: a probe touches one line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; 4]);

pub struct PerftTable {
    buckets: Box<[Bucket]>,
}

impl PerftTable {
    /// A table of about `megabytes` MB (at least one bucket). Fails, rather
    /// than aborting the process, when the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<PerftTable, String> {
        let count = (megabytes.saturating_mul(1 << 20) / size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a {megabytes} MB perft hash table"))?;
        buckets.resize_with(count, Bucket::default);
        Ok(PerftTable {
            buckets: buckets.into_boxed_slice(),
        })
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a division.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// The stored leaf count of the position with `key` at `depth`, if any.
    #[inline]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        self.bucket(key).0.iter().find_map(|entry| {
            let data = entry.data.load(Relaxed);
            let check = entry.check.load(Relaxed);
            (check ^ data == key && data & DEPTH_MASK == u64::from(depth))
                .then_some(data >> DEPTH_BITS)
        })
    }

    /// Stores a leaf count, replacing the shallowest entry of the bucket (the
    /// one that saves the least work when found again).
    #[inline]
    pub fn store(&self, key: u64, depth: u32, count: u64) {
        if count > MAX_COUNT || u64::from(depth) > DEPTH_MASK {
            return;
        }
        let bucket = &self.bucket(key).0;
        let victim = bucket
            .iter()
            .min_by_key(|entry| entry.depth())
            .unwrap_or(&bucket[0]);
        let data = count << DEPTH_BITS | u64::from(depth);
        victim.check.store(key ^ data, Relaxed);
        victim.data.store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_was_stored_for_that_key_and_depth_only() {
        let table = PerftTable::new(1).unwrap();
        table.store(0xDEAD_BEEF, 3, 12345);
        assert_eq!(table.probe(0xDEAD_BEEF, 3), Some(12345));
        assert_eq!(table.probe(0xDEAD_BEEF, 4), None);
        assert_eq!(table.probe(0xDEAD_BEEF ^ 1, 3), None);
    }

    #[test]
    fn torn_entry_reads_as_a_miss() {
        let table = PerftTable::new(1).unwrap();
        table.store(42, 5, 1000);
        // Simulate another thread's half-finished store into the same entry.
        let entry = table.bucket(42).0.iter().find(|e| e.depth() == 5).unwrap();
        entry.data.store(2000 << DEPTH_BITS | 5, Relaxed);
        assert_eq!(table.probe(42, 5), None);
    }

    #[test]
    fn shallowest_entry_is_replaced_first() {
        let table = PerftTable::new(0).unwrap(); // one bucket
        for (i, depth) in [6, 2, 5, 4].into_iter().enumerate() {
            table.store(i as u64 + 1, depth, 10);
        }
        table.store(99, 3, 10);
        assert_eq!(table.probe(2, 2), None, "depth 2 entry should be gone");
        for (key, depth) in [(1, 6), (3, 5), (4, 4), (99, 3)] {
            assert_eq!(table.probe(key, depth), Some(10));
        }
    }

    #[test]
    fn counts_too_large_to_pack_are_not_stored() {
        let table = PerftTable::new(1).unwrap();
        table.store(7, 9, MAX_COUNT + 1);
        assert_eq!(table.probe(7, 9), None);
    }
}
