//! Sowing rules: direction, where a lap starts, origin skipping, relay, store turns, feeding.

use serde::Serialize;

use super::capture::Condition;
use super::ending::Award;

/// The direction seeds travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Increasing hole numbers: South's row left to right, then North's.
    Counterclockwise,
    /// Decreasing hole numbers.
    Clockwise,
}

/// Where the first seed of a lap goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum LapStart {
    /// Into the hole after the one just emptied.
    NextHole,
    /// Back into the hole just emptied.
    LiftedHole,
}

/// Whether the emptied hole of a lap is passed over when the sowing comes round to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum OriginSkip {
    /// Never skipped.
    Never,
    /// Skipped when the lap lifted at least this many seeds. `Some(1)` is "always"; the compiler
    /// writes every threshold that cannot make a difference on the board as `Some(1)`.
    FromSeeds(u16, SkipLaps),
}

/// Which laps origin skipping applies to (R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SkipLaps {
    /// The first lap and every relay lap.
    Every,
    /// The first lap of a move only.
    First,
}

/// How seeds are sown.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Sowing {
    /// Direction of travel.
    pub direction: Direction,
    /// Where a lap starts.
    pub lap_start: LapStart,
    /// Origin skipping.
    pub origin_skip: OriginSkip,
    /// When the last seed of a lap lands in a hole matching this, that hole is lifted and sown
    /// in a new lap; `None` for single-lap sowing.
    pub relay: Option<Condition>,
    /// A lap ending in the mover's own (sown) store gives another turn.
    pub store_extra_turn: bool,
    /// Safety cap on seeds dropped in one move (R11); reaching it is reported.
    pub drop_cap: u32,
}

/// How "the move supplies seeds" is judged (R9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FeedJudged {
    /// On the position after the whole move: the opponent's row holds a seed.
    AfterMove,
    /// On the first lap: at least one seed was sown into the opponent's row.
    FirstLap,
}

/// The duty to feed an opponent whose row is empty at the start of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Feeding {
    /// How a move is judged to feed.
    pub judged: FeedJudged,
    /// Who takes the board when no move can feed; the game then ends (R8).
    pub unfeedable: Award,
}
