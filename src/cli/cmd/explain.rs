//! `sowlab explain FILE`: the compiled rules in words, and the readings they rest on.

use super::super::args::ExplainArgs;
use super::super::{load_rules, Console, Error, Outcome};
use crate::rules::explain;

/// Prints the explanation.
pub fn run(args: &ExplainArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let rules = load_rules(&args.file, &args.set)?;
    console
        .out
        .write_all(explain::explain(&rules).as_bytes())
        .map_err(Error::Stdout)?;
    Ok(Outcome::Done)
}
