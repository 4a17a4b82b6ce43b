//! Arbitrary UTF-8 → `compile_text`: it must return `Ok` or `Err`, never panic, and an `Err` must
//! render.

#![no_main]

use std::num::NonZeroUsize;

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    // The grammar has no recursion, but a bound on pest's work keeps a slow input from
    // passing for a hang.
    pest::set_call_limit(NonZeroUsize::new(5_000_000));
    // Relative `extends` resolve in variants/, so mutated shipped files reach their parents.
    if let Err(errors) = sowlab::lang::compile_text("fuzz.sow", text, &common::variants_dir()) {
        assert!(!errors.0.is_empty(), "Err with no error");
        let rendered = errors.render(false);
        assert!(
            rendered.contains("╭─["),
            "a report without a location:\n{rendered}"
        );
    }
});
