//! `sowlab diff A B`: the rules on which two variants differ, in words.

use super::super::args::DiffArgs;
use super::super::{load_rules, Console, Error, Outcome};
use crate::rules::diff;

/// Prints the differences; [`Outcome::Differ`] when the rules hashes differ.
pub fn run(args: &DiffArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let a = load_rules(&args.a, &args.set)?;
    let b = load_rules(&args.b, &[args.set.clone(), args.b_set.clone()].concat())?;
    console
        .out
        .write_all(diff::diff(&a, &b).as_bytes())
        .map_err(Error::Stdout)?;
    Ok(if a.hash() == b.hash() {
        Outcome::Done
    } else {
        Outcome::Differ
    })
}
