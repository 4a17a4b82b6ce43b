//! One module per subcommand.

pub mod check;
pub mod explain;
pub mod simulate;
pub mod trace;
