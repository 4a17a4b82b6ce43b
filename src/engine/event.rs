//! What happens during a move, reported to a sink: nothing for simulations, a list for traces.

use crate::rules::Side;

/// One step of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A lap starts: `seeds` lifted from `hole`.
    Lift {
        /// The lap number, 1 for the chosen hole.
        lap: u32,
        /// Where the seeds came from.
        hole: usize,
        /// How many.
        seeds: u16,
    },
    /// A seed dropped into a position (a hole, or a store when stores are sown).
    Drop {
        /// Where.
        at: usize,
        /// The count there after the drop.
        count: u16,
    },
    /// A capture rule fired.
    Capture {
        /// Index of the rule in `Program::captures`.
        rule: usize,
        /// Holes emptied, as a bit mask.
        holes: u64,
        /// Seeds taken, the capturing seed included.
        seeds: u16,
        /// Who received them.
        to: Side,
    },
    /// A capture would have taken every seed of the opponent and took nothing (grand slam).
    GrandSlam {
        /// Index of the capture rule.
        rule: usize,
    },
    /// The last seed of a lap landed.
    Land {
        /// Where.
        at: usize,
        /// Its count then.
        count: u16,
    },
    /// A hole became a house.
    House {
        /// Index of the house rule in `Program::houses`.
        rule: usize,
        /// The hole.
        hole: usize,
        /// Its owner now.
        to: Side,
        /// Seeds it held, captured by its owner (0 when they stay in it).
        seeds: u16,
    },
    /// A seed sown into a house went on to its owner's store (`sown: to owner`).
    HouseSown {
        /// The house.
        hole: usize,
        /// Its owner, who took the seed.
        to: Side,
    },
    /// A lap ended in the other player's house, which the mover raided.
    Raid {
        /// The house.
        hole: usize,
        /// Seeds taken, the landing seed included.
        seeds: u16,
        /// Who took them.
        to: Side,
    },
    /// The move earned another turn.
    ExtraTurn,
    /// The last-seeds rule (R2) fired during the move: `seeds` left go to `to`.
    LastSeeds {
        /// Who takes them.
        to: Side,
        /// How many (board and hand).
        seeds: u32,
    },
}

/// Receives events. `()` ignores them at no cost; `Vec<Event>` keeps them.
pub trait EventSink {
    /// Called for every event.
    fn event(&mut self, event: Event);
}

impl EventSink for () {
    // Forced inline: one of five whose removal together slowed whole `simulate` (docs/speed.md,
    // "Inlining the engine keeps").
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

impl EventSink for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}
