//! The syntax tree of a `.sow` file: blocks of rules, every node with its span.
//!
//! Values already use the rule program's vocabulary (`rules::Trigger`, `rules::Award`, ...)
//! where a word maps one to one; what needs checking against the whole variant (counts,
//! conditions, combinations) stays raw until `lower`.

use crate::rules::{
    Award, Direction, Effect, Endless, FeedJudged, GrandSlam, LapStart, LastSeedsCheck, Recipient,
    Side, SkipLaps, Starter, Stores, Surplus, Trigger,
};
use crate::source::Span;

/// A parsed file.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// `extends "..."` lines.
    pub extends: Vec<Spanned<String>>,
    /// Blocks in file order.
    pub blocks: Vec<Block>,
}

/// A value with the span it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where.
    pub span: Span,
}

/// Which block.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockKind {
    /// `game "name" { ... }`
    Game(String),
    /// `board { ... }`
    Board,
    /// `sowing { ... }`
    Sowing,
    /// `capture "name" { ... }`
    Capture(String),
    /// `no capture "name"`
    NoCapture(String),
    /// `feeding { ... }`
    Feeding,
    /// `no feeding`
    NoFeeding,
    /// `end { ... }`
    End,
    /// `match { ... }`
    Match,
}

/// A block and its rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Which block.
    pub kind: BlockKind,
    /// The block's header (keyword and name).
    pub span: Span,
    /// Its rules in order.
    pub rules: Vec<Rule>,
}

/// One `key: value` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// What it says.
    pub value: Value,
    /// `reading R..` marks, each with the span of its `R..`.
    pub readings: Vec<Spanned<u16>>,
    /// The whole line.
    pub span: Span,
}

/// A test in a condition, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// `count is 2 or 3`
    CountIs(Vec<u16>),
    /// `count at least n`
    CountAtLeast(u16),
    /// `count at most n`
    CountAtMost(u16),
    /// `was empty`
    WasEmpty,
    /// `occupied`
    Occupied,
    /// `own side`
    OwnSide,
    /// `opponent side`
    OpponentSide,
    /// `opposite empty`
    OppositeEmpty,
    /// `opposite occupied`
    OppositeOccupied,
}

/// Tests joined by `and`.
pub type Condition = Vec<Spanned<Test>>;

/// What a rule line says.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A provenance field.
    About(String, Vec<String>),
    /// `holes: n per row`
    Holes(u16),
    /// `seeds: n per hole`
    Seeds(u16),
    /// `layout: ...`
    Layout(Vec<u16>),
    /// `stores: ...`
    Stores(Stores),
    /// `starter: ...`
    Starter(Side),
    /// `direction: ...`
    Direction(Direction),
    /// `laps start: ...`
    LapStart(LapStart),
    /// `skip origin: never`
    SkipNever,
    /// `skip origin: always` or `from n seeds`, with its lap scope.
    Skip(Option<u16>, SkipLaps),
    /// `relay: never` (`None`) or `relay: when ...`
    Relay(Option<Condition>),
    /// `extra turn: in own store` / `never`
    StoreTurn(bool),
    /// `drop cap: n`
    DropCap(u32),
    /// `on: ...`
    Trigger(Trigger),
    /// `if: ...`
    If(Condition),
    /// `take: ...`
    Take {
        /// The opposite hole rather than the hole sown into.
        opposite: bool,
        /// With the capturing seed.
        with_seed: bool,
        /// `and backward while ...`
        chain: Option<Condition>,
    },
    /// `to: ...`
    To(Recipient),
    /// `then: ...`
    Then(Effect),
    /// `grand slam: ...`
    GrandSlam(GrandSlam),
    /// `judged: ...`
    Judged(FeedJudged),
    /// `unfeedable: ...`
    Unfeedable(Award),
    /// `last seeds: none` or `at most n after each ..., award`
    LastSeeds(Option<(u16, LastSeedsCheck, Award)>),
    /// `majority: ...`
    Majority(Option<Award>),
    /// `empty row: ...`
    EmptyRow(Option<Award>),
    /// `no move: pass` (`None`) or `end, award`
    NoMove(Option<Award>),
    /// `move cap: n, award`
    MoveCap(u32, Award),
    /// `repetition: n, award`
    Repetition(u16, Award),
    /// `unfinished: draw` (`true`) or `scored by totals`
    UnfinishedDraw(bool),
    /// `endless moves: ...`
    Endless(Endless),
    /// `winner: most captured`
    Winner,
    /// `refill: n per hole`
    Refill(u16),
    /// `unfilled holes: closed` (`true`) / `open`
    UnfilledClosed(bool),
    /// `surplus: ...`
    Surplus(Surplus),
    /// `starter: round winner` ... in a match block
    MatchStarter(Starter),
    /// `lose below: n`
    LoseBelow(u16),
    /// `round cap: n`
    RoundCap(u16),
    /// `from round n: last seeds award`
    FromRound(u16, Award),
}

impl Value {
    /// The rule's key as written, for messages and for overriding: a child's rule replaces
    /// the parent's rule with the same key in the same block.
    pub fn key(&self) -> String {
        let word = match self {
            Value::About(key, _) => key,
            Value::FromRound(round, _) => return format!("from round {round}"),
            Value::Holes(_) => "holes",
            Value::Seeds(_) | Value::Layout(_) => "seeds",
            Value::Stores(_) => "stores",
            Value::Starter(_) | Value::MatchStarter(_) => "starter",
            Value::Direction(_) => "direction",
            Value::LapStart(_) => "laps start",
            Value::SkipNever | Value::Skip(..) => "skip origin",
            Value::Relay(_) => "relay",
            Value::StoreTurn(_) => "extra turn",
            Value::DropCap(_) => "drop cap",
            Value::Trigger(_) => "on",
            Value::If(_) => "if",
            Value::Take { .. } => "take",
            Value::To(_) => "to",
            Value::Then(_) => "then",
            Value::GrandSlam(_) => "grand slam",
            Value::Judged(_) => "judged",
            Value::Unfeedable(_) => "unfeedable",
            Value::LastSeeds(_) => "last seeds",
            Value::Majority(_) => "majority",
            Value::EmptyRow(_) => "empty row",
            Value::NoMove(_) => "no move",
            Value::MoveCap(..) => "move cap",
            Value::Repetition(..) => "repetition",
            Value::UnfinishedDraw(_) => "unfinished",
            Value::Endless(_) => "endless moves",
            Value::Winner => "winner",
            Value::Refill(_) => "refill",
            Value::UnfilledClosed(_) => "unfilled holes",
            Value::Surplus(_) => "surplus",
            Value::LoseBelow(_) => "lose below",
            Value::RoundCap(_) => "round cap",
        };
        word.to_string()
    }
}
