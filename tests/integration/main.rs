//! The integration tests, one binary (ripgrep's layout): each module covers one area.

mod balance;
mod catalogue;
mod citable;
mod cli;
mod cli_fuzz;
mod cli_grammar;
mod diagnostics;
mod diff;
mod format;
mod golden;
mod hostile;
mod invariants;
mod matches;
mod outputs_doc;
mod play;
mod readme;
mod reference;
mod regression;
mod report;
mod self_contained;
mod shortcuts;
mod simulate;
mod solve;
mod util;
mod variants;
mod warnings;
