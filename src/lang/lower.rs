//! Syntax trees (a file and the files it extends) → one checked rule program. Collects every
//! error instead of stopping at the first.
//!
//! Overriding is generic (a later layer's rule replaces an earlier one with the same key);
//! lowering is not: each block's rules are matched exhaustively, so a rule added to the syntax
//! tree is a compile error here until it is lowered.

use std::collections::{BTreeMap, BTreeSet};

use super::ast::{
    self, BlockKind, BoardRule, CaptureRule, CountSpec, EndRule, FeedingRule, HouseRule, Item,
    Keyed, MatchRule, Seeds, Skip, SowingRule, Spanned, Taken, Test,
};
use super::diagnostic::{suggest, CompileError, CompileErrorKind};
use crate::rules::{
    self, Award, Base, BoardRules, Capture, Carry, Chain, Condition, CountTest, Declared,
    DirectionRule, Effect, EndCheck, Ending, Endless, FeedDuty, FeedJudged, Feeding, FirstMove,
    GrandSlam, HouseContents, HouseRule as House, HouseSown, LapStart, LastSeeds, LastSeedsCheck,
    MatchRules, MatchScoring, NoMove, OriginSkip, PlaceTest, Program, Provenance, ReadingMark,
    Recipient, Refill, Relay, Ring, RoundRule, Rules, Scoring, Side, SideTest, SkipHoles, Sowing,
    Starter, Stores, Surplus, Target, Territory, Trigger, Unfeedable, MAX_HOLES_PER_ROW,
};
use crate::source::{SourceFile, Span};

/// One parsed file, parents before children; then any alternatives chosen, and last the
/// `--set` overrides.
#[derive(Clone)]
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

/// The highest shipped reading number (`docs/readings.md`); a file numbers its own after it.
pub const LAST_SHIPPED_READING: u16 = 16;

/// Exact counts and the ends of count ranges must be below this.
const EXACT_COUNTS: u16 = 64;

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

/// Named blocks (captures, houses) in file order; one given again replaces the inherited one
/// whole, in its place.
type Named<'a, R> = Vec<(String, Slots<'a, R>)>;

/// Where a rule was first given in a layer, by (block, key), to report a second one.
type Seen = BTreeMap<(String, String), Span>;

struct Lowering<'a> {
    layers: &'a [Layer],
    errors: Vec<CompileError>,
    name: Option<String>,
    about: Vec<(String, Vec<String>)>,
    /// Readings declared by the files (R17 onwards): what each says, and the file.
    declared: BTreeMap<u16, Declared>,
    board: Slots<'a, BoardRule>,
    sowing: Slots<'a, SowingRule>,
    feeding: Option<Slots<'a, FeedingRule>>,
    end: Slots<'a, EndRule>,
    matches: Option<Slots<'a, MatchRule>>,
    captures: Named<'a, CaptureRule>,
    houses: Named<'a, HouseRule>,
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
        declared: BTreeMap::new(),
        board: Slots::default(),
        sowing: Slots::default(),
        feeding: None,
        end: Slots::default(),
        matches: None,
        captures: Vec::new(),
        houses: Vec::new(),
    };
    for layer in 0..layers.len() {
        lowering.merge(layer);
    }
    let program = lowering.program();
    let readings = lowering.readings(&program);
    if !lowering.errors.is_empty() {
        return Err(lowering.errors);
    }
    let provenance = Provenance {
        name: lowering.name.unwrap_or_else(|| "unnamed variant".into()),
        files: {
            let mut files: Vec<String> = Vec::new();
            for l in layers
                .iter()
                .rev()
                .filter(|l| !l.file.name.starts_with("--"))
            {
                if !files.contains(&l.file.name) {
                    files.push(l.file.name.clone());
                }
            }
            files
        },
        fields: lowering.about,
    };
    let declared = lowering.declared.into_values().collect();
    Ok(Rules::new(provenance, readings, declared, program))
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
        let mut named_here = BTreeSet::new();
        for block in &tree.blocks {
            let errors = &mut self.errors;
            match &block.kind {
                BlockKind::Readings(declarations) => {
                    for d in declarations {
                        let number = d.value.number;
                        if number <= LAST_SHIPPED_READING {
                            self.error(layer, d.span, CompileErrorKind::ShippedReading { number });
                        } else {
                            let declared = Declared {
                                number,
                                text: d.value.text.clone(),
                                file: layers[layer].file.name.clone(),
                            };
                            self.declared.insert(number, declared);
                        }
                    }
                }
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
                    if !remove(&mut self.captures, name) {
                        let kind = CompileErrorKind::NoSuchCapture { name: name.clone() };
                        self.error(layer, block.span, kind);
                    }
                }
                BlockKind::NoHouse(name) => {
                    if !remove(&mut self.houses, name) {
                        let kind = CompileErrorKind::NoSuchHouse { name: name.clone() };
                        self.error(layer, block.span, kind);
                    }
                }
                // Offered, not applied: `lang` makes a layer of one when it is chosen.
                BlockKind::Alternative { .. } => {}
                BlockKind::NoFeeding => self.feeding = None,
                BlockKind::NoMatch => self.matches = None,
                BlockKind::Board(items) => {
                    let slots = &mut self.board;
                    place(errors, layers, layer, &mut seen, "board", items, slots);
                }
                BlockKind::Sowing(items) => {
                    let slots = &mut self.sowing;
                    place(errors, layers, layer, &mut seen, "sowing", items, slots);
                }
                BlockKind::Feeding(items) => {
                    let slots = self.feeding.get_or_insert_with(Slots::default);
                    place(errors, layers, layer, &mut seen, "feeding", items, slots);
                }
                BlockKind::End(items) => {
                    let slots = &mut self.end;
                    place(errors, layers, layer, &mut seen, "end", items, slots);
                }
                BlockKind::Match(items) => {
                    let slots = self.matches.get_or_insert_with(Slots::default);
                    place(errors, layers, layer, &mut seen, "match", items, slots);
                }
                BlockKind::Capture { name, rules } => {
                    let here = format!("capture {name}");
                    let slots = named(&mut self.captures, &mut named_here, &here, name);
                    place(errors, layers, layer, &mut seen, &here, rules, slots);
                }
                BlockKind::House { name, rules } => {
                    let here = format!("house {name}");
                    let slots = named(&mut self.houses, &mut named_here, &here, name);
                    place(errors, layers, layer, &mut seen, &here, rules, slots);
                }
            }
        }
    }

    /// The reading marks of the rules, in block order, then the readings the language's
    /// defaults rest on where the file leaves the rule to them: the move cap and the
    /// repetition limit (R10), endless moves where laps relay (R11), and a match's round cap
    /// (R13).
    fn readings(&mut self, program: &Program) -> Vec<ReadingMark> {
        let mut marks = Vec::new();
        let mut bad = Vec::new();
        let mut visit = |block: &str, slots: &dyn Marks| slots.marks(block, &mut marks, &mut bad);
        visit("board", &self.board);
        visit("sowing", &self.sowing);
        for (name, slots) in &self.captures {
            visit(&format!("capture \"{name}\""), slots);
        }
        for (name, slots) in &self.houses {
            visit(&format!("house \"{name}\""), slots);
        }
        if let Some(slots) = &self.feeding {
            visit("feeding", slots);
        }
        visit("end", &self.end);
        if let Some(slots) = &self.matches {
            visit("match", slots);
        }
        marks.retain(|m: &ReadingMark| {
            m.number <= LAST_SHIPPED_READING || self.declared.contains_key(&m.number)
        });
        let relays = program.sowing.relay != Relay::Never;
        let mut defaults = vec![(10, "end", "move cap"), (10, "end", "repetition")];
        if relays {
            defaults.push((11, "end", "endless moves"));
        }
        if self.matches.is_some() {
            defaults.push((13, "match", "round cap"));
        }
        for (number, block, key) in defaults {
            let stated = match block {
                "end" => self.end.rules.contains_key(key),
                _ => self
                    .matches
                    .as_ref()
                    .is_some_and(|m| m.rules.contains_key(key)),
            };
            if !stated {
                marks.push(ReadingMark {
                    number,
                    rule: format!("{block}.{key}"),
                    default: true,
                });
            }
        }
        for (layer, reading) in bad {
            if reading.value > LAST_SHIPPED_READING && self.declared.contains_key(&reading.value) {
                continue;
            }
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
        let houses = self.house_rules(total);
        let feeding = self.feeding_rules();
        let ending = self.end_rules(total);
        let matches = self.match_rules(total, ending.last_seeds.is_some());
        Program {
            board,
            sowing,
            captures,
            houses,
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
        let mut sowing = Sowing {
            direction: DirectionRule::Fixed(rules::Direction::Counterclockwise),
            lap_start: LapStart::NextHole,
            origin_skip: OriginSkip::Never,
            relay: Relay::Never,
            store_extra_turn: false,
            drop_cap: 1_000_000,
            min_seeds: 1,
            min_seeds_waived: false,
            skip_holes: None,
            ring: Ring::Board,
            first_move: None,
            opening: Vec::new(),
            move_filter: None,
            opponent_after_round: false,
            lock_played: false,
            bear_off: None,
            any_hole: false,
        };
        let mut skip = None;
        let mut lifted = None;
        let mut opening = None;
        let mut bear_off = None;
        let mut ring_at = None;
        let row = u64::from(board.holes_per_row);
        for at in self.sowing.values() {
            match at.rule() {
                SowingRule::Direction(d) => sowing.direction = *d,
                SowingRule::LapStart(l) => {
                    sowing.lap_start = *l;
                    if *l != LapStart::NextHole {
                        lifted = Some(at);
                    }
                }
                SowingRule::SkipOrigin(s) => skip = Some((at, *s)),
                SowingRule::SkipHoles(spec) => {
                    let count = self.count(at.layer, &spec.count, total);
                    sowing.skip_holes = Some(SkipHoles {
                        count,
                        row: spec.row,
                        except_last: spec.except_last,
                        except_first_move: spec.except_first_move,
                    });
                }
                SowingRule::Relay(relay) => {
                    sowing.relay = match relay {
                        ast::Relay::Never => Relay::Never,
                        ast::Relay::NextHole => Relay::NextHole,
                        ast::Relay::When(c) => Relay::Landing(self.condition(at.layer, c, total)),
                    }
                }
                SowingRule::StoreTurn(turn) => {
                    sowing.store_extra_turn = *turn;
                    if *turn && !board.stores.sown() {
                        let kind = CompileErrorKind::Needs {
                            rule: "extra turn: in own store",
                            needs: "`stores: sown`",
                        };
                        self.error_at(at, kind);
                    }
                }
                SowingRule::DropCap(n) => {
                    let max = u64::from(u32::MAX);
                    sowing.drop_cap = self
                        .in_range(at, "the drop cap", u64::from(*n), 100, max)
                        .map_or(1_000_000, |n| n as u32);
                }
                SowingRule::MinSeeds(n, waived) => {
                    let most = u64::from(total);
                    sowing.min_seeds = self
                        .in_range(at, "min seeds", u64::from(*n), 1, most)
                        .map_or(1, |n| n as u16);
                    sowing.min_seeds_waived = *waived;
                }
                SowingRule::PlayFrom(any) => sowing.any_hole = *any,
                SowingRule::Ring(r) => {
                    sowing.ring = *r;
                    ring_at = Some(at);
                }
                SowingRule::FirstMove(spec) => {
                    let what = "a hole of the row, counted from the player's left";
                    let mut places = 0u32;
                    for &(low, high) in &spec.places {
                        let from = self.in_range(at, what, u64::from(low), 1, row);
                        // A single place is checked once, so that it gives one error, not two.
                        let to = if high == low {
                            from
                        } else {
                            self.in_range(at, what, u64::from(high), 1, row)
                        };
                        if let (Some(from), Some(to)) = (from, to) {
                            if from > to {
                                let why = format!("no hole lies between {from} and {to}");
                                self.error_at(at, CompileErrorKind::Contradiction { why });
                            }
                            places |= (from..=to).fold(0, |m, p| m | 1 << (p - 1));
                        }
                    }
                    sowing.first_move = Some(FirstMove {
                        places,
                        game_only: spec.game_only,
                        last_seed_across: spec.last_seed_across,
                    });
                }
                SowingRule::Opening(holes) => opening = Some((at, holes)),
                SowingRule::MoveFilter(f) => sowing.move_filter = Some(*f),
                SowingRule::OpponentAfterRound => sowing.opponent_after_round = true,
                SowingRule::LockPlayed => sowing.lock_played = true,
                SowingRule::BearOff(n) => bear_off = Some((at, *n)),
            }
        }
        if let Some((at, most)) = bear_off {
            // No hole holding more than 0 is an empty board, where nobody moves.
            let what = "the most seeds a hole holds for bearing off";
            sowing.bear_off = self
                .in_range(at, what, u64::from(most), 1, u64::from(total))
                .map(|n| n as u16);
            // What bearing off replaces, a seed going on into the opponent's row, must happen.
            let clashes = [
                (
                    sowing.ring == Ring::OwnRow,
                    "under `ring: own row` no seed goes on into the opponent's row",
                ),
                (
                    board.stores.sown(),
                    "the stores are sown, so a seed past the end of the mover's row goes into their store",
                ),
            ];
            for (_, other) in clashes.into_iter().filter(|(clash, _)| *clash) {
                let kind = CompileErrorKind::Clash {
                    rule: "bear off",
                    other,
                };
                self.error_at(at, kind);
            }
        }
        // A lap round the mover's own row passes their store only.
        let own_row = sowing.ring == Ring::OwnRow;
        if let Some(at) = ring_at.filter(|_| own_row && board.stores == Stores::SownByBoth) {
            let kind = CompileErrorKind::Clash {
                rule: "ring",
                other: "the stores are sown by both players, but a lap round the mover's own row never reaches the opponent's store",
            };
            self.error_at(at, kind);
        }
        if let Some((at, holes)) = opening {
            // The prescribed moves alternate from the starter (none of them earns a turn
            // while the opening lasts: the engine plays them as given).
            let mut side = board.starter;
            for &hole in holes {
                let owned = match side {
                    Side::South => u64::from(hole) < row,
                    Side::North => (row..2 * row).contains(&u64::from(hole)),
                };
                if !owned {
                    let kind = CompileErrorKind::OpeningHole {
                        hole,
                        side: side.name(),
                    };
                    self.error_at(at, kind);
                }
                side = side.other();
            }
            sowing.opening = holes.iter().map(|&h| h.min(255) as u8).collect();
        }
        // Positions a lap can visit: the holes of both rows, or of the mover's own under
        // `ring: own row`, and the mover's store when stores are sown.
        let rows = if own_row { 1 } else { 2 };
        let ring = rows * u16::from(board.holes_per_row) + u16::from(board.stores.sown());
        sowing.origin_skip = match skip {
            None | Some((_, Skip::Never)) => OriginSkip::Never,
            Some((at, Skip::From(from, laps))) => {
                if let Some(lifted) = lifted {
                    let kind = CompileErrorKind::Clash {
                        rule: "skip origin",
                        other:
                            "laps start in the lifted hole, so the sowing never comes round to it",
                    };
                    self.error_at(at, kind);
                    let kind = CompileErrorKind::Clash {
                        rule: "laps start",
                        other: "`skip origin` asks for the lifted hole to be passed over",
                    };
                    self.error_at(lifted, kind);
                }
                // A lap of fewer seeds than positions never comes back to its origin, so any
                // threshold up to the ring's length is the same rule as "always" (R6).
                let from = from.unwrap_or(1);
                OriginSkip::FromSeeds(if from <= ring { 1 } else { from }, laps)
            }
        };
        sowing
    }

    fn capture_rules(&mut self, total: u32) -> Vec<Capture> {
        let captures = std::mem::take(&mut self.captures);
        let mut out = Vec::new();
        for (name, slots) in &captures {
            let mut trigger = None;
            let mut condition = Condition::ALWAYS;
            let mut target = None;
            let mut recipient = Recipient::Mover;
            let mut effect = None;
            let mut grand_slam = GrandSlam::Captures;
            let mut from_move = 1;
            for at in slots.values() {
                match at.rule() {
                    CaptureRule::On(t) => trigger = Some(*t),
                    CaptureRule::If(c) => condition = self.condition(at.layer, c, total),
                    CaptureRule::Take(take) => target = Some((at, self.target(at, take, total))),
                    CaptureRule::To(r) => recipient = *r,
                    CaptureRule::Then(e) => effect = Some((at, *e)),
                    CaptureRule::GrandSlam(g) => grand_slam = *g,
                    CaptureRule::FromMove(n) => {
                        from_move = self
                            .in_range(
                                at,
                                "the first move a capture may be made on",
                                u64::from(*n),
                                1,
                                10_000_000,
                            )
                            .map_or(1, |n| n as u32);
                    }
                }
            }
            // A capture without `on:` is reported, and its other rules are still checked.
            let Some(trigger) = trigger else {
                let (layer, span) = self.header(name, true);
                let kind = CompileErrorKind::MissingRule {
                    block: "capture",
                    name: name.clone(),
                    key: "on",
                };
                self.error(layer, span, kind);
                continue;
            };
            let target_at = target.map(|(at, _)| at);
            let target = target.map_or(
                Target {
                    base: Base::Hole,
                    with_capturing_seed: false,
                    chain: None,
                },
                |(_, t)| t,
            );
            let passing = matches!(trigger, Trigger::PassingDrop | Trigger::EveryDrop);
            let effect = match effect {
                Some((at, e)) => {
                    self.check_effect(at, e, trigger, &target, target_at);
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
                from_move,
            });
        }
        self.captures = captures;
        out
    }

    /// A capture's effect against its trigger and target.
    fn check_effect(
        &mut self,
        at: At<'a, CaptureRule>,
        effect: Effect,
        trigger: Trigger,
        target: &Target,
        target_at: Option<At<'a, CaptureRule>>,
    ) {
        let passing = matches!(trigger, Trigger::PassingDrop | Trigger::EveryDrop);
        let ends = !matches!(effect, Effect::Continue | Effect::ContinueThenExtraTurn);
        if passing && ends {
            let words = if trigger == Trigger::EveryDrop {
                "every drop"
            } else {
                "a passing drop"
            };
            self.error_at(at, CompileErrorKind::EndsMidLap { trigger: words });
        }
        // The capturing seed moves on from the hole it fell into: the capture must leave it
        // there.
        let takes_the_seed = target.with_capturing_seed
            || matches!(
                target.base,
                Base::Hole | Base::HoleAndOpposite | Base::Every(_)
            );
        if effect == Effect::SeedMovesOn && takes_the_seed {
            let kind = CompileErrorKind::Clash {
                rule: "then: the capturing seed moves on",
                other: "the capture takes the capturing seed (take the opposite hole only)",
            };
            self.error_at(at, kind);
            if let Some(t) = target_at {
                let kind = CompileErrorKind::Clash {
                    rule: "take",
                    other: "`then: the capturing seed moves on` needs the seed left in its hole",
                };
                self.error_at(t, kind);
            }
        }
    }

    /// Lowers `take:`, checking the chain's limit.
    fn target(&mut self, at: At<'a, CaptureRule>, take: &ast::Take, total: u32) -> Target {
        let base = match &take.taken {
            Taken::Hole => Base::Hole,
            Taken::Opposite => Base::Opposite,
            Taken::HoleAndOpposite => Base::HoleAndOpposite,
            Taken::Next => Base::Next,
            Taken::AfterNext => Base::AfterNext,
            Taken::AfterNextAndOpposite => Base::AfterNextAndOpposite,
            Taken::OppositeOfNext => Base::OppositeOfNext,
            Taken::Every(c) => Base::Every(self.condition(at.layer, c, total)),
        };
        if take.with_seed && !matches!(base, Base::Opposite | Base::OppositeOfNext) {
            let kind = CompileErrorKind::Needs {
                rule: "and capturing seed",
                needs: "a capture from the opposite hole (the capturing seed is not in it)",
            };
            self.error_at(at, kind);
        }
        let chain = take.chain.as_ref().map(|c| {
            let limit = c.limit.as_ref().map_or(0, |l| {
                if (1..=255).contains(&l.value) {
                    l.value as u8
                } else {
                    let kind = CompileErrorKind::OutOfRange {
                        what: "the holes a chain may take",
                        min: 1,
                        max: 255,
                        got: u64::from(l.value),
                    };
                    self.error(at.layer, l.span, kind);
                    0
                }
            });
            if matches!(base, Base::Every(_)) {
                let kind = CompileErrorKind::Needs {
                    rule: "a chain",
                    needs: "one first hole (`every hole` takes them all already)",
                };
                self.error_at(at, kind);
            }
            Chain {
                way: c.way,
                condition: c.condition.as_ref().map_or(Condition::ALWAYS, |cond| {
                    self.condition(at.layer, cond, total)
                }),
                limit,
            }
        });
        Target {
            base,
            with_capturing_seed: take.with_seed,
            chain,
        }
    }

    fn house_rules(&mut self, total: u32) -> Vec<House> {
        let houses = std::mem::take(&mut self.houses);
        let mut out = Vec::new();
        for (name, slots) in &houses {
            let mut house = House {
                name: name.clone(),
                trigger: Trigger::MoveEnd,
                condition: Condition::ALWAYS,
                owner: Recipient::Mover,
                per_player: 0,
                not_matching: false,
                contents: HouseContents::Captured,
                sown: HouseSown::ToOwner,
                ends_move: true,
                raid: None,
            };
            let mut trigger = None;
            for at in slots.values() {
                match at.rule() {
                    HouseRule::On(t) => {
                        trigger = Some(*t);
                        if matches!(t, Trigger::PassingDrop | Trigger::EveryDrop) {
                            let kind = CompileErrorKind::Needs {
                                rule: "on",
                                needs: "the last drop of a lap or of the move for a house",
                            };
                            self.error_at(at, kind);
                        }
                    }
                    HouseRule::If(c) => house.condition = self.condition(at.layer, c, total),
                    HouseRule::To(r) => house.owner = *r,
                    HouseRule::Limit(n) => {
                        house.per_player = self
                            .in_range(at, "the houses per player", u64::from(*n), 1, 32)
                            .map_or(0, |n| n as u8);
                    }
                    HouseRule::NotMatching => house.not_matching = true,
                    HouseRule::Contents(c) => house.contents = *c,
                    HouseRule::Sown(s) => house.sown = *s,
                    HouseRule::Raided(raid) => house.raid = Some(*raid),
                    HouseRule::Then(e) => match e {
                        Effect::EndSowing => house.ends_move = true,
                        Effect::Continue => house.ends_move = false,
                        _ => {
                            let kind = CompileErrorKind::Needs {
                                rule: "then",
                                needs: "`sowing ends` or `sowing continues` for a house",
                            };
                            self.error_at(at, kind);
                        }
                    },
                }
            }
            match trigger {
                Some(t) => house.trigger = t,
                None => {
                    let (layer, span) = self.header(name, false);
                    let kind = CompileErrorKind::MissingRule {
                        block: "house",
                        name: name.clone(),
                        key: "on",
                    };
                    self.error(layer, span, kind);
                }
            }
            out.push(house);
        }
        // Seeds in a house follow its kind, not the rule that made it: the rules must agree.
        if let Some(first) = out.first() {
            if out
                .iter()
                .any(|h| h.sown != first.sown || h.raid != first.raid)
            {
                let (layer, span) = self.header(&out[1].name, false);
                let kind = CompileErrorKind::Clash {
                    rule: "house",
                    other: "every house rule of a variant must say the same `sown:` and `raided:`",
                };
                self.error(layer, span, kind);
            }
        }
        self.houses = houses;
        out
    }

    /// The header of the block that (last) defines capture or house `name`.
    fn header(&self, name: &str, capture: bool) -> (usize, Span) {
        for (layer, l) in self.layers.iter().enumerate().rev() {
            for block in &l.tree.blocks {
                let found = match &block.kind {
                    BlockKind::Capture { name: n, .. } => capture && n == name,
                    BlockKind::House { name: n, .. } => !capture && n == name,
                    _ => false,
                };
                if found {
                    return (layer, block.span);
                }
            }
        }
        (0, Span::default())
    }

    fn feeding_rules(&mut self) -> Option<Feeding> {
        let slots = self.feeding.as_ref()?;
        let mut feeding = Feeding {
            duty: FeedDuty::RowEmpty,
            judged: FeedJudged::AfterMove,
            unfeedable: Unfeedable::Ends(Award::PlayerToMove),
        };
        for at in slots.values() {
            match at.rule() {
                FeedingRule::Duty(d) => feeding.duty = *d,
                FeedingRule::Judged(j) => feeding.judged = *j,
                FeedingRule::Unfeedable(u) => feeding.unfeedable = *u,
            }
        }
        Some(feeding)
    }

    fn end_rules(&mut self, total: u32) -> Ending {
        let mut ending = Ending {
            last_seeds: None,
            majority: None,
            empty_row: None,
            singletons: None,
            quiet: None,
            no_move: NoMove::Pass,
            move_cap: 2000,
            cap_award: Award::Owners,
            repetition: 3,
            repetition_award: Award::Owners,
            unfinished_is_draw: false,
            endless: Endless::Illegal,
            scoring: Scoring::MostCaptured,
            order: Vec::new(),
        };
        let mut awards = Vec::new();
        let mut order_at = None;
        for at in self.end.values() {
            match at.rule() {
                EndRule::LastSeeds(None) => ending.last_seeds = None,
                EndRule::LastSeeds(Some(rule)) => {
                    let most = u64::from(total.saturating_sub(1));
                    let what = "the last-seeds count";
                    self.in_range(at, what, u64::from(rule.at_most), 1, most);
                    awards.push((at, rule.to));
                    ending.last_seeds = Some(LastSeeds {
                        at_most: rule.at_most,
                        check: rule.check,
                        to: rule.to,
                    });
                }
                EndRule::Majority(m) => {
                    ending.majority = *m;
                    awards.extend(m.map(|m| (at, m.award)));
                }
                EndRule::EmptyRow(a) => {
                    ending.empty_row = *a;
                    awards.extend(a.map(|(_, a)| (at, a)));
                }
                EndRule::Singletons(a) => {
                    ending.singletons = *a;
                    awards.extend(a.map(|a| (at, a)));
                }
                EndRule::Quiet(n, a) => {
                    let moves = self
                        .in_range(
                            at,
                            "the moves without a capture",
                            u64::from(*n),
                            1,
                            10_000_000,
                        )
                        .map_or(100, |n| n as u32);
                    ending.quiet = Some((moves, *a));
                    awards.push((at, *a));
                }
                EndRule::NoMove(a) => {
                    ending.no_move = a.map_or(NoMove::Pass, NoMove::EndGame);
                    awards.extend(a.map(|a| (at, a)));
                }
                EndRule::MoveCap(n, a) => {
                    ending.move_cap = self
                        .in_range(at, "the move cap", u64::from(*n), 1, 10_000_000)
                        .map_or(2000, |n| n as u32);
                    ending.cap_award = *a;
                    awards.push((at, *a));
                }
                EndRule::Repetition(n, a) => {
                    ending.repetition = self
                        .in_range(at, "the repetition count", u64::from(*n), 2, 1000)
                        .map_or(3, |n| n as u16);
                    ending.repetition_award = *a;
                    awards.push((at, *a));
                }
                EndRule::UnfinishedDraw(draw) => ending.unfinished_is_draw = *draw,
                EndRule::Endless(e) => ending.endless = *e,
                EndRule::Winner(scoring) => ending.scoring = *scoring,
                EndRule::Order(checks) => {
                    ending.order.clone_from(checks);
                    order_at = Some(at);
                }
            }
        }
        if let Some(at) = order_at {
            self.check_order(at, &ending);
        }
        if self.matches.is_none() {
            for (at, award) in awards {
                if award == Award::PreviousWinner {
                    let kind = CompileErrorKind::Needs {
                        rule: "to previous winner",
                        needs: "a `match` block: only a match has a previous round",
                    };
                    self.error_at(at, kind);
                }
            }
        }
        ending
    }

    /// Each rule an `order:` names is one the game has, named once, and one whose place can
    /// change what happens.
    fn check_order(&mut self, at: At<'a, EndRule>, ending: &Ending) {
        for (i, &check) in ending.order.iter().enumerate() {
            let has = match check {
                EndCheck::LastSeeds => ending.last_seeds.is_some(),
                EndCheck::Majority => ending.majority.is_some(),
                EndCheck::EmptyRow => ending.empty_row.is_some(),
                EndCheck::Singletons => ending.singletons.is_some(),
                EndCheck::Quiet => ending.quiet.is_some(),
                EndCheck::NoMove => true,
            };
            let why = if ending.order[..i].contains(&check) {
                Some("twice: each rule has one place in the order")
            } else if !has {
                Some("a rule the game does not have: give it in the `end` block, or leave it out of the order")
            } else if check == EndCheck::LastSeeds
                && ending
                    .last_seeds
                    .is_some_and(|r| r.check == LastSeedsCheck::AfterCapture)
            {
                Some("which is looked at after each capture, while the sowing goes on, before any rule an order can place: say `after each move`, or leave it out")
            } else if check == EndCheck::NoMove
                && ending.no_move == NoMove::Pass
                && ending.scoring != Scoring::StuckLoses
            {
                Some("but a player who cannot move passes (`no move: pass`): the game does not end then, so there is nothing to order")
            } else {
                None
            };
            if let Some(why) = why {
                let rule = check.name();
                self.error_at(at, CompileErrorKind::Order { rule, why });
            }
        }
    }

    fn match_rules(&mut self, total: u32, last_seeds: bool) -> Option<MatchRules> {
        let slots = self.matches.take()?;
        let mut refill = Some(4);
        let mut fill = Refill {
            per_hole: 4,
            close_unfilled: true,
            surplus: Surplus::Reserve,
            territory: Territory::Rows,
            from_last: false,
            mirrored: false,
            leftover_hole: false,
            leftover_tie_to_poorer: false,
        };
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
                    fill.close_unfilled = *closed;
                    refill_only.push((at.layer, at.item.span, "unfilled holes"));
                }
                MatchRule::Surplus(s) => {
                    fill.surplus = *s;
                    refill_only.push((at.layer, at.item.span, "surplus"));
                }
                MatchRule::Territory(t) => {
                    fill.territory = *t;
                    refill_only.push((at.layer, at.item.span, "territory"));
                }
                MatchRule::RefillFromLast(last) => {
                    fill.from_last = *last;
                    refill_only.push((at.layer, at.item.span, "refill from"));
                }
                MatchRule::Mirrored => {
                    fill.mirrored = true;
                    refill_only.push((at.layer, at.item.span, "filled"));
                }
                MatchRule::LeftoverHole(tie_to_poorer) => {
                    fill.leftover_hole = true;
                    fill.leftover_tie_to_poorer = *tie_to_poorer;
                    refill_only.push((at.layer, at.item.span, "leftover hole"));
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
            Some(per_hole) => Carry::Refill(Refill { per_hole, ..fill }),
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

    /// Lowers a count test, reporting counts no hole can hold and exact counts beyond the
    /// engine's table. A count no hole can hold is an error only where the board is the one of
    /// the rule's own file: where a later layer (a file that extends it, or `--set`) sets the
    /// board's holes or seeds, a count beyond its seeds simply never holds, so that every size
    /// of board can be played and solved (`sowlab check FILE` still reports it on the file's
    /// own board).
    fn count(&mut self, layer: usize, spec: &Spanned<CountSpec>, total: u32) -> CountTest {
        let resized = self
            .board
            .values()
            .into_iter()
            .filter(|at| matches!(at.rule(), BoardRule::Holes(_) | BoardRule::Seeds(_)))
            .any(|at| at.layer > layer);
        let total = if resized { u32::MAX } else { total };
        let report = |this: &mut Self, kind| this.error(layer, spec.span, kind);
        let impossible = |count: u16| CompileErrorKind::ImpossibleCount {
            count: u32::from(count),
            total,
        };
        let exact = |what, got: u16| CompileErrorKind::OutOfRange {
            what,
            min: 0,
            max: u64::from(EXACT_COUNTS - 1),
            got: u64::from(got),
        };
        match &spec.value {
            CountSpec::Is(counts, at_least) => {
                for &c in counts.iter().chain(at_least) {
                    if u32::from(c) > total {
                        report(self, impossible(c));
                    } else if c >= EXACT_COUNTS && Some(c) != *at_least {
                        report(self, exact("an exact count", c));
                    }
                }
                let exact = CountTest::exactly(counts);
                at_least.map_or(exact, |n| exact.or(CountTest::at_least(n)))
            }
            CountSpec::Range(low, high) => {
                if low > high {
                    let why = format!("no count lies between {low} and {high}");
                    report(self, CompileErrorKind::Contradiction { why });
                } else if u32::from(*low) > total {
                    report(self, impossible(*low));
                } else if *high >= EXACT_COUNTS {
                    report(self, exact("the end of a count range", *high));
                }
                CountTest::range(*low, *high)
            }
            CountSpec::AtLeast(n) => {
                if u32::from(*n) > total {
                    report(self, impossible(*n));
                }
                CountTest::at_least(*n)
            }
            CountSpec::AtMost(n) => {
                if *n >= EXACT_COUNTS {
                    report(self, exact("an upper count", *n));
                }
                CountTest::at_most(*n)
            }
            CountSpec::Even => CountTest::parity(true),
            CountSpec::Odd => CountTest::parity(false),
        }
    }

    /// Lowers the tests of a condition, checking each against the others and the seed total.
    fn condition(&mut self, layer: usize, tests: &ast::Condition, total: u32) -> Condition {
        let mut condition = Condition::ALWAYS;
        // Each part's tests so far, as written, to name them in a contradiction.
        let mut written: [Vec<String>; 5] = Default::default();
        for test in tests {
            let errors_before = self.errors.len();
            let text = self.layers[layer].file.text[test.span.start..test.span.end].to_string();
            let spec = |spec: &CountSpec| Spanned {
                value: spec.clone(),
                span: test.span,
            };
            // Which part of the condition the test narrows, and to what.
            let (part, narrowed) = match &test.value {
                Test::Count(s) => (0, Part::Count(self.count(layer, &spec(s), total))),
                Test::WasEmpty => (0, Part::Count(CountTest::exactly(&[1]))),
                Test::Occupied => (0, Part::Count(CountTest::at_least(2))),
                Test::OwnSide => (1, Part::Side(SideTest::Own)),
                Test::OpponentSide => (1, Part::Side(SideTest::Opponent)),
                Test::EndHole => (2, Part::Place(PlaceTest::END_HOLE)),
                Test::NotLastHole => (2, Part::Place(PlaceTest::NOT_LAST_HOLE)),
                Test::FirstHole => (2, Part::Place(PlaceTest::FIRST_HOLE)),
                Test::LastHole => (2, Part::Place(PlaceTest::LAST_HOLE)),
                Test::NotFirstHole => (2, Part::Place(PlaceTest::NOT_FIRST_HOLE)),
                Test::OppositeCount(s) => (3, Part::Opposite(self.count(layer, &spec(s), total))),
                Test::OppositeEmpty => (3, Part::Opposite(CountTest::exactly(&[0]))),
                Test::OppositeOccupied => (3, Part::Opposite(CountTest::at_least(1))),
                Test::OppositeEqual => {
                    condition.opposite_equal = true;
                    continue;
                }
                Test::NextCount(s) => (4, Part::Next(self.count(layer, &spec(s), total))),
                Test::NextEmpty => (4, Part::Next(CountTest::exactly(&[0]))),
                Test::NextOccupied => (4, Part::Next(CountTest::at_least(1))),
            };
            written[part].push(format!("`{text}`"));
            let clash = match narrowed {
                Part::Count(c) => {
                    condition.count = condition.count.and(c);
                    condition.count.is_empty()
                }
                Part::Opposite(c) => {
                    condition.opposite = condition.opposite.and(c);
                    condition.opposite.is_empty()
                }
                Part::Next(c) => {
                    condition.next = condition.next.and(c);
                    condition.next.is_empty()
                }
                Part::Side(s) => {
                    let clash = condition.side != SideTest::Any && condition.side != s;
                    condition.side = s;
                    clash
                }
                Part::Place(p) => {
                    condition.place = condition.place.and(p);
                    condition.place.is_empty()
                }
            };
            // A count already reported as impossible is not a contradiction as well.
            if clash && self.errors.len() == errors_before {
                let why = match narrowed {
                    Part::Count(_) | Part::Opposite(_) | Part::Next(_) => {
                        format!("no count meets {} at once", written[part].join(" and "))
                    }
                    Part::Side(_) | Part::Place(_) => written[part].join(" and "),
                };
                self.error(layer, test.span, CompileErrorKind::Contradiction { why });
                match narrowed {
                    Part::Count(_) => condition.count = CountTest::ANY,
                    Part::Opposite(_) => condition.opposite = CountTest::ANY,
                    Part::Next(_) => condition.next = CountTest::ANY,
                    Part::Place(_) => condition.place = PlaceTest::ANY,
                    Part::Side(_) => {}
                }
            }
        }
        condition
    }
}

/// What one test of a condition narrows.
#[derive(Clone, Copy)]
enum Part {
    Count(CountTest),
    Side(SideTest),
    Place(PlaceTest),
    Opposite(CountTest),
    Next(CountTest),
}

/// The slots of named block `name` in `list`: a block of that name given again in a later
/// layer replaces the inherited one whole, in its place; a second block of the same name in
/// one layer adds to the first.
fn named<'s, 'a, R>(
    list: &'s mut Named<'a, R>,
    here: &mut BTreeSet<String>,
    key: &str,
    name: &str,
) -> &'s mut Slots<'a, R> {
    let first_here = here.insert(key.to_string());
    match list.iter().position(|(n, _)| n == name) {
        Some(i) => {
            if first_here {
                list[i].1 = Slots::default();
            }
            &mut list[i].1
        }
        None => {
            list.push((name.to_string(), Slots::default()));
            &mut list.last_mut().expect("just pushed").1
        }
    }
}

/// Removes named block `name`; whether there was one.
fn remove<R>(list: &mut Named<'_, R>, name: &str) -> bool {
    let before = list.len();
    list.retain(|(n, _)| n != name);
    list.len() != before
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

/// Reading marks of one block's rules: marks with a known number, and the others (layer and
/// mark) for the caller to check against the file's declared readings.
trait Marks {
    fn marks(
        &self,
        block: &str,
        marks: &mut Vec<ReadingMark>,
        other: &mut Vec<(usize, Spanned<u16>)>,
    );
}

impl<R: Keyed> Marks for Slots<'_, R> {
    fn marks(
        &self,
        block: &str,
        marks: &mut Vec<ReadingMark>,
        other: &mut Vec<(usize, Spanned<u16>)>,
    ) {
        for (key, at) in &self.rules {
            for reading in &at.item.readings {
                if reading.value == 0 || reading.value > LAST_SHIPPED_READING {
                    other.push((at.layer, reading.clone()));
                }
                if reading.value > 0 {
                    marks.push(ReadingMark {
                        number: reading.value,
                        rule: format!("{block}.{key}"),
                        default: false,
                    });
                }
            }
        }
    }
}
