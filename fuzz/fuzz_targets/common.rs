//! Shared by the targets: the shipped variants, and checks on a game.

#![allow(dead_code)] // each target uses a part

use std::path::PathBuf;
use std::sync::OnceLock;

use std::num::NonZeroUsize;

use sowlab::engine::Game;
use sowlab::rules::Rules;

/// `variants/` of the repository this crate sits in.
pub fn variants_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../variants"))
}

/// Every shipped variant, compiled once, sorted by file name.
pub fn variants() -> &'static [Rules] {
    static VARIANTS: OnceLock<Vec<Rules>> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(variants_dir())
            .expect("variants/ exists")
            .map(|e| e.expect("a readable entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "sow"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|f| {
                sowlab::lang::compile_path(f, &[]).unwrap_or_else(|e| {
                    panic!("{} does not compile:\n{}", f.display(), e.render(false))
                })
            })
            .collect()
    })
}

/// Seeds on the board and in the stores.
pub fn seeds(game: &Game<'_>) -> u32 {
    let p = game.position();
    p.board()
        .iter()
        .chain(p.stores().iter())
        .map(|&n| u32::from(n))
        .sum()
}

/// The rules `text` compiles to, when it does and they are small enough to play quickly: many
/// seeds or a huge drop cap make a single move slow.
pub fn small_rules(text: &str) -> Option<Rules> {
    pest::set_call_limit(NonZeroUsize::new(5_000_000));
    let rules = sowlab::lang::compile_text("fuzz.sow", text, &variants_dir()).ok()?;
    (rules.total_seeds() <= 400 && rules.program.sowing.drop_cap <= 100_000).then_some(rules)
}
