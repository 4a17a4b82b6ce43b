//! Arbitrary UTF-8 → `compile_text`; when it compiles, a game of the rules is played on the
//! engine's fast path and on its plain one (`Rules::without_shortcuts`), which must agree
//! state by state: a shortcut that ignores a rule shows on the first file that uses it.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sowlab::engine::{differential, Position};

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    let Some(rules) = common::small_rules(text) else {
        return;
    };
    // The choices come from the text, so that a crash replays from its input alone.
    let mut state = text.len() as u64;
    let choose = |n: u32| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % u64::from(n)) as u32
    };
    if let Err(divergence) = differential::play_both(&rules, Position::initial(&rules), 200, choose)
    {
        panic!("{divergence}");
    }
});
