//! Per-game seeds: every game's randomness derives from (master seed, seat order, game index),
//! so a game can be replayed alone and shards of an experiment agree with a whole run.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// SplitMix64's finaliser: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game `index` played in seat order `seats` (0: first agent South) of an
/// experiment with master seed `master`. Variants share seeds (common random numbers).
pub fn game_seed(master: u64, seats: u8, index: u64) -> u64 {
    mix(mix(mix(master) ^ u64::from(seats)) ^ index)
}

/// The random stream of one side's agent in a game.
pub fn agent_rng(game_seed: u64, agent: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(mix(
        game_seed ^ (agent as u64 + 1).wrapping_mul(0xd6e8_feb8_6659_fd93)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_by_every_input_and_are_stable() {
        let a = game_seed(1, 0, 0);
        assert_ne!(a, game_seed(2, 0, 0));
        assert_ne!(a, game_seed(1, 1, 0));
        assert_ne!(a, game_seed(1, 0, 1));
        // Pinned (worked out independently with SplitMix64's published constants): a change
        // here changes every published experiment.
        assert_eq!(a, 0xb18a_02f4_6d8d_86c3);
    }
}
