//! Random playouts of one variant, timed: the engine's loop alone, for measurements that
//! criterion cannot make on a noisy machine (two builds side by side, one per core; see
//! `docs/speed.md` and `benches/paired.sh`).
//!
//! `cargo run --release --example playouts -- VARIANT.sow MOVES [--fresh | --reference]` prints
//! `MOVES moves GAMES games RATE Mmoves/s`. Games are played in one reused game, copied over
//! from the start (as `sowlab simulate` plays them), with `--fresh` in a new `Game` each, or
//! with `--reference` by the hand-written implementation of `benches/reference` named as the
//! file (`hoyito-i` or `oware`, 6 holes a row, its own generator). The engine's generator is
//! ChaCha8 seeded 7, so every build plays the same games.

#[path = "../benches/reference/mod.rs"]
mod reference;
mod timing;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::engine::Game;

fn main() {
    let (args, [fresh, reference]) = timing::Args::parse(
        "playouts VARIANT.sow MOVES [--fresh | --reference]",
        ["--fresh", "--reference"],
    );
    if reference {
        return hand_written(&args.path, args.moves);
    }
    time_engine(&args.rules(), args.moves, fresh);
}

/// The engine's timed loop. Each timed loop is a function of its own, kept out of `main` and
/// of each other, so that every program is optimised alone, as criterion's closures are in
/// `benches/engine.rs`: sharing `main`'s inlining budget cost Hoyito I's reference 37
/// instructions a move (its sowing and its draw were left calls of their own). The two loops
/// are not one generic loop with a closure per program: that measured the engine 7 to 16
/// instructions a move dearer (`random_playout` inlined into it), and the figures of
/// `docs/speed.md` run K are this loop's.
#[inline(never)]
fn time_engine(rules: &sowlab::rules::Rules, moves: u64, fresh: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let start = Game::new(rules);
    let mut game = start.clone();
    let (mut played, mut games) = (0u64, 0u64);
    let clock = std::time::Instant::now();
    while played < moves {
        if fresh {
            game = Game::new(rules);
        } else {
            game.clone_from(&start);
        }
        played += u64::from(game.random_playout(&mut rng));
        games += 1;
    }
    timing::report(played, games, clock);
}

/// The same, by the hand-written implementation named as the file.
fn hand_written(path: &str, moves: u64) {
    let name = std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str());
    match name {
        Some("hoyito-i") => time_reference(moves, |state| {
            reference::hoyito_i::Game::new(6).random_playout(state)
        }),
        Some("oware") => time_reference(moves, |state| {
            reference::oware::Game::new(6).random_playout(state)
        }),
        _ => {
            eprintln!("no hand-written implementation of {path}: hoyito-i or oware");
            std::process::exit(2);
        }
    }
}

/// A reference's timed loop (see [`time_engine`]): `playout` from generator state 7 until
/// `moves` moves are played.
#[inline(never)]
fn time_reference(moves: u64, playout: impl Fn(&mut u64) -> u32) {
    let mut state = 7u64;
    let (mut played, mut games) = (0u64, 0u64);
    let clock = std::time::Instant::now();
    while played < moves {
        played += u64::from(playout(&mut state));
        games += 1;
    }
    timing::report(played, games, clock);
}
