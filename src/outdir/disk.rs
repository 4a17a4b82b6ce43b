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
        fresh(path)
    }
    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        fresh(path)?.write_all(bytes)
    }
    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }
    fn remove(&mut self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }
}

/// Creates `path` anew for writing: whatever had the name is removed first (a link, not what
/// it names), and the file is created exclusively, so a write never follows a link that
/// someone else put there.
///
/// # Errors
/// As the system's; a directory of that name is not removed.
pub fn fresh(path: &Path) -> io::Result<File> {
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    OpenOptions::new().write(true).create_new(true).open(path)
}

/// Opens an existing file that sowlab wrote, to read it or (with `write`) to write it in
/// place, without following a link: the file must be a regular file with no other link.
///
/// # Errors
/// As the system's; a link, or a file that is not regular or has other links, is refused.
pub fn open_own(path: &Path, write: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(!write).write(write);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    if fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(io::Error::other("a link, which sowlab does not follow"));
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    if links(&metadata) > 1 {
        return Err(io::Error::other("a file with other links to it"));
    }
    Ok(file)
}

/// The number of names a file has (hard links); 1 where the platform does not say.
pub fn links(metadata: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        metadata.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        1
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

/// Writes `bytes` to `path`, which must not exist: the file is created exclusively, so no
/// file is replaced and no link followed (`play`'s `save`). A write that fails removes what it
/// created.
///
/// # Errors
/// Anything has the name already ([`io::ErrorKind::AlreadyExists`]); the write fails.
pub fn create_file(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(FileError::at(path))?;
    file.write_all(bytes).map_err(|e| {
        let _ = fs::remove_file(path);
        FileError::at(path)(e)
    })
}

/// What [`replace_file`] does with a symbolic link at the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// Writes the file it names, and keeps the link (`fmt`).
    Follow,
    /// Refuses it (`play`'s `save!`).
    Refuse,
}

/// Writes `bytes` to `path` in place of any file of that name, so that the file is always the
/// old one or the new one, whole (`fmt`, `play`'s `save!`): beside it under a name of its own,
/// with the old file's permissions, then renamed over it. A file with other names (hard
/// links) keeps them: its old bytes are first saved beside it, then it is rewritten in place,
/// and the saved copy removed. A read-only file, or anything but a regular file, is refused.
///
/// # Errors
/// Any step's error, with `path`; the names written first are then removed.
pub fn replace_file(path: &Path, bytes: &[u8], links_at: Links) -> Result<(), FileError> {
    let refuse = |why: &str| FileError::at(path)(io::Error::other(why.to_string()));
    let metadata = match fs::symlink_metadata(path) {
        Ok(metadata) => Some(metadata),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(FileError::at(path)(e)),
    };
    let Some(metadata) = metadata else {
        return write_beside(path, bytes, None);
    };
    if metadata.file_type().is_symlink() {
        return match links_at {
            Links::Refuse => Err(refuse("a link; not written through")),
            Links::Follow => {
                let target = fs::canonicalize(path).map_err(FileError::at(path))?;
                replace_file(&target, bytes, Links::Refuse)
            }
        };
    }
    if !metadata.is_file() {
        return Err(refuse("not a regular file; not changed"));
    }
    if metadata.permissions().readonly() {
        return Err(refuse("read-only; not changed"));
    }
    if links(&metadata) > 1 {
        return rewrite_in_place(path, bytes);
    }
    write_beside(path, bytes, Some(metadata.permissions()))
}

/// A name beside `path` for a file written on the way to it: `.NAME.PID.sowlab`.
fn beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy());
    path.with_file_name(format!(".{name}.{}.sowlab", std::process::id()))
}

/// Writes `bytes` beside `path` (created exclusively, with `permissions`), then renames it
/// over `path`.
fn write_beside(
    path: &Path,
    bytes: &[u8],
    permissions: Option<fs::Permissions>,
) -> Result<(), FileError> {
    let tmp = beside(path);
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

/// Rewrites a file with other names in place, its old bytes saved beside it until the new
/// ones are written whole: an interruption leaves the saved copy, never a file half lost.
fn rewrite_in_place(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let copy = beside(path);
    let old = fs::read(path).map_err(FileError::at(path))?;
    create_file(&copy, &old)?;
    let rewrite = |bytes: &[u8]| -> io::Result<()> {
        let mut file = OpenOptions::new().write(true).open(path)?;
        file.write_all(bytes)?;
        file.set_len(bytes.len() as u64)?;
        file.sync_all()
    };
    if let Err(e) = rewrite(bytes) {
        // Put the old bytes back; the saved copy stays if even that fails.
        if rewrite(&old).is_ok() {
            let _ = fs::remove_file(&copy);
        }
        return Err(FileError::at(path)(e));
    }
    fs::remove_file(&copy).map_err(FileError::at(&copy))
}
