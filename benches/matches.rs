//! Matches of rounds: Hoyito I matches per second (its `match` block: refill, closed holes,
//! reserve, round winner starts), random vs random, and the per-move rate inside matches
//! against single-round play of the same variant.
//!
//! `cargo bench --bench matches`
//!
//! Every benchmark plays a fixed set of games or matches (seeds `0..N`), whose moves are
//! counted once beforehand:
//! - `matches/hoyito-i/sim play_match` (`Throughput` = matches): `sim::play_match`, what
//!   `sowlab simulate --match` plays per unit, with two random agents.
//! - `match moves/hoyito-i/…` (`Throughput` = moves):
//!   - `sim play_match` vs `sim play_game`: the simulation's per-move rate in matches vs
//!     single games (random agents, records built, no files);
//!   - `engine match random_playout` vs `engine game random_playout`: the engine alone,
//!     `Match` rounds each played with `Game::random_playout` then `Match::next_round`, vs
//!     single games with `Game::random_playout`.
//!
//! The throughput issue's target is the per-move rate in matches within 10% of single-round
//! play: read the two lines of each pair.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::agents::RandomAgent;
use sowlab::engine::{Game, Match};
use sowlab::rules::Rules;
use sowlab::sim::record::Name;
use sowlab::sim::{play_game, play_match, Players};

/// Matches per iteration.
const MATCHES: u64 = 200;
/// Single games per iteration.
const GAMES: u64 = 2000;

fn rules(name: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("variants")
        .join(name);
    sowlab::lang::compile_path(&path, &[]).expect("shipped variants compile")
}

/// The variant's label and the agents' names, made once as `sim::runner::Experiment` makes
/// them.
fn names() -> (Name, [Name; 2]) {
    let random: Name = "random".into();
    ("Hoyito I".into(), [random.clone(), random])
}

fn players<'a>(agents: &'a mut [RandomAgent; 2], names: &[Name; 2]) -> Players<'a> {
    let [south, north] = agents;
    Players {
        agents: [south, north],
        names: names.clone(),
        opening: 0,
    }
}

/// `MATCHES` matches through `sim::play_match`: (matches, rounds, moves).
fn sim_matches(rules: &Rules) -> (u64, u64, u64) {
    let mut agents = [RandomAgent, RandomAgent];
    let (label, names) = names();
    let (mut rounds, mut moves) = (0, 0);
    for seed in 0..MATCHES {
        let players = players(&mut agents, &names);
        let (_, games) = play_match(rules, &label, players, seed, seed, None);
        rounds += games.len() as u64;
        moves += games.iter().map(|g| u64::from(g.turns)).sum::<u64>();
    }
    (MATCHES, rounds, moves)
}

/// `GAMES` single games through `sim::play_game`: moves.
fn sim_games(rules: &Rules) -> u64 {
    let mut agents = [RandomAgent, RandomAgent];
    let (label, names) = names();
    // One reused game, copied over from the start, as `simulate` plays single games.
    let start = Game::new(rules);
    let mut game = start.clone();
    (0..GAMES)
        .map(|seed| {
            let players = players(&mut agents, &names);
            game.clone_from(&start);
            let record = play_game(&mut game, &label, players, seed, seed, None);
            u64::from(record.turns)
        })
        .sum()
}

/// `MATCHES` matches in the engine alone, every round a random playout: moves.
fn engine_matches(rules: &Rules) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut moves = 0;
    for _ in 0..MATCHES {
        let mut table = Match::new(rules).expect("Hoyito I has match rules");
        loop {
            moves += u64::from(table.game_mut().random_playout(&mut rng));
            if table.next_round().1.is_none() {
                break;
            }
        }
    }
    moves
}

/// `GAMES` single games in the engine alone, random playouts in one reused game (as a match
/// plays its rounds in one): moves.
fn engine_games(rules: &Rules) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let start = Game::new(rules);
    let mut game = start.clone();
    (0..GAMES)
        .map(|_| {
            game.clone_from(&start);
            u64::from(game.random_playout(&mut rng))
        })
        .sum()
}

fn matches(c: &mut Criterion) {
    let rules = rules("hoyito-i.sow");
    let (matches, rounds, match_moves) = sim_matches(&rules);
    let (game_moves, engine_match_moves, engine_game_moves) = (
        sim_games(&rules),
        engine_matches(&rules),
        engine_games(&rules),
    );
    eprintln!(
        "matches/hoyito-i: {matches} matches, {rounds} rounds ({:.1} per match), {match_moves} \
         moves ({:.1} per round); {GAMES} single games, {game_moves} moves ({:.1} per game)",
        rounds as f64 / matches as f64,
        match_moves as f64 / rounds as f64,
        game_moves as f64 / GAMES as f64,
    );

    let mut group = c.benchmark_group("matches/hoyito-i");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(matches));
    group.bench_function("sim play_match", |b| b.iter(|| sim_matches(&rules)));
    group.finish();

    let mut group = c.benchmark_group("match moves/hoyito-i");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(match_moves));
    group.bench_function("sim play_match", |b| b.iter(|| sim_matches(&rules)));
    group.throughput(Throughput::Elements(game_moves));
    group.bench_function("sim play_game", |b| b.iter(|| sim_games(&rules)));
    group.throughput(Throughput::Elements(engine_match_moves));
    group.bench_function("engine match random_playout", |b| {
        b.iter(|| engine_matches(&rules))
    });
    group.throughput(Throughput::Elements(engine_game_moves));
    group.bench_function("engine game random_playout", |b| {
        b.iter(|| engine_games(&rules))
    });
    group.finish();
}

criterion_group!(benches, matches);
criterion_main!(benches);
