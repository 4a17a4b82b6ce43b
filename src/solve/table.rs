//! The solver's transposition table: mapped memory that grows up to a limit, two 32-byte
//! slots a 64-byte bucket, each slot a whole key and a packed entry; a full bucket gives up the entry that
//! took the least work to find.

use crate::agents::alphabeta::Bound;
use crate::engine::Move;

/// What the search keeps of a position: its board exactly (holes, and stores where they
/// matter), and a 64-bit digest of the rest (owners, houses, locks, closed holes, memories,
/// the repetition stretch and the move count where they are keyed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key {
    pub board: u128,
    pub rest: u64,
}

/// One searched position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    /// The value as the search stores it (relative to the margin where stores are not keyed).
    pub value: i32,
    pub bound: Bound,
    /// The longest line searched below, in moves (saturating).
    pub height: u16,
    /// The best move found, tried first when the position is searched again.
    pub best: Move,
    /// About log2 of the moves played to find it: what replacement keeps.
    pub work: u8,
}

impl Entry {
    /// Bits 0-31 the value, 32-33 the bound (0 an empty slot), 34-49 the height, 50-55 the
    /// move's slot, 56-63 the work.
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.value as u32)
            | bound << 32
            | u64::from(self.height) << 34
            | (self.best.slot() as u64) << 50
            | u64::from(self.work) << 56
    }

    fn unpack(word: u64) -> Option<Entry> {
        let bound = match (word >> 32) & 3 {
            0 => return None,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            value: word as u32 as i32,
            bound,
            height: (word >> 34) as u16,
            best: Move::from_slot((word >> 50 & 63) as usize),
            work: (word >> 56) as u8,
        })
    }
}

const SLOT_WORDS: usize = 4;
const BUCKET_WORDS: usize = 2 * SLOT_WORDS;

/// Bytes a slot takes.
pub const SLOT_BYTES: u64 = (SLOT_WORDS * 8) as u64;

/// Buckets a table starts with, at most (16 MiB): a small search touches little memory.
const FIRST_BUCKETS: usize = 1 << 18;

/// The table: `buckets` buckets of two slots, each `[board low, board high, rest, entry]`,
/// in memory mapped for it alone, zeroed by the system as the search first touches it, in
/// huge pages where the system gives them (most probes miss the processor's caches; huge pages
/// spare them a walk of the page tables too). It starts small and doubles in place when half
/// full, up to its limit, in memory mapped for the limit: a search that needs little memory
/// touches little, and the table never takes more than its limit, growing or not.
pub(super) struct Table {
    memory: memmap2::MmapMut,
    /// Buckets less one: a power of two less one.
    mask: usize,
    /// The most buckets the table may grow to.
    most: usize,
    /// Slots holding an entry.
    used: u64,
}

impl Table {
    /// A table that grows to the largest power of two of buckets within `bytes` bytes and
    /// `slots` slots (at least one bucket). Its memory is mapped whole at once but written
    /// only as far as the table has grown, and the system gives a page memory when it is
    /// first written: a small search uses little, and growing never holds two tables.
    ///
    /// # Errors
    /// When the system cannot map even the first buckets.
    pub fn new(bytes: u64, slots: u64) -> std::io::Result<Table> {
        let fits = (bytes / SLOT_BYTES).min(slots).max(2) / 2;
        // The largest power of two at most `fits`.
        let mut most = 1usize << (63 - fits.leading_zeros());
        let buckets = most.min(FIRST_BUCKETS);
        // Where the system will not map so much, the table grows less far.
        let memory = loop {
            match map(most) {
                Ok(memory) => break memory,
                Err(_) if most > buckets => most /= 2,
                Err(e) => return Err(e),
            }
        };
        Ok(Table {
            memory,
            mask: buckets - 1,
            most,
            used: 0,
        })
    }

    /// Slots the table has.
    pub fn capacity(&self) -> u64 {
        2 * (self.mask as u64 + 1)
    }

    /// Slots holding an entry.
    pub fn len(&self) -> u64 {
        self.used
    }

    /// Empties every slot, by mapping fresh memory and starting again at the first size.
    ///
    /// # Errors
    /// When the system cannot map the memory again.
    pub fn clear(&mut self) -> std::io::Result<()> {
        let slots = 2 * self.most as u64;
        *self = Table::new(slots * SLOT_BYTES, slots)?;
        Ok(())
    }

    /// Twice the buckets, in place: an entry of bucket `b` stays or moves to `b + buckets`,
    /// a bucket never written before, so none is lost. Each bucket's entries keep their order
    /// from its first slot, as if every entry had been put again in slot order: which entry a
    /// full bucket gives up on a tie, and so the nodes a search plays, are what they were
    /// when the table grew by copying into fresh memory.
    fn grow(&mut self) {
        let buckets = self.mask + 1;
        self.mask = 2 * buckets - 1;
        let mask = self.mask;
        let words = self.words_mut();
        for first in (0..buckets * BUCKET_WORDS).step_by(BUCKET_WORDS) {
            let mut kept = first;
            for at in [first, first + SLOT_WORDS] {
                if words[at + 3] == 0 {
                    continue;
                }
                let key = Key {
                    board: u128::from(words[at]) | u128::from(words[at + 1]) << 64,
                    rest: words[at + 2],
                };
                let bucket = bucket_of(key, mask);
                let to = if bucket == first {
                    kept += SLOT_WORDS;
                    kept - SLOT_WORDS
                } else if words[bucket + 3] == 0 {
                    bucket
                } else {
                    bucket + SLOT_WORDS
                };
                if to != at {
                    words.copy_within(at..at + SLOT_WORDS, to);
                    words[at..at + SLOT_WORDS].fill(0);
                }
            }
        }
    }

    fn words(&self) -> &[u64] {
        bytemuck::cast_slice(&self.memory)
    }

    fn words_mut(&mut self) -> &mut [u64] {
        bytemuck::cast_slice_mut(&mut self.memory)
    }

    pub fn get(&self, key: Key) -> Option<Entry> {
        let bucket = self.bucket(key);
        let words = self.words();
        (0..2).find_map(|i| {
            let slot = &words[bucket + i * SLOT_WORDS..][..SLOT_WORDS];
            (matches(slot, key))
                .then(|| Entry::unpack(slot[3]))
                .flatten()
        })
    }

    /// Stores `entry` for `key`: over the key's own entry, else in an empty slot, else over
    /// the entry of the bucket that took less work.
    pub fn put(&mut self, key: Key, entry: Entry) {
        let bucket = self.bucket(key);
        let slot = |words: &[u64], i: usize| words[bucket + i * SLOT_WORDS + 3];
        let work = |word: u64| Entry::unpack(word).map(|e| e.work);
        let words = self.words();
        let i = (0..2)
            .find(|&i| matches(&words[bucket + i * SLOT_WORDS..][..SLOT_WORDS], key))
            .or_else(|| (0..2).find(|&i| work(slot(words, i)).is_none()))
            .unwrap_or_else(|| usize::from(work(slot(words, 1)) < work(slot(words, 0))));
        let fills = work(slot(words, i)).is_none();
        let old = &mut self.words_mut()[bucket + i * SLOT_WORDS..][..SLOT_WORDS];
        old.copy_from_slice(&[
            key.board as u64,
            (key.board >> 64) as u64,
            key.rest,
            entry.pack(),
        ]);
        if fills {
            self.used += 1;
            if self.used * 2 > self.capacity() && self.mask < self.most - 1 {
                self.grow();
            }
        }
    }

    /// The first word of `key`'s bucket.
    fn bucket(&self, key: Key) -> usize {
        bucket_of(key, self.mask)
    }
}

/// The first word of `key`'s bucket in a table of `mask + 1` buckets.
fn bucket_of(key: Key, mask: usize) -> usize {
    let hash = mix(key.board as u64 ^ mix((key.board >> 64) as u64 ^ mix(key.rest)));
    (hash as usize & mask) * BUCKET_WORDS
}

/// Zeroed memory for `buckets` buckets.
fn map(buckets: usize) -> std::io::Result<memmap2::MmapMut> {
    let memory = memmap2::MmapMut::map_anon(buckets * BUCKET_WORDS * 8)?;
    #[cfg(target_os = "linux")]
    // Only a hint: without huge pages the table works the same, more slowly.
    let _ = memory.advise(memmap2::Advice::HugePage);
    Ok(memory)
}

fn matches(slot: &[u64], key: Key) -> bool {
    slot[0] == key.board as u64 && slot[1] == (key.board >> 64) as u64 && slot[2] == key.rest
}

/// The finisher of splitmix64: every bit of the input moves every bit of the output, so that
/// the low bits that pick a bucket depend on the whole key.
pub(super) fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: i32, work: u8) -> Entry {
        Entry {
            value,
            bound: Bound::Lower,
            height: 7,
            best: Move::new(3, true),
            work,
        }
    }

    #[test]
    fn entries_pack_whole() {
        for e in [entry(-5, 0), entry(i32::MIN, 63), entry(i32::MAX, 255)] {
            assert_eq!(Entry::unpack(e.pack()), Some(e));
        }
        assert_eq!(Entry::unpack(0), None);
    }

    /// Doubling keeps every entry; a table grows as it fills, and stops at its limit.
    #[test]
    fn growing_keeps_every_entry() {
        let mut table = Table::new(1 << 30, 1 << 22).expect("a map");
        let first = table.capacity();
        let key = |n: u64| Key {
            board: u128::from(mix(n)),
            rest: n,
        };
        let count = first / 3;
        for n in 0..count {
            table.put(key(n), entry(n as i32, 1));
        }
        assert_eq!(table.capacity(), first);
        let held: Vec<u64> = (0..count)
            .filter(|&n| table.get(key(n)).is_some())
            .collect();
        table.grow();
        assert_eq!(table.capacity(), 2 * first);
        for &n in &held {
            assert_eq!(table.get(key(n)), Some(entry(n as i32, 1)));
        }
        for n in count..4 * first {
            table.put(key(n), entry(n as i32, 1));
        }
        assert!(table.capacity() >= 8 * first);
        let mut small = Table::new(1 << 30, 64).expect("a map");
        for n in 0..1000 {
            small.put(key(n), entry(n as i32, 1));
        }
        assert_eq!(small.capacity(), 64);
    }

    /// Growing in place leaves each bucket as putting its entries again, in slot order, into
    /// fresh memory would: the entries staying first, those moving in the new bucket, each
    /// from its first slot.
    #[test]
    fn growing_in_place_keeps_each_buckets_order() {
        let mut table = Table::new(1 << 30, 1 << 22).expect("a map");
        let key = |n: u64| Key {
            board: u128::from(mix(n)),
            rest: n,
        };
        let buckets = table.mask + 1;
        for n in 0..table.capacity() / 2 {
            table.put(key(n), entry(n as i32, (n % 3) as u8));
        }
        assert_eq!(table.mask + 1, buckets, "not yet grown");
        let before = table.words()[..buckets * BUCKET_WORDS].to_vec();
        table.grow();
        let words = table.words();
        let slot = |w: &[u64], at: usize| w[at..at + SLOT_WORDS].to_vec();
        for first in (0..buckets * BUCKET_WORDS).step_by(BUCKET_WORDS) {
            let old: Vec<Vec<u64>> = [first, first + SLOT_WORDS]
                .into_iter()
                .map(|at| slot(&before, at))
                .filter(|s| s[3] != 0)
                .collect();
            for bucket in [first, first + buckets * BUCKET_WORDS] {
                let mut expected: Vec<Vec<u64>> = old
                    .iter()
                    .filter(|s| {
                        let k = Key {
                            board: u128::from(s[0]) | u128::from(s[1]) << 64,
                            rest: s[2],
                        };
                        bucket_of(k, table.mask) == bucket
                    })
                    .cloned()
                    .collect();
                expected.resize(2, vec![0; SLOT_WORDS]);
                let found = vec![slot(words, bucket), slot(words, bucket + SLOT_WORDS)];
                assert_eq!(found, expected, "bucket {}", bucket / BUCKET_WORDS);
            }
        }
    }

    /// A bucket of two: a third key gives up the entry that took less work.
    #[test]
    fn a_full_bucket_keeps_the_most_work() {
        let mut table = Table::new(64, 2).expect("a tiny map");
        assert_eq!(table.capacity(), 2);
        let key = |n: u128| Key { board: n, rest: 0 };
        table.put(key(1), entry(1, 9));
        table.put(key(2), entry(2, 3));
        table.put(key(1), entry(10, 9));
        assert_eq!(table.len(), 2);
        table.put(key(3), entry(3, 5));
        assert_eq!(table.get(key(1)), Some(entry(10, 9)));
        assert_eq!(table.get(key(2)), None);
        assert_eq!(table.get(key(3)), Some(entry(3, 5)));
        assert_eq!(table.len(), 2);
    }
}
