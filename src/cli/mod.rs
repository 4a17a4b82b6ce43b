//! The command-line tool: parses arguments, calls the library, prints, and maps outcomes to
//! exit codes (0 ok, 1 `check` found errors, 2 usage or input/output error).

mod args;
mod cmd;
mod progress;

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use crate::lang;
use crate::rules::Rules;
use args::{Cli, Command};

/// A failure the user must see: one line on stderr, and an exit code.
#[derive(Debug)]
pub struct Failure {
    /// The line.
    pub message: String,
    /// The exit code.
    pub code: u8,
}

impl Failure {
    /// A usage or input/output failure (exit code 2).
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::input(format!("cannot write output: {e}"))
    }
}

/// Runs the tool with these arguments (the first is the program name).
pub fn run(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match &cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Trace(a) => cmd::trace::run(a),
        Command::Explain(a) => cmd::explain::run(a),
        Command::Simulate(a) => cmd::simulate::run(a),
        Command::Merge(a) => cmd::simulate::merge(a),
        Command::Compare(a) => cmd::compare::compare(a),
        Command::Sweep(a) => cmd::compare::sweep(a),
    };
    match result {
        Ok(code) => code,
        // A closed pipe (`sowlab trace ... | head`) is not an error.
        Err(f) if f.message.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(f) => {
            let _ = writeln!(std::io::stderr(), "error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

/// ` FLAG v1 FLAG v2 ...`, for the commands that results record.
fn repeated(flag: &str, values: &[String]) -> String {
    values.iter().map(|v| format!(" {flag} {v}")).collect()
}

/// ` --games N --agents A,B ... --seed S`, as a command line gives them.
fn run_flags(games: u64, agents: &[String], seed: u64) -> String {
    format!(
        " --games {games}{} --seed {seed}",
        repeated("--agents", agents)
    )
}

/// `--set key=value` strings as pairs.
fn settings(set: &[String]) -> Result<Vec<(String, String)>, Failure> {
    set.iter()
        .map(|s| match s.split_once('=') {
            Some((k, v)) => Ok((k.trim().to_string(), v.trim().to_string())),
            None => Err(Failure::input(format!(
                "`--set {s}` should be KEY=VALUE; keys are {}",
                lang::SETTINGS
            ))),
        })
        .collect()
}

/// Compiles a variant for a command other than `check`: errors become one line each.
fn load_rules(path: &Path, set: &[String]) -> Result<Rules, Failure> {
    let settings = settings(set)?;
    lang::compile_path(path, &settings).map_err(|errors| {
        let first = errors
            .0
            .first()
            .map_or_else(String::new, ToString::to_string);
        let more = errors.0.len() - 1;
        let tail = if more > 0 {
            format!(" (and {more} more; run `sowlab check` for all)")
        } else {
            String::new()
        };
        Failure::input(format!("{first}{tail}"))
    })
}
