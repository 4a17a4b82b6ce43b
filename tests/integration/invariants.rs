//! Properties of the engine over random games of every shipped variant, and of the front end
//! over arbitrary text (proptest).
//!
//! Games are driven by a proptest-generated prefix of choices (each picks among the legal holes
//! by remainder), then by a ChaCha stream from a generated seed, so a failure shrinks to a short
//! prefix and a seed. `PROPTEST_CASES=n` changes the number of cases of every property here.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sowlab::engine::{EndReason, Event, Game, GameStats, Move, Outcome, Position, Refusal};
use sowlab::report::trace::JsonState;
use sowlab::rules::{Rules, Scoring, Side};

use crate::util;

/// A shipped variant: its name (`oware`), file, text and compiled rules.
pub(crate) struct Variant {
    pub(crate) name: String,
    file: PathBuf,
    text: String,
    pub(crate) rules: Rules,
}

/// Every `variants/*.sow`, compiled once.
fn variants() -> &'static [Variant] {
    static VARIANTS: OnceLock<Vec<Variant>> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(util::path("variants"))
            .expect("variants/ exists")
            .map(|e| e.expect("a readable entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "sow"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no variants/*.sow");
        files
            .into_iter()
            .map(|file| {
                let name = file
                    .file_stem()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned();
                let text = std::fs::read_to_string(&file).expect("a readable variant");
                let rules = util::variant(&name);
                Variant {
                    name,
                    file,
                    text,
                    rules,
                }
            })
            .collect()
    })
}

/// The bound on the game loops: no shipped variant may let a game run past it.
const MOVE_CAP: u32 = 2000;

/// The config for properties that play whole games of every variant.
fn game_config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(32),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The config for properties of the front end (cheap cases).
fn text_config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(256),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Picks among the legal holes: first from a fixed prefix, then from a seeded stream.
struct Chooser {
    prefix: Vec<u32>,
    next: usize,
    rng: ChaCha8Rng,
}

impl Chooser {
    fn new(seed: u64, prefix: Vec<u32>) -> Chooser {
        Chooser {
            prefix,
            next: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    fn pick(&mut self, legal: &[Move]) -> Move {
        let choice = match self.prefix.get(self.next) {
            Some(&c) => c,
            None => self.rng.gen(),
        };
        self.next += 1;
        legal[choice as usize % legal.len()]
    }
}

/// What a failed `play` must leave exactly as it was.
#[derive(Debug, PartialEq)]
struct Snapshot {
    position: Position,
    to_move: Option<Side>,
    outcome: Option<Outcome>,
    stats: GameStats,
}

fn snapshot(game: &Game<'_>) -> Snapshot {
    Snapshot {
        position: *game.position(),
        to_move: game.to_move(),
        outcome: game.outcome(),
        stats: *game.stats(),
    }
}

fn seeds_in_play(position: &Position) -> u32 {
    let board: u32 = position.board().iter().map(|&n| u32::from(n)).sum();
    let stores: u32 = position.stores().iter().map(|&n| u32::from(n)).sum();
    board + stores
}

/// Plays one random game of `v`, checking after every move:
/// - seeds are conserved (board + stores == total);
/// - `legal_moves()` is sorted, non-empty while the game goes on, and holds only the mover's
///   holes; every hole not in it (and holes past the board) is refused by `play` with the game
///   left exactly as it was;
/// - the chosen legal hole plays `Ok`, and `play_traced` of the same hole on a copy of the game
///   gives the same report and the same game, with events that add up to the report;
/// - the game ends within [`MOVE_CAP`] moves.
///
/// Returns the JSON state after each move.
fn play_checked(v: &Variant, seed: u64, prefix: Vec<u32>) -> Result<Vec<JsonState>, TestCaseError> {
    let rules = &v.rules;
    let name = &v.name;
    let total = rules.total_seeds();
    let holes = rules.holes();
    let mut game = Game::new(rules);
    let mut chooser = Chooser::new(seed, prefix);
    let mut states = Vec::new();
    prop_assert_eq!(
        seeds_in_play(game.position()),
        total,
        "{}: at the start",
        name
    );
    let mut turn = 0u32;
    while !game.is_over() {
        prop_assert!(
            turn < MOVE_CAP,
            "{}: still going after {} moves",
            name,
            turn
        );
        let mover = game.to_move();
        prop_assert!(
            mover.is_some(),
            "{}: move {}: not over, but nobody to move",
            name,
            turn + 1
        );
        let mover = mover.unwrap_or(Side::South);
        let legal = game.legal_moves();
        prop_assert!(
            !legal.is_empty(),
            "{}: move {}: not over, but no legal move",
            name,
            turn + 1
        );
        prop_assert!(
            legal.windows(2).all(|w| w[0] < w[1]),
            "{}: legal moves not ascending: {:?}",
            name,
            legal
        );
        for &mv in &legal {
            prop_assert!(
                mv.hole() < holes && game.position().owner(mv.hole()) == mover,
                "{}: {} is not {}'s hole",
                name,
                mv,
                mover
            );
        }

        let before = snapshot(&game);
        // Holes off the board, and every clockwise sowing (refused where the mover does not
        // choose the direction).
        let off_board = (holes..32).take(2).map(Move::from_hole);
        let clockwise = (0..holes).map(|h| Move::new(h, true));
        let others = (0..holes).map(Move::from_hole).chain(clockwise);
        for mv in others.filter(|m| !legal.contains(m)).chain(off_board) {
            match game.play(mv) {
                Ok(report) => prop_assert!(
                    false,
                    "{}: move {}: {} is not legal but played: {:?}",
                    name,
                    turn + 1,
                    mv,
                    report
                ),
                Err(e) => {
                    prop_assert_eq!(e.mv, mv);
                    if mv.hole() >= holes {
                        prop_assert_eq!(e.reason, Refusal::NoSuchHole);
                    }
                }
            }
            prop_assert_eq!(
                &snapshot(&game),
                &before,
                "{}: move {}: refusing {} changed the game",
                name,
                turn + 1,
                mv
            );
        }
        prop_assert_eq!(
            game.legal_moves(),
            legal.clone(),
            "{}: refusals changed the legal moves",
            name
        );

        let hole = chooser.pick(&legal);
        let mut traced = game.clone();
        let report = game.play(hole);
        prop_assert!(
            report.is_ok(),
            "{}: move {}: legal hole {} refused: {:?}",
            name,
            turn + 1,
            hole,
            report
        );
        let mut events: Vec<Event> = Vec::new();
        let traced_report = traced.play_traced(hole, &mut events);
        prop_assert_eq!(
            &traced_report,
            &report,
            "{}: move {}: play_traced disagrees with play",
            name,
            turn + 1
        );
        prop_assert_eq!(
            snapshot(&traced),
            snapshot(&game),
            "{}: move {}: play_traced left another game",
            name,
            turn + 1
        );
        let Ok(report) = report else {
            unreachable!("asserted legal above")
        };
        let drops = events
            .iter()
            .filter(|e| matches!(e, Event::Drop { .. }))
            .count();
        let captured: u32 = events
            .iter()
            .map(|e| match e {
                Event::Capture { seeds, .. }
                | Event::House { seeds, .. }
                | Event::Raid { seeds, .. } => u32::from(*seeds),
                _ => 0,
            })
            .sum();
        prop_assert_eq!(
            drops as u32,
            report.sown,
            "{}: move {}: drop events vs report",
            name,
            turn + 1
        );
        prop_assert_eq!(
            captured,
            report.captured,
            "{}: move {}: capture events vs report",
            name,
            turn + 1
        );
        prop_assert_eq!(report.side, Some(mover));

        turn += 1;
        prop_assert_eq!(
            seeds_in_play(game.position()),
            total,
            "{}: move {} (hole {}) breaks conservation: {:?}",
            name,
            turn,
            hole,
            game.position()
        );
        states.push(JsonState::after(&game, turn, mover, hole));
    }
    check_end(v, &mut game, turn)?;
    Ok(states)
}

/// A finished game: nobody to move, no legal move, every hole refused as `GameOver`, the board
/// empty (every shipped variant awards every seed), and the winner the one who captured more.
fn check_end(v: &Variant, game: &mut Game<'_>, turn: u32) -> Result<(), TestCaseError> {
    let name = &v.name;
    let rules = &v.rules;
    let outcome = game.outcome();
    prop_assert!(outcome.is_some(), "{}: over without an outcome", name);
    let Some(outcome) = outcome else {
        return Ok(());
    };
    prop_assert_eq!(
        game.to_move(),
        None,
        "{}: over, yet someone is to move",
        name
    );
    prop_assert!(
        game.legal_moves().is_empty(),
        "{}: over, yet moves are legal",
        name
    );
    for hole in 0..rules.holes() {
        let refusal = game.play(Move::from_hole(hole)).map_err(|e| e.reason);
        prop_assert_eq!(
            refusal,
            Err(Refusal::GameOver),
            "{}: hole {} after the end",
            name,
            hole
        );
    }
    let position = game.position();
    // A split leaves an odd seed unawarded (or gives it to the poorer player); every other
    // award empties the board.
    let left = position.board_seeds();
    prop_assert!(
        left == 0 || (left == 1 && v.text.contains("split")),
        "{}: over ({:?}) with seeds on the board: {:?}",
        name,
        outcome,
        position
    );
    let [south, north] = position.stores();
    prop_assert_eq!(
        u32::from(south) + u32::from(north) + left,
        rules.total_seeds(),
        "{}: stores at the end",
        name
    );
    let unfinished = matches!(outcome.reason, EndReason::Cap | EndReason::Repetition);
    let scoring = rules.program.ending.scoring;
    let expected = if unfinished && rules.program.ending.unfinished_is_draw {
        None
    } else if scoring == Scoring::StuckLoses && outcome.reason == EndReason::Stuck {
        Some(position.to_move().other())
    } else if scoring == Scoring::EmptiedWins && outcome.reason == EndReason::Emptied {
        Some(position.to_move())
    } else {
        match south.cmp(&north) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    };
    prop_assert_eq!(
        outcome.winner,
        expected,
        "{}: winner {:?} with stores {} – {} ({:?})",
        name,
        outcome.winner,
        south,
        north,
        outcome.reason
    );
    prop_assert_eq!(game.stats().moves, turn, "{}: moves counted", name);
    prop_assert!(
        turn <= rules.program.ending.move_cap,
        "{}: {} moves past the cap {}",
        name,
        turn,
        rules.program.ending.move_cap
    );
    if outcome.reason == EndReason::Cap {
        prop_assert_eq!(
            turn,
            rules.program.ending.move_cap,
            "{}: ended by the cap early",
            name
        );
    }
    Ok(())
}

/// Plays `game` with no checks: the JSON state after each move.
fn play_plain(v: &Variant, game: &mut Game<'_>, seed: u64, prefix: Vec<u32>) -> Vec<JsonState> {
    let mut chooser = Chooser::new(seed, prefix);
    let mut states = Vec::new();
    let mut turn = 0;
    while let Some(mover) = game.to_move() {
        assert!(turn < MOVE_CAP, "{}: no end", v.name);
        let hole = chooser.pick(&game.legal_moves());
        game.play(hole).expect("a legal move");
        turn += 1;
        states.push(JsonState::after(game, turn, mover, hole));
    }
    states
}

#[test]
fn every_shipped_variant_caps_its_games() {
    for v in variants() {
        let cap = v.rules.program.ending.move_cap;
        assert!(
            cap <= MOVE_CAP,
            "{}: move cap {cap} is past the test's bound {MOVE_CAP}",
            v.name
        );
    }
}

proptest! {
    #![proptest_config(game_config())]

    /// Conservation, legality, termination and the end state, over random games of every
    /// shipped variant (see `play_checked` and `check_end`).
    #[test]
    fn random_games_keep_the_invariants(seed in any::<u64>(), prefix in prop::collection::vec(any::<u32>(), 0..40)) {
        for v in variants() {
            play_checked(v, seed, prefix.clone())?;
        }
    }

    /// The same choices give the same game, state for state, also when the second is played
    /// in the spent first one, copied over from the start (`clone_from` keeps the allocations
    /// and must forget everything else, as a simulation reusing its games relies on).
    #[test]
    fn games_are_deterministic(seed in any::<u64>(), prefix in prop::collection::vec(any::<u32>(), 0..40)) {
        for v in variants() {
            let start = Game::new(&v.rules);
            let mut game = start.clone();
            let first = play_plain(v, &mut game, seed, prefix.clone());
            game.clone_from(&start);
            let second = play_plain(v, &mut game, seed, prefix.clone());
            prop_assert!(!first.is_empty());
            prop_assert_eq!(first, second, "{}: two runs differ", &v.name);
        }
    }

    /// `play_random` plays legal moves only and keeps the invariants too.
    #[test]
    fn play_random_keeps_the_invariants(seed in any::<u64>()) {
        for v in variants() {
            let mut game = Game::new(&v.rules);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut turn = 0;
            while !game.is_over() {
                prop_assert!(turn < MOVE_CAP, "{}: no end", &v.name);
                let legal = game.clone().legal_moves();
                let report = game.play_random(&mut rng);
                prop_assert!(report.is_some(), "{}: not over, but play_random played nothing", &v.name);
                let played = report.map(|r| r.mv);
                prop_assert!(played.is_some_and(|m| legal.contains(&m)), "{}: play_random played {:?} not in {:?}", &v.name, played, legal);
                prop_assert_eq!(seeds_in_play(game.position()), v.rules.total_seeds(), "{}: conservation", &v.name);
                turn += 1;
            }
            prop_assert!(game.play_random(&mut rng).is_none());
            check_end(v, &mut game, turn)?;
        }
    }
}

/// Shipped variants with a rule or two changed, to reach engine paths the shipped files do
/// not use (relative `extends`, compiled from `variants/`). Every one awards every seed.
const TWEAKS: &[(&str, &str)] = &[
    ("ayoayo, endless moves stop at a drop cap", "extends \"ayoayo.sow\"\nsowing { drop cap: 500 }\nend { endless moves: stop at cap }\n"),
    (
        "oware, grand slam forbidden",
        "extends \"oware.sow\"\ncapture \"twos and threes\" {\n  on: last drop of the move\n  if: opponent side and count is 2 or 3\n  \
         take: hole and backward while opponent side and count is 2 or 3\n  then: sowing ends\n  grand slam: forbidden\n}\n",
    ),
    ("hoyito-i, laps start in the lifted hole", "extends \"hoyito-i.sow\"\nsowing { laps start: lifted hole }\n"),
    ("ayoayo, feeding judged on the first lap", "extends \"ayoayo.sow\"\nfeeding { judged: on the first lap }\n"),
    ("oware, a cap of 40 moves and unfinished games drawn", "extends \"oware.sow\"\nend { unfinished: draw  move cap: 40, to owners }\n"),
    ("hoyito-i on 2×3 holes of 2 seeds", "extends \"hoyito-i.sow\"\nboard { holes: 3 per row  seeds: 2 per hole }\n"),
    ("kalah, clockwise, north starts", "extends \"kalah.sow\"\nsowing { direction: clockwise }\nboard { starter: north }\n"),
    (
        "en-dodoi from a sparse layout, a stuck player's board to the player to move",
        "extends \"en-dodoi.sow\"\nboard { layout: 1 0 0 0 0 2  3 0 0 0 0 1 }\nend { no move: end, to player to move }\n",
    ),
    ("ba-awa on 2×16 holes", "extends \"ba-awa.sow\"\nboard { holes: 16 per row }\n"),
    ("hoyito-ii, last seeds after each move", "extends \"hoyito-ii.sow\"\nend { last seeds: at most 4 after each move, to capturer }\n"),
    // The rule families of the wider catalogue, each in a small variant of its own.
    (
        "houses made by threes, captured, sown to their owner; even captures",
        "game \"Houses\" { source: \"t\" }\nboard { holes: 9 per row  seeds: 9 per hole  stores: kept }\nsowing { laps start: lifted hole, a single seed to the next hole }\n\
         capture \"even\" { on: last drop of the move  if: opponent side and count is even  take: hole }\n\
         house \"tuzdyk\" { on: last drop of the move  if: opponent side and count is 3 and not last hole  limit: 1 per player  not matching: the other player's house }\n\
         end { majority: to owners  no move: end, to opponent }\n",
    ),
    (
        "kept houses raided, relay, extra turn once, odd seed to the poorer",
        "game \"Raids\" { source: \"t\" }\nsowing { relay: when occupied }\n\
         house \"weg\" { on: last drop of a lap  if: opponent side and count is 4  contents: kept  sown: kept  raided: the seed and 1 more, then another turn }\n\
         capture \"pairs\" { on: last drop of the move  if: was empty and own side  take: opposite  then: extra turn, not twice in a row }\n\
         end { no move: end, split, odd seed to the poorer }\n",
    ),
    (
        "direction chosen, next-hole relay, capture across an empty hole and go on",
        "game \"Lapping\" { source: \"t\" }\nboard { holes: 7 per row  seeds: 5 per hole }\nsowing { direction: chosen  relay: next hole }\n\
         capture \"pasu\" { on: every drop but the last of a lap  if: count is 4  take: hole  to: owner }\n\
         capture \"beyond\" { on: last drop of the move  if: next empty  take: hole after next and on across empty holes  then: sowing goes on from the next hole }\n",
    ),
    (
        "direction outward, min seeds, chains both ways of one hole, quiet end",
        "game \"Outward\" { source: \"t\" }\nboard { holes: 5 per row  seeds: 3 per hole }\nsowing { direction: outward  min seeds: 2 }\n\
         capture \"twos\" { on: last drop of the move  if: opponent side and count is 2 or 4  take: hole and both ways while count is 2 or 4, at most 1 hole }\n\
         end { no move: pass  no capture for: 50 moves, to owners }\n",
    ),
    (
        "kalah by parity, clockwise stores after their row",
        "extends \"kalah.sow\"\nsowing { direction: odd seeds clockwise }\n",
    ),
    (
        "skipped threes, end-hole houses, first moves from the ends, locked holes",
        "game \"Skips\" { source: \"t\" }\nboard { holes: 7 per row  stores: kept }\nsowing { skip holes: holding 3, but not the last seed  relay: when occupied  first move: own holes 1 to 1  locked: played holes }\n\
         capture \"fours\" { on: last drop of a lap  if: count is 4  take: hole }\n\
         house \"baenda\" { on: last drop of a lap  if: end hole and count is 4  contents: kept  sown: kept }\n\
         end { no move: pass  singletons: to owners }\n",
    ),
    (
        "songo's sowing past a round, captures away from the first hole, every hole of a count",
        "game \"Round\" { source: \"t\" }\nboard { holes: 7 per row  seeds: 5 per hole }\nsowing { direction: clockwise  skip origin: from 14 seeds  after a round: opponent's holes only }\n\
         capture \"c\" { on: last drop of the move  if: opponent side and not first hole and count is 2 to 4  take: every hole where opponent side and count is 2 to 4 }\n\
         end { no move: end, to owners }\n",
    ),
    (
        "a move filter, a prescribed opening, the capturing seed moving on, a stuck player losing",
        "game \"Filters\" { source: \"t\" }\nboard { holes: 8 per row  layout: 0 3 3 0 3 3 0 3  0 3 3 0 3 3 0 3 }\nsowing { relay: when occupied  opening: 5, 14  first lap: not into an occupied own hole }\n\
         capture \"opposite\" { on: last drop of a lap  if: was empty and own side and opposite occupied  take: opposite  then: the capturing seed moves on  from move: 3 }\n\
         end { winner: a player who cannot move loses }\n",
    ),
    (
        "bearing off below three seeds, sown either way, with relays and captures across",
        "game \"Bear off\" { source: \"t\" }\nboard { holes: 5 per row  seeds: 3 per hole  stores: kept }\n\
         sowing { direction: chosen  relay: when occupied  bear off: when no hole holds more than 2 }\n\
         capture \"across\" { on: last drop of the move  if: was empty and own side and opposite occupied  take: opposite }\n\
         end { no move: end, to owners }\n",
    ),
    (
        "own-row rings through their sown stores, opposite counts and equal opposites",
        "game \"Rings\" { source: \"t\" }\nboard { stores: sown }\nsowing { ring: own row  drop cap: 500 }\n\
         capture \"c\" { on: last drop of the move  if: count is odd and opposite count is 1, 2 or at least 4 and next occupied  take: hole and opposite }\n\
         capture \"e\" { on: last drop of the move  if: opposite equal  take: opposite }\n\
         end { empty row: opponent's, to owners  winner: first to empty own holes }\n",
    ),
];

fn compile_tweak(name: &str, text: &str) -> Variant {
    let dir = util::path("variants");
    let rules = sowlab::lang::compile_text("tweak.sow", text, &dir)
        .unwrap_or_else(|e| panic!("{name} does not compile:\n{}", e.render(false)));
    Variant {
        name: name.to_string(),
        file: dir.join("tweak.sow"),
        text: text.to_string(),
        rules,
    }
}

/// The tweaks, compiled once: rule families and corners no shipped file reaches.
pub(crate) fn tweaked() -> &'static [Variant] {
    static TWEAKED: OnceLock<Vec<Variant>> = OnceLock::new();
    TWEAKED.get_or_init(|| {
        TWEAKS
            .iter()
            .map(|(name, text)| compile_tweak(name, text))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(16), ..game_config() })]

    /// The invariants of `random_games_keep_the_invariants`, for the tweaked variants.
    #[test]
    fn random_games_of_tweaked_rules_keep_the_invariants(seed in any::<u64>(), prefix in prop::collection::vec(any::<u32>(), 0..40)) {
        for v in tweaked() {
            play_checked(v, seed, prefix.clone())?;
        }
    }
}

/// With `endless moves: end the game`, a hole whose sowing never ends is legal and choosing it
/// ends the game, through `play_traced` (which `sowlab trace` uses) as through `play`.
/// Regression: `sowlab trace F --random 2000 --seed 215 --json` with F =
/// `extends "variants/ayoayo.sow"` + `end { endless moves: end the game }` once failed at move 18.
#[test]
fn endless_moves_that_end_the_game_can_be_traced() {
    let v = compile_tweak(
        "ayoayo, endless moves end the game",
        "extends \"ayoayo.sow\"\nend { endless moves: end the game }\n",
    );
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: cases(64),
        ..game_config()
    });
    runner
        .run(
            &(any::<u64>(), prop::collection::vec(any::<u32>(), 0..8)),
            |(seed, prefix)| play_checked(&v, seed, prefix).map(drop),
        )
        .unwrap();
    // The reproducer: the choices `sowlab trace --random N --seed 215` makes; move 18 fails.
    let mut game = Game::new(&v.rules);
    let mut rng = ChaCha8Rng::seed_from_u64(215);
    while game.to_move().is_some() {
        let legal = game.legal_moves();
        let hole = legal[rng.gen_range(0..legal.len())];
        let mut copy = game.clone();
        let played = game.play(hole);
        let traced = copy.play_traced(hole, &mut Vec::new());
        assert_eq!(played, traced, "hole {hole}");
    }
}

/// `sowlab trace FILE --random 200 --seed 5 --json`: identical bytes from two runs, and the
/// states the library gives for the same choices (the command's own algorithm: ChaCha8 from the
/// seed, a uniform index into `legal_moves()`).
#[test]
fn trace_json_is_deterministic_and_matches_the_library() {
    for v in variants() {
        let file = format!("variants/{}.sow", v.name);
        let args = ["trace", &file, "--random", "200", "--seed", "5", "--json"];
        let first = util::sowlab().args(args).output().expect("sowlab runs");
        let second = util::sowlab().args(args).output().expect("sowlab runs");
        assert!(
            first.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&first.stderr)
        );
        assert_eq!(first.stdout, second.stdout, "{file}: two runs differ");

        let mut game = Game::new(&v.rules);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut expected = String::new();
        for turn in 1..=200 {
            let Some(mover) = game.to_move() else { break };
            let legal = game.legal_moves();
            let hole = legal[rng.gen_range(0..legal.len())];
            game.play(hole).expect("a legal move");
            let state = JsonState::after(&game, turn, mover, hole);
            expected.push_str(&serde_json::to_string(&state).expect("serialisable"));
            expected.push('\n');
        }
        let got = String::from_utf8_lossy(&first.stdout);
        assert_eq!(got, expected, "{file}: the trace is not the library's game");
        for line in got.lines() {
            let state: JsonState = serde_json::from_str(line).expect("each line is one JSON state");
            assert_eq!(state.board.len(), v.rules.holes(), "{file}");
        }
    }
}

// ------------------------------------------------------------------------------ the front end

/// Words of the language, and a few tokens around them, for text that gets past the first
/// line of the grammar.
const VOCABULARY: &[&str] = &[
    "extends",
    "game",
    "board",
    "sowing",
    "capture",
    "no",
    "feeding",
    "end",
    "match",
    "{",
    "}",
    ":",
    ",",
    "\"casa\"",
    "\"\"",
    "\"hoyito-i.sow\"",
    "\"x\\\"y\"",
    "holes",
    "seeds",
    "layout",
    "stores",
    "starter",
    "per",
    "row",
    "hole",
    "none",
    "kept",
    "sown",
    "south",
    "north",
    "direction",
    "counterclockwise",
    "clockwise",
    "laps",
    "start",
    "next",
    "lifted",
    "skip",
    "origin",
    "never",
    "always",
    "from",
    "on",
    "every",
    "first",
    "lap",
    "relay",
    "when",
    "extra",
    "turn",
    "in",
    "own",
    "store",
    "drop",
    "cap",
    "but",
    "the",
    "last",
    "of",
    "a",
    "move",
    "if",
    "take",
    "opposite",
    "and",
    "capturing",
    "seed",
    "backward",
    "while",
    "to",
    "mover",
    "owner",
    "then",
    "continues",
    "ends",
    "grand",
    "slam",
    "captures",
    "nothing",
    "forbidden",
    "count",
    "is",
    "or",
    "at",
    "least",
    "most",
    "was",
    "empty",
    "occupied",
    "side",
    "opponent",
    "judged",
    "after",
    "unfeedable",
    "seeds",
    "each",
    "majority",
    "owners",
    "pass",
    "repetition",
    "unfinished",
    "scored",
    "by",
    "totals",
    "draw",
    "endless",
    "moves",
    "illegal",
    "stop",
    "winner",
    "captured",
    "capturer",
    "player",
    "previous",
    "nobody",
    "split",
    "refill",
    "unfilled",
    "holes",
    "closed",
    "open",
    "surplus",
    "reserve",
    "round",
    "loser",
    "alternate",
    "lose",
    "below",
    "reading",
    "R1",
    "R7",
    "R0",
    "R16",
    "R17",
    "R255",
    "R256",
    "R99999",
    "0",
    "1",
    "2",
    "3",
    "4",
    "6",
    "12",
    "16",
    "17",
    "63",
    "64",
    "99",
    "100",
    "1000",
    "60001",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "99999999999999999999999",
    "#",
    "\n",
    "source",
    "sorce",
    "note",
    "aliases",
    "\u{feff}",
    "é",
    "\t",
];

/// Numbers that sit on the edges of the ranges the compiler checks.
const EDGE_NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "15",
    "16",
    "17",
    "48",
    "49",
    "62",
    "63",
    "64",
    "65",
    "99",
    "100",
    "999",
    "1000",
    "1001",
    "60000",
    "60001",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551616",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(VOCABULARY),
            prop::sample::select(&[" ", " ", "\n", "", "  "][..]),
        ),
        0..80,
    )
    .prop_map(|words| words.into_iter().flat_map(|(w, sep)| [w, sep]).collect())
}

/// A shipped file with a range of characters deleted, replaced or inserted into.
fn mutation() -> impl Strategy<Value = (usize, String)> {
    let insert = prop_oneof![
        Just(String::new()),
        prop::sample::select(VOCABULARY).prop_map(str::to_string),
        any::<String>(),
        "[ -~\n]{0,12}",
    ];
    (
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        0..24usize,
        insert,
    )
        .prop_map(|(which, at, len, insert)| {
            let variants = variants();
            let v = &variants[which.index(variants.len())];
            let chars: Vec<char> = v.text.chars().collect();
            let start = at.index(chars.len() + 1);
            let end = (start + len).min(chars.len());
            let text: String = chars[..start]
                .iter()
                .chain(insert.chars().collect::<Vec<_>>().iter())
                .chain(&chars[end..])
                .collect();
            (which.index(variants.len()), text)
        })
}

/// A shipped file with one of its numbers replaced by one on the edge of a range.
fn renumbered() -> impl Strategy<Value = (usize, String)> {
    (
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        prop::sample::select(EDGE_NUMBERS),
    )
        .prop_map(|(which, nth, number)| {
            let variants = variants();
            let i = which.index(variants.len());
            let text = &variants[i].text;
            let numbers: Vec<(usize, usize)> = {
                let bytes = text.as_bytes();
                let mut spans = Vec::new();
                let mut k = 0;
                while k < bytes.len() {
                    if bytes[k].is_ascii_digit() {
                        let start = k;
                        while k < bytes.len() && bytes[k].is_ascii_digit() {
                            k += 1;
                        }
                        spans.push((start, k));
                    } else {
                        k += 1;
                    }
                }
                spans
            };
            if numbers.is_empty() {
                return (i, text.clone());
            }
            let (start, end) = numbers[nth.index(numbers.len())];
            (i, format!("{}{number}{}", &text[..start], &text[end..]))
        })
}

/// Compiles `text` as if it were a file in `dir`; must not panic. If it compiles, a short game
/// of it must play and conserve seeds (rules the compiler accepts are rules the engine runs).
fn compiles_or_errs(name: &str, text: &str, dir: &Path) -> Result<(), TestCaseError> {
    // A panic here fails the case; proptest catches it and shrinks the text.
    match sowlab::lang::compile_text(name, text, dir) {
        Ok(rules) => {
            // Large games are slow to sow in a debug build; the shipped sizes are small.
            if rules.total_seeds() > 200 || rules.program.sowing.drop_cap > 1_000_000 {
                return Ok(());
            }
            let mut game = Game::new(&rules);
            let mut rng = ChaCha8Rng::seed_from_u64(text.len() as u64);
            for _ in 0..20 {
                if game.play_random(&mut rng).is_none() {
                    break;
                }
                prop_assert_eq!(
                    seeds_in_play(game.position()),
                    rules.total_seeds(),
                    "conservation in a compiled variant:\n{}",
                    text
                );
            }
        }
        Err(errors) => {
            prop_assert!(!errors.0.is_empty(), "Err without an error for {:?}", text);
            // Rendering must not panic either, and must name where.
            let rendered = errors.render(false);
            prop_assert!(
                rendered.contains("╭─["),
                "a report without a location:\n{}",
                rendered
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(text_config())]

    #[test]
    fn the_parser_never_panics_on_arbitrary_text(text in any::<String>()) {
        compiles_or_errs("x.sow", &text, Path::new("."))?;
    }

    #[test]
    fn the_parser_never_panics_on_printable_text(text in "[ -~\n\t]{0,200}") {
        compiles_or_errs("x.sow", &text, Path::new("."))?;
    }

    #[test]
    fn the_parser_never_panics_on_keyword_soup(text in soup()) {
        compiles_or_errs("x.sow", &text, Path::new("."))?;
    }

    #[test]
    fn the_parser_never_panics_on_mutated_variants((which, text) in mutation()) {
        let v = &variants()[which];
        let dir = v.file.parent().expect("variants/");
        compiles_or_errs(&format!("{}.sow", v.name), &text, dir)?;
    }

    #[test]
    fn the_compiler_never_panics_on_edge_numbers((which, text) in renumbered()) {
        let v = &variants()[which];
        let dir = v.file.parent().expect("variants/");
        compiles_or_errs(&format!("{}.sow", v.name), &text, dir)?;
    }
}

proptest! {
    #![proptest_config(game_config())]

    /// `Game::play_random_out`, how a simulation plays two random agents, plays the game that
    /// `play_random` called move by move with the same streams plays: the opening's moves from
    /// the third stream, then each player's from their own.
    #[test]
    fn playing_random_out_is_playing_random_move_by_move(seed in any::<u64>(), opening in 0u32..12) {
        for v in variants() {
            let streams = || [0, 1, 2].map(|k| ChaCha8Rng::seed_from_u64(seed ^ k));
            let mut by_move = Game::new(&v.rules);
            let mut own = streams();
            let mut moves = 0;
            while let Some(side) = by_move.to_move() {
                let stream = if moves < opening { 2 } else { side.index() };
                by_move.play_random(&mut own[stream]);
                moves += 1;
            }
            let mut out = Game::new(&v.rules);
            let mut theirs = streams();
            prop_assert_eq!(out.play_random_out(&mut theirs, opening), moves, "{}", v.name);
            prop_assert_eq!(out.position(), by_move.position(), "{}", v.name);
            prop_assert_eq!(out.outcome(), by_move.outcome(), "{}", v.name);
            prop_assert_eq!(out.stats(), by_move.stats(), "{}", v.name);
            // Each stream was drawn on as often.
            for (a, b) in theirs.iter_mut().zip(&mut own) {
                prop_assert_eq!(a.gen::<u64>(), b.gen::<u64>(), "{}", v.name);
            }
        }
    }

    /// `Game::random_playout`, the fast path of simulations and MCTS, ends every game with the
    /// same accounting as move-by-move play: seeds conserved, board empty, winner by the stores.
    #[test]
    fn random_playouts_end_games_with_their_seeds_accounted(seed in any::<u64>(), opening in 0u32..20) {
        for v in variants() {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut game = Game::new(&v.rules);
            for _ in 0..opening {
                if game.play_random(&mut rng).is_none() {
                    break;
                }
            }
            let before = game.stats().moves;
            let played = game.random_playout(&mut rng);
            prop_assert!(game.is_over(), "{}: playout stopped before the end", v.name);
            prop_assert_eq!(game.stats().moves, before + played, "{}", v.name);
            prop_assert!(game.stats().moves <= MOVE_CAP, "{}", v.name);
            prop_assert_eq!(seeds_in_play(game.position()), v.rules.total_seeds(), "{}", v.name);
            prop_assert_eq!(game.position().board_seeds(), 0, "{}", v.name);
            prop_assert_eq!(game.random_playout(&mut rng), 0, "{}: a finished game played on", v.name);
            let [s, n] = game.position().stores();
            let winner = game.outcome().unwrap().winner;
            prop_assert_eq!(winner, match s.cmp(&n) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            }, "{}", v.name);
        }
    }
}
