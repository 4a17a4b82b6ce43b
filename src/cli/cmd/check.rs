//! `sowlab check FILE...`: compile each file and print every diagnostic.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use super::super::args::CheckArgs;
use super::super::{settings, Failure};
use crate::lang;

/// Exit 0 when every file compiles, 1 when any has errors.
pub fn run(args: &CheckArgs) -> Result<ExitCode, Failure> {
    let settings = settings(&args.set)?;
    let color = std::io::stderr().is_terminal();
    let mut failed = 0;
    let mut out = std::io::stdout().lock();
    for file in &args.files {
        match lang::compile_path(file, &settings) {
            Ok(rules) => {
                let readings: Vec<String> = rules
                    .reading_numbers()
                    .iter()
                    .map(|n| format!("R{n}"))
                    .collect();
                let readings = if readings.is_empty() {
                    "none".to_string()
                } else {
                    readings.join(" ")
                };
                writeln!(
                    out,
                    "ok  {}  \"{}\"  rules {}  readings: {readings}",
                    file.display(),
                    rules.provenance.name,
                    rules.hash()
                )?;
            }
            Err(errors) => {
                failed += 1;
                eprint!("{}", errors.render(color));
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} file(s) have errors", args.files.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
