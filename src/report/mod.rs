//! Presenting results: traces of one game, and comparison reports (tables, charts, pages)
//! built from the files of simulation runs.

pub mod analysis;
pub mod balance;
pub mod chart;
pub mod compare;
pub mod document;
pub mod error;
pub mod sweep;
pub mod trace;
pub mod variants;
