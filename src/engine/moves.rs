//! A move: the hole played and, where the mover chooses it, the direction it is sown in.

use crate::rules::Rules;

/// The slot of a hole's clockwise sowing: a move's slot is its hole, plus this where the
/// mover chooses to sow clockwise. Boards hold at most 32 holes.
const CLOCKWISE_SLOT: usize = 32;

/// Slots a move can take in a turn's move masks and per-move tables.
pub const MOVE_SLOTS: usize = 2 * CLOCKWISE_SLOT;

/// A move: a hole, and whether it is sown clockwise where the variant lets the mover choose.
/// Ordered as the legal-move lists are: counter-clockwise sowings by hole, then clockwise ones.
// The slot is held in 32 bits, not 8: a byte is widened at every use, which slowed the random
// loops (docs/speed.md, "The shortcuts, held to the plain path").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

impl Move {
    /// The move that plays `hole` in the variant's own direction (counter-clockwise where the
    /// mover chooses).
    pub fn from_hole(hole: usize) -> Move {
        Move::new(hole, false)
    }

    /// The move that plays `hole`, clockwise if `clockwise` (which only a variant whose mover
    /// chooses the direction can play).
    pub fn new(hole: usize, clockwise: bool) -> Move {
        debug_assert!(hole < CLOCKWISE_SLOT);
        Move((hole + usize::from(clockwise) * CLOCKWISE_SLOT) as u32)
    }

    /// The hole played.
    pub fn hole(self) -> usize {
        self.slot() % CLOCKWISE_SLOT
    }

    /// Whether the mover sows it clockwise by choice.
    pub fn clockwise(self) -> bool {
        self.slot() >= CLOCKWISE_SLOT
    }

    /// Its slot, below [`MOVE_SLOTS`]: the bit of a move mask, the index of a per-move table,
    /// and the number `moves.csv` records.
    pub fn slot(self) -> usize {
        self.0 as usize
    }

    /// The move in slot `slot` (below [`MOVE_SLOTS`]).
    pub fn from_slot(slot: usize) -> Move {
        debug_assert!(slot < MOVE_SLOTS);
        Move(slot as u32)
    }

    /// Its bit in a move mask (for a move in the variant's own direction, its hole's bit in a
    /// mask of holes).
    pub fn bit(self) -> u64 {
        1 << self.0
    }

    /// The lowest move of a non-empty move mask.
    pub fn lowest(mask: u64) -> Move {
        debug_assert!(mask != 0);
        Move(mask.trailing_zeros())
    }

    /// The moves of a move mask, in order.
    pub fn all_in(mut mask: u64) -> impl Iterator<Item = Move> {
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let mv = Move::lowest(mask);
                mask &= mask - 1;
                mv
            })
        })
    }

    /// The move as traces write it: the hole, then `cw`/`ccw` where the mover chose the
    /// direction.
    pub fn name(self, rules: &Rules) -> String {
        let hole = self.hole();
        let n = rules.holes_per_row();
        if !rules.program.sowing.direction.chooses_at(hole % n, n) {
            hole.to_string()
        } else if self.clockwise() {
            format!("{hole}cw")
        } else {
            format!("{hole}ccw")
        }
    }

    /// Reads a move as [`Move::name`] writes it (`7`, `7cw`, `7ccw`); `None` if it is not one.
    pub fn parse(text: &str) -> Option<Move> {
        let text = text.trim();
        let (digits, clockwise) = if let Some(d) = text.strip_suffix("ccw") {
            (d, false)
        } else if let Some(d) = text.strip_suffix("cw") {
            (d, true)
        } else {
            (text, false)
        };
        let hole: usize = digits.parse().ok()?;
        (hole < CLOCKWISE_SLOT).then(|| Move::new(hole, clockwise))
    }
}

/// Without the rules at hand: the hole, then `cw` for a clockwise sowing by choice (read back
/// by [`Move::parse`]).
impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let direction = if self.clockwise() { "cw" } else { "" };
        write!(f, "{}{direction}", self.hole())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_its_hole_and_chosen_direction() {
        let ccw = Move::from_hole(7);
        let cw = Move::new(7, true);
        assert_eq!((ccw.hole(), ccw.clockwise(), ccw.slot()), (7, false, 7));
        assert_eq!((cw.hole(), cw.clockwise(), cw.slot()), (7, true, 39));
        assert!(ccw < cw && Move::new(31, false) < Move::new(0, true));
        assert_eq!(Move::from_slot(39), cw);
    }

    #[test]
    fn a_mask_lists_its_moves_in_order() {
        let mask = Move::from_hole(2).bit() | Move::new(0, true).bit() | Move::from_hole(5).bit();
        let moves: Vec<Move> = Move::all_in(mask).collect();
        assert_eq!(
            moves,
            [Move::from_hole(2), Move::from_hole(5), Move::new(0, true)]
        );
        assert_eq!(Move::all_in(0).count(), 0);
    }

    #[test]
    fn a_move_reads_back_as_written() {
        assert_eq!(Move::parse(" 7 "), Some(Move::from_hole(7)));
        assert_eq!(Move::parse("7cw"), Some(Move::new(7, true)));
        assert_eq!(Move::parse("7ccw"), Some(Move::from_hole(7)));
        for bad in ["", "cw", "-1", "32", "7x", "7 cw7"] {
            assert_eq!(Move::parse(bad), None, "{bad:?}");
        }
    }
}
