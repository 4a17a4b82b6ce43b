//! Hand-written reference implementations of two mancala games, used as a
//! differential test oracle and as the speed baseline for the rule interpreter.
//!
//! * [`hoyito_i`] — Hoyito I (docs/sources.md §1) under the default readings
//!   R1, R2, R3, R10, R11 of docs/readings.md.
//! * [`oware`] — Oware (Abapa, as in standard references) with R3 and R10.
//!
//! std only; include from another crate with
//! `#[path = "../../benches/reference/mod.rs"] mod reference;`.
#![allow(dead_code)]

pub mod hoyito_i;
pub mod oware;

/// A player. South moves first; South owns holes 0..N-1, North owns N..2N-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    South,
    North,
}

impl Side {
    #[inline(always)]
    pub fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
    #[inline(always)]
    pub fn from_index(i: usize) -> Side {
        if i == 0 {
            Side::South
        } else {
            Side::North
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The game's own end rule (Hoyito I: R2 last four; Oware: more than half
    /// captured / both exactly half / unfeedable opponent).
    Normal,
    /// Neither player has a legal move (R3); board swept by side.
    NoMoves,
    /// Move cap reached (R10); board swept by side.
    Cap,
    /// Same position for the third time (R10); board swept by side.
    Repetition,
}

/// Largest board supported: 2 x 12 holes.
pub const MAX_HOLES: usize = 24;

/// Default move cap (R10).
pub const MOVE_CAP: u32 = 2000;

/// SplitMix64 step: advances `state` and returns the next 64-bit output.
#[inline(always)]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Uniform integer in 0..n (n > 0), multiply-high method (bias < n / 2^64).
#[inline(always)]
pub fn below(state: &mut u64, n: usize) -> usize {
    ((splitmix64(state) as u128 * n as u128) >> 64) as usize
}

/// Exact repetition key of (board, player to move). Every count is < 128, so
/// bit 7 of byte 0 is free to hold the side. Captured totals are not part of
/// the key because the history is cleared whenever they change (they never
/// decrease, so no position before a capture can recur after it).
#[inline(always)]
pub fn pack_key(board: &[u8; MAX_HOLES], to_move: Side) -> [u64; 3] {
    let mut k = [0u64; 3];
    for (i, chunk) in board.chunks_exact(8).enumerate() {
        let mut a = [0u8; 8];
        a.copy_from_slice(chunk);
        k[i] = u64::from_le_bytes(a);
    }
    k[0] ^= (to_move.index() as u64) << 7;
    k
}

/// Positions seen since the captured totals last changed, with occurrence
/// counts (R10 repetition rule). Short segments are scanned linearly; once a
/// segment grows past `LINEAR_MAX` distinct positions an open-addressing index
/// (hand-written hash, linear probing) is built and kept for the rest of the
/// game. Clearing is proportional to the number of entries (amortised O(1)).
#[derive(Clone, Debug)]
pub struct RepHistory {
    entries: Vec<RepEntry>,
    /// Slot -> entry index + 1 (0 = empty). Empty Vec until first needed.
    slots: Vec<u32>,
}

#[derive(Clone, Copy, Debug)]
pub struct RepEntry {
    key: [u64; 3],
    count: u32,
    slot: u32,
}

const LINEAR_MAX: usize = 24;

#[inline(always)]
fn key_hash(k: &[u64; 3]) -> u64 {
    let mut h = k[0].wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ k[1])
        .rotate_left(23)
        .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h = (h ^ k[2])
        .rotate_left(29)
        .wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^ (h >> 32)
}

impl RepHistory {
    pub fn new(cap: u32) -> RepHistory {
        RepHistory {
            entries: Vec::with_capacity(cap.min(1 << 16) as usize + 2),
            slots: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        if !self.slots.is_empty() {
            for e in &self.entries {
                self.slots[e.slot as usize] = 0;
            }
        }
        self.entries.clear();
    }

    #[inline]
    fn insert_slot(slots: &mut [u32], key: &[u64; 3], idx: usize) -> u32 {
        let mask = slots.len() - 1;
        let mut s = key_hash(key) as usize & mask;
        while slots[s] != 0 {
            s = (s + 1) & mask;
        }
        slots[s] = idx as u32 + 1;
        s as u32
    }

    /// Records one occurrence of `key`; returns how many times it has now occurred.
    #[inline]
    pub fn record(&mut self, key: [u64; 3]) -> u32 {
        if self.slots.is_empty() {
            if let Some(e) = self.entries.iter_mut().find(|e| e.key == key) {
                e.count += 1;
                return e.count;
            }
            self.entries.push(RepEntry {
                key,
                count: 1,
                slot: 0,
            });
            if self.entries.len() > LINEAR_MAX {
                // Build the index: size a power of two >= 2 x the most entries possible.
                let want = (2 * self.entries.capacity().max(64)).next_power_of_two();
                self.slots = vec![0u32; want];
                for i in 0..self.entries.len() {
                    let k = self.entries[i].key;
                    self.entries[i].slot = Self::insert_slot(&mut self.slots, &k, i);
                }
            }
            return 1;
        }
        let mask = self.slots.len() - 1;
        let mut s = key_hash(&key) as usize & mask;
        loop {
            let v = self.slots[s];
            if v == 0 {
                break;
            }
            let e = &mut self.entries[v as usize - 1];
            if e.key == key {
                e.count += 1;
                return e.count;
            }
            s = (s + 1) & mask;
        }
        if 2 * (self.entries.len() + 1) > self.slots.len() {
            // Only reachable with a custom cap beyond the initial capacity: grow.
            let want = self.slots.len() * 2;
            self.slots = vec![0u32; want];
            for i in 0..self.entries.len() {
                let k = self.entries[i].key;
                self.entries[i].slot = Self::insert_slot(&mut self.slots, &k, i);
            }
            s = key_hash(&key) as usize & (want - 1);
            while self.slots[s] != 0 {
                s = (s + 1) & (want - 1);
            }
        }
        let idx = self.entries.len();
        self.slots[s] = idx as u32 + 1;
        self.entries.push(RepEntry {
            key,
            count: 1,
            slot: s as u32,
        });
        1
    }
}

/// Plays 2000 random games of Hoyito I (N = 6, 9, 12) and of Oware (N = 6),
/// asserting seed conservation after every move, that the player to move
/// always has a legal move while the game runs, that every game ends and that
/// the final board is empty. Also runs `random_playout` on fresh games with
/// the same checks on the end state. Panics on any failure.
pub fn self_check() {
    let mut rng: u64 = 0x5EED_1234_ABCD_0001;
    for &n in &[6usize, 9, 12] {
        for _ in 0..2000 {
            let mut g = hoyito_i::Game::new(n);
            let total = (2 * n * 4) as u32;
            while !g.is_over() {
                let moves = g.legal_moves();
                assert!(
                    !moves.is_empty(),
                    "hoyito: running game without legal moves"
                );
                let m = moves[below(&mut rng, moves.len())];
                g.play(m).expect("legal move refused");
                let on_board: u32 = g.board().iter().map(|&c| c as u32).sum();
                let s = g.store();
                assert_eq!(on_board + s[0] + s[1], total, "hoyito: seeds not conserved");
                assert!(g.moves_played() <= MOVE_CAP);
            }
            assert!(
                g.board().iter().all(|&c| c == 0),
                "hoyito: final board not empty"
            );
            assert!(g.winner().is_some() && g.end_reason().is_some());
            let mut h = hoyito_i::Game::new(n);
            let k = h.random_playout(&mut rng);
            assert!(h.is_over() && k == h.moves_played() && k <= MOVE_CAP);
            let s = h.store();
            assert_eq!(s[0] + s[1], total);
            assert!(h.board().iter().all(|&c| c == 0));
        }
    }
    for _ in 0..2000 {
        let mut g = oware::Game::new(6);
        while !g.is_over() {
            let moves = g.legal_moves();
            assert!(!moves.is_empty(), "oware: running game without legal moves");
            let m = moves[below(&mut rng, moves.len())];
            g.play(m).expect("legal move refused");
            let on_board: u32 = g.board().iter().map(|&c| c as u32).sum();
            let s = g.store();
            assert_eq!(on_board + s[0] + s[1], 48, "oware: seeds not conserved");
            assert!(g.moves_played() <= MOVE_CAP);
        }
        assert!(
            g.board().iter().all(|&c| c == 0),
            "oware: final board not empty"
        );
        assert!(g.winner().is_some() && g.end_reason().is_some());
        let mut h = oware::Game::new(6);
        let k = h.random_playout(&mut rng);
        assert!(h.is_over() && k == h.moves_played() && k <= MOVE_CAP);
        let s = h.store();
        assert_eq!(s[0] + s[1], 48);
        assert!(h.board().iter().all(|&c| c == 0));
    }
}
