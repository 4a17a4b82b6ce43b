//! Board rules (holes, seeds, stores, starter) and the geometry tables derived from them.

use serde::{Deserialize, Serialize};

use super::sowing::{Direction, DirectionRule, Ring, Sowing};

/// The largest board the engine supports, per row.
pub const MAX_HOLES_PER_ROW: usize = 16;
/// Holes on the largest board plus the two stores.
pub const MAX_POSITIONS: usize = 2 * MAX_HOLES_PER_ROW + 2;

/// A player, named after the side of the board they sit on. South moves first in a single game
/// unless the rules say otherwise.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Owns holes `0..N`. The default, as South moves first unless the rules say otherwise.
    #[default]
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
    /// A store per player, at the end of their row (in the direction of sowing, or
    /// counterclockwise when the direction varies), that their own sowing passes through
    /// (Kalah).
    Sown,
    /// As `Sown`, but both players sow into both stores.
    SownByBoth,
}

impl Stores {
    /// Whether sowing passes through stores.
    pub fn sown(self) -> bool {
        matches!(self, Stores::Sown | Stores::SownByBoth)
    }
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
/// Positions `0..2N` are holes; `2N` is South's store and `2N+1` North's. Tables indexed by a
/// direction use [`Direction::index`].
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Holes on the board.
    pub holes: usize,
    /// `next[direction][side][p]`: where the seed after position `p` goes when `side` sows.
    pub next: [[[u8; MAX_POSITIONS]; 2]; 2],
    /// `bear_off[direction][side]`: `next` for a turn on which `side` bears off: the seed after
    /// the last hole of their row goes into their store, and so does every seed after it.
    pub bear_off: [[[u8; MAX_POSITIONS]; 2]; 2],
    /// `following[direction][h]`: the hole after hole `h`, stores passed over.
    pub following: [[u8; MAX_POSITIONS]; 2],
    /// `preceding[direction][h]`: the hole before hole `h` against the direction of sowing.
    pub preceding: [[u8; MAX_POSITIONS]; 2],
    /// The hole across from each hole.
    pub opposite: [u8; MAX_POSITIONS],
    /// Bit `p` set: position `p` is in South's row (index 0) or North's (index 1) — stores are
    /// in nobody's row.
    pub side_mask: [u64; 2],
    /// Bit `p` set for every hole (not stores).
    pub hole_mask: u64,
    /// Bit `p` set for every position a lap may visit: the holes, and both stores when stores
    /// are sown.
    pub ring: u64,
    /// The first and last hole of each row.
    pub end_holes: u64,
    /// `last_holes[direction]`: the last hole of each row in the direction of sowing.
    pub last_holes: [u64; 2],
    /// `first_holes[direction]`: the first hole of each row in the direction of sowing.
    pub first_holes: [u64; 2],
    /// `landing[side][h][n]`: the hole where a lap of `n` seeds from hole `h` ends when `side`
    /// sows in the rules' fixed direction, from the next hole on, through open holes, if the
    /// lap ends in a hole before it passes any position twice; else [`Geometry::NO_LANDING`]
    /// (and always where the direction is not fixed).
    pub landing: [[[u8; MAX_POSITIONS]; MAX_POSITIONS]; 2],
}

impl Geometry {
    /// In [`Geometry::landing`]: no hole to name.
    pub const NO_LANDING: u8 = u8::MAX;

    /// Builds the tables for a board and its sowing rules.
    pub fn new(board: &BoardRules, sowing: &Sowing) -> Geometry {
        let n = board.holes_per_row as usize;
        let holes = 2 * n;
        let hole_mask = (1u64 << holes) - 1;
        let stores_sown = if board.stores.sown() { 0b11 } else { 0 };
        let mut g = Geometry {
            holes,
            next: [[[0; MAX_POSITIONS]; 2]; 2],
            bear_off: [[[0; MAX_POSITIONS]; 2]; 2],
            following: [[0; MAX_POSITIONS]; 2],
            preceding: [[0; MAX_POSITIONS]; 2],
            opposite: [0; MAX_POSITIONS],
            side_mask: [0; 2],
            hole_mask,
            ring: hole_mask | stores_sown << holes,
            end_holes: 1 | 1 << (n - 1) | 1 << n | 1 << (holes - 1),
            // Counterclockwise, a row ends at its right (holes n-1 and 2n-1); clockwise, at
            // its left (holes 0 and n).
            last_holes: [1 << (n - 1) | 1 << (holes - 1), 1 | 1 << n],
            first_holes: [1 | 1 << n, 1 << (n - 1) | 1 << (holes - 1)],
            landing: [[[Geometry::NO_LANDING; MAX_POSITIONS]; MAX_POSITIONS]; 2],
        };
        let store = |side: Side| holes + side.index();
        let row = |side: Side| match side {
            Side::South => 0..n,
            Side::North => n..holes,
        };
        // The stores stand at the ends of the board. The ring is laid out in the way the
        // rules sow (counterclockwise when the direction varies), each store after its
        // owner's row; the other way round is the same ring reversed, so there a store is
        // reached after the opponent's row (Cross-Kalah).
        let principal = match sowing.direction {
            DirectionRule::Fixed(direction) => direction,
            _ => Direction::Counterclockwise,
        };
        let run = |side: Side| -> Vec<usize> {
            let mut r: Vec<usize> = row(side).collect();
            if principal == Direction::Clockwise {
                r.reverse();
            }
            r
        };
        for side in Side::BOTH {
            let mut ring = Vec::with_capacity(holes + 2);
            for s in Side::BOTH {
                // Each row, then its store where the player sowing sows it; under `ring: own
                // row`, the mover's row and store only.
                if sowing.ring == Ring::OwnRow && s != side {
                    continue;
                }
                ring.extend(run(s));
                let sown = match board.stores {
                    Stores::Sown => s == side,
                    Stores::SownByBoth => true,
                    Stores::None | Stores::Kept => false,
                };
                if sown {
                    ring.push(store(s));
                }
            }
            for direction in [Direction::Counterclockwise, Direction::Clockwise] {
                let table = &mut g.next[direction.index()][side.index()];
                let mut way = ring.clone();
                if direction != principal {
                    way.reverse();
                }
                for (i, &p) in way.iter().enumerate() {
                    table[p] = way[(i + 1) % way.len()] as u8;
                }
                // Positions the ring does not pass (the other row under `own row`, stores
                // that are not sown) lead back into it, to keep the table total.
                for (p, next) in table.iter_mut().enumerate().take(holes + 2) {
                    if !way.contains(&p) {
                        *next = way[0] as u8;
                    }
                }
            }
        }
        for direction in [Direction::Counterclockwise, Direction::Clockwise] {
            let d = direction.index();
            let clockwise = direction == Direction::Clockwise;
            for p in 0..holes {
                let step = if clockwise { holes - 1 } else { 1 };
                g.following[d][p] = ((p + step) % holes) as u8;
                g.preceding[d][p] = ((p + holes - step) % holes) as u8;
            }
        }
        for p in 0..holes {
            g.opposite[p] = (holes - 1 - p) as u8;
            let owner = if p < n { Side::South } else { Side::North };
            g.side_mask[owner.index()] |= 1 << p;
        }
        if let DirectionRule::Fixed(direction) = sowing.direction {
            for side in Side::BOTH {
                let next = &g.next[direction.index()][side.index()];
                for h in 0..holes {
                    // A lap that comes back to a position (its own hole, or, from a hole off
                    // the ring, the ring's first) has no landing worked out here.
                    let (mut at, mut visited) = (h, 1u64 << h);
                    for n in 1..MAX_POSITIONS {
                        at = usize::from(next[at]);
                        if visited >> at & 1 == 1 {
                            break;
                        }
                        visited |= 1 << at;
                        if at < holes {
                            g.landing[side.index()][h][n] = at as u8;
                        }
                    }
                }
            }
        }
        g.bear_off = g.next;
        for (d, last) in g.last_holes.iter().enumerate() {
            for side in Side::BOTH {
                let end = (last & g.side_mask[side.index()]).trailing_zeros() as usize;
                let table = &mut g.bear_off[d][side.index()];
                table[end] = store(side) as u8;
                table[store(side)] = store(side) as u8;
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(variant: &str) -> Geometry {
        crate::lang::shipped(variant).geometry
    }

    /// A lap of `n` seeds lands in the hole of its last seed, counted from the next hole on,
    /// unless that seed goes into a store or the lap comes round to the hole it left.
    #[test]
    fn a_lap_lands_where_its_last_seed_falls_before_it_comes_round() {
        const NONE: u8 = Geometry::NO_LANDING;
        let [south, north] = [Side::South.index(), Side::North.index()];
        // Hoyito I: no stores, counterclockwise (numbers rising), the same ring for both.
        //   North  11 10  9  8  7  6
        //   South   0  1  2  3  4  5
        let g = geometry("hoyito-i");
        assert_eq!(g.landing[south][4][3], 7); // 5, 6, 7
        assert_eq!(g.landing[north][4][3], 7);
        assert_eq!(g.landing[south][10][5], 3); // 11, 0, 1, 2, 3
        assert_eq!(g.landing[south][10][11], 9); // every other hole once
        assert_eq!(g.landing[south][10][12], NONE); // back in hole 10
        assert_eq!(g.landing[south][10][0], NONE);
        // Kalah: each sows their own store (South's, 12, after hole 5; North's, 13, after
        // hole 11) and passes the other's.
        let g = geometry("kalah");
        assert_eq!(g.landing[south][4][2], NONE); // 5, store
        assert_eq!(g.landing[south][4][3], 6); // 5, store, 6
        assert_eq!(g.landing[north][4][3], 7); // 5, 6, 7
        assert_eq!(g.landing[south][11][1], 0); // North's store passed
        assert_eq!(g.landing[north][11][1], NONE); // into North's store
        assert_eq!(g.landing[south][0][12], 11); // 1..5, store, 6..11
        assert_eq!(g.landing[south][0][13], NONE); // back in hole 0

        // Each round their own row (South's: holes 0 to 5). From a hole off the ring, a lap
        // enters it at its first hole, and has no landing once it comes round to that hole.
        let own_row = "extends \"hoyito-i.sow\"\nsowing { ring: own row }\n";
        let g = crate::lang::beside_shipped(own_row).geometry;
        assert_eq!(g.landing[south][1][4], 5); // 2, 3, 4, 5
        assert_eq!(g.landing[south][1][5], 0); // 2, 3, 4, 5, 0
        assert_eq!(g.landing[south][1][6], NONE); // back in hole 1
        assert_eq!(g.landing[south][8][6], 5); // 0 to 5
        assert_eq!(g.landing[south][8][7], NONE); // hole 0 again
                                                  // With sown stores, the own store comes between the row's last hole and its first.
        let own_row = "extends \"kalah.sow\"\nsowing { ring: own row }\n";
        let g = crate::lang::beside_shipped(own_row).geometry;
        assert_eq!(g.landing[south][4][2], NONE); // 5, store
        assert_eq!(g.landing[south][4][3], 0); // 5, store, 0
        assert_eq!(g.landing[north][10][3], 6); // 11, store, 6
    }
}
