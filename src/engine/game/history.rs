//! The repetition history (R10): the positions since the captured totals last changed.

use super::*;

/// The positions of a game since its captured totals last changed, for the repetition rule
/// (R10): captured totals never go down, so no earlier position can occur again.
#[derive(Default)]
pub(super) struct History {
    /// The positions, each with its key ([`Scan::key`]).
    pub(super) positions: Vec<(u64, Position)>,
    /// The captured totals of every position of the stretch (any value while it is empty): one
    /// comparison tells a stretch's end.
    stores: [u16; 2],
    /// A Bloom filter over the keys of the first `INDEX_FROM` positions: most positions are
    /// new, and the filter says so without a scan. Cleared when a stretch's second position
    /// comes.
    seen: [u64; 32],
    /// How many recorded positions have each key, once the stretch is longer: only a key seen
    /// before needs the exact comparison, so long capture-free stretches stay cheap.
    keys: std::collections::HashMap<u64, u16, std::hash::BuildHasherDefault<Premixed>>,
}

impl Clone for History {
    fn clone(&self) -> History {
        History {
            positions: self.positions.clone(),
            stores: self.stores,
            seen: self.seen,
            keys: self.keys.clone(),
        }
    }

    fn clone_from(&mut self, source: &History) {
        self.positions.clone_from(&source.positions);
        self.stores = source.stores;
        self.seen = source.seen;
        // Refilled rather than cloned over: the table's `clone_from` takes the source's size,
        // mostly none (a game's start), and the index would be grown anew every game.
        self.keys.clear();
        self.keys.extend(&source.keys);
    }
}

impl History {
    /// An empty history, with room for the stretch the filter covers.
    pub(super) fn new() -> History {
        History {
            positions: Vec::with_capacity(INDEX_FROM),
            ..History::default()
        }
    }

    /// Forgets every position (the filter is cleared when the next stretch needs it).
    pub(super) fn clear(&mut self) {
        self.positions.clear();
        self.keys.clear();
    }

    /// Records `position`, of key `key` ([`Scan::key`]), and returns how many times it has now
    /// occurred.
    pub(super) fn record(&mut self, position: &Position, key: u64) -> usize {
        let stores = position.stores();
        if stores != self.stores {
            self.clear();
            self.stores = stores;
        }
        self.positions.push((key, *position));
        // A stretch's first position is new. Many stretches end there (in Kalah most moves sow
        // into a store), so the filter waits for a second position.
        match self.positions.len() {
            1 => return 1,
            2 => {
                self.seen = [0; 32];
                mark(&mut self.seen, self.positions[0].0);
            }
            _ => {}
        }
        let count = || {
            self.positions
                .iter()
                .filter(|(k, p)| *k == key && p == position)
                .count()
        };
        // Short stretches are scanned, when the filter cannot rule a repeat out; long ones
        // index their keys.
        if self.positions.len() <= INDEX_FROM {
            return if mark(&mut self.seen, key) {
                1
            } else {
                count()
            };
        }
        if self.keys.is_empty() {
            for (k, _) in &self.positions[..self.positions.len() - 1] {
                *self.keys.entry(*k).or_insert(0) += 1;
            }
        }
        let seen = self.keys.entry(key).or_insert(0);
        *seen += 1;
        if *seen == 1 {
            1
        } else {
            count()
        }
    }
}

/// Adds `key` to the history's Bloom filter `seen`; returns whether it was surely not there.
fn mark(seen: &mut [u64; 32], key: u64) -> bool {
    let (word, bit) = ((key >> 59) as usize, 1u64 << (key & 63));
    let new = seen[word] & bit == 0;
    seen[word] |= bit;
    new
}

/// History length from which keys are indexed.
const INDEX_FROM: usize = 128;

/// A hasher for keys that are already well mixed.
#[derive(Default)]
struct Premixed(u64);

impl std::hash::Hasher for Premixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions with the same counts and player to move share a key: the history tells them
    /// apart by comparing them whole, in a short stretch (the filter) as in a long one (the
    /// index), and starts a new stretch when the captured totals change.
    #[test]
    fn the_history_counts_positions_not_their_keys() {
        let rules = crate::lang::shipped("oware");
        let start = Position::initial(&rules);
        let mut locked = start;
        locked.locked = 1;
        let key = |p: &Position| p.scan().key(p.to_move);
        assert_eq!(key(&start), key(&locked));
        let mut history = History::default();
        assert_eq!(history.record(&start, key(&start)), 1);
        assert_eq!(history.record(&locked, key(&locked)), 1);
        assert_eq!(history.record(&start, key(&start)), 2);
        for n in 0..2 * INDEX_FROM as u16 {
            let mut other = start;
            other.seeds[0] = 100 + n;
            assert_eq!(history.record(&other, key(&other)), 1);
        }
        assert_eq!(history.record(&locked, key(&locked)), 2);
        assert_eq!(history.record(&start, key(&start)), 3);
        let mut captured = start;
        captured.seeds[rules.holes()] = 4;
        assert_eq!(history.record(&captured, key(&captured)), 1);
        assert_eq!(history.record(&start, key(&start)), 1);
    }
}
