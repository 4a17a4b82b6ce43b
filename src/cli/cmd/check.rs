//! `sowlab check FILE...`: compile each file and print every diagnostic and warning.

use super::super::args::CheckArgs;
use super::super::{settings, Console, Error, Outcome};
use crate::{lang, warning};

/// Prints `ok` for each file that compiles (stdout), then its warnings (stderr), and every
/// diagnostic of each that does not compile (stderr); a file that cannot be read is an input
/// error, one line. Warnings fail the check only with `--deny-warnings`.
pub fn run(args: &CheckArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let settings = settings(&args.set);
    let mut failed = 0;
    let mut unreadable = 0;
    let (mut warnings, mut warned) = (0, 0);
    let files = super::variant_files(&args.files, console)?;
    for path in &files {
        let file = match lang::read_variant(path) {
            Ok(file) => file,
            Err(e) => {
                unreadable += 1;
                let _ = writeln!(console.err, "error: {e}");
                continue;
            }
        };
        match lang::compile_file(file, path, &settings) {
            Ok(rules) => {
                let defaults = rules.default_readings();
                let ids = |numbers: &[u16]| -> Vec<String> {
                    numbers.iter().map(|n| format!("R{n}")).collect()
                };
                let stated: Vec<u16> = rules
                    .reading_numbers()
                    .into_iter()
                    .filter(|n| !defaults.contains(n))
                    .collect();
                let mut readings = match stated.len() {
                    0 => "none".to_string(),
                    _ => ids(&stated).join(" "),
                };
                if !defaults.is_empty() {
                    readings += &format!(", by default {}", ids(&defaults).join(" "));
                }
                writeln!(
                    console.out,
                    "ok  {}  \"{}\"  rules {}  readings: {readings}",
                    path.display(),
                    rules.provenance.name,
                    rules.hash()
                )
                .map_err(Error::Stdout)?;
                let found = warning::find(&rules);
                if !found.is_empty() {
                    warnings += found.len();
                    warned += 1;
                    let name = path.display().to_string();
                    let _ = write!(
                        console.err,
                        "{}",
                        warning::render(&name, &found, console.terminal)
                    );
                }
            }
            Err(errors) => {
                failed += 1;
                let _ = write!(console.err, "{}", errors.render(console.terminal));
            }
        }
    }
    if failed > 0 {
        let _ = writeln!(
            console.err,
            "{failed} of {} file(s) have errors",
            files.len()
        );
    }
    if warnings > 0 {
        let denied = if args.deny_warnings {
            "; --deny-warnings fails the check"
        } else {
            ""
        };
        let _ = writeln!(
            console.err,
            "{warnings} warning(s) in {warned} of {} file(s){denied}",
            files.len()
        );
    }
    Ok(if unreadable > 0 {
        Outcome::Unreadable
    } else if failed > 0 || (args.deny_warnings && warnings > 0) {
        Outcome::Errors
    } else {
        Outcome::Done
    })
}
