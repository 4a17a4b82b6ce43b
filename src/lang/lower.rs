//! Syntax trees (a file and the files it extends) → one checked rule program. Collects every
//! error instead of stopping at the first.

use std::collections::BTreeMap;

use super::ast::{self, BlockKind, Test, Value};
use super::diagnostic::{suggest, CompileError, CompileErrorKind};
use crate::rules::{
    Award, BoardRules, Capture, Condition, CountTest, Direction, Effect, Ending, Endless,
    FeedJudged, Feeding, GrandSlam, LapStart, LastSeeds, MatchRules, NoMove, OppositeTest,
    OriginSkip, Program, Provenance, ReadingMark, Recipient, Rules, Scoring, Side, SideTest,
    Sowing, Starter, Stores, Surplus, Target, Trigger, MAX_HOLES_PER_ROW,
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
#[derive(Clone, Copy)]
struct At<'a> {
    layer: usize,
    rule: &'a ast::Rule,
}

/// Rules of one block, by key; a later layer replaces an earlier one's rule.
#[derive(Default)]
struct Slots<'a> {
    rules: BTreeMap<String, At<'a>>,
}

impl<'a> Slots<'a> {
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.rules.get(key).map(|at| &at.rule.value)
    }
}

struct Lowering<'a> {
    layers: &'a [Layer],
    errors: Vec<CompileError>,
    name: Option<String>,
    about: Vec<(String, Vec<String>)>,
    board: Slots<'a>,
    sowing: Slots<'a>,
    feeding: Option<Slots<'a>>,
    end: Slots<'a>,
    matches: Option<Slots<'a>>,
    captures: Vec<(String, Slots<'a>)>,
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

    fn error_at(&mut self, at: At<'a>, kind: CompileErrorKind) {
        self.error(at.layer, at.rule.span, kind);
    }

    /// Applies one layer's blocks over what the layers before it said.
    fn merge(&mut self, layer: usize) {
        let tree = &self.layers[layer].tree;
        let mut seen: BTreeMap<(String, String), Span> = BTreeMap::new();
        let mut about_seen = std::collections::BTreeSet::new();
        for block in &tree.blocks {
            let block_name = match &block.kind {
                BlockKind::Capture(name) => format!("capture {name}"),
                other => format!("{other:?}"),
            };
            // Provenance fields may repeat (several notes); rules may not.
            let repeatable = matches!(block.kind, BlockKind::Game(_));
            for rule in block.rules.iter().filter(|_| !repeatable) {
                let key = (block_name.clone(), rule.value.key());
                if let Some(first) = seen.insert(key.clone(), rule.span) {
                    let file = self.layers[layer].file.clone();
                    self.errors.push(CompileError {
                        file,
                        span: rule.span,
                        kind: CompileErrorKind::Duplicate { key: key.1 },
                        related: Some((first, "first given here")),
                    });
                }
            }
            let slots = match &block.kind {
                BlockKind::Game(name) => {
                    self.name = Some(name.clone());
                    for rule in &block.rules {
                        if let Value::About(key, texts) = &rule.value {
                            if !ABOUT_KEYS.contains(&key.as_str()) {
                                let suggestion = suggest(key, ABOUT_KEYS);
                                self.error(
                                    layer,
                                    rule.span,
                                    CompileErrorKind::UnknownField {
                                        key: key.clone(),
                                        suggestion,
                                    },
                                );
                            }
                            // A file's first line of a field replaces what its parents said.
                            if about_seen.insert(key.clone()) {
                                self.about.retain(|(k, _)| k != key);
                            }
                            self.about.push((key.clone(), texts.clone()));
                        }
                    }
                    continue;
                }
                BlockKind::NoCapture(name) => {
                    let before = self.captures.len();
                    self.captures.retain(|(n, _)| n != name);
                    if self.captures.len() == before {
                        self.error(
                            layer,
                            block.span,
                            CompileErrorKind::NoSuchCapture { name: name.clone() },
                        );
                    }
                    continue;
                }
                BlockKind::NoFeeding => {
                    self.feeding = None;
                    continue;
                }
                BlockKind::Board => &mut self.board,
                BlockKind::Sowing => &mut self.sowing,
                BlockKind::End => &mut self.end,
                BlockKind::Feeding => self.feeding.get_or_insert_with(Slots::default),
                BlockKind::Match => self.matches.get_or_insert_with(Slots::default),
                BlockKind::Capture(name) => {
                    // A capture given again replaces the inherited one whole, in its place.
                    let fresh = Slots::default();
                    match self.captures.iter().position(|(n, _)| n == name) {
                        Some(i) if seen_capture_in_layer(tree, name, block) => {
                            &mut self.captures[i].1
                        }
                        Some(i) => {
                            self.captures[i].1 = fresh;
                            &mut self.captures[i].1
                        }
                        None => {
                            self.captures.push((name.clone(), fresh));
                            &mut self.captures.last_mut().expect("just pushed").1
                        }
                    }
                }
            };
            for rule in &block.rules {
                slots.rules.insert(rule.value.key(), At { layer, rule });
            }
        }
    }

    fn readings(&mut self) -> Vec<ReadingMark> {
        let mut marks = Vec::new();
        let mut bad = Vec::new();
        let mut visit = |block: &str, slots: &Slots<'a>| {
            for (key, at) in &slots.rules {
                for reading in &at.rule.readings {
                    match u8::try_from(reading.value) {
                        Ok(number @ 1..=LAST_READING) => marks.push(ReadingMark {
                            number,
                            rule: format!("{block}.{key}"),
                        }),
                        _ => bad.push((at.layer, reading.clone())),
                    }
                }
            }
        };
        visit("board", &self.board);
        visit("sowing", &self.sowing);
        for (name, slots) in &self.captures {
            visit(&format!("capture \"{name}\""), slots);
        }
        if let Some(slots) = &self.feeding {
            visit("feeding", slots);
        }
        visit("end", &self.end);
        if let Some(slots) = &self.matches {
            visit("match", slots);
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
        let matches = self.match_rules();
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
        let holes = match self.board.rules.get("holes").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::Holes(n),
                            ..
                        },
                    ..
                },
            ) => self
                .in_range(
                    at,
                    "holes per row",
                    u64::from(*n),
                    1,
                    MAX_HOLES_PER_ROW as u64,
                )
                .unwrap_or(6) as u8,
            _ => 6,
        };
        let count = 2 * usize::from(holes);
        let layout = match self.board.rules.get("seeds").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::Seeds(n),
                            ..
                        },
                    ..
                },
            ) => {
                let n = self
                    .in_range(at, "seeds per hole", u64::from(*n), 1, 1000)
                    .unwrap_or(4) as u16;
                vec![n; count]
            }
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::Layout(counts),
                            ..
                        },
                    ..
                },
            ) => {
                if counts.len() != count {
                    self.error_at(
                        at,
                        CompileErrorKind::LayoutLength {
                            holes: count,
                            got: counts.len(),
                        },
                    );
                    vec![4; count]
                } else if counts.iter().all(|&c| c == 0) {
                    self.error_at(
                        at,
                        CompileErrorKind::OutOfRange {
                            what: "seeds in the layout",
                            min: 1,
                            max: 60_000,
                            got: 0,
                        },
                    );
                    vec![4; count]
                } else {
                    counts.clone()
                }
            }
            _ => vec![4; count],
        };
        let total: u64 = layout.iter().map(|&n| u64::from(n)).sum();
        if total > 60_000 {
            let at = self
                .board
                .rules
                .get("seeds")
                .copied()
                .expect("a large total comes from a rule");
            self.error_at(
                at,
                CompileErrorKind::OutOfRange {
                    what: "seeds in the game",
                    min: 1,
                    max: 60_000,
                    got: total,
                },
            );
        }
        let stores = match self.board.get("stores") {
            Some(Value::Stores(s)) => *s,
            _ => Stores::None,
        };
        let starter = match self.board.get("starter") {
            Some(Value::Starter(s)) => *s,
            _ => Side::South,
        };
        BoardRules {
            holes_per_row: holes,
            layout,
            stores,
            starter,
        }
    }

    fn sowing_rules(&mut self, board: &BoardRules, total: u32) -> Sowing {
        let direction = match self.sowing.get("direction") {
            Some(Value::Direction(d)) => *d,
            _ => Direction::Counterclockwise,
        };
        let lap_start = match self.sowing.get("laps start") {
            Some(Value::LapStart(l)) => *l,
            _ => LapStart::NextHole,
        };
        // Positions a lap can visit: the holes, and the mover's store when stores are sown.
        let ring = 2 * u16::from(board.holes_per_row) + u16::from(board.stores == Stores::Sown);
        let origin_skip = match self.sowing.rules.get("skip origin").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::Skip(from, laps),
                            ..
                        },
                    ..
                },
            ) => {
                if lap_start == LapStart::LiftedHole {
                    self.error_at(
                        at,
                        CompileErrorKind::Needs {
                            rule: "skip origin",
                            needs: "`laps start: next hole`",
                        },
                    );
                }
                // A lap of fewer seeds than positions never comes back to its origin, so any
                // threshold up to the ring's length is the same rule as "always" (R6).
                let from = from.unwrap_or(1);
                OriginSkip::FromSeeds(if from <= ring { 1 } else { from }, *laps)
            }
            _ => OriginSkip::Never,
        };
        let relay = match self.sowing.rules.get("relay").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::Relay(Some(cond)),
                            ..
                        },
                    ..
                },
            ) => Some(self.condition(at, cond, total)),
            _ => None,
        };
        let store_extra_turn = match self.sowing.rules.get("extra turn").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::StoreTurn(true),
                            ..
                        },
                    ..
                },
            ) => {
                if board.stores != Stores::Sown {
                    self.error_at(
                        at,
                        CompileErrorKind::Needs {
                            rule: "extra turn: in own store",
                            needs: "`stores: sown`",
                        },
                    );
                }
                true
            }
            _ => false,
        };
        let drop_cap = match self.sowing.rules.get("drop cap").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::DropCap(n),
                            ..
                        },
                    ..
                },
            ) => self
                .in_range(at, "the drop cap", u64::from(*n), 100, u64::from(u32::MAX))
                .unwrap_or(1_000_000) as u32,
            _ => 1_000_000,
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
            // A capture without `on:` is reported, and its other rules are still checked.
            let trigger = match slots.get("on") {
                Some(Value::Trigger(t)) => Some(*t),
                _ => {
                    let (layer, span) = self.capture_header(name);
                    let kind = CompileErrorKind::MissingRule {
                        name: name.clone(),
                        key: "on",
                    };
                    self.error(layer, span, kind);
                    None
                }
            };
            let condition = match slots.rules.get("if").copied() {
                Some(
                    at @ At {
                        rule:
                            ast::Rule {
                                value: Value::If(cond),
                                ..
                            },
                        ..
                    },
                ) => self.condition(at, cond, total),
                _ => Condition::ALWAYS,
            };
            let target = match slots.rules.get("take").copied() {
                Some(
                    at @ At {
                        rule:
                            ast::Rule {
                                value:
                                    Value::Take {
                                        opposite,
                                        with_seed,
                                        chain,
                                    },
                                ..
                            },
                        ..
                    },
                ) => {
                    let chain = chain.as_ref().map(|c| self.condition(at, c, total));
                    Target {
                        opposite: *opposite,
                        with_capturing_seed: *with_seed,
                        chain,
                    }
                }
                _ => Target {
                    opposite: false,
                    with_capturing_seed: false,
                    chain: None,
                },
            };
            let recipient = match slots.get("to") {
                Some(Value::To(r)) => *r,
                _ => Recipient::Mover,
            };
            let passing = matches!(trigger, Some(Trigger::PassingDrop | Trigger::EveryDrop));
            let effect = match slots.rules.get("then").copied() {
                Some(
                    at @ At {
                        rule:
                            ast::Rule {
                                value: Value::Then(e),
                                ..
                            },
                        ..
                    },
                ) => {
                    if passing && *e != Effect::Continue {
                        let words = if trigger == Some(Trigger::EveryDrop) {
                            "every drop"
                        } else {
                            "a passing drop"
                        };
                        self.error_at(at, CompileErrorKind::EndsMidLap { trigger: words });
                    }
                    *e
                }
                _ if passing => Effect::Continue,
                _ => Effect::EndSowing,
            };
            let grand_slam = match slots.get("grand slam") {
                Some(Value::GrandSlam(g)) => *g,
                _ => GrandSlam::Captures,
            };
            let Some(trigger) = trigger else { continue };
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

    fn capture_header(&self, name: &str) -> (usize, Span) {
        for (layer, l) in self.layers.iter().enumerate().rev() {
            for block in &l.tree.blocks {
                if block.kind == BlockKind::Capture(name.to_string()) {
                    return (layer, block.span);
                }
            }
        }
        (0, Span::default())
    }

    fn feeding_rules(&mut self) -> Option<Feeding> {
        let slots = self.feeding.as_ref()?;
        let judged = match slots.get("judged") {
            Some(Value::Judged(j)) => *j,
            _ => FeedJudged::AfterMove,
        };
        let unfeedable = match slots.get("unfeedable") {
            Some(Value::Unfeedable(a)) => *a,
            _ => Award::PlayerToMove,
        };
        Some(Feeding { judged, unfeedable })
    }

    fn end_rules(&mut self, total: u32) -> Ending {
        let last_seeds = match self.end.rules.get("last seeds").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::LastSeeds(Some((n, check, to))),
                            ..
                        },
                    ..
                },
            ) => {
                self.in_range(
                    at,
                    "the last-seeds count",
                    u64::from(*n),
                    1,
                    u64::from(total.saturating_sub(1)),
                );
                Some(LastSeeds {
                    at_most: *n,
                    check: *check,
                    to: *to,
                })
            }
            _ => None,
        };
        let majority = match self.end.get("majority") {
            Some(Value::Majority(a)) => *a,
            _ => None,
        };
        let empty_row = match self.end.get("empty row") {
            Some(Value::EmptyRow(a)) => *a,
            _ => None,
        };
        let no_move = match self.end.get("no move") {
            Some(Value::NoMove(Some(a))) => NoMove::EndGame(*a),
            _ => NoMove::Pass,
        };
        let (move_cap, cap_award) = match self.end.rules.get("move cap").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::MoveCap(n, a),
                            ..
                        },
                    ..
                },
            ) => (
                self.in_range(at, "the move cap", u64::from(*n), 1, 10_000_000)
                    .unwrap_or(2000) as u32,
                *a,
            ),
            _ => (2000, Award::Owners),
        };
        let (repetition, repetition_award) = match self.end.rules.get("repetition").copied() {
            Some(
                at @ At {
                    rule:
                        ast::Rule {
                            value: Value::Repetition(n, a),
                            ..
                        },
                    ..
                },
            ) => (
                self.in_range(at, "the repetition count", u64::from(*n), 2, 1000)
                    .unwrap_or(3) as u16,
                *a,
            ),
            _ => (3, Award::Owners),
        };
        let unfinished_is_draw = matches!(
            self.end.get("unfinished"),
            Some(Value::UnfinishedDraw(true))
        );
        let endless = match self.end.get("endless moves") {
            Some(Value::Endless(e)) => *e,
            _ => Endless::Illegal,
        };
        if matches!(last_seeds.map(|l| l.to), Some(Award::PreviousWinner)) {
            let at = self
                .end
                .rules
                .get("last seeds")
                .copied()
                .expect("checked above");
            self.error_at(
                at,
                CompileErrorKind::Needs {
                    rule: "to previous winner",
                    needs: "a `match` block rule `from round n:`",
                },
            );
        }
        Ending {
            last_seeds,
            majority,
            empty_row,
            no_move,
            move_cap,
            cap_award,
            repetition,
            repetition_award,
            unfinished_is_draw,
            endless,
            scoring: Scoring::MostCaptured,
        }
    }

    fn match_rules(&mut self) -> Option<MatchRules> {
        let slots = self.matches.take()?;
        let number =
            |key: &str, default: u16, this: &mut Self, what: &'static str, min: u64| -> u16 {
                match slots.rules.get(key).copied() {
                    Some(
                        at @ At {
                            rule:
                                ast::Rule {
                                    value:
                                        Value::Refill(n) | Value::LoseBelow(n) | Value::RoundCap(n),
                                    ..
                                },
                            ..
                        },
                    ) => this
                        .in_range(at, what, u64::from(*n), min, 1000)
                        .unwrap_or(u64::from(default)) as u16,
                    _ => default,
                }
            };
        let refill = number("refill", 4, self, "seeds per refilled hole", 1);
        let lose_below = number("lose below", 4, self, "the losing total", 0);
        let round_cap = number("round cap", 50, self, "the round cap", 1);
        let close_unfilled = !matches!(
            slots.get("unfilled holes"),
            Some(Value::UnfilledClosed(false))
        );
        let surplus = match slots.get("surplus") {
            Some(Value::Surplus(s)) => *s,
            _ => Surplus::Reserve,
        };
        let starter = match slots.get("starter") {
            Some(Value::MatchStarter(s)) => *s,
            _ => Starter::RoundWinner,
        };
        let mut round_rules = Vec::new();
        for at in slots.rules.values().copied() {
            if let Value::FromRound(round, award) = at.rule.value {
                self.in_range(at, "the round", u64::from(round), 1, u64::from(round_cap));
                round_rules.push(crate::rules::RoundRule {
                    from_round: round,
                    last_seeds_to: award,
                });
            }
        }
        round_rules.sort_by_key(|r| r.from_round);
        self.matches = Some(slots);
        Some(MatchRules {
            refill,
            close_unfilled,
            surplus,
            starter,
            lose_below,
            round_cap,
            round_rules,
        })
    }

    fn in_range(
        &mut self,
        at: At<'a>,
        what: &'static str,
        got: u64,
        min: u64,
        max: u64,
    ) -> Option<u64> {
        if (min..=max).contains(&got) {
            Some(got)
        } else {
            self.error_at(
                at,
                CompileErrorKind::OutOfRange {
                    what,
                    min,
                    max,
                    got,
                },
            );
            None
        }
    }

    /// Lowers the tests of a condition, checking each against the others and the seed total.
    fn condition(&mut self, at: At<'a>, tests: &ast::Condition, total: u32) -> Condition {
        let mut condition = Condition::ALWAYS;
        let mut sides: Option<(SideTest, &str)> = None;
        let mut opposite: Option<(OppositeTest, &str)> = None;
        // The count tests so far, as written, to name them in a contradiction.
        let mut count_tests: Vec<String> = Vec::new();
        for test in tests {
            let here = At {
                layer: at.layer,
                rule: at.rule,
            };
            let report = |this: &mut Self, kind| this.error(here.layer, test.span, kind);
            let errors_before = self.errors.len();
            let written = &self.layers[at.layer].file.text[test.span.start..test.span.end];
            let count = match &test.value {
                Test::CountIs(counts) => {
                    for &c in counts {
                        if u32::from(c) > total {
                            report(
                                self,
                                CompileErrorKind::ImpossibleCount {
                                    count: u32::from(c),
                                    total,
                                },
                            );
                        } else if c >= 64 {
                            report(
                                self,
                                CompileErrorKind::OutOfRange {
                                    what: "an exact count",
                                    min: 0,
                                    max: 63,
                                    got: u64::from(c),
                                },
                            );
                        }
                    }
                    CountTest::exactly(counts)
                }
                Test::CountAtLeast(n) => {
                    if u32::from(*n) > total {
                        report(
                            self,
                            CompileErrorKind::ImpossibleCount {
                                count: u32::from(*n),
                                total,
                            },
                        );
                    }
                    CountTest::at_least(*n)
                }
                Test::CountAtMost(n) => {
                    if *n >= 64 {
                        report(
                            self,
                            CompileErrorKind::OutOfRange {
                                what: "an upper count",
                                min: 0,
                                max: 63,
                                got: u64::from(*n),
                            },
                        );
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

/// Whether `name` was already defined by an earlier block of the same file (so a second block
/// of the same name adds to it rather than replacing the inherited one again).
fn seen_capture_in_layer(tree: &ast::File, name: &str, block: &ast::Block) -> bool {
    tree.blocks
        .iter()
        .take_while(|b| !std::ptr::eq(*b, block))
        .any(|b| b.kind == BlockKind::Capture(name.to_string()))
}
