//! Agent speed: the time to choose (and play) one move, for alpha-beta at depth 6 and MCTS
//! with 1,000 playouts, on Hoyito I and Oware.
//!
//! `cargo bench --bench agents`
//!
//! Positions: mid-game positions reached by a seeded random prefix of `PLIES` moves from the
//! start (the first seed from 0 up whose game is still going after the prefix). Each
//! iteration is one move, by a fresh agent (alpha-beta clears its table for every search
//! anyway), on a fresh copy of the position, so the time per iteration is the time per move.
//! The throughput issue's target is alpha-beta depth 6 under 1 ms per move.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::agents::{Agent, AlphaBeta, Mcts};
use sowlab::engine::Game;
use sowlab::rules::Rules;

/// Random moves played from the start to reach each benchmarked position.
const PLIES: [u32; 3] = [10, 20, 30];

fn rules(name: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("variants")
        .join(name);
    sowlab::lang::compile_path(&path, &[]).expect("shipped variants compile")
}

/// The position after `plies` random moves of the first seeded game that lasts that long.
fn position(rules: &Rules, plies: u32) -> Game<'_> {
    (0u64..)
        .find_map(|seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut game = Game::new(rules);
            for _ in 0..plies {
                game.play_random(&mut rng)?;
            }
            (!game.is_over()).then_some(game)
        })
        .expect("some random game lasts that long")
}

fn agents(c: &mut Criterion) {
    for name in ["hoyito-i.sow", "oware.sow"] {
        let rules = rules(name);
        let short = name.trim_end_matches(".sow");
        let mut group = c.benchmark_group(format!("agent move/{short}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        for plies in PLIES {
            let game = position(&rules, plies);
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            group.bench_function(format!("alphabeta:6 after {plies}"), |b| {
                b.iter_batched(
                    || (game.clone(), AlphaBeta::new(6)),
                    |(mut game, mut agent)| agent.play(&mut game, &mut rng),
                    BatchSize::SmallInput,
                )
            });
            group.bench_function(format!("mcts:1000 after {plies}"), |b| {
                b.iter_batched(
                    || (game.clone(), Mcts::new(1000)),
                    |(mut game, mut agent)| agent.play(&mut game, &mut rng),
                    BatchSize::SmallInput,
                )
            });
        }
        group.finish();
    }
}

criterion_group!(benches, agents);
criterion_main!(benches);
