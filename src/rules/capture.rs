//! Capture rules: trigger, condition on the hole, target, recipient and effect.

use serde::Serialize;

/// When a capture rule is looked at.
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

/// A test on a hole's count, after the drop when the hole is the one sown into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CountTest {
    /// Bit `c` set: a count of `c` (below 64) passes.
    pub mask: u64,
    /// Every count of at least this passes (`u16::MAX`: none).
    pub from: u16,
}

impl CountTest {
    /// Every count passes.
    pub const ANY: CountTest = CountTest {
        mask: u64::MAX,
        from: 0,
    };

    /// Exactly the counts in `counts`, each below 64 (the compiler checks).
    pub fn exactly(counts: &[u16]) -> CountTest {
        let mask = counts
            .iter()
            .filter(|&&c| c < 64)
            .fold(0, |m, &c| m | 1 << c);
        CountTest {
            mask,
            from: u16::MAX,
        }
    }

    /// Counts of at least `n`.
    pub fn at_least(n: u16) -> CountTest {
        let mask = if n >= 64 { 0 } else { u64::MAX << n };
        CountTest {
            mask,
            from: n.max(64),
        }
    }

    /// Counts of at most `n`, below 64 (the compiler checks).
    pub fn at_most(n: u16) -> CountTest {
        let mask = if n >= 63 {
            u64::MAX
        } else {
            (1u64 << (n + 1)) - 1
        };
        CountTest {
            mask,
            from: u16::MAX,
        }
    }

    /// Both tests pass.
    pub fn and(self, other: CountTest) -> CountTest {
        CountTest {
            mask: self.mask & other.mask,
            from: self.from.max(other.from),
        }
    }

    /// Whether no count passes.
    pub fn is_empty(self) -> bool {
        self.mask == 0 && self.from == u16::MAX
    }

    /// Whether `count` passes.
    #[inline(always)]
    pub fn passes(self, count: u16) -> bool {
        if count < 64 {
            self.mask >> count & 1 == 1
        } else {
            count >= self.from
        }
    }
}

/// Whose side a hole must be on, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SideTest {
    /// Either side.
    Any,
    /// The mover's row.
    Own,
    /// The opponent's row.
    Opponent,
}

/// A test on the hole across from the one considered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum OppositeTest {
    /// No test.
    Any,
    /// The opposite hole holds no seed.
    Empty,
    /// The opposite hole holds at least one seed.
    Occupied,
}

/// A condition on a hole: all of its parts must pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Condition {
    /// The hole's count.
    pub count: CountTest,
    /// The hole's side.
    pub side: SideTest,
    /// The opposite hole.
    pub opposite: OppositeTest,
}

impl Condition {
    /// A condition every hole meets.
    pub const ALWAYS: Condition = Condition {
        count: CountTest::ANY,
        side: SideTest::Any,
        opposite: OppositeTest::Any,
    };
}

/// What a capture takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Target {
    /// `false`: the hole sown into; `true`: the hole across from it.
    pub opposite: bool,
    /// With `opposite`: the seed that made the capture goes too.
    pub with_capturing_seed: bool,
    /// Also take the unbroken run of holes before the hole (against the sowing direction) that
    /// meet this condition; the run stops before it would come back round to the hole.
    pub chain: Option<Condition>,
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
    /// The move ends.
    EndSowing,
    /// The move ends and the mover moves again.
    ExtraTurn,
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
}

/// One capture rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Capture {
    /// The rule's name in the variant file, used in traces.
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
}
