//! Presenting results: move-by-move traces of a game (text and JSON lines).

pub mod trace;
