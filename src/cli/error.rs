//! Why a command failed. Every failure is one of these, and `cli::run_with` alone turns
//! them into a line on stderr and an exit code.

use std::io;
use std::path::PathBuf;

use crate::engine::{NoMatchRules, PlayError};
use crate::lang::{CompileErrors, ReadError};
use crate::outdir::disk::FileError;
use crate::outdir::OutDirError;
use crate::report::error::ReportError;
use crate::rules::Side;
use crate::sim::merge::MergeError;
use crate::sim::output::OutputError;
use crate::solve::{SolveError, TablebaseError};

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Arguments clap refused; also `--help` and `--version`, which clap reports this way.
    #[error("{0}")]
    Usage(#[from] clap::Error),
    /// A variant file that could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A variant with errors in its rules: the first, and how many more.
    #[error("{}", first(.0))]
    Compile(CompileErrors),
    /// Two variants of one run with one name.
    #[error("two variants are named \"{0}\"; give each a distinct `game` name")]
    SameName(String),
    /// More games than can be counted.
    #[error("{games} games for each of {variants} variant(s), {pairings} pairing(s) and two seat orders are more than can be counted")]
    TooManyGames {
        /// `--games`.
        games: u64,
        /// Variants given.
        variants: usize,
        /// Pairings given.
        pairings: usize,
    },
    /// One pairing twice: its games would be played twice and reported as one.
    #[error("--agents {0} is given twice")]
    SamePairing(String),
    /// `readings` of a file with no alternatives (to play).
    #[error("{0}")]
    NoAlternatives(String),
    /// `sweep` with nothing to sweep.
    #[error("give at least one range to sweep, e.g. --set holes=6..12")]
    NothingToSweep,
    /// `solve`: a board beyond the limit, or a search that outgrew it.
    #[error("cannot solve {board}: {error}; {advice}")]
    Solve {
        /// The variant and its board.
        board: String,
        /// Why not.
        error: SolveError,
        /// How to get under the limit.
        advice: String,
    },
    /// `perfect` asked to play a variant the solver cannot search every move.
    #[error(
        "`perfect` cannot play {variant}: {why}; give another agent, or a smaller board with --set"
    )]
    PerfectUnfit {
        /// The variant's name.
        variant: String,
        /// Why not.
        why: String,
    },
    /// `solve --tablebase`: a file that cannot be read, written or used.
    #[error(transparent)]
    Tablebase(#[from] TablebaseError),
    /// `trace`: a hole that cannot be played.
    #[error("move {turn}: {error}; {side} can play {}", legal.join(", "))]
    IllegalMove {
        /// The move number.
        turn: u32,
        /// Why not.
        error: PlayError,
        /// Who was to move.
        side: Side,
        /// The moves they could play, named as `--moves` takes them.
        legal: Vec<String>,
    },
    /// `--match` on a variant without match rules.
    #[error("`{}` has no match rules (no `match` block), so --match cannot play it", .0.display())]
    NoMatch(PathBuf, NoMatchRules),
    /// `trace`: a move after the end of the game.
    #[error("move {turn}: the game is already over")]
    GameOver {
        /// The move number.
        turn: u32,
    },
    /// `simulate` stopped by Ctrl-C: its checkpoint lets `--resume` finish it.
    #[error("interrupted after {done} games; the same command with --resume finishes the run")]
    Interrupted {
        /// Games played.
        done: u64,
    },
    /// `compare` or `sweep` stopped by Ctrl-C: nothing was written where the report goes.
    #[error("interrupted after {done} games; `{}` was not changed: run the command again to make the report", out.display())]
    InterruptedReport {
        /// Games played.
        done: u64,
        /// The report's directory.
        out: PathBuf,
    },
    /// The worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// An output directory that cannot be used.
    #[error(transparent)]
    OutDir(#[from] OutDirError),
    /// A run that cannot be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// Shards that cannot be merged.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// A report that cannot be written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A file that cannot be written (`fmt`).
    #[error(transparent)]
    File(#[from] FileError),
    /// Standard input cannot be read (`play`).
    #[error("cannot read the input: {0}")]
    Stdin(io::Error),
    /// Standard output cannot be written.
    #[error("cannot write the output: {0}")]
    Stdout(io::Error),
}

impl Error {
    /// Whether this is a closed standard output (`sowlab trace ... | head`): not an error
    /// for the user, who closed it.
    pub fn is_closed_output(&self) -> bool {
        matches!(self, Error::Stdout(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl From<CompileErrors> for Error {
    fn from(errors: CompileErrors) -> Error {
        Error::Compile(errors)
    }
}

fn first(errors: &CompileErrors) -> String {
    let Some(first) = errors.0.first() else {
        return "the variant does not compile".into();
    };
    match errors.0.len() {
        1 => first.to_string(),
        n => format!("{first} (and {} more; run `sowlab check` for all)", n - 1),
    }
}
