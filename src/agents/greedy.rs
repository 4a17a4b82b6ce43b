//! The greedy agent: the move with the best immediate gain in captured seeds, ties at random.

use rand_chacha::ChaCha8Rng;

use super::{pick, play_chosen, score, Agent};
use crate::engine::{Game, MoveReport};

/// Plays the move after which its capture lead is largest (end rules included).
pub struct Greedy;

impl Agent for Greedy {
    fn play(&mut self, game: &mut Game<'_>, rng: &mut ChaCha8Rng) -> MoveReport {
        let me = game.to_move().expect("the game is not over");
        let mut best = Vec::new();
        let mut best_gain = i32::MIN;
        for mv in game.legal_moves() {
            let mut after = game.clone();
            after.play(mv).expect("legal");
            let gain = score(&after, me);
            if gain > best_gain {
                best_gain = gain;
                best.clear();
            }
            if gain == best_gain {
                best.push(mv);
            }
        }
        play_chosen(game, pick(&best, rng))
    }
}
