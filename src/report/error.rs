//! Why a report could not be written.

use std::path::PathBuf;

use crate::outdir::OutDirError;
use crate::sim::output::OutputError;

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The run's files could not be read.
    #[error(transparent)]
    Run(#[from] OutputError),
    /// A report file could not be written.
    #[error(transparent)]
    Dir(#[from] OutDirError),
    /// A table could not be written as CSV.
    #[error("{}: {source}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// Why.
        source: csv::Error,
    },
    /// A chart could not be drawn or written; plotters says why.
    #[error("{}: {message}", path.display())]
    Chart {
        /// The file.
        path: PathBuf,
        /// plotters' message.
        message: String,
    },
}
