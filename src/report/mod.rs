//! Presenting results: traces of one game, comparison reports (tables, charts, pages)
//! built from the files of simulation runs, and the catalogue page of variant files.

pub mod analysis;
pub mod balance;
pub mod catalogue;
pub mod chart;
pub mod compare;
pub mod diagram;
pub mod document;
pub mod error;
pub mod exact;
pub mod labels;
pub mod readings;
pub mod relations;
pub mod stepper;
pub mod sweep;
pub mod trace;
pub mod tree;
pub mod variants;
