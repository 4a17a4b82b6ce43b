//! The compiled rule program: a validated, flat description of one variant that the engine runs.
//!
//! Nothing here knows about source text. `lang` builds a [`Rules`] from a `.sow` file; the
//! engine reads it in the hot loop, so every lookup it needs is a precomputed table or a bit mask
//! (see [`Geometry`]).

mod board;
mod capture;
pub mod diff;
mod ending;
pub mod explain;
pub mod families;
mod house;
mod matches;
mod sowing;

pub use board::{BoardRules, Geometry, Side, Stores, MAX_HOLES_PER_ROW, MAX_POSITIONS};
pub use capture::{
    Base, Capture, Chain, ChainWay, Condition, CountTest, Effect, GrandSlam, Large, PlaceTest,
    Recipient, SideTest, Target, Trigger,
};
pub use ending::{
    Award, EndCheck, Ending, Endless, LastSeeds, LastSeedsCheck, Majority, NoMove, RowTest, Scoring,
};
pub use house::{HouseContents, HouseRule, HouseSown, Raid};
pub use matches::{
    Carry, MatchRules, MatchScoring, Refill, RoundRule, Starter, Surplus, Territory,
};
pub use sowing::{
    Direction, DirectionRule, FeedDuty, FeedJudged, Feeding, FirstMove, LapStart, MoveFilter,
    OriginSkip, Relay, Ring, SkipHoles, SkipLaps, Sowing, Unfeedable,
};

use serde::Serialize;

/// One variant, compiled: provenance, readings and the rule program.
#[derive(Clone, Debug, Serialize)]
pub struct Rules {
    /// Where the rules come from; not part of the [`Rules::hash`].
    pub provenance: Provenance,
    /// Every rule that rests on an editorial reading (`reading R7`), in file order.
    pub readings: Vec<ReadingMark>,
    /// The readings the file (or a file it extends) declares, beyond the shipped R1–R16, in
    /// number order. Not part of the hash.
    pub declared: Vec<Declared>,
    /// The game itself.
    pub program: Program,
    /// Other readings the file offers for its gaps, each with the rules it changes; set by
    /// `lang` after compiling, not part of the hash.
    #[serde(skip)]
    pub alternatives: Vec<Alternative>,
    /// Tables derived from `program.board` and `program.sowing`.
    #[serde(skip)]
    pub geometry: Geometry,
    /// Capture rules sorted by when the engine looks at them.
    #[serde(skip)]
    pub dispatch: Dispatch,
    /// Seeds in the game.
    #[serde(skip)]
    pub total: u32,
    /// The content hash of `program`, computed once (see [`Rules::hash`]).
    #[serde(skip)]
    hash: u64,
}

/// Indices into `Program::captures`, by the moment they are tried, in file order, and the
/// flags that let the engine skip what a variant does not use.
#[derive(Clone, Debug)]
pub struct Dispatch {
    /// After a seed that is not the last of its lap.
    pub passing: Vec<usize>,
    /// After the last seed of a lap, before any relay.
    pub lap_end: Vec<usize>,
    /// After the last seed of the move.
    pub move_end: Vec<usize>,
    /// Counts that may satisfy some `passing` rule: a quick test that skips the rest.
    pub passing_counts: CountTest,
    /// Counts that may satisfy some `lap_end` rule.
    pub lap_end_counts: CountTest,
    /// Counts that may satisfy some `move_end` rule (none when there is none).
    pub move_end_counts: CountTest,
    /// Landing counts a lap may relay from (none without a relay; an emptied landing hole
    /// never relays from itself): a count outside them ends the relay's test at once.
    pub relay_counts: CountTest,
    /// The relay is from the landing hole on its count alone: `relay_counts` decides it.
    pub relay_by_count: bool,
    /// Every non-empty open hole is a legal move unless feeding applies: single laps (no
    /// endless sowing, no drop cap within reach), no forbidden grand slam, no move filter.
    pub candidates_legal: bool,
    /// A candidate whose lap ends in an empty hole before it comes round (see
    /// [`Geometry::landing`]; open holes, and no duty to feed this turn) is legal: the lap
    /// cannot relay from a single seed, no capture sows on, nothing makes a move illegal but
    /// an endless sowing, and the direction is fixed, the first seed sown in the next hole,
    /// the sources' families only.
    pub ends_on_empty: bool,
    /// Stores are sown: a drop may land in one.
    pub sown_stores: bool,
    /// Feeding is judged on the first lap, or a move filter looks at it: drops of the first
    /// lap are watched.
    pub track_first_lap: bool,
    /// Something must be looked at after each drop (captures, stores, feeding, houses,
    /// skipped holes); if not, the drop loop is bare.
    pub watch_drops: bool,
    /// Houses can be made: drops into houses and house rules are looked at.
    pub houses: bool,
    /// The variant uses only the sources' own rule families (see `engine::sow`), so the
    /// engine can run its plain loop.
    pub plain: bool,
    /// Some end rule is looked at once a move is over: one of those `Game::end_after_move`
    /// checks, which must all be listed here.
    pub ends_after_move: bool,
    /// The file states the order of its end rules (`order:`): they are tried its way.
    pub ordered_end: bool,
    /// A turn's candidates are the mover's non-empty open holes: no minimum above one seed,
    /// no opening, no first-move rule, no choice of direction.
    pub plain_turns: bool,
}

impl Dispatch {
    /// The dispatch of `program`. Every field of the rules is named below, either where a
    /// shortcut reads it or bound to `_` with the reason none needs to: a rule added to the
    /// language does not compile here until its author has said which shortcuts it switches
    /// off (and `tests/integration/shortcuts.rs` then holds each shortcut to the plain path).
    fn new(program: &Program) -> Dispatch {
        let Program {
            board,
            sowing,
            captures,
            houses,
            feeding,
            ending,
            // A round starts a new game: no shortcut spans rounds.
            matches: _,
        } = program;
        let BoardRules {
            layout,
            stores,
            // The geometry tables the shortcuts read are built from these.
            holes_per_row: _,
            starter: _,
        } = board;
        let Sowing {
            direction,
            lap_start,
            relay,
            drop_cap,
            min_seeds,
            skip_holes,
            first_move,
            opening,
            move_filter,
            opponent_after_round,
            lock_played,
            bear_off,
            any_hole,
            // Played alike on every path: origin skipping and the store's extra turn are in
            // every loop, the ring is in the geometry tables, and the waiver only lowers a
            // minimum above one seed, which already rules out the plain turn.
            origin_skip: _,
            store_extra_turn: _,
            ring: _,
            min_seeds_waived: _,
        } = sowing;
        let Ending {
            scoring,
            last_seeds,
            majority,
            empty_row,
            singletons,
            quiet,
            order,
            // Looked at when a turn starts or a move is refused, on every path.
            no_move: _,
            move_cap: _,
            cap_award: _,
            repetition: _,
            repetition_award: _,
            unfinished_is_draw: _,
            endless: _,
        } = ending;
        let select = |wanted: &[Trigger]| -> Vec<usize> {
            (0..captures.len())
                .filter(|&i| wanted.contains(&captures[i].trigger))
                .collect()
        };
        // Every capture rule tests its condition on the hole sown into before anything else
        // (`Sower::capture`), so a count none of a list's rules accepts skips the whole list.
        let counts = |rules: &[usize]| {
            rules.iter().fold(CountTest::NONE, |acc, &i| {
                acc.or(captures[i].condition.count)
            })
        };
        let passing = select(&[Trigger::EveryDrop, Trigger::PassingDrop]);
        let mut lap_end = select(&[Trigger::EveryDrop, Trigger::LapEnd]);
        let move_end = select(&[Trigger::MoveEnd]);
        lap_end.sort_unstable();
        let houses = !houses.is_empty();
        let total: u32 = layout.iter().map(|&n| u32::from(n)).sum();
        // No move is refused but an endless one: no drop cap within reach, no move filter, no
        // forbidden grand slam, no capture that sows on.
        let legal_if_it_ends = total < *drop_cap
            && move_filter.is_none()
            && captures.iter().all(|c| {
                c.grand_slam != GrandSlam::Forbidden
                    && !matches!(c.effect, Effect::ContinueFromNext | Effect::SeedMovesOn)
            });
        let candidates_legal = *relay == Relay::Never && legal_if_it_ends;
        let sown_stores = stores.sown();
        let track_first_lap =
            move_filter.is_some() || feeding.is_some_and(|f| f.judged == FeedJudged::FirstLap);
        let plain = !houses
            && !any_hole
            && skip_holes.is_none()
            && !lock_played
            && !opponent_after_round
            && move_filter.is_none()
            && !first_move.is_some_and(|f| f.last_seed_across)
            && match relay {
                Relay::Never => true,
                Relay::Landing(c) => Self::plain_condition(c),
                Relay::NextHole => false,
            }
            && captures.iter().all(Self::plain_capture);
        let relay_counts = match relay {
            Relay::Never => CountTest::NONE,
            Relay::Landing(c) => c.count.and(CountTest::at_least(1)),
            Relay::NextHole => CountTest::ANY,
        };
        // The condition but for its count tests nothing.
        let relay_by_count = matches!(relay, Relay::Landing(c) if Condition {
            count: CountTest::ANY,
            ..*c
        } == Condition::ALWAYS);
        // A lap's single seed, landing in an empty hole, ends the move.
        let single_seed_ends = !relay_counts.passes(1);
        let ends_after_move = matches!(scoring, Scoring::EmptiedWins | Scoring::EmptiedLoses)
            || last_seeds.is_some_and(|r| r.check == LastSeedsCheck::AfterMove)
            || majority.is_some()
            || empty_row.is_some()
            || singletons.is_some()
            || quiet.is_some();
        let plain_turns = *min_seeds <= 1
            && !any_hole
            && opening.is_empty()
            && first_move.is_none()
            && !direction.has_choice();
        Dispatch {
            ends_on_empty: legal_if_it_ends
                && single_seed_ends
                && plain
                && matches!(direction, DirectionRule::Fixed(_))
                && *lap_start == LapStart::NextHole
                && bear_off.is_none(),
            plain,
            ends_after_move,
            ordered_end: !order.is_empty(),
            plain_turns,
            candidates_legal,
            sown_stores,
            track_first_lap,
            watch_drops: sown_stores
                || track_first_lap
                || houses
                || *lock_played
                || skip_holes.is_some()
                || !passing.is_empty()
                || !lap_end.is_empty(),
            houses,
            passing_counts: counts(&passing),
            lap_end_counts: counts(&lap_end),
            move_end_counts: counts(&move_end),
            relay_counts,
            relay_by_count,
            passing,
            lap_end,
            move_end,
        }
    }

    /// A capture of the sources' own families (see `engine::sow`): the plain loop plays it.
    fn plain_capture(capture: &Capture) -> bool {
        let Capture {
            condition,
            target,
            effect,
            from_move,
            // Tried the same way by both loops.
            name: _,
            trigger: _,
            recipient: _,
            grand_slam: _,
        } = capture;
        let Target {
            base,
            chain,
            with_capturing_seed: _,
        } = target;
        Self::plain_condition(condition)
            && matches!(base, Base::Hole | Base::Opposite)
            && chain.is_none_or(
                |Chain {
                     way,
                     condition,
                     limit,
                 }| {
                    way == ChainWay::Backward && limit == 0 && Self::plain_condition(&condition)
                },
            )
            && matches!(
                effect,
                Effect::Continue | Effect::EndSowing | Effect::ExtraTurn
            )
            && *from_move == 1
    }

    /// A condition the plain loop tests: the count, the side and the opposite count.
    fn plain_condition(condition: &Condition) -> bool {
        let Condition {
            place,
            next,
            opposite_equal,
            count: _,
            side: _,
            opposite: _,
        } = condition;
        *place == PlaceTest::ANY && *next == CountTest::ANY && !opposite_equal
    }
}

impl Dispatch {
    /// Every shortcut switched off: the quick count tests pass everything, no move is taken
    /// as legal unsown, every drop is watched, every end rule looked at after every move and
    /// the interpreter runs its loop for every rule family. The engine then plays each rule
    /// the one general way; the differential tests hold the fast path to it.
    fn reference(program: &Program) -> Dispatch {
        Dispatch {
            passing_counts: CountTest::ANY,
            lap_end_counts: CountTest::ANY,
            move_end_counts: CountTest::ANY,
            relay_counts: CountTest::ANY,
            relay_by_count: false,
            candidates_legal: false,
            ends_on_empty: false,
            track_first_lap: true,
            watch_drops: true,
            houses: true,
            plain: false,
            ends_after_move: true,
            plain_turns: false,
            ..Dispatch::new(program)
        }
    }
}

/// The part of the rules that decides how a game goes; hashed for provenance.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Program {
    /// Holes, seeds, stores, starter.
    pub board: BoardRules,
    /// How seeds are sown.
    pub sowing: Sowing,
    /// Capture rules in file order; at most one fires per drop, the first that matches.
    pub captures: Vec<Capture>,
    /// Ways holes become houses, in file order.
    pub houses: Vec<HouseRule>,
    /// The obligation to feed an opponent whose row is empty, if the variant has one.
    pub feeding: Option<Feeding>,
    /// How a game ends and who gets what is left.
    pub ending: Ending,
    /// Match play, if the variant describes it.
    pub matches: Option<MatchRules>,
}

/// Names, places, people and the source of a variant.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// The variant's name.
    pub name: String,
    /// The file it was compiled from, and the files it extends, child first.
    pub files: Vec<String>,
    /// Every `key: "text", ...` line of the `game` block, in order, parents first.
    pub fields: Vec<(String, Vec<String>)>,
}

impl Provenance {
    /// The values of one provenance field, e.g. `source`; empty if absent.
    pub fn get(&self, key: &str) -> Vec<&str> {
        self.fields
            .iter()
            .filter(|(k, _)| k == key)
            .flat_map(|(_, v)| v.iter().map(String::as_str))
            .collect()
    }
}

/// A rule marked as resting on an editorial reading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadingMark {
    /// The reading's number, `7` for R7.
    pub number: u16,
    /// Where the mark stands, e.g. `capture "opposite"` or `end.last seeds`.
    pub rule: String,
    /// The file does not state the rule: the language's default applies, and rests on this
    /// reading (the move cap and repetition limit on R10, say).
    pub default: bool,
}

/// A reading a file declares, R17 onwards: the gap, what was chosen, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Declared {
    /// The reading's number.
    pub number: u16,
    /// What it says.
    pub text: String,
    /// The file that declares it, as compiled (its name as given).
    pub file: String,
}

/// Another way to read one of a file's gaps (`alternative R2 "after the move" { ... }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// The reading it varies.
    pub reading: u16,
    /// Its name, as `--set R2=NAME` chooses it.
    pub name: String,
    /// The file that offers it.
    pub file: String,
    /// Whether these rules were compiled with it chosen.
    pub chosen: bool,
    /// The rules it changes, as `explain` states them: the file's sentence, then its own.
    pub changes: Vec<diff::Difference>,
}

impl Alternative {
    /// Whether it changes match rules alone: a single game never reaches them, so single
    /// games played or solved under it are the file's own.
    pub fn match_only(&self) -> bool {
        self.changes
            .iter()
            .all(|d| d.section == explain::Section::Match)
    }
}

impl Rules {
    /// Builds the derived tables for `program`. `lang` is the usual way in; this is public so
    /// tests and tools can tweak a program and rebuild.
    pub fn new(
        provenance: Provenance,
        readings: Vec<ReadingMark>,
        declared: Vec<Declared>,
        program: Program,
    ) -> Rules {
        let geometry = Geometry::new(&program.board, &program.sowing);
        let dispatch = Dispatch::new(&program);
        let total = program.board.layout.iter().map(|&n| u32::from(n)).sum();
        let canonical = serde_json::to_vec(&program).expect("the rule program serialises");
        Rules {
            hash: fnv1a(&canonical),
            provenance,
            readings,
            declared,
            program,
            alternatives: Vec::new(),
            geometry,
            dispatch,
            total,
        }
    }

    /// Holes per row.
    pub fn holes_per_row(&self) -> usize {
        self.program.board.holes_per_row as usize
    }

    /// The same rules played without the engine's shortcuts (see `Dispatch::reference`):
    /// slower, and the same games move for move. For tests that hold the fast path to it.
    pub fn without_shortcuts(&self) -> Rules {
        Rules {
            dispatch: Dispatch::reference(&self.program),
            ..self.clone()
        }
    }

    /// Holes on the board, both rows.
    pub fn holes(&self) -> usize {
        2 * self.holes_per_row()
    }

    /// Seeds in the game, board and stores together.
    pub fn total_seeds(&self) -> u32 {
        self.total
    }

    /// What reading `number` says: the file's own declaration, or the shipped gloss.
    pub fn reading_text(&self, number: u16) -> &str {
        self.declared(number)
            .map_or_else(|| reading_gloss(number), |d| d.text.as_str())
    }

    /// The declaration of reading `number`, if a file of the variant declares it.
    pub fn declared(&self, number: u16) -> Option<&Declared> {
        self.declared.iter().find(|d| d.number == number)
    }

    /// How a reading is named where readings of several files meet: `R7` for a shipped one,
    /// `R17 (kara.sow)` for one a file declares, after the file's name.
    pub fn reading_id(&self, number: u16) -> String {
        match self.declared(number) {
            Some(d) => {
                let file = std::path::Path::new(&d.file)
                    .file_name()
                    .map_or_else(|| d.file.clone(), |f| f.to_string_lossy().into_owned());
                format!("R{number} ({file})")
            }
            None => format!("R{number}"),
        }
    }

    /// The sorted, distinct reading numbers the rules rest on, defaults included.
    pub fn reading_numbers(&self) -> Vec<u16> {
        self.numbers(|_| true)
    }

    /// The sorted, distinct reading numbers the rules rest on only by default: no rule the
    /// file states is marked with them.
    pub fn default_readings(&self) -> Vec<u16> {
        let stated = self.numbers(|r| !r.default);
        self.numbers(|r| r.default && !stated.contains(&r.number))
    }

    fn numbers(&self, keep: impl Fn(&ReadingMark) -> bool) -> Vec<u16> {
        let mut numbers: Vec<u16> = self
            .readings
            .iter()
            .filter(|r| keep(r))
            .map(|r| r.number)
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        numbers
    }

    /// A content hash of the rule program (not of names, comments or readings), as 16 hex
    /// digits: FNV-1a (64 bit) of the program's canonical JSON serialisation (fields in
    /// declaration order, no spaces). Two files that spell the same rules differently hash the
    /// same; computed once, when the rules are built.
    pub fn hash(&self) -> String {
        format!("{:016x}", self.hash)
    }

    /// The content hash as a number: what [`Rules::hash`] writes, for records that write it
    /// themselves.
    pub fn content_hash(&self) -> u64 {
        self.hash
    }

    /// The content hash of the program with the seeds of the start layout left out: what a
    /// game plays like from any position, whatever the board started with. Endgame
    /// tablebases are keyed by it, so that every starting fill of a board shares one.
    pub fn play_hash(&self) -> u64 {
        let mut program = self.program.clone();
        program.board.layout.fill(0);
        fnv1a(&serde_json::to_vec(&program).expect("the rule program serialises"))
    }
}

/// FNV-1a, 64 bit: stable across Rust versions, unlike `DefaultHasher`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The shipped editorial readings (`docs/readings.md`), by number, each with the gap it fills.
pub const READINGS: [(u16, &str); 16] = [
    (
        1,
        "only a drop that makes a hole's count exactly 4 forms a casa",
    ),
    (
        2,
        "the last four are checked after every capture, counting seeds in hand",
    ),
    (3, "a player with no seeds on their side passes"),
    (
        4,
        "a capture with extra turn ends the sowing; the mover starts a new turn",
    ),
    (
        5,
        "outside a match, the capturer of the last four takes the last four",
    ),
    (
        6,
        "origin skipping applies to every lap; 12+ and always are the same on 2×6",
    ),
    (7, "no capture when the hole opposite is empty"),
    (
        8,
        "an unfeedable opponent: the player to move takes the seeds left",
    ),
    (9, "feeding is judged on the position after the whole move"),
    (
        10,
        "move cap 2000 and third repetition end a game; seeds to the side owners",
    ),
    (11, "a move whose sowing never ends is illegal"),
    (
        12,
        "match refill by fours from the first hole; unfilled holes closed",
    ),
    (13, "round winner starts; a total under 4 loses the match"),
    (14, "Hoyito III matches refill as Hoyito I (inferred)"),
    (
        15,
        "Hoyito II reconstructed: landing four and the backward run of fours, extra turn",
    ),
    (
        16,
        "Ba-awa: a casa formed in passing goes to the hole's owner",
    ),
];

/// The gap a shipped reading fills, for reports; empty for other numbers.
pub fn reading_gloss(number: u16) -> &'static str {
    READINGS
        .iter()
        .find(|(n, _)| *n == number)
        .map_or("", |(_, text)| text)
}

#[cfg(test)]
mod tests {
    use crate::lang::shipped;

    /// The relay's quick test (`Dispatch::relay_counts`): a landing count it refuses never
    /// relays, and a condition on the count alone is decided by it; a condition on more is
    /// then looked at whole (`Sower::lap_end`).
    #[test]
    fn a_relay_on_the_landing_count_alone_is_decided_by_that_count() {
        // Hoyito I relays from an occupied hole: 2 seeds or more once the last one is in.
        let hoyito = shipped("hoyito-i").dispatch;
        assert!(hoyito.relay_by_count);
        let relays = |n| hoyito.relay_counts.passes(n);
        assert!(!relays(0) && !relays(1));
        assert!(relays(2) && relays(63) && relays(64) && relays(1000));
        // An emptied landing hole has nothing to lift, whatever the condition says of 0.
        let even = "extends \"hoyito-i.sow\"\nsowing { relay: when count is even }\n";
        let even = crate::lang::beside_shipped(even).dispatch;
        assert!(even.relay_by_count);
        let relays = |n| even.relay_counts.passes(n);
        assert!(!relays(0) && !relays(1) && relays(2) && relays(64) && !relays(65));
        // Oware sows single laps.
        let oware = shipped("oware").dispatch;
        assert!(!oware.relay_by_count);
        assert!((0..200).all(|n| !oware.relay_counts.passes(n)));
        // Kay relays from an occupied hole only when the next one is occupied too.
        let kay = shipped("catalogue/kay").dispatch;
        assert!(!kay.relay_by_count);
        assert!(!kay.relay_counts.passes(1) && kay.relay_counts.passes(2));
        // A next-hole relay does not look at the landing hole: even an emptied one passes.
        let pallanguzhi = shipped("catalogue/pallanguzhi").dispatch;
        assert!(!pallanguzhi.relay_by_count);
        assert!((0..200).all(|n| pallanguzhi.relay_counts.passes(n)));
    }
}
