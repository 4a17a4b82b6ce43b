//! The integration tests, one binary (ripgrep's layout): each module covers one area.

mod catalogue;
mod cli;
mod diagnostics;
mod golden;
mod invariants;
mod matches;
mod reference;
mod report;
mod simulate;
mod util;
mod variants;
