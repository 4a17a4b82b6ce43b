//! One module per subcommand.

pub mod check;
pub mod compare;
pub mod diff;
pub mod explain;
pub mod fmt;
pub mod list;
pub mod play;
pub mod simulate;
pub mod solve;
pub mod trace;
