//! `sowlab explain FILE`: the compiled rules in words, and the readings they rest on.

use std::io::Write;
use std::process::ExitCode;

use super::super::args::ExplainArgs;
use super::super::{load_rules, Failure};
use crate::rules::explain;

/// Prints the explanation.
pub fn run(args: &ExplainArgs) -> Result<ExitCode, Failure> {
    let rules = load_rules(&args.file, &args.set)?;
    write!(std::io::stdout().lock(), "{}", explain::explain(&rules))?;
    Ok(ExitCode::SUCCESS)
}
