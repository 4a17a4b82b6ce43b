//! Arbitrary UTF-8 → `compile_text`; when it compiles, a short game of the rules must play and
//! conserve seeds: rules the compiler accepts are rules the engine can run.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sowlab::engine::Game;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    let Some(rules) = common::small_rules(text) else {
        return;
    };
    let total = rules.total_seeds();
    let mut game = Game::new(&rules);
    let mut pick = text.len();
    for _ in 0..40 {
        let legal = game.legal_moves();
        if game.is_over() {
            assert!(legal.is_empty(), "moves after the end");
            break;
        }
        assert!(!legal.is_empty(), "not over, but no legal move");
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal[(pick >> 33) % legal.len()];
        game.play(mv).expect("a legal move plays");
        // Seeds awarded to nobody (or a split's odd seed) stay on the board: still conserved.
        assert_eq!(
            common::seeds(&game),
            total,
            "seeds not conserved after {mv}"
        );
    }
});
