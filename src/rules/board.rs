//! Board rules (holes, seeds, stores, starter) and the geometry tables derived from them.

use serde::{Deserialize, Serialize};

use super::sowing::{Direction, Sowing};

/// The largest board the engine supports, per row.
pub const MAX_HOLES_PER_ROW: usize = 16;
/// Holes on the largest board plus the two stores.
pub const MAX_POSITIONS: usize = 2 * MAX_HOLES_PER_ROW + 2;

/// A player, named after the side of the board they sit on. South moves first in a single game
/// unless the rules say otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Owns holes `0..N`.
    South,
    /// Owns holes `N..2N`.
    North,
}

impl Side {
    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// `0` for South, `1` for North.
    pub fn index(self) -> usize {
        self as usize
    }

    /// `"south"` or `"north"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }

    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the stores are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stores {
    /// No stores on the board: captured seeds are simply kept by the player.
    None,
    /// A store per player that receives captures but is never sown (Oware, Ayoayo).
    Kept,
    /// A store per player, at the end of their row, that their own sowing passes through (Kalah).
    Sown,
}

/// The board: size, starting layout, stores and who starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct BoardRules {
    /// Holes in each of the two rows.
    pub holes_per_row: u8,
    /// Seeds in each hole at the start, holes `0..2N` in the usual numbering.
    pub layout: Vec<u16>,
    /// Store kind.
    pub stores: Stores,
    /// Who moves first.
    pub starter: Side,
}

/// Precomputed tables: the engine never computes an index by arithmetic in its inner loop.
///
/// Positions `0..2N` are holes; `2N` is South's store and `2N+1` North's.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Holes on the board.
    pub holes: usize,
    /// `next[side][p]`: where the seed after position `p` goes when `side` sows.
    pub next: [[u8; MAX_POSITIONS]; 2],
    /// `previous[p]`: the hole before hole `p` against the sowing direction, stores skipped.
    pub previous: [u8; MAX_POSITIONS],
    /// The hole across from each hole.
    pub opposite: [u8; MAX_POSITIONS],
    /// Bit `p` set: position `p` is on South's side (holes) — stores are on nobody's side.
    pub side_mask: [u64; 2],
    /// Bit `p` set for every hole (not stores).
    pub hole_mask: u64,
}

impl Geometry {
    /// Builds the tables for a board and a sowing direction.
    pub fn new(board: &BoardRules, sowing: &Sowing) -> Geometry {
        let n = board.holes_per_row as usize;
        let holes = 2 * n;
        let mut g = Geometry {
            holes,
            next: [[0; MAX_POSITIONS]; 2],
            previous: [0; MAX_POSITIONS],
            opposite: [0; MAX_POSITIONS],
            side_mask: [0; 2],
            hole_mask: 0,
        };
        let store = |side: Side| holes + side.index();
        for side in Side::BOTH {
            // Counterclockwise ring of holes, with each store after its owner's row.
            let mut ring: Vec<usize> = Vec::with_capacity(holes + 2);
            ring.extend(0..n);
            ring.push(store(Side::South));
            ring.extend(n..holes);
            ring.push(store(Side::North));
            if sowing.direction == Direction::Clockwise {
                ring.reverse();
            }
            // A player sows into their own store only, and only if stores are sown.
            ring.retain(|&p| p < holes || (board.stores == Stores::Sown && p == store(side)));
            for (i, &p) in ring.iter().enumerate() {
                g.next[side.index()][p] = ring[(i + 1) % ring.len()] as u8;
            }
            // Sowing from a store never happens, but keep the table total.
            if board.stores != Stores::Sown {
                g.next[side.index()][store(side)] = g.next[side.index()][0];
            }
            g.next[side.index()][store(side.other())] = 0;
        }
        for p in 0..holes {
            let step = if sowing.direction == Direction::Clockwise {
                1
            } else {
                holes - 1
            };
            g.previous[p] = ((p + step) % holes) as u8;
            g.opposite[p] = (holes - 1 - p) as u8;
            let owner = if p < n { Side::South } else { Side::North };
            g.side_mask[owner.index()] |= 1 << p;
        }
        g.hole_mask = (1u64 << holes) - 1;
        g
    }

    /// The owner of hole `p`.
    pub fn owner(&self, p: usize) -> Side {
        if self.side_mask[0] >> p & 1 == 1 {
            Side::South
        } else {
            Side::North
        }
    }

    /// Whether position `p` is a store.
    pub fn is_store(&self, p: usize) -> bool {
        p >= self.holes
    }

    /// The store position of `side`.
    pub fn store(&self, side: Side) -> usize {
        self.holes + side.index()
    }

    /// The holes of `side`, in sowing order from its first hole.
    pub fn row(&self, side: Side) -> std::ops::Range<usize> {
        let n = self.holes / 2;
        match side {
            Side::South => 0..n,
            Side::North => n..2 * n,
        }
    }
}
