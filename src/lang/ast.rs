//! The syntax tree of a `.sow` file: typed rules per block, every node with its span.
//!
//! Each block has its own rule type, so the compiler matches rules exhaustively and a key
//! cannot be mistyped. Values already use the rule program's vocabulary (`rules::Trigger`,
//! `rules::Award`, ...) where a word maps one to one; what needs checking against the whole
//! variant (counts, conditions, combinations) stays raw until `lower`.

use crate::rules::{
    Award, ChainWay, DirectionRule, Effect, EndCheck, Endless, FeedDuty, FeedJudged, GrandSlam,
    HouseContents, HouseSown, LapStart, LastSeedsCheck, Majority, MatchScoring, MoveFilter, Raid,
    Recipient, Ring, RowTest, Scoring, Side, SkipLaps, Starter, Stores, Surplus, Territory,
    Trigger, Unfeedable,
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

/// A block: its header's span and its rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// What the block is, with its rules.
    pub kind: BlockKind,
    /// The block's header (keyword and name), or the whole of a one-line block.
    pub span: Span,
}

/// The blocks of the language, each with the rules it may hold.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockKind {
    /// `readings { R17: "..." }`: the file's own readings.
    Readings(Vec<Spanned<Declared>>),
    /// `alternative R2 "name" { blocks }`: another reading of a gap, chosen on the command line.
    Alternative {
        /// The reading it varies, 2 for R2, with the span of `R2`.
        reading: Spanned<u16>,
        /// Its name.
        name: String,
        /// The rules that replace the file's own when it is chosen.
        blocks: Vec<Block>,
    },
    /// `game "name" { ... }`: provenance.
    Game {
        /// The variant's name.
        name: String,
        /// Provenance fields in order.
        fields: Vec<Item<About>>,
    },
    /// `board { ... }`
    Board(Vec<Item<BoardRule>>),
    /// `sowing { ... }`
    Sowing(Vec<Item<SowingRule>>),
    /// `capture "name" { ... }`
    Capture {
        /// The capture's name.
        name: String,
        /// Its rules.
        rules: Vec<Item<CaptureRule>>,
    },
    /// `no capture "name"`
    NoCapture(String),
    /// `house "name" { ... }`
    House {
        /// The house rule's name.
        name: String,
        /// Its rules.
        rules: Vec<Item<HouseRule>>,
    },
    /// `no house "name"`
    NoHouse(String),
    /// `feeding { ... }`
    Feeding(Vec<Item<FeedingRule>>),
    /// `no feeding`
    NoFeeding,
    /// `end { ... }`
    End(Vec<Item<EndRule>>),
    /// `match { ... }`
    Match(Vec<Item<MatchRule>>),
    /// `no match`
    NoMatch,
}

impl BlockKind {
    /// Marks every rule of the block that cites no reading with `reading` (an alternative's
    /// rules rest on the reading they vary).
    pub fn mark(&mut self, reading: &Spanned<u16>) {
        fn each<R>(items: &mut [Item<R>], reading: &Spanned<u16>) {
            for item in items.iter_mut().filter(|i| i.readings.is_empty()) {
                item.readings.push(reading.clone());
            }
        }
        match self {
            BlockKind::Board(items) => each(items, reading),
            BlockKind::Sowing(items) => each(items, reading),
            BlockKind::Capture { rules, .. } => each(rules, reading),
            BlockKind::House { rules, .. } => each(rules, reading),
            BlockKind::Feeding(items) => each(items, reading),
            BlockKind::End(items) => each(items, reading),
            BlockKind::Match(items) => each(items, reading),
            BlockKind::Readings(_)
            | BlockKind::Game { .. }
            | BlockKind::Alternative { .. }
            | BlockKind::NoCapture(_)
            | BlockKind::NoHouse(_)
            | BlockKind::NoFeeding
            | BlockKind::NoMatch => {}
        }
    }
}

/// One `key: value` line of a block.
#[derive(Clone, Debug, PartialEq)]
pub struct Item<R> {
    /// What it says.
    pub rule: R,
    /// `reading R..` marks, each with the span of its `R..`.
    pub readings: Vec<Spanned<u16>>,
    /// The whole line.
    pub span: Span,
}

/// A reading a file declares: `R17: "what the gap is and what was chosen"`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    /// The number, 17 for R17.
    pub number: u16,
    /// What the gap is and what was chosen.
    pub text: String,
}

/// A provenance field: `region: "Barahona", "Bahoruco"`.
#[derive(Clone, Debug, PartialEq)]
pub struct About {
    /// The field's name as written (checked against the known ones in `lower`).
    pub key: String,
    /// Its texts.
    pub texts: Vec<String>,
}

/// The seeds at the start: the same in every hole, or hole by hole.
#[derive(Clone, Debug, PartialEq)]
pub enum Seeds {
    /// `seeds: n per hole`
    PerHole(u16),
    /// `layout: ...`, hole 0 first.
    Layout(Vec<u16>),
}

/// A rule of the `board` block.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardRule {
    /// `holes: n per row`
    Holes(u16),
    /// `seeds: n per hole` or `layout: ...` (one rule: a later one replaces either).
    Seeds(Seeds),
    /// `stores: none | kept | sown`
    Stores(Stores),
    /// `starter: south | north`
    Starter(Side),
}

/// Origin skipping as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Skip {
    /// `skip origin: never`
    Never,
    /// `skip origin: always` (`None`) or `from n seeds`, on which laps.
    From(Option<u16>, SkipLaps),
}

/// `relay: ...` as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Relay {
    /// `relay: never`
    Never,
    /// `relay: next hole`
    NextHole,
    /// `relay: when ...`
    When(Condition),
}

/// `skip holes: [own|opponent's] holding ...[, but not the last seed][, except on the first
/// move of the game]`.
#[derive(Clone, Debug, PartialEq)]
pub struct SkipHolesSpec {
    /// The counts passed over.
    pub count: Spanned<CountSpec>,
    /// Whose holes: `Either` where the rule names no row.
    pub row: RowTest,
    /// The last seed of a lap still goes in.
    pub except_last: bool,
    /// Not on the game's first move.
    pub except_first_move: bool,
}

/// A rule of the `sowing` block.
#[derive(Clone, Debug, PartialEq)]
pub enum SowingRule {
    /// `direction: ...`
    Direction(DirectionRule),
    /// `laps start: ...`
    LapStart(LapStart),
    /// `skip origin: ...`
    SkipOrigin(Skip),
    /// `skip holes: ...`
    SkipHoles(SkipHolesSpec),
    /// `relay: ...`
    Relay(Relay),
    /// `extra turn: in own store` (`true`) or `never`
    StoreTurn(bool),
    /// `drop cap: n`
    DropCap(u32),
    /// `min seeds: n`, and whether `unless no hole holds that many` follows
    MinSeeds(u16, bool),
    /// `ring: ...`
    Ring(Ring),
    /// `play from: any hole` (`true`) or `own row`
    PlayFrom(bool),
    /// `first move: own holes ...`
    FirstMove(FirstMoveSpec),
    /// `opening: h, h, ...`
    Opening(Vec<u16>),
    /// `first lap: ...`
    MoveFilter(MoveFilter),
    /// `after a round: opponent's holes only`
    OpponentAfterRound,
    /// `locked: played holes`
    LockPlayed,
    /// `bear off: when no hole holds more than n`
    BearOff(u16),
}

/// `first move [of the game]: own holes 4 to 6 [, a last seed bound for the own row goes to
/// the opponent's first hole]`
#[derive(Clone, Debug, PartialEq)]
pub struct FirstMoveSpec {
    /// The places, as ranges (`1 or 7` is two ranges of one place).
    pub places: Vec<(u16, u16)>,
    /// `of the game`: the game's first move only, not each player's.
    pub game_only: bool,
    /// The last seed of the first lap never ends in the mover's row.
    pub last_seed_across: bool,
}

/// What `take:` names first.
#[derive(Clone, Debug, PartialEq)]
pub enum Taken {
    /// `hole`: the hole sown into.
    Hole,
    /// `opposite`: the hole across from it.
    Opposite,
    /// `hole and opposite`
    HoleAndOpposite,
    /// `hole after next and its opposite`
    AfterNextAndOpposite,
    /// `next hole`
    Next,
    /// `hole after next`
    AfterNext,
    /// `opposite of next`
    OppositeOfNext,
    /// `every hole where ...`
    Every(Condition),
}

/// `and backward while ...`, `and on across empty holes`, with an optional limit.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainSpec {
    /// Which way.
    pub way: ChainWay,
    /// What each further hole must meet (none for `across empty holes`).
    pub condition: Option<Condition>,
    /// `, at most n holes`
    pub limit: Option<Spanned<u16>>,
}

/// `take: ...`
#[derive(Clone, Debug, PartialEq)]
pub struct Take {
    /// What is taken first.
    pub taken: Taken,
    /// `and capturing seed`
    pub with_seed: bool,
    /// A chain of further holes.
    pub chain: Option<ChainSpec>,
}

/// A rule of a `capture` block.
#[derive(Clone, Debug, PartialEq)]
pub enum CaptureRule {
    /// `on: ...`
    On(Trigger),
    /// `if: ...`
    If(Condition),
    /// `take: ...`
    Take(Take),
    /// `to: ...`
    To(Recipient),
    /// `then: ...`
    Then(Effect),
    /// `grand slam: ...`
    GrandSlam(GrandSlam),
    /// `from move: n`
    FromMove(u32),
}

/// A rule of a `house` block.
#[derive(Clone, Debug, PartialEq)]
pub enum HouseRule {
    /// `on: ...`
    On(Trigger),
    /// `if: ...`
    If(Condition),
    /// `to: mover | owner`: who owns the house.
    To(Recipient),
    /// `limit: n per player`
    Limit(u16),
    /// `not matching: the other player's house`
    NotMatching,
    /// `contents: ...`
    Contents(HouseContents),
    /// `sown: ...`
    Sown(HouseSown),
    /// `then: sowing ends | sowing continues`
    Then(Effect),
    /// `raided: the seed and n more, then ...`
    Raided(Raid),
}

/// A rule of the `feeding` block.
#[derive(Clone, Debug, PartialEq)]
pub enum FeedingRule {
    /// `duty: ...`
    Duty(FeedDuty),
    /// `judged: ...`
    Judged(FeedJudged),
    /// `unfeedable: ...`
    Unfeedable(Unfeedable),
}

/// `last seeds: at most n after each ..., award`
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LastSeeds {
    /// The count.
    pub at_most: u16,
    /// When it is checked.
    pub check: LastSeedsCheck,
    /// Who takes them.
    pub to: Award,
}

/// A rule of the `end` block. `None` values are `none`, switching an inherited rule off.
#[derive(Clone, Debug, PartialEq)]
pub enum EndRule {
    /// `last seeds: ...`
    LastSeeds(Option<LastSeeds>),
    /// `majority: ...`
    Majority(Option<Majority>),
    /// `empty row: ...`
    EmptyRow(Option<(RowTest, Award)>),
    /// `singletons: ...`
    Singletons(Option<Award>),
    /// `no capture for: n moves, award`
    Quiet(u32, Award),
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
    /// `winner: ...`
    Winner(Scoring),
    /// `order: ...`: the end rules tried first after a move, first deciding.
    Order(Vec<EndCheck>),
}

/// A rule of the `match` block.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchRule {
    /// `refill: n per hole`, or `refill: none` (`None`: every round starts from the layout)
    Refill(Option<u16>),
    /// `unfilled holes: closed` (`true`) or `open`
    UnfilledClosed(bool),
    /// `surplus: ...`
    Surplus(Surplus),
    /// `territory: ...`
    Territory(Territory),
    /// `refill from: last hole` (`true`) or `first hole`
    RefillFromLast(bool),
    /// `filled: as many as the poorer`
    Mirrored,
    /// `leftover hole: to the larger remainder`, and whether `a tie to the poorer` follows
    LeftoverHole(bool),
    /// `starter: round winner` ...
    Starter(Starter),
    /// `lose below: n`
    LoseBelow(u16),
    /// `round cap: n`
    RoundCap(u16),
    /// `first to: n rounds`
    FirstTo(u16),
    /// `winner: most seeds | most rounds`
    Winner(MatchScoring),
    /// `from round n: last seeds award`
    FromRound(u16, Award),
}

/// A test of a count, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum CountSpec {
    /// `is 2, 4 or 6`, and `or at least n`
    Is(Vec<u16>, Option<u16>),
    /// `is 2 to 5`
    Range(u16, u16),
    /// `at least n`
    AtLeast(u16),
    /// `at most n`
    AtMost(u16),
    /// `is even`
    Even,
    /// `is odd`
    Odd,
}

/// A test in a condition, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// `count ...`
    Count(CountSpec),
    /// `opposite count ...`
    OppositeCount(CountSpec),
    /// `next count ...`
    NextCount(CountSpec),
    /// `next empty`
    NextEmpty,
    /// `next occupied`
    NextOccupied,
    /// `opposite equal`
    OppositeEqual,
    /// `end hole`
    EndHole,
    /// `not last hole`
    NotLastHole,
    /// `first hole`
    FirstHole,
    /// `last hole`
    LastHole,
    /// `not first hole`
    NotFirstHole,
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

/// A rule as a block holds it: its key names it in messages and reading marks.
pub trait Keyed {
    /// The rule's key as written (`holes`, `last seeds`, `from round 3`, ...). Within a block,
    /// a later rule with the same key replaces an earlier one.
    fn key(&self) -> String;
}

impl Keyed for BoardRule {
    fn key(&self) -> String {
        match self {
            BoardRule::Holes(_) => "holes",
            BoardRule::Seeds(_) => "seeds",
            BoardRule::Stores(_) => "stores",
            BoardRule::Starter(_) => "starter",
        }
        .into()
    }
}

impl Keyed for SowingRule {
    fn key(&self) -> String {
        match self {
            SowingRule::Direction(_) => "direction",
            SowingRule::LapStart(_) => "laps start",
            SowingRule::SkipOrigin(_) => "skip origin",
            SowingRule::Relay(_) => "relay",
            SowingRule::StoreTurn(_) => "extra turn",
            SowingRule::DropCap(_) => "drop cap",
            SowingRule::SkipHoles(..) => "skip holes",
            SowingRule::MinSeeds(..) => "min seeds",
            SowingRule::Ring(_) => "ring",
            SowingRule::PlayFrom(_) => "play from",
            SowingRule::FirstMove(..) => "first move",
            SowingRule::Opening(_) => "opening",
            SowingRule::MoveFilter(_) => "first lap",
            SowingRule::OpponentAfterRound => "after a round",
            SowingRule::LockPlayed => "locked",
            SowingRule::BearOff(_) => "bear off",
        }
        .into()
    }
}

impl Keyed for CaptureRule {
    fn key(&self) -> String {
        match self {
            CaptureRule::On(_) => "on",
            CaptureRule::If(_) => "if",
            CaptureRule::Take(_) => "take",
            CaptureRule::To(_) => "to",
            CaptureRule::Then(_) => "then",
            CaptureRule::GrandSlam(_) => "grand slam",
            CaptureRule::FromMove(_) => "from move",
        }
        .into()
    }
}

impl Keyed for HouseRule {
    fn key(&self) -> String {
        match self {
            HouseRule::On(_) => "on",
            HouseRule::If(_) => "if",
            HouseRule::To(_) => "to",
            HouseRule::Limit(_) => "limit",
            HouseRule::NotMatching => "not matching",
            HouseRule::Contents(_) => "contents",
            HouseRule::Sown(_) => "sown",
            HouseRule::Then(_) => "then",
            HouseRule::Raided(_) => "raided",
        }
        .into()
    }
}

impl Keyed for FeedingRule {
    fn key(&self) -> String {
        match self {
            FeedingRule::Duty(_) => "duty",
            FeedingRule::Judged(_) => "judged",
            FeedingRule::Unfeedable(_) => "unfeedable",
        }
        .into()
    }
}

impl Keyed for EndRule {
    fn key(&self) -> String {
        match self {
            EndRule::LastSeeds(_) => "last seeds",
            EndRule::Majority(_) => "majority",
            EndRule::EmptyRow(_) => "empty row",
            EndRule::Singletons(_) => "singletons",
            EndRule::Quiet(..) => "no capture for",
            EndRule::NoMove(_) => "no move",
            EndRule::MoveCap(..) => "move cap",
            EndRule::Repetition(..) => "repetition",
            EndRule::UnfinishedDraw(_) => "unfinished",
            EndRule::Endless(_) => "endless moves",
            EndRule::Winner(_) => "winner",
            EndRule::Order(_) => "order",
        }
        .into()
    }
}

impl Keyed for MatchRule {
    fn key(&self) -> String {
        match self {
            MatchRule::FromRound(round, _) => return format!("from round {round}"),
            MatchRule::Refill(_) => "refill",
            MatchRule::UnfilledClosed(_) => "unfilled holes",
            MatchRule::Surplus(_) => "surplus",
            MatchRule::Territory(_) => "territory",
            MatchRule::RefillFromLast(_) => "refill from",
            MatchRule::Mirrored => "filled",
            MatchRule::LeftoverHole(_) => "leftover hole",
            MatchRule::Starter(_) => "starter",
            MatchRule::LoseBelow(_) => "lose below",
            MatchRule::RoundCap(_) => "round cap",
            MatchRule::FirstTo(_) => "first to",
            MatchRule::Winner(_) => "winner",
        }
        .into()
    }
}
