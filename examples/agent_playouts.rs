//! The random agents' games of one variant, timed: `Game::play_random_out`, the loop in which
//! `sowlab simulate` plays two random agents, alone. Beside the playouts example, it says what
//! playing the agents' games costs the engine (whether the next player can move is found
//! before the draw, where the engine's fastest loop lets the draw find it), and it is what
//! `benches/share.sh` times `simulate` against for its `VARIANT/agents` figures.
//!
//! `cargo run --release --example agent_playouts -- VARIANT.sow MOVES` prints `MOVES moves
//! GAMES games RATE Mmoves/s`. Games are played in one reused game, copied over from the
//! start, each player drawing from its own stream (ChaCha8 seeded 7 and 8; 9 for the unused
//! opening), so every build plays the same games.
//!
//! A program of its own, not a flag of the playouts example: instantiated there, this loop
//! changed how that program was optimised, and its engine loop ran 15 instructions a Hoyito I
//! move more.

mod timing;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::engine::Game;

fn main() {
    let (args, []) = timing::Args::parse("agent_playouts VARIANT.sow MOVES", []);
    let rules = args.rules();
    let mut streams = [7, 8, 9].map(ChaCha8Rng::seed_from_u64);
    let start = Game::new(&rules);
    let mut game = start.clone();
    let (mut played, mut games) = (0u64, 0u64);
    let clock = std::time::Instant::now();
    while played < args.moves {
        game.clone_from(&start);
        played += u64::from(game.play_random_out(&mut streams, 0));
        games += 1;
    }
    timing::report(played, games, clock);
}
