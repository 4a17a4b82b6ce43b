//! The command-line tool: parses arguments, calls the library, prints, and maps every outcome
//! to an exit code in one place, [`run_with`]: 0 success, 1 errors in a rule file (or warnings
//! with `check --deny-warnings`, files `fmt --check` would change, rules `diff` finds
//! different, or a page `catalogue --check` finds stale), 2 a usage, input or output error,
//! 130 interrupted.

mod args;
mod closing;
mod cmd;
mod error;
mod progress;
mod values;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use crate::lang;
use crate::lang::Setting;
use crate::rules::Rules;
use args::{Cli, Command};
use closing::{Closing, Wrote};
use error::Error;

/// Where a command's output goes.
pub struct Console<'a> {
    /// Standard output: what a command prints (`trace`, `explain`, `check`'s verdicts).
    pub out: &'a mut dyn Write,
    /// Standard error: diagnostics, errors and closing lines. Failing to write here cannot
    /// be reported anywhere, and is ignored.
    pub err: &'a mut dyn Write,
    /// Whether standard error is a terminal: colours and progress bars.
    pub terminal: bool,
}

/// What a command that did not fail found or did.
#[derive(Debug)]
enum Outcome {
    /// Done, nothing more to say.
    Done,
    /// `check` found errors in a rule file, or warnings with `--deny-warnings`; `fmt --check`
    /// files to format; `catalogue --check` a stale page (they are printed).
    Errors,
    /// `diff` found rules that differ (they are printed).
    Differ,
    /// `check` could not read some files (the errors are printed).
    Unreadable,
    /// Files were written: the closing line.
    Wrote(Closing),
}

/// Runs the tool with these arguments (the first is the program name) on the process's
/// standard output and error.
pub fn run(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let terminal = std::io::stderr().is_terminal();
    let mut console = Console {
        out: &mut std::io::stdout(),
        err: &mut std::io::stderr(),
        terminal,
    };
    run_with(args, &mut console)
}

/// Runs the tool with these arguments, writing to `console`. This is the one place where
/// outcomes and errors become lines on stderr and exit codes.
pub fn run_with(args: impl IntoIterator<Item = OsString>, console: &mut Console<'_>) -> ExitCode {
    let result = Cli::try_parse_from(args)
        .map_err(Error::from)
        .and_then(|cli| dispatch(&cli.command, console));
    let code = match &result {
        Ok(Outcome::Done) => 0,
        Ok(Outcome::Errors | Outcome::Differ) => 1,
        Ok(Outcome::Unreadable) => 2,
        Ok(Outcome::Wrote(closing)) => {
            let _ = writeln!(console.err, "{closing}");
            0
        }
        // `--help` and `--version` come as errors from clap.
        Err(Error::Usage(e)) => {
            let text = if console.terminal {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            if e.use_stderr() {
                let _ = write!(console.err, "{text}");
                2
            } else {
                let _ = write!(console.out, "{text}");
                0
            }
        }
        Err(e) if e.is_closed_output() => 0,
        Err(e) => {
            let _ = writeln!(console.err, "error: {e}");
            match e {
                Error::Interrupted { .. } | Error::InterruptedReport { .. } => 130,
                _ => 2,
            }
        }
    };
    let _ = console.out.flush();
    ExitCode::from(code)
}

fn dispatch(command: &Command, console: &mut Console<'_>) -> Result<Outcome, Error> {
    match command {
        Command::Check(a) => cmd::check::run(a, console),
        Command::Fmt(a) => cmd::fmt::run(a, console),
        Command::List(a) => cmd::list::run(a, console),
        Command::Catalogue(a) => cmd::catalogue::run(a, console),
        Command::Trace(a) => cmd::trace::run(a, console),
        Command::Play(a) => cmd::play::run(a, console, &mut std::io::stdin().lock()),
        Command::Explain(a) => cmd::explain::run(a, console),
        Command::Relate(a) => cmd::relate::run(a, console),
        Command::Diff(a) => cmd::diff::run(a, console),
        Command::Solve(a) => cmd::solve::run(a, console),
        Command::Simulate(a) => cmd::simulate::run(a, console),
        Command::Merge(a) => cmd::simulate::merge(a, console),
        Command::Compare(a) => cmd::compare::compare(a, console),
        Command::Sweep(a) => cmd::compare::sweep(a, console),
        Command::Readings(a) => cmd::compare::readings(a, console),
        Command::Balance(a) => cmd::compare::balance(a, console),
        Command::Exact(a) => cmd::exact::run(a, console),
    }
}

/// ` FLAG v1 FLAG v2 ...`, for the commands that results record.
fn repeated(flag: &str, values: &[impl ToString]) -> String {
    values
        .iter()
        .map(|v| format!(" {flag} {}", crate::made::quote(&v.to_string())))
        .collect()
}

/// ` --games N --agents A,B ... --seed S [--match]`, as a command line gives them.
fn run_flags(run: &args::RunArgs) -> String {
    format!(
        " --games {}{} --seed {}{}{}",
        run.games,
        repeated("--agents", &run.agents),
        run.seed,
        if run.r#match { " --match" } else { "" },
        match run.opening {
            0 => String::new(),
            k => format!(" --opening {k}"),
        }
    )
}

/// `--set` values as the compiler takes them.
fn settings(set: &[Setting]) -> Vec<(String, String)> {
    set.iter()
        .map(|s| (s.key.clone(), s.value.clone()))
        .collect()
}

/// Reads and compiles a variant for a command other than `check`.
fn load_rules(path: &Path, set: &[Setting]) -> Result<Rules, Error> {
    let file = lang::read_variant(path)?;
    Ok(lang::compile_file(file, path, &settings(set))?)
}
