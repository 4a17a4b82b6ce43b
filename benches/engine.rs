//! Engine speed: random moves per second for every shipped variant, and the same for the
//! hand-written reference implementations of Hoyito I and Oware (benches/reference), so the
//! interpreter's overhead can be read off as a ratio.
//!
//! `cargo bench --bench engine` — the figures in the README come from here.

#[path = "reference/mod.rs"]
mod reference;

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::engine::Game;
use sowlab::rules::Rules;

const MOVES: u64 = 20_000;

fn rules(name: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("variants")
        .join(name);
    sowlab::lang::compile_path(&path, &[]).expect("shipped variants compile")
}

/// Plays random games (uniformly random legal moves) until `MOVES` moves are played, each in
/// one reused game copied over from the start, as `sowlab simulate` plays them.
fn random_moves(start: &Game<'_>, rng: &mut ChaCha8Rng) -> u64 {
    let mut game = start.clone();
    let mut played = 0;
    while played < MOVES {
        game.clone_from(start);
        played += u64::from(game.random_playout(rng));
    }
    played
}

fn random_play(c: &mut Criterion) {
    let mut group = c.benchmark_group("random moves");
    group.throughput(Throughput::Elements(MOVES));
    for name in [
        "hoyito-i.sow",
        "hoyito-i-9.sow",
        "hoyito-i-12.sow",
        "hoyito-ii.sow",
        "hoyito-iii.sow",
        "ba-awa.sow",
        "ayoayo.sow",
        "oware.sow",
        "kalah.sow",
        "en-dodoi.sow",
    ] {
        let rules = rules(name);
        let start = Game::new(&rules);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        group.bench_function(name.trim_end_matches(".sow"), |b| {
            b.iter(|| random_moves(&start, &mut rng))
        });
    }
    group.finish();
}

/// The hand-written implementations, playing random games move by move until `MOVES`.
fn hand_written(c: &mut Criterion) {
    let mut group = c.benchmark_group("random moves");
    group.throughput(Throughput::Elements(MOVES));
    let mut state = 7u64;
    group.bench_function("reference hoyito-i", |b| {
        b.iter(|| {
            let mut played = 0;
            while played < MOVES {
                played += u64::from(reference::hoyito_i::Game::new(6).random_playout(&mut state));
            }
            played
        })
    });
    group.bench_function("reference oware", |b| {
        b.iter(|| {
            let mut played = 0;
            while played < MOVES {
                played += u64::from(reference::oware::Game::new(6).random_playout(&mut state));
            }
            played
        })
    });
    group.finish();
}

criterion_group!(benches, random_play, hand_written);
criterion_main!(benches);
