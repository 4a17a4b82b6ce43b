//! The file operations a run is written with, behind a trait: a test can make any one of them
//! fail, as a crash or a full disk would at that step, and check what a resume makes of the
//! directory left behind.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Creating, writing, renaming and removing files: one call per step of writing a run.
pub trait Disk: Send {
    /// Creates (or truncates) a file to write to.
    ///
    /// # Errors
    /// As the system's.
    fn create(&mut self, path: &Path) -> io::Result<File>;
    /// Writes a whole file.
    ///
    /// # Errors
    /// As the system's.
    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()>;
    /// Renames a file, replacing any file of the new name.
    ///
    /// # Errors
    /// As the system's.
    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()>;
    /// Removes a file.
    ///
    /// # Errors
    /// As the system's.
    fn remove(&mut self, path: &Path) -> io::Result<()>;
}

/// The real file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealDisk;

impl Disk for RealDisk {
    fn create(&mut self, path: &Path) -> io::Result<File> {
        File::create(path)
    }
    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        fs::write(path, bytes)
    }
    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }
    fn remove(&mut self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }
}

/// A file operation that failed: the file, and the system's reason.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub source: io::Error,
}

impl FileError {
    /// Turns an error about `path` into a [`FileError`] (for `map_err`).
    pub fn at(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The name a file is written under before it is renamed into place: `run.json` → `run.tmp`.
pub fn temporary(path: &Path) -> PathBuf {
    path.with_extension("tmp")
}

/// Writes a whole file under its [`temporary`] name, then renames it into place, so the file
/// is either the old one or the new one, whole.
///
/// # Errors
/// Either step's error, with the file it concerns.
pub fn write_atomically(disk: &mut dyn Disk, path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let tmp = temporary(path);
    disk.write(&tmp, bytes).map_err(FileError::at(&tmp))?;
    disk.rename(&tmp, path).map_err(FileError::at(path))
}

/// Writes `bytes` to `path` in place of any file of that name: beside it under a name of its
/// own (made for this write, with the old file's permissions), then renamed over it, so the
/// file is always the old one or the new one, whole (`fmt`, `play`'s `save`).
///
/// # Errors
/// Any step's error, with `path`; the name written first is then removed.
pub fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.{}.sowlab", std::process::id()));
    let permissions = match fs::metadata(path) {
        Ok(metadata) => Some(metadata.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(FileError::at(path)(e)),
    };
    let write = || -> io::Result<()> {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        match permissions {
            Some(permissions) => fs::set_permissions(&tmp, permissions),
            None => Ok(()),
        }
    };
    if let Err(e) = write() {
        let _ = fs::remove_file(&tmp);
        return Err(FileError::at(path)(e));
    }
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        FileError::at(path)(e)
    })
}
