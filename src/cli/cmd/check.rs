//! `sowlab check FILE...`: compile each file and print every diagnostic.

use super::super::args::CheckArgs;
use super::super::{settings, Console, Error, Outcome};
use crate::lang;

/// Prints `ok` for each file that compiles (stdout) and every diagnostic of each that does
/// not (stderr); a file that cannot be read is an input error, one line.
pub fn run(args: &CheckArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let settings = settings(&args.set);
    let mut failed = 0;
    let mut unreadable = 0;
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
    Ok(if unreadable > 0 {
        Outcome::Unreadable
    } else if failed > 0 {
        Outcome::Errors
    } else {
        Outcome::Done
    })
}
