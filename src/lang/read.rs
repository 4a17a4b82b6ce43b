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

/// The variant files found under some paths, and what was passed over on the way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Every file named, and every `.sow` file in the folders named, sorted per folder; each
    /// once, where it is first named (`variants variants/catalogue` names the catalogue twice).
    pub files: Vec<PathBuf>,
    /// Folders not looked into, each with the reason: a link to a folder (which could lead
    /// back up the tree), or deeper than 16 folders.
    pub skipped: Vec<(PathBuf, &'static str)>,
}

impl Found {
    fn add(&mut self, file: PathBuf) {
        if !self.files.contains(&file) {
            self.files.push(file);
        }
    }
}

/// The variant files `paths` name: a file as given, a folder as every `.sow` file under it
/// (sorted, to a depth of 16, a link to a `.sow` file taken as the file, a link to a folder
/// passed over and said so in [`Found::skipped`]).
///
/// # Errors
/// A folder that cannot be listed.
pub fn variant_files(paths: &[PathBuf]) -> Result<Found, ReadError> {
    let mut found = Found::default();
    for path in paths {
        // Anything but a folder is left for the reading to judge, and report.
        if path.is_dir() {
            let mut files = Vec::new();
            collect(path, 0, &mut files, &mut found.skipped)?;
            files.sort();
            for file in files {
                found.add(file);
            }
        } else {
            found.add(path.clone());
        }
    }
    Ok(found)
}

fn collect(
    dir: &Path,
    depth: usize,
    found: &mut Vec<PathBuf>,
    skipped: &mut Vec<(PathBuf, &'static str)>,
) -> Result<(), ReadError> {
    let failed = |e: io::Error| ReadError {
        path: dir.display().to_string(),
        reason: ReadFailure::Io(e),
    };
    for entry in std::fs::read_dir(dir).map_err(failed)? {
        let entry = entry.map_err(failed)?;
        let path = entry.path();
        let kind = entry.file_type().map_err(failed)?;
        let sow = path.extension().is_some_and(|e| e == "sow");
        if kind.is_dir() {
            if depth < MAX_FOLDER_DEPTH {
                collect(&path, depth + 1, found, skipped)?;
            } else {
                skipped.push((path, "deeper than 16 folders"));
            }
        } else if kind.is_symlink() {
            match std::fs::metadata(&path) {
                Ok(m) if m.is_dir() => skipped.push((path, "a link to a folder")),
                Ok(m) if m.is_file() && sow => found.push(path),
                _ => {}
            }
        } else if kind.is_file() && sow {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder named inside one already named adds no file twice.
    #[test]
    fn a_file_named_twice_is_found_once() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let all = variant_files(&[root.join("variants")]).expect("listed");
        let again = variant_files(&[
            root.join("variants"),
            root.join("variants/catalogue"),
            root.join("variants/kalah.sow"),
        ])
        .expect("listed");
        assert_eq!(all.files, again.files);
        assert!(all.files.len() > 70);
    }
}
