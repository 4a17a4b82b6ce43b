//! Reading a rule file from disk, defensively: only a regular file is opened (a FIFO would
//! block and `/dev/zero` never ends), and no more than [`MAX_FILE_BYTES`] is read of it.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The largest rule file read, in bytes. The longest shipped variant is under 3 kB.
pub const MAX_FILE_BYTES: u64 = 1_000_000;

/// Why a rule file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read `{path}`: {reason}")]
pub struct ReadError {
    /// The path as given.
    pub path: String,
    /// Why.
    pub reason: ReadFailure,
}

/// The reason in a [`ReadError`].
#[derive(Debug, thiserror::Error)]
pub enum ReadFailure {
    /// The system's reason: missing, no permission, ...
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A directory, FIFO, device or socket.
    #[error("not a regular file")]
    NotAFile,
    /// More than [`MAX_FILE_BYTES`].
    #[error("larger than 1 MB, the limit for a rule file")]
    TooLarge,
    /// Bytes that are not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
}

/// Reads the rule file at `path`.
///
/// # Errors
/// A missing or unreadable file, a file that is not a regular file, too large, or not UTF-8.
pub fn read(path: &Path) -> Result<String, ReadError> {
    read_text(path).map_err(|reason| ReadError {
        path: path.display().to_string(),
        reason,
    })
}

fn read_text(path: &Path) -> Result<String, ReadFailure> {
    // Checked before opening: opening a FIFO for reading blocks until someone writes to it.
    if !std::fs::metadata(path)?.is_file() {
        return Err(ReadFailure::NotAFile);
    }
    let file = File::open(path)?;
    // Checked again on what was opened, in case the path changed in between.
    if !file.metadata()?.is_file() {
        return Err(ReadFailure::NotAFile);
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadFailure::TooLarge);
    }
    String::from_utf8(bytes).map_err(|_| ReadFailure::NotUtf8)
}
