//! The engine's shortcuts held to its plain path: every variant file, from its start and from
//! random boards, is played on its rules as compiled and on `Rules::without_shortcuts` (every
//! quick test off, no move taken as legal unsown, every drop and end rule looked at, the loop
//! of every rule family), and the two must agree on every state, event, legal-move list,
//! report and result — move by move, in random playouts, under the agents, and in matches.
//!
//! A shortcut that ignores a rule shows here as soon as a random game reaches that rule.
//! `PROPTEST_CASES=n` changes the number of cases.

use std::path::PathBuf;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sowlab::agents::AgentSpec;
use sowlab::engine::differential::{self, same_state, Divergence};
use sowlab::engine::{perft, Game, Match, Position};
use sowlab::rules::{Rules, Side};

use crate::invariants;
use crate::util::{self, assert_golden};

/// A variant file compiled twice: as the engine plays it, and with its shortcuts off.
struct Pair {
    /// The file, from `variants/`, without `.sow` (`catalogue/awale`).
    name: String,
    fast: Rules,
    plain: Rules,
}

impl Pair {
    fn new(name: String, fast: Rules) -> Pair {
        let plain = fast.without_shortcuts();
        Pair { name, fast, plain }
    }
}

/// The `.sow` files of a folder of the repository, sorted.
fn files_in(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(util::path(dir))
        .expect("the folder exists")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sow"))
        .collect();
    files.sort();
    files
}

/// Every variant file of the repository (`variants/`, `variants/catalogue/`), the golden
/// corner cases' rule files, and the invariant tests' tweaks, which use every rule family
/// the language has: a shortcut that ignores a rule is tried on a file that uses it.
fn pairs() -> &'static [Pair] {
    static PAIRS: OnceLock<Vec<Pair>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let mut pairs = Vec::new();
        for dir in ["variants", "variants/catalogue", "tests/golden/corners"] {
            for file in files_in(dir) {
                let rules = sowlab::lang::compile_path(&file, &[])
                    .unwrap_or_else(|e| panic!("{}:\n{}", file.display(), e.render(false)));
                let stem = file.file_stem().expect("a name").to_string_lossy();
                pairs.push(Pair::new(format!("{dir}/{stem}"), rules));
            }
        }
        for (name, text) in ONE_FAMILY {
            let rules = sowlab::lang::compile_text("family.sow", text, &util::path("variants"))
                .unwrap_or_else(|e| panic!("{name}:\n{}", e.render(false)));
            pairs.push(Pair::new((*name).to_string(), rules));
        }
        for tweak in invariants::tweaked() {
            pairs.push(Pair::new(tweak.name.clone(), tweak.rules.clone()));
        }
        pairs
    })
}

/// Each rule family that switches a shortcut off, alone on a variant that takes every
/// shortcut otherwise (Kalah and Oware): a shortcut that forgot the family would be the only
/// difference between the paths.
const ONE_FAMILY: &[(&str, &str)] = &[
    ("skipped holes", "extends \"oware.sow\"\nsowing { skip holes: holding 3 }\n"),
    ("locked holes", "extends \"oware.sow\"\nsowing { locked: played holes }\n"),
    ("after a round", "extends \"oware.sow\"\nsowing { after a round: opponent's holes only }\n"),
    ("first-lap filter", "extends \"oware.sow\"\nsowing { first lap: not into an occupied own hole }\n"),
    (
        "last seed across",
        "extends \"oware.sow\"\nsowing { first move: own holes 1 to 6, a last seed bound for the own row goes to the opponent's first hole }\n",
    ),
    ("next-hole relay", "extends \"kalah.sow\"\nsowing { relay: next hole }\n"),
    ("landing relay", "extends \"kalah.sow\"\nsowing { relay: when occupied }\n"),
    ("a drop cap within reach", "extends \"kalah.sow\"\nboard { holes: 3 per row  seeds: 20 per hole }\nsowing { drop cap: 100 }\n"),
    ("minimum seeds", "extends \"kalah.sow\"\nsowing { min seeds: 2 }\n"),
    ("an opening", "extends \"kalah.sow\"\nsowing { opening: 2, 9 }\n"),
    ("a first move", "extends \"kalah.sow\"\nsowing { first move: own holes 1 to 2 }\n"),
    ("direction chosen", "extends \"kalah.sow\"\nsowing { direction: chosen }\n"),
    ("direction by parity", "extends \"kalah.sow\"\nsowing { direction: odd seeds clockwise }\n"),
    ("laps from the lifted hole", "extends \"kalah.sow\"\nsowing { laps start: lifted hole }\n"),
    ("bearing off", "extends \"oware.sow\"\nsowing { bear off: when no hole holds more than 2 }\n"),
    (
        "a capture by place",
        "extends \"kalah.sow\"\ncapture \"p\" { on: last drop of the move  if: opponent side and not first hole and count is 2  take: hole }\n",
    ),
    (
        "a capture by the next hole",
        "extends \"kalah.sow\"\ncapture \"n\" { on: last drop of the move  if: next empty  take: hole after next }\n",
    ),
    (
        "a capture of equal opposites",
        "extends \"kalah.sow\"\ncapture \"e\" { on: last drop of the move  if: opposite equal  take: opposite }\n",
    ),
    (
        "a forward chain",
        "extends \"kalah.sow\"\ncapture \"f\" { on: last drop of the move  if: opponent side and count is 2 or 3  take: hole and forward while count is 2 or 3 }\n",
    ),
    (
        "a capture sowing on",
        "extends \"kalah.sow\"\ncapture \"s\" { on: last drop of the move  if: opponent side and count is 2  take: hole  then: sowing goes on from the next hole }\n",
    ),
    (
        "a seed moving on",
        "extends \"kalah.sow\"\ncapture \"m\" { on: last drop of a lap  if: was empty and own side and opposite occupied  take: opposite  then: the capturing seed moves on }\n",
    ),
    (
        "a capture from a later move",
        "extends \"kalah.sow\"\ncapture \"l\" { on: last drop of the move  if: opponent side and count is 2  take: hole  from move: 3 }\n",
    ),
    (
        "a forbidden grand slam",
        "extends \"oware.sow\"\ncapture \"twos and threes\" {\n  on: last drop of the move\n  if: opponent side and count is 2 or 3\n  take: hole and backward while opponent side and count is 2 or 3\n  then: sowing ends\n  grand slam: forbidden\n}\n",
    ),
    (
        "houses",
        "extends \"kalah.sow\"\nhouse \"h\" { on: last drop of the move  if: opponent side and count is 3  limit: 1 per player }\n",
    ),
    ("emptied wins", "extends \"kalah.sow\"\nend { winner: first to empty own holes }\n"),
    ("last seeds after a move", "extends \"kalah.sow\"\nend { last seeds: at most 6 after each move, to capturer }\n"),
    ("a majority", "extends \"kalah.sow\"\nend { majority: to owners }\n"),
    ("an empty row", "extends \"oware.sow\"\nend { empty row: own, to owners }\n"),
    ("singletons", "extends \"kalah.sow\"\nend { singletons: to owners }\n"),
    ("quiet", "extends \"kalah.sow\"\nend { no capture for: 12 moves, to owners }\n"),
];

/// The variant files perft pins: the repository's own.
fn shipped() -> impl Iterator<Item = &'static Pair> {
    pairs().iter().filter(|p| p.name.starts_with("variants/"))
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(32);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The start of a test game: the variant's own start, or (two times in three) its seeds
/// thrown at random into the holes and stores, either player to move — the boards `--set`
/// gives, which reach corners a game from the start seldom does.
fn start(rules: &Rules, rng: &mut ChaCha8Rng) -> Position {
    if rng.gen_ratio(1, 3) {
        return Position::initial(rules);
    }
    let holes = rules.holes();
    let mut board = vec![0u16; holes];
    let mut stores = [0u16; 2];
    // Now and then a board of few seeds, where rows empty and end rules fire.
    let on_board = if rng.gen_ratio(1, 3) {
        rng.gen_range(0..=rules.total_seeds().min(2 * holes as u32))
    } else {
        rules.total_seeds()
    };
    for _ in 0..on_board {
        board[rng.gen_range(0..holes)] += 1;
    }
    for _ in on_board..rules.total_seeds() {
        stores[rng.gen_range(0..2)] += 1;
    }
    let to_move = if rng.gen() { Side::South } else { Side::North };
    Position::from_setup(rules, &board, stores, to_move).expect("the seeds add up")
}

/// A divergence as a test failure.
fn agree(name: &str, found: Result<(), Divergence>) -> Result<(), TestCaseError> {
    found.map_err(|d| TestCaseError::fail(format!("{name}: {d}")))
}

/// One game move by move on both paths (`differential::play_both`), from a random start.
fn play_both(pair: &Pair, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let position = start(&pair.fast, &mut rng);
    let found = differential::play_both(&pair.fast, position, 300, |n| rng.gen_range(0..n));
    agree(&pair.name, found)
}

/// The random-play loops (each with its own way of drawing, and `random_playout` drawing the
/// next turn's move as its check that the player can move) give the same games on both paths.
fn playouts_both(pair: &Pair, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let position = start(&pair.fast, &mut rng);
    let opening = rng.gen_range(0..6);
    let mut fast = Game::from_position(&pair.fast, position);
    let mut plain = Game::from_position(&pair.plain, position);
    let moves = (
        fast.random_playout(&mut ChaCha8Rng::seed_from_u64(seed)),
        plain.random_playout(&mut ChaCha8Rng::seed_from_u64(seed)),
    );
    prop_assert_eq!(moves.0, moves.1, "{}: random playout lengths", pair.name);
    agree(&pair.name, same_state(0, &fast, &plain))?;
    let streams = || [0, 1, 2].map(|i| ChaCha8Rng::seed_from_u64(seed ^ i));
    let mut fast = Game::from_position(&pair.fast, position);
    let mut plain = Game::from_position(&pair.plain, position);
    let moves = (
        fast.play_random_out(&mut streams(), opening),
        plain.play_random_out(&mut streams(), opening),
    );
    prop_assert_eq!(moves.0, moves.1, "{}: random game lengths", pair.name);
    agree(&pair.name, same_state(0, &fast, &plain))
}

/// Greedy and a shallow alpha-beta choose the same moves on both paths (they look at every
/// move's result and copy games as they search).
fn agents_both(pair: &Pair, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let position = start(&pair.fast, &mut rng);
    let mut fast = Game::from_position(&pair.fast, position);
    let mut plain = Game::from_position(&pair.plain, position);
    for (turn, spec) in [AgentSpec::Greedy, AgentSpec::AlphaBeta(2)]
        .into_iter()
        .cycle()
        .take(12)
        .enumerate()
    {
        if fast.is_over() {
            break;
        }
        let stream = seed.wrapping_add(turn as u64);
        let a = spec
            .build()
            .play(&mut fast, &mut ChaCha8Rng::seed_from_u64(stream));
        let b = spec
            .build()
            .play(&mut plain, &mut ChaCha8Rng::seed_from_u64(stream));
        prop_assert_eq!(a, b, "{}: {} moves", pair.name, spec);
        agree(&pair.name, same_state(0, &fast, &plain))?;
    }
    Ok(())
}

/// Matches played out round by round at random agree on every round and on the result.
fn matches_both(pair: &Pair, seed: u64) -> Result<(), TestCaseError> {
    let (Ok(mut fast), Ok(mut plain)) = (Match::new(&pair.fast), Match::new(&pair.plain)) else {
        return Ok(());
    };
    let (mut a, mut b) = (
        ChaCha8Rng::seed_from_u64(seed),
        ChaCha8Rng::seed_from_u64(seed),
    );
    for _ in 0..40 {
        fast.game_mut().random_playout(&mut a);
        plain.game_mut().random_playout(&mut b);
        agree(&pair.name, same_state(0, fast.game(), plain.game()))?;
        let (round_a, next_a) = fast.next_round();
        let (round_b, next_b) = plain.next_round();
        prop_assert_eq!(round_a, round_b, "{}: rounds", pair.name);
        prop_assert_eq!(next_a, next_b, "{}: refills", pair.name);
        prop_assert_eq!(fast.outcome(), plain.outcome(), "{}: matches", pair.name);
        if fast.is_over() {
            break;
        }
    }
    Ok(())
}

/// `Game::play_into` leaves its child as `clone_from` and `play` would, into a game left
/// over from anywhere in the game: every legal move of every turn of a random game, compared
/// on the state, the report, and the child's own legal moves and their reports.
fn play_into_both(pair: &Pair, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::from_position(&pair.fast, start(&pair.fast, &mut rng));
    let mut child = game.clone();
    for turn in 0..60 {
        if game.is_over() {
            break;
        }
        for mv in game.legal_moves() {
            let mut copy = game.clone();
            let report = copy.play(mv).expect("legal");
            prop_assert_eq!(game.play_into(mv, &mut child), Ok(report), "{}", pair.name);
            agree(&pair.name, same_state(turn, &copy, &child))?;
            prop_assert_eq!(copy.legal_moves(), child.legal_moves(), "{}", pair.name);
            for next in copy.legal_moves() {
                let (mut a, mut b) = (copy.clone(), child.clone());
                prop_assert_eq!(a.play(next), b.play(next), "{}", pair.name);
                agree(&pair.name, same_state(turn, &a, &b))?;
            }
        }
        let moves = game.legal_moves();
        game.play(moves[rng.gen_range(0..moves.len())])
            .expect("legal");
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn play_into_plays_as_a_copy_and_a_move(seed in any::<u64>()) {
        for pair in shipped() {
            play_into_both(pair, seed)?;
        }
    }

    #[test]
    fn every_shortcut_plays_as_the_plain_path_move_by_move(seed in any::<u64>()) {
        for pair in pairs() {
            play_both(pair, seed)?;
        }
    }

    #[test]
    fn every_shortcut_plays_as_the_plain_path_in_random_playouts(seed in any::<u64>()) {
        for pair in pairs() {
            playouts_both(pair, seed)?;
        }
    }

    #[test]
    fn every_shortcut_plays_as_the_plain_path_under_the_agents(seed in any::<u64>()) {
        for pair in pairs() {
            agents_both(pair, seed)?;
        }
    }

    #[test]
    fn every_shortcut_plays_as_the_plain_path_in_matches(seed in any::<u64>()) {
        for pair in pairs() {
            matches_both(pair, seed)?;
        }
    }
}

/// Perft from each variant's start, pinned in `tests/golden/perft.txt`: the move sequences
/// of 1 to 4 moves and the distinct positions they reach, the same on both paths. A change in
/// what is legal anywhere near the start changes a count (`SOWLAB_BLESS=1` rewrites the file:
/// say why in the commit).
#[test]
fn perft_counts_are_pinned_for_every_variant() {
    let mut text = String::from("# variant  depth  sequences  positions\n");
    for pair in shipped() {
        let (fast, plain) = (Game::new(&pair.fast), Game::new(&pair.plain));
        for depth in 1..=4 {
            let counted = perft(&fast, depth);
            assert_eq!(
                counted,
                perft(&plain, depth),
                "{} at depth {depth}",
                pair.name
            );
            text.push_str(&format!(
                "{}  {depth}  {}  {}\n",
                pair.name, counted.sequences, counted.positions
            ));
        }
    }
    assert_golden("tests/golden/perft.txt", &text);
}
