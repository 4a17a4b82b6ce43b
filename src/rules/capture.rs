//! Capture rules: trigger, condition on the hole, target, recipient and effect.

use serde::Serialize;

/// When a capture (or house) rule is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Trigger {
    /// After every seed dropped into a hole.
    EveryDrop,
    /// After every seed but the last of a lap (en passant).
    PassingDrop,
    /// After the last seed of each lap, before any relay.
    LapEnd,
    /// After the last seed of the move, once no relay follows.
    MoveEnd,
}

/// What counts of 64 and more do in a [`CountTest`] (exact counts go up to 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Large {
    /// None passes.
    None,
    /// Every one passes.
    All,
    /// Even ones pass.
    Even,
    /// Odd ones pass.
    Odd,
}

/// A test on a hole's count (after the drop, for the hole sown into).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CountTest {
    /// Bit `c` set: a count of `c` (below 64) passes.
    pub mask: u64,
    /// Counts of 64 and more that pass, from `from` on.
    pub large: Large,
    /// The smallest large count that passes (64 or more).
    pub from: u16,
}

impl CountTest {
    /// Every count passes.
    pub const ANY: CountTest = CountTest {
        mask: u64::MAX,
        large: Large::All,
        from: 64,
    };

    /// No count passes.
    pub const NONE: CountTest = CountTest {
        mask: 0,
        large: Large::None,
        from: 64,
    };

    /// Exactly the counts in `counts`, each below 64 (the compiler checks).
    pub fn exactly(counts: &[u16]) -> CountTest {
        let mask = counts
            .iter()
            .filter(|&&c| c < 64)
            .fold(0, |m, &c| m | 1 << c);
        CountTest {
            mask,
            ..CountTest::NONE
        }
    }

    /// Counts from `low` to `high`, both included (`u16::MAX` for no upper end).
    pub fn range(low: u16, high: u16) -> CountTest {
        let mask = (0..64u16)
            .filter(|c| (low..=high).contains(c))
            .fold(0u64, |m, c| m | 1 << c);
        CountTest {
            mask,
            large: if high >= 64 { Large::All } else { Large::None },
            from: low.max(64),
        }
    }

    /// Counts of at least `n`.
    pub fn at_least(n: u16) -> CountTest {
        CountTest::range(n, u16::MAX)
    }

    /// Counts of at most `n`.
    pub fn at_most(n: u16) -> CountTest {
        CountTest::range(0, n)
    }

    /// Even counts (zero included), or odd ones.
    pub fn parity(even: bool) -> CountTest {
        let evens = 0x5555_5555_5555_5555u64;
        CountTest {
            mask: if even { evens } else { !evens },
            large: if even { Large::Even } else { Large::Odd },
            from: 64,
        }
    }

    /// Both tests pass.
    pub fn and(self, other: CountTest) -> CountTest {
        use Large::{All, Even, None, Odd};
        let large = match (self.large, other.large) {
            (None, _) | (_, None) | (Even, Odd) | (Odd, Even) => None,
            (All, l) | (l, All) => l,
            (l, _) => l,
        };
        CountTest {
            mask: self.mask & other.mask,
            large,
            from: self.from.max(other.from),
        }
    }

    /// Either test passes.
    pub fn or(self, other: CountTest) -> CountTest {
        use Large::{All, Even, None, Odd};
        let large = match (self.large, other.large) {
            (None, l) | (l, None) => l,
            (Even, Odd) | (Odd, Even) | (All, _) | (_, All) => All,
            (l, _) => l,
        };
        CountTest {
            mask: self.mask | other.mask,
            large,
            from: self.from.min(other.from),
        }
    }

    /// Whether every count passes (a test that tests nothing).
    pub fn is_any(self) -> bool {
        self.mask == u64::MAX && self.large == Large::All
    }

    /// Whether no count passes.
    pub fn is_empty(self) -> bool {
        self.mask == 0 && self.large == Large::None
    }

    /// Whether `count` passes.
    // Forced inline: the count test of every capture condition (docs/speed.md, "Inlining the
    // engine keeps").
    #[inline(always)]
    pub fn passes(self, count: u16) -> bool {
        if count < 64 {
            self.mask >> count & 1 == 1
        } else {
            count >= self.from
                && match self.large {
                    Large::None => false,
                    Large::All => true,
                    Large::Even => count.is_multiple_of(2),
                    Large::Odd => !count.is_multiple_of(2),
                }
        }
    }
}

/// Whose side a hole must be on, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SideTest {
    /// Either side.
    Any,
    /// The mover's holes.
    Own,
    /// The opponent's holes.
    Opponent,
}

/// Where in its row a hole may be: first, between, or last, in the direction of sowing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PlaceTest {
    /// The first hole of its row (where sowing enters the row).
    pub first: bool,
    /// A hole that is neither first nor last.
    pub middle: bool,
    /// The last hole of its row.
    pub last: bool,
}

impl PlaceTest {
    /// Anywhere.
    pub const ANY: PlaceTest = PlaceTest::of(true, true, true);
    /// The first or the last hole of a row.
    pub const END_HOLE: PlaceTest = PlaceTest::of(true, false, true);
    /// The first hole of its row.
    pub const FIRST_HOLE: PlaceTest = PlaceTest::of(true, false, false);
    /// The last hole of its row.
    pub const LAST_HOLE: PlaceTest = PlaceTest::of(false, false, true);
    /// Not the first hole of its row.
    pub const NOT_FIRST_HOLE: PlaceTest = PlaceTest::of(false, true, true);
    /// Not the last hole of its row.
    pub const NOT_LAST_HOLE: PlaceTest = PlaceTest::of(true, true, false);

    const fn of(first: bool, middle: bool, last: bool) -> PlaceTest {
        PlaceTest {
            first,
            middle,
            last,
        }
    }

    /// The places both tests allow.
    pub fn and(self, other: PlaceTest) -> PlaceTest {
        PlaceTest::of(
            self.first && other.first,
            self.middle && other.middle,
            self.last && other.last,
        )
    }

    /// Whether no hole is allowed.
    pub fn is_empty(self) -> bool {
        !(self.first || self.middle || self.last)
    }
}

/// A condition on a hole: all of its parts must pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Condition {
    /// The hole's count.
    pub count: CountTest,
    /// The hole's side.
    pub side: SideTest,
    /// The hole's place in its row.
    pub place: PlaceTest,
    /// The count of the hole across from it.
    pub opposite: CountTest,
    /// The hole across holds as many seeds as this one.
    pub opposite_equal: bool,
    /// The count of the hole after it, in the direction of sowing.
    pub next: CountTest,
}

impl Condition {
    /// A condition every hole meets.
    pub const ALWAYS: Condition = Condition {
        count: CountTest::ANY,
        side: SideTest::Any,
        place: PlaceTest::ANY,
        opposite: CountTest::ANY,
        opposite_equal: false,
        next: CountTest::ANY,
    };
}

/// Which hole a capture starts from, seen from the hole the rule looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Base {
    /// The hole itself.
    Hole,
    /// The hole across from it.
    Opposite,
    /// The hole and the one across.
    HoleAndOpposite,
    /// The hole after it (in the direction of sowing).
    Next,
    /// The hole after the next one (across an empty hole, in the Pallanguzhi family).
    AfterNext,
    /// The hole after the next one and, if that holds seeds, the hole across from it (Ali
    /// Guli Mane).
    AfterNextAndOpposite,
    /// The hole across from the next one.
    OppositeOfNext,
    /// Every hole of the board that meets this condition.
    Every(Condition),
}

/// How a chain of further holes is followed from the first one taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ChainWay {
    /// Against the sowing direction.
    Backward,
    /// In the sowing direction.
    Forward,
    /// Both ways from the first hole.
    Both,
    /// On in the sowing direction over an empty hole to the occupied one after it, again and
    /// again (the alternating chains of the Pallanguzhi family).
    AcrossEmpty,
}

/// A chain of further holes taken with the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Chain {
    /// Which way it runs.
    pub way: ChainWay,
    /// What each further hole must meet (not used by `AcrossEmpty`).
    pub condition: Condition,
    /// At most this many further holes (each way); 0 for no limit.
    pub limit: u8,
}

/// What a capture takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Target {
    /// Where the capture starts.
    pub base: Base,
    /// The seed that made the capture goes too.
    pub with_capturing_seed: bool,
    /// Further holes taken with it, if its first hole holds seeds; the chain stops before it
    /// would come back round.
    pub chain: Option<Chain>,
}

/// Who receives a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Recipient {
    /// The player making the move.
    Mover,
    /// The owner of the captured hole.
    Owner,
}

/// What happens to the move after a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Effect {
    /// Sowing goes on.
    Continue,
    /// Sowing goes on, and the move earns another turn once it ends.
    ContinueThenExtraTurn,
    /// The move ends.
    EndSowing,
    /// The move ends and the mover moves again.
    ExtraTurn,
    /// As `ExtraTurn`, but not after a turn that was itself earned by a capture.
    ExtraTurnOnce,
    /// The hole after the last one taken is lifted and sown on (if it is empty, the move ends).
    ContinueFromNext,
    /// The capturing seed is lifted and sown on, and may capture or relay again.
    SeedMovesOn,
}

/// What a capture that would take every seed on the opponent's side does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum GrandSlam {
    /// Nothing special: it captures.
    Captures,
    /// The move is legal but captures nothing (Abapa).
    CapturesNothing,
    /// The move is illegal.
    Forbidden,
    /// It captures, and the mover plays again (Ouri).
    CapturesThenExtraTurn,
    /// It captures, the game ends, and the seeds left go to the player captured from
    /// (Grand Coastal Oh-Wah-Ree).
    CapturesOpponentTakesRest,
    /// It captures all but the opponent's first hole (in the direction of sowing); a capture
    /// of that hole alone takes nothing, and is no capture.
    AllButFirstHole,
    /// It captures all but the opponent's last hole (in the direction of sowing), as
    /// `AllButFirstHole`.
    AllButLastHole,
}

/// One capture rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Capture {
    /// The rule's name in the variant file, used in traces; not part of the rules hash.
    #[serde(skip_serializing)]
    pub name: String,
    /// When it is looked at.
    pub trigger: Trigger,
    /// What the hole sown into must look like.
    pub condition: Condition,
    /// What is taken.
    pub target: Target,
    /// Who gets it.
    pub recipient: Recipient,
    /// What happens next.
    pub effect: Effect,
    /// Grand-slam policy.
    pub grand_slam: GrandSlam,
    /// The rule applies from this move of the game on (1: from the first).
    pub from_move: u32,
}
