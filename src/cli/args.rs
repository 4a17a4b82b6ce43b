//! Command-line arguments, as clap parses them: raw values, no logic.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Rule language, engine and self-play laboratory for recorded mancala variants.
#[derive(Debug, Parser)]
#[command(name = "sowlab", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

const EXIT_CODES: &str = "Exit codes: 0 success; 1 `check` found errors in a rule file; 2 usage, input or output error.";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate variant files; print every diagnostic.
    Check(CheckArgs),
    /// Play moves and print a step-by-step account, or one JSON state per move.
    Trace(TraceArgs),
    /// Print a variant's compiled rules in words, with the readings they rest on.
    Explain(ExplainArgs),
}

/// `sowlab check FILE...`
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Variant files (`.sow`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Board overrides, e.g. `--set holes=9`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// `sowlab trace FILE --moves 3,7,1` or `--random N --seed S`
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// Variant file.
    pub file: PathBuf,
    /// Holes to play, comma-separated, numbered 0..2N-1 counterclockwise from South's leftmost.
    #[arg(long, value_delimiter = ',', conflicts_with = "random")]
    pub moves: Option<Vec<usize>>,
    /// Play this many uniformly random legal moves (fewer if the game ends).
    #[arg(long)]
    pub random: Option<u32>,
    /// Seed for `--random`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One JSON object per move on stdout instead of the readable account.
    #[arg(long)]
    pub json: bool,
    /// Board overrides, e.g. `--set holes=9 --set seeds=5`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// `sowlab explain FILE`
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Variant file.
    pub file: PathBuf,
    /// Board overrides.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}
