//! Reading a rule file from disk, defensively: only a regular file is opened (a FIFO would
//! block and `/dev/zero` never ends), and no more than [`MAX_FILE_BYTES`] is read of it.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

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

/// How deep [`variant_files`] looks into folders.
const MAX_FOLDER_DEPTH: usize = 16;

/// The variant files `paths` name: a file as given, a folder as every `.sow` file under it
/// (sorted, to a depth of 16, symbolic links to folders not followed).
///
/// # Errors
/// A folder that cannot be listed.
pub fn variant_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ReadError> {
    let mut files = Vec::new();
    for path in paths {
        // Anything but a folder is left for the reading to judge, and report.
        if path.is_dir() {
            let mut found = Vec::new();
            collect(path, 0, &mut found)?;
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn collect(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) -> Result<(), ReadError> {
    let failed = |e: io::Error| ReadError {
        path: dir.display().to_string(),
        reason: ReadFailure::Io(e),
    };
    for entry in std::fs::read_dir(dir).map_err(failed)? {
        let entry = entry.map_err(failed)?;
        let path = entry.path();
        let kind = entry.file_type().map_err(failed)?;
        if kind.is_dir() && depth < MAX_FOLDER_DEPTH {
            collect(&path, depth + 1, found)?;
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "sow") {
            found.push(path);
        }
    }
    Ok(())
}
