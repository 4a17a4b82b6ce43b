//! sowlab: write a mancala variant down in a small rule language, compile it, and play it.
//!
//! # Glossary
//! - **hole**: a playable hole of the board (the sources say hole, pit or casita). Two rows of
//!   N holes, numbered `0..2N` counterclockwise from South's leftmost; hole `i` faces `2N-1-i`.
//! - **seed**: a counter. **store**: where a player's captured seeds go (on the board or not).
//! - **side**: South (holes `0..N`, moves first by default) or North.
//! - **sow**: lift every seed of a hole and drop them one by one into the following holes.
//!   A **lap** is one such run; **relay** sowing lifts the hole where a lap ended and goes on.
//! - **capture**: seeds taken off the board into a store. A **move** is the choice of a hole;
//!   a **pass** is a turn without one.
//!
//! # Pipeline
//! `lang` (text → syntax tree → checked [`rules::Rules`]) → `engine` (plays the rules) →
//! `agents`/`sim` (self-play) → `report` (CSV, charts). `cli` is a thin layer on top.
//!
//! ```
//! use sowlab::{engine::Game, lang};
//!
//! let text = r#"
//!     game "Tiny relay" { source: "an example" }
//!     board { holes: 3 per row  seeds: 2 per hole }
//!     sowing { relay: when occupied }
//!     capture "casa" { on: last drop of a lap  if: count is 4  take: hole  to: mover }
//! "#;
//! let rules = lang::compile_text("tiny.sow", text, std::path::Path::new(".")).unwrap();
//! let mut game = Game::new(&rules);
//! while !game.is_over() {
//!     let first = game.legal_moves()[0];
//!     game.play(first).unwrap();
//! }
//! let [south, north] = game.position().stores();
//! assert_eq!(u32::from(south + north) + game.position().board_seeds(), rules.total_seeds());
//! ```

#![warn(missing_docs)]

pub mod agents;
pub mod cli;
pub mod engine;
pub mod lang;
pub mod made;
pub mod outdir;
pub mod play;
pub mod relate;
pub mod report;
pub mod rules;
pub mod sim;
pub mod solve;
pub mod source;
pub mod warning;
