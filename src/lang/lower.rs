//! Syntax trees (a file and the files it extends) → one checked rule program. Collects every
//! error instead of stopping at the first.
//!
//! Overriding is generic (a later layer's rule replaces an earlier one with the same key);
//! lowering is not: each block's rules are matched exhaustively, so a rule added to the syntax
//! tree is a compile error here until it is lowered.

use std::collections::{BTreeMap, BTreeSet};

use super::ast::{
    self, BlockKind, BoardRule, CaptureRule, EndRule, FeedingRule, Item, Keyed, MatchRule, Seeds,
    Skip, SowingRule, Taken, Test,
};
use super::diagnostic::{suggest, CompileError, CompileErrorKind};
use crate::rules::{
    Award, BoardRules, Capture, Carry, Condition, CountTest, Direction, Effect, Ending, Endless,
    FeedJudged, Feeding, GrandSlam, LapStart, LastSeeds, MatchRules, MatchScoring, NoMove,
    OppositeTest, OriginSkip, Program, Provenance, ReadingMark, Recipient, RoundRule, Rules,
    Scoring, Side, SideTest, Sowing, Starter, Stores, Surplus, Target, Territory, Trigger,
    MAX_HOLES_PER_ROW,
};
use crate::source::{SourceFile, Span};

/// One parsed file, parents before children; the last layer may be the `--set` overrides.
pub struct Layer {
    /// The file.
    pub file: SourceFile,
    /// Its tree.
    pub tree: ast::File,
}

/// The provenance fields a `game` block may hold.
pub const ABOUT_KEYS: [&str; 8] = [
    "aliases",
    "region",
    "people",
    "recorded",
    "source",
    "reconstruction",
    "contrast",
    "note",
];

/// The highest reading number in `readings.md`.
const LAST_READING: u8 = 16;

/// A rule as it stands after overriding, with the layer it came from.
struct At<'a, R> {
    layer: usize,
    item: &'a Item<R>,
}

impl<R> Clone for At<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for At<'_, R> {}

impl<'a, R> At<'a, R> {
    fn rule(&self) -> &'a R {
        &self.item.rule
    }
}

/// The rules of one block, by key; a later layer replaces an earlier one's rule.
struct Slots<'a, R> {
    rules: BTreeMap<String, At<'a, R>>,
}

impl<R> Default for Slots<'_, R> {
    fn default() -> Self {
        Slots {
            rules: BTreeMap::new(),
        }
    }
}

impl<'a, R> Slots<'a, R> {
    fn values(&self) -> Vec<At<'a, R>> {
        self.rules.values().copied().collect()
    }
}

/// Where a rule was first given in a layer, by (block, key), to report a second one.
type Seen = BTreeMap<(String, String), Span>;

struct Lowering<'a> {
    layers: &'a [Layer],
    errors: Vec<CompileError>,
    name: Option<String>,
    about: Vec<(String, Vec<String>)>,
    board: Slots<'a, BoardRule>,
    sowing: Slots<'a, SowingRule>,
    feeding: Option<Slots<'a, FeedingRule>>,
    end: Slots<'a, EndRule>,
    matches: Option<Slots<'a, MatchRule>>,
    captures: Vec<(String, Slots<'a, CaptureRule>)>,
}

/// Lowers the layers into rules.
///
/// # Errors
/// Every problem found, each pointing at the rule it concerns.
pub fn lower(layers: &[Layer]) -> Result<Rules, Vec<CompileError>> {
    let mut lowering = Lowering {
        layers,
        errors: Vec::new(),
        name: None,
        about: Vec::new(),
        board: Slots::default(),
        sowing: Slots::default(),
        feeding: None,
        end: Slots::default(),
        matches: None,
        captures: Vec::new(),
    };
    for layer in 0..layers.len() {
        lowering.merge(layer);
    }
    let program = lowering.program();
    let readings = lowering.readings();
    if !lowering.errors.is_empty() {
        return Err(lowering.errors);
    }
    let provenance = Provenance {
        name: lowering.name.unwrap_or_else(|| "unnamed variant".into()),
        files: layers
            .iter()
            .rev()
            .filter(|l| !l.file.name.starts_with("--"))
            .map(|l| l.file.name.clone())
            .collect(),
        fields: lowering.about,
    };
    Ok(Rules::new(provenance, readings, program))
}

impl<'a> Lowering<'a> {
    fn error(&mut self, layer: usize, span: Span, kind: CompileErrorKind) {
        let file = self.layers[layer].file.clone();
        self.errors.push(CompileError {
            file,
            span,
            kind,
            related: None,
        });
    }

    fn error_at<R>(&mut self, at: At<'a, R>, kind: CompileErrorKind) {
        self.error(at.layer, at.item.span, kind);
    }

    /// Applies one layer's blocks over what the layers before it said.
    fn merge(&mut self, layer: usize) {
        let layers: &'a [Layer] = self.layers;
        let tree = &layers[layer].tree;
        let mut seen = Seen::new();
        let mut about_seen = BTreeSet::new();
        let mut captures_here = BTreeSet::new();
        for block in &tree.blocks {
            match &block.kind {
                BlockKind::Game { name, fields } => {
                    self.name = Some(name.clone());
                    for field in fields {
                        let key = &field.rule.key;
                        if !ABOUT_KEYS.contains(&key.as_str()) {
                            let suggestion = suggest(key, ABOUT_KEYS);
                            let kind = CompileErrorKind::UnknownField {
                                key: key.clone(),
                                suggestion,
                            };
                            self.error(layer, field.span, kind);
                        }
                        // A file's first line of a field replaces what its parents said;
                        // provenance fields may repeat (several notes).
                        if about_seen.insert(key.clone()) {
                            self.about.retain(|(k, _)| k != key);
                        }
                        self.about.push((key.clone(), field.rule.texts.clone()));
                    }
                }
                BlockKind::NoCapture(name) => {
                    let before = self.captures.len();
                    self.captures.retain(|(n, _)| n != name);
                    if self.captures.len() == before {
                        let kind = CompileErrorKind::NoSuchCapture { name: name.clone() };
                        self.error(layer, block.span, kind);
                    }
                }
                BlockKind::NoFeeding => self.feeding = None,
                BlockKind::NoMatch => self.matches = None,
                BlockKind::Board(items) => {
                    let slots = &mut self.board;
                    place(
                        &mut self.errors,
                        self.layers,
                        layer,
                        &mut seen,
                        "board",
                        items,
                        slots,
                    );
                }
                BlockKind::Sowing(items) => {
                    let slots = &mut self.sowing;
                    place(
                        &mut self.errors,
                        self.layers,
                        layer,
                        &mut seen,
                        "sowing",
                        items,
                        slots,
                    );
                }
                BlockKind::Feeding(items) => {
                    let slots = self.feeding.get_or_insert_with(Slots::default);
                    place(
                        &mut self.errors,
                        self.layers,
                        layer,
                        &mut seen,
                        "feeding",
                        items,
                        slots,
                    );
                }
                BlockKind::End(items) => {
                    let slots = &mut self.end;
                    place(
                        &mut self.errors,
                        self.layers,
                        layer,
                        &mut seen,
                        "end",
                        items,
                        slots,
                    );
                }
                BlockKind::Match(items) => {
                    let slots = self.matches.get_or_insert_with(Slots::default);
                    place(
                        &mut self.errors,
                        self.layers,
                        layer,
                        &mut seen,
                        "match",
                        items,
                        slots,
                    );
                }
                BlockKind::Capture { name, rules } => {
                    // A capture given again replaces the inherited one whole, in its place; a
                    // second block of the same name in one file adds to the first.
                    let slots = match self.captures.iter().position(|(n, _)| n == name) {
                        Some(i) => {
                            if captures_here.insert(name.clone()) {
                                self.captures[i].1 = Slots::default();
                            }
                            &mut self.captures[i].1
                        }
                        None => {
                            captures_here.insert(name.clone());
                            self.captures.push((name.clone(), Slots::default()));
                            &mut self.captures.last_mut().expect("just pushed").1
                        }
                    };
                    let block_name = format!("capture {name}");
                    place(
                        &mut self.errors,
                        self.layers,
                        layer,
                        &mut seen,
                        &block_name,
                        rules,
                        slots,
                    );
                }
            }
        }
    }

    fn readings(&mut self) -> Vec<ReadingMark> {
        let mut marks = Vec::new();
        let mut bad = Vec::new();
        visit("board", &self.board, &mut marks, &mut bad);
        visit("sowing", &self.sowing, &mut marks, &mut bad);
        for (name, slots) in &self.captures {
            visit(&format!("capture \"{name}\""), slots, &mut marks, &mut bad);
        }
        if let Some(slots) = &self.feeding {
            visit("feeding", slots, &mut marks, &mut bad);
        }
        visit("end", &self.end, &mut marks, &mut bad);
        if let Some(slots) = &self.matches {
            visit("match", slots, &mut marks, &mut bad);
        }
        for (layer, reading) in bad {
            let kind = CompileErrorKind::UnknownReading {
                number: u32::from(reading.value),
            };
            self.error(layer, reading.span, kind);
        }
        marks
    }

    fn program(&mut self) -> Program {
        let board = self.board_rules();
        let total: u32 = board.layout.iter().map(|&n| u32::from(n)).sum();
        let sowing = self.sowing_rules(&board, total);
        let captures = self.capture_rules(total);
        let feeding = self.feeding_rules();
        let ending = self.end_rules(total);
        let matches = self.match_rules(total, ending.last_seeds.is_some());
        Program {
            board,
            sowing,
            captures,
            feeding,
            ending,
            matches,
        }
    }

    fn board_rules(&mut self) -> BoardRules {
        let mut holes = 6;
        let mut seeds = None;
        let mut stores = Stores::None;
        let mut starter = Side::South;
        for at in self.board.values() {
            match at.rule() {
                BoardRule::Holes(n) => {
                    let max = MAX_HOLES_PER_ROW as u64;
                    holes = self
                        .in_range(at, "holes per row", u64::from(*n), 1, max)
                        .map_or(6, |n| n as u8);
                }
                BoardRule::Seeds(s) => seeds = Some((at, s)),
                BoardRule::Stores(s) => stores = *s,
                BoardRule::Starter(s) => starter = *s,
            }
        }
        let count = 2 * usize::from(holes);
        let layout = match seeds {
            None => vec![4; count],
            Some((at, Seeds::PerHole(n))) => {
                let n = self
                    .in_range(at, "seeds per hole", u64::from(*n), 1, 1000)
                    .map_or(4, |n| n as u16);
                vec![n; count]
            }
            Some((at, Seeds::Layout(counts))) if counts.len() != count => {
                let got = counts.len();
                self.error_at(at, CompileErrorKind::LayoutLength { holes: count, got });
                vec![4; count]
            }
            Some((at, Seeds::Layout(counts))) if counts.iter().all(|&c| c == 0) => {
                self.in_range(at, "seeds in the layout", 0, 1, 60_000);
                vec![4; count]
            }
            Some((_, Seeds::Layout(counts))) => counts.clone(),
        };
        let total: u64 = layout.iter().map(|&n| u64::from(n)).sum();
        if let Some((at, _)) = seeds {
            self.in_range(at, "seeds in the game", total, 1, 60_000);
        }
        BoardRules {
            holes_per_row: holes,
            layout,
            stores,
            starter,
        }
    }

    fn sowing_rules(&mut self, board: &BoardRules, total: u32) -> Sowing {
        let mut direction = Direction::Counterclockwise;
        let mut lap_start = LapStart::NextHole;
        let mut skip = None;
        let mut relay = None;
        let mut store_extra_turn = false;
        let mut drop_cap = 1_000_000;
        for at in self.sowing.values() {
            match at.rule() {
                SowingRule::Direction(d) => direction = *d,
                SowingRule::LapStart(l) => lap_start = *l,
                SowingRule::SkipOrigin(s) => skip = Some((at, *s)),
                SowingRule::Relay(condition) => {
                    relay = condition
                        .as_ref()
                        .map(|c| self.condition(at.layer, c, total));
                }
                SowingRule::StoreTurn(turn) => {
                    store_extra_turn = *turn;
                    if *turn && board.stores != Stores::Sown {
                        let kind = CompileErrorKind::Needs {
                            rule: "extra turn: in own store",
                            needs: "`stores: sown`",
                        };
                        self.error_at(at, kind);
                    }
                }
                SowingRule::DropCap(n) => {
                    let max = u64::from(u32::MAX);
                    drop_cap = self
                        .in_range(at, "the drop cap", u64::from(*n), 100, max)
                        .map_or(1_000_000, |n| n as u32);
                }
            }
        }
        // Positions a lap can visit: the holes, and the mover's store when stores are sown.
        let ring = 2 * u16::from(board.holes_per_row) + u16::from(board.stores == Stores::Sown);
        let origin_skip = match skip {
            None | Some((_, Skip::Never)) => OriginSkip::Never,
            Some((at, Skip::From(from, laps))) => {
                if lap_start == LapStart::LiftedHole {
                    let kind = CompileErrorKind::Needs {
                        rule: "skip origin",
                        needs: "`laps start: next hole`",
                    };
                    self.error_at(at, kind);
                }
                // A lap of fewer seeds than positions never comes back to its origin, so any
                // threshold up to the ring's length is the same rule as "always" (R6).
                let from = from.unwrap_or(1);
                OriginSkip::FromSeeds(if from <= ring { 1 } else { from }, laps)
            }
        };
        Sowing {
            direction,
            lap_start,
            origin_skip,
            relay,
            store_extra_turn,
            drop_cap,
        }
    }

    fn capture_rules(&mut self, total: u32) -> Vec<Capture> {
        let captures = std::mem::take(&mut self.captures);
        let mut out = Vec::new();
        for (name, slots) in &captures {
            let mut trigger = None;
            let mut condition = Condition::ALWAYS;
            let mut target = Target {
                opposite: false,
                with_capturing_seed: false,
                chain: None,
            };
            let mut recipient = Recipient::Mover;
            let mut effect = None;
            let mut grand_slam = GrandSlam::Captures;
            for at in slots.values() {
                match at.rule() {
                    CaptureRule::On(t) => trigger = Some(*t),
                    CaptureRule::If(c) => condition = self.condition(at.layer, c, total),
                    CaptureRule::Take(take) => {
                        target = Target {
                            opposite: take.taken != Taken::Hole,
                            with_capturing_seed: take.taken == Taken::OppositeWithSeed,
                            chain: take
                                .chain
                                .as_ref()
                                .map(|c| self.condition(at.layer, c, total)),
                        }
                    }
                    CaptureRule::To(r) => recipient = *r,
                    CaptureRule::Then(e) => effect = Some((at, *e)),
                    CaptureRule::GrandSlam(g) => grand_slam = *g,
                }
            }
            // A capture without `on:` is reported, and its other rules are still checked.
            let Some(trigger) = trigger else {
                let (layer, span) = self.capture_header(name);
                let kind = CompileErrorKind::MissingRule {
                    name: name.clone(),
                    key: "on",
                };
                self.error(layer, span, kind);
                continue;
            };
            let passing = matches!(trigger, Trigger::PassingDrop | Trigger::EveryDrop);
            let effect = match effect {
                Some((at, e)) => {
                    if passing && e != Effect::Continue {
                        let words = if trigger == Trigger::EveryDrop {
                            "every drop"
                        } else {
                            "a passing drop"
                        };
                        self.error_at(at, CompileErrorKind::EndsMidLap { trigger: words });
                    }
                    e
                }
                None if passing => Effect::Continue,
                None => Effect::EndSowing,
            };
            out.push(Capture {
                name: name.clone(),
                trigger,
                condition,
                target,
                recipient,
                effect,
                grand_slam,
            });
        }
        self.captures = captures;
        out
    }

    /// The header of the block that (last) defines capture `name`.
    fn capture_header(&self, name: &str) -> (usize, Span) {
        for (layer, l) in self.layers.iter().enumerate().rev() {
            for block in &l.tree.blocks {
                if matches!(&block.kind, BlockKind::Capture { name: n, .. } if n == name) {
                    return (layer, block.span);
                }
            }
        }
        (0, Span::default())
    }

    fn feeding_rules(&mut self) -> Option<Feeding> {
        let slots = self.feeding.as_ref()?;
        let mut feeding = Feeding {
            judged: FeedJudged::AfterMove,
            unfeedable: Award::PlayerToMove,
        };
        for at in slots.values() {
            match at.rule() {
                FeedingRule::Judged(j) => feeding.judged = *j,
                FeedingRule::Unfeedable(a) => feeding.unfeedable = *a,
            }
        }
        Some(feeding)
    }

    fn end_rules(&mut self, total: u32) -> Ending {
        let mut ending = Ending {
            last_seeds: None,
            majority: None,
            empty_row: None,
            no_move: NoMove::Pass,
            move_cap: 2000,
            cap_award: Award::Owners,
            repetition: 3,
            repetition_award: Award::Owners,
            unfinished_is_draw: false,
            endless: Endless::Illegal,
            scoring: Scoring::MostCaptured,
        };
        for at in self.end.values() {
            match at.rule() {
                EndRule::LastSeeds(None) => ending.last_seeds = None,
                EndRule::LastSeeds(Some(rule)) => {
                    let most = u64::from(total.saturating_sub(1));
                    let what = "the last-seeds count";
                    self.in_range(at, what, u64::from(rule.at_most), 1, most);
                    if rule.to == Award::PreviousWinner && self.matches.is_none() {
                        let kind = CompileErrorKind::Needs {
                            rule: "to previous winner",
                            needs: "a `match` block: only a match has a previous round",
                        };
                        self.error_at(at, kind);
                    }
                    ending.last_seeds = Some(LastSeeds {
                        at_most: rule.at_most,
                        check: rule.check,
                        to: rule.to,
                    });
                }
                EndRule::Majority(a) => ending.majority = *a,
                EndRule::EmptyRow(a) => ending.empty_row = *a,
                EndRule::NoMove(a) => ending.no_move = a.map_or(NoMove::Pass, NoMove::EndGame),
                EndRule::MoveCap(n, a) => {
                    ending.move_cap = self
                        .in_range(at, "the move cap", u64::from(*n), 1, 10_000_000)
                        .map_or(2000, |n| n as u32);
                    ending.cap_award = *a;
                }
                EndRule::Repetition(n, a) => {
                    ending.repetition = self
                        .in_range(at, "the repetition count", u64::from(*n), 2, 1000)
                        .map_or(3, |n| n as u16);
                    ending.repetition_award = *a;
                }
                EndRule::UnfinishedDraw(draw) => ending.unfinished_is_draw = *draw,
                EndRule::Endless(e) => ending.endless = *e,
                EndRule::Winner => ending.scoring = Scoring::MostCaptured,
            }
        }
        ending
    }

    fn match_rules(&mut self, total: u32, last_seeds: bool) -> Option<MatchRules> {
        let slots = self.matches.take()?;
        let mut refill = Some(4);
        let mut close_unfilled = true;
        let mut surplus = Surplus::Reserve;
        let mut territory = Territory::Rows;
        // Rules that only make sense when rounds are refilled, to report under `refill: none`.
        let mut refill_only = Vec::new();
        let mut rules = MatchRules {
            carry: Carry::Fresh,
            starter: Starter::RoundWinner,
            lose_below: 4,
            round_cap: 50,
            first_to: None,
            scoring: MatchScoring::Seeds,
            round_rules: Vec::new(),
        };
        let mut from_rounds = Vec::new();
        let mut first_to = None;
        for at in slots.values() {
            match at.rule() {
                MatchRule::Refill(None) => refill = None,
                MatchRule::Refill(Some(n)) => {
                    let most = u64::from(total);
                    refill = Some(
                        self.in_range(at, "seeds per refilled hole", u64::from(*n), 1, most)
                            .map_or(4, |n| n as u16),
                    );
                }
                MatchRule::UnfilledClosed(closed) => {
                    close_unfilled = *closed;
                    refill_only.push((at.layer, at.item.span, "unfilled holes"));
                }
                MatchRule::Surplus(s) => {
                    surplus = *s;
                    refill_only.push((at.layer, at.item.span, "surplus"));
                }
                MatchRule::Territory(t) => {
                    territory = *t;
                    refill_only.push((at.layer, at.item.span, "territory"));
                }
                MatchRule::Starter(s) => rules.starter = *s,
                MatchRule::LoseBelow(n) => {
                    let most = u64::from(total);
                    rules.lose_below = self
                        .in_range(at, "the losing total", u64::from(*n), 0, most)
                        .map_or(4, |n| n as u16);
                    refill_only.push((at.layer, at.item.span, "lose below"));
                }
                MatchRule::RoundCap(n) => {
                    rules.round_cap = self
                        .in_range(at, "the round cap", u64::from(*n), 1, 10_000)
                        .map_or(50, |n| n as u16);
                }
                MatchRule::FirstTo(n) => first_to = Some((at, *n)),
                MatchRule::Winner(scoring) => rules.scoring = *scoring,
                MatchRule::FromRound(round, award) => from_rounds.push((at, *round, *award)),
            }
        }
        rules.carry = match refill {
            Some(per_hole) => Carry::Refill {
                per_hole,
                close_unfilled,
                surplus,
                territory,
            },
            None => {
                // Rounds that start afresh carry nothing, so no one can run short.
                rules.lose_below = 0;
                for (layer, span, rule) in refill_only {
                    let kind = CompileErrorKind::Needs {
                        rule,
                        needs: "`refill: N per hole` (rounds here start from the layout)",
                    };
                    self.error(layer, span, kind);
                }
                Carry::Fresh
            }
        };
        // Checked once the round cap is known, whatever the order the rules were given in.
        let cap = u64::from(rules.round_cap);
        if let Some((at, n)) = first_to {
            rules.first_to = self
                .in_range(at, "the rounds to win", u64::from(n), 1, cap)
                .map(|n| n as u16);
        }
        for (at, round, award) in from_rounds {
            self.in_range(at, "the round", u64::from(round), 1, cap);
            if !last_seeds {
                let kind = CompileErrorKind::Needs {
                    rule: "from round n: last seeds",
                    needs: "a `last seeds` rule in the `end` block",
                };
                self.error_at(at, kind);
            }
            rules.round_rules.push(RoundRule {
                from_round: round,
                last_seeds_to: award,
            });
        }
        rules.round_rules.sort_by_key(|r| r.from_round);
        self.matches = Some(slots);
        Some(rules)
    }

    fn in_range<R>(
        &mut self,
        at: At<'a, R>,
        what: &'static str,
        got: u64,
        min: u64,
        max: u64,
    ) -> Option<u64> {
        if (min..=max).contains(&got) {
            Some(got)
        } else {
            let kind = CompileErrorKind::OutOfRange {
                what,
                min,
                max,
                got,
            };
            self.error_at(at, kind);
            None
        }
    }

    /// Lowers the tests of a condition, checking each against the others and the seed total.
    fn condition(&mut self, layer: usize, tests: &ast::Condition, total: u32) -> Condition {
        let mut condition = Condition::ALWAYS;
        let mut sides: Option<(SideTest, &str)> = None;
        let mut opposite: Option<(OppositeTest, &str)> = None;
        // The count tests so far, as written, to name them in a contradiction.
        let mut count_tests: Vec<String> = Vec::new();
        for test in tests {
            let report = |this: &mut Self, kind| this.error(layer, test.span, kind);
            let errors_before = self.errors.len();
            let written = &self.layers[layer].file.text[test.span.start..test.span.end];
            let impossible = |count: u16| CompileErrorKind::ImpossibleCount {
                count: u32::from(count),
                total,
            };
            let count = match &test.value {
                Test::CountIs(counts) => {
                    for &c in counts {
                        if u32::from(c) > total {
                            report(self, impossible(c));
                        } else if c >= 64 {
                            let kind = CompileErrorKind::OutOfRange {
                                what: "an exact count",
                                min: 0,
                                max: 63,
                                got: u64::from(c),
                            };
                            report(self, kind);
                        }
                    }
                    CountTest::exactly(counts)
                }
                Test::CountAtLeast(n) => {
                    if u32::from(*n) > total {
                        report(self, impossible(*n));
                    }
                    CountTest::at_least(*n)
                }
                Test::CountAtMost(n) => {
                    if *n >= 64 {
                        let kind = CompileErrorKind::OutOfRange {
                            what: "an upper count",
                            min: 0,
                            max: 63,
                            got: u64::from(*n),
                        };
                        report(self, kind);
                    }
                    CountTest::at_most(*n)
                }
                Test::WasEmpty => CountTest::exactly(&[1]),
                Test::Occupied => CountTest::at_least(2),
                Test::OwnSide | Test::OpponentSide => {
                    let (side, word) = if test.value == Test::OwnSide {
                        (SideTest::Own, "own side")
                    } else {
                        (SideTest::Opponent, "opponent side")
                    };
                    if let Some((other, other_word)) = sides {
                        if other != side {
                            let why = format!("`{other_word}` and `{word}`");
                            report(self, CompileErrorKind::Contradiction { why });
                        }
                    }
                    sides = Some((side, word));
                    condition.side = side;
                    continue;
                }
                Test::OppositeEmpty | Test::OppositeOccupied => {
                    let (test_kind, word) = if test.value == Test::OppositeEmpty {
                        (OppositeTest::Empty, "opposite empty")
                    } else {
                        (OppositeTest::Occupied, "opposite occupied")
                    };
                    if let Some((other, other_word)) = opposite {
                        if other != test_kind {
                            let why = format!("`{other_word}` and `{word}`");
                            report(self, CompileErrorKind::Contradiction { why });
                        }
                    }
                    opposite = Some((test_kind, word));
                    condition.opposite = test_kind;
                    continue;
                }
            };
            condition.count = condition.count.and(count);
            // A count already reported as impossible is not a contradiction as well.
            count_tests.push(format!("`{written}`"));
            if condition.count.is_empty() && self.errors.len() == errors_before {
                let why = format!("no count meets {} at once", count_tests.join(" and "));
                report(self, CompileErrorKind::Contradiction { why });
                condition.count = CountTest::ANY;
            }
        }
        condition
    }
}

/// Puts one block's rules of `layer` into `slots`, over what earlier layers said, reporting a
/// rule given twice in the layer.
fn place<'a, R: Keyed>(
    errors: &mut Vec<CompileError>,
    layers: &[Layer],
    layer: usize,
    seen: &mut Seen,
    block: &str,
    items: &'a [Item<R>],
    slots: &mut Slots<'a, R>,
) {
    for item in items {
        let key = item.rule.key();
        if let Some(first) = seen.insert((block.to_string(), key.clone()), item.span) {
            errors.push(CompileError {
                file: layers[layer].file.clone(),
                span: item.span,
                kind: CompileErrorKind::Duplicate { key: key.clone() },
                related: Some((first, "first given here")),
            });
        }
        slots.rules.insert(key, At { layer, item });
    }
}

/// Collects the reading marks of one block's rules; unknown reading numbers go to `bad`.
fn visit<R: Keyed>(
    block: &str,
    slots: &Slots<'_, R>,
    marks: &mut Vec<ReadingMark>,
    bad: &mut Vec<(usize, ast::Spanned<u16>)>,
) {
    for (key, at) in &slots.rules {
        for reading in &at.item.readings {
            match u8::try_from(reading.value) {
                Ok(number @ 1..=LAST_READING) => marks.push(ReadingMark {
                    number,
                    rule: format!("{block}.{key}"),
                }),
                _ => bad.push((at.layer, reading.clone())),
            }
        }
    }
}
