//! Directories sowlab writes. A hidden marker file, `.sowlab`, says that sowlab owns a
//! directory, what it holds (a simulation run or a report) and which files sowlab wrote there
//! (its manifest, each name recorded before the file is created). sowlab replaces, empties or
//! removes a directory only when it has the marker and holds nothing but the files of its
//! manifest, so a user's files are never touched. While a run writes a directory it holds an
//! advisory lock on it, with its process id written in the marker: a second run is refused at
//! once.
//!
//! A directory may have been prepared by someone else (an unpacked archive, a shared `/tmp`),
//! so the marker is data from disk like any other: a directory is sowlab's only if its marker
//! is a plain file sowlab could have written, naming plain files directly inside it, and every
//! one of those that exists is a regular file with no other link. Anything else makes the
//! directory foreign, and nothing in it is touched.

pub mod disk;

use std::fmt;
use std::fs::{self, File, TryLockError};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use disk::{temporary, write_atomically, FileError, RealDisk};

/// The marker's file name.
pub const MARKER: &str = ".sowlab";

/// What a directory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The files of `simulate` or `merge`.
    Run,
    /// A `compare` or `sweep` report (with the run it was made from).
    Report,
    /// `trace --svg`'s board diagrams.
    Pictures,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Run => "a simulation run",
            Kind::Report => "a report",
            Kind::Pictures => "board diagrams",
        })
    }
}

/// The marker's contents (JSON).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Marker {
    /// `sowlab`.
    tool: String,
    /// What the directory holds.
    kind: Kind,
    /// The version that last wrote it.
    version: String,
    /// The process writing the directory, while one does.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pid: Option<u32>,
    /// The files sowlab wrote there (or was about to).
    files: Vec<String>,
}

/// Why a directory cannot be written, replaced or removed.
#[derive(Debug, thiserror::Error)]
pub enum OutDirError {
    /// Another process holds the lock.
    #[error("`{}` is in use by another sowlab run ({})", dir.display(), holder_text(*pid))]
    InUse {
        /// The directory, as the user named it.
        dir: PathBuf,
        /// The other run's process, if its marker says.
        pid: Option<u32>,
    },
    /// The directory holds files sowlab did not write.
    #[error("`{}` holds files sowlab did not write ({}); nothing was changed: choose another --out", dir.display(), files.join(", "))]
    Foreign {
        /// The directory.
        dir: PathBuf,
        /// The files that are not sowlab's.
        files: Vec<String>,
    },
    /// The directory's marker, or a file it names, is not as sowlab leaves them.
    #[error("`{}` is not sowlab's to write: {what}; nothing was changed: choose another --out", dir.display())]
    Untrusted {
        /// The directory.
        dir: PathBuf,
        /// What is wrong, naming the file.
        what: String,
    },
    /// The directory holds sowlab files of another kind.
    #[error("`{}` holds {found}, not {wanted}; nothing was changed: choose another --out", dir.display())]
    WrongKind {
        /// The directory.
        dir: PathBuf,
        /// What it holds.
        found: Kind,
        /// What was to be written there.
        wanted: Kind,
    },
    /// The path is a file.
    #[error("`{}` is not a directory", .0.display())]
    NotADirectory(PathBuf),
    /// The path is a symbolic link: sowlab writes only into a directory it names directly
    /// (`--out` is resolved once, by [`resolve`], before it gets here).
    #[error("`{}` is a link; nothing was changed: name the directory itself", .0.display())]
    Link(PathBuf),
    /// A link whose target is missing or cannot be resolved.
    #[error("`{}` is a link to `{}`, which cannot be used: {source}", link.display(), target.display())]
    BrokenLink {
        /// The link.
        link: PathBuf,
        /// What it names.
        target: PathBuf,
        /// Why it cannot be resolved.
        source: io::Error,
    },
    /// A report's `--out` that cannot be replaced by another directory.
    #[error("`{}` is the current directory or one above it, which a report cannot replace; name a directory of its own", .0.display())]
    NotReplaceable(PathBuf),
    /// A file operation failed.
    #[error(transparent)]
    File(#[from] FileError),
}

fn holder_text(pid: Option<u32>) -> String {
    pid.map_or_else(|| "process unknown".into(), |p| format!("process {p}"))
}

/// An output path as given, resolved once: a symbolic link is replaced by the directory it
/// names, so that nothing afterwards renames, empties or writes through the link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The directory to write.
    pub path: PathBuf,
    /// The link it was named by, if it was.
    pub link: Option<PathBuf>,
}

/// Resolves `path` for writing: a symbolic link becomes the directory it names (which must
/// exist); anything else is kept as given.
///
/// # Errors
/// A link whose target does not exist or cannot be read.
pub fn resolve(path: &Path) -> Result<Resolved, OutDirError> {
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(Resolved {
            path: path.to_path_buf(),
            link: None,
        });
    }
    let target = fs::read_link(path).unwrap_or_default();
    match fs::canonicalize(path) {
        Ok(resolved) => Ok(Resolved {
            path: resolved,
            link: Some(path.to_path_buf()),
        }),
        Err(source) => Err(OutDirError::BrokenLink {
            link: path.to_path_buf(),
            target,
            source,
        }),
    }
}

/// Refuses a report's `--out` that names the current directory or one above it: a report
/// takes the place of its directory by a rename, which such a directory cannot undergo.
///
/// # Errors
/// [`OutDirError::NotReplaceable`].
pub fn check_replaceable(path: &Path) -> Result<(), OutDirError> {
    let refused = || OutDirError::NotReplaceable(path.to_path_buf());
    if path.file_name().is_none() {
        return Err(refused());
    }
    let (Ok(here), Ok(there)) = (std::env::current_dir(), fs::canonicalize(path)) else {
        return Ok(());
    };
    match fs::canonicalize(here) {
        Ok(here) if here.starts_with(&there) => Err(refused()),
        _ => Ok(()),
    }
}

/// A directory sowlab owns and holds locked: it writes files there only after recording their
/// names in the marker. The lock is released when the value is dropped.
#[derive(Debug)]
pub struct OutDir {
    path: PathBuf,
    marker: Marker,
    /// The directory itself, open and locked. The lock is on the directory rather than on the
    /// marker because the marker is replaced whole at every change, and it goes with the
    /// directory when a report is renamed into place.
    lock: File,
}

impl OutDir {
    /// Opens `path` to write a `kind` directory there, creating it if it does not exist, and
    /// takes the lock. An existing directory must be empty, or have the marker of a `kind`
    /// directory and hold only the files of its manifest, each a regular file of its own.
    ///
    /// # Errors
    /// The directory is in use, is a link, holds other files, another kind of directory or a
    /// marker that is not sowlab's, or cannot be created or read.
    pub fn open(path: &Path, kind: Kind) -> Result<OutDir, OutDirError> {
        if !directory(path)? {
            fs::create_dir_all(path).map_err(FileError::at(path))?;
        }
        let lock = File::open(path).map_err(FileError::at(path))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(OutDirError::InUse {
                    dir: path.to_path_buf(),
                    pid: read_marker(path).ok().flatten().and_then(|m| m.pid),
                })
            }
            Err(TryLockError::Error(e)) => return Err(FileError::at(path)(e).into()),
        }
        let files = owned(path, kind)?;
        let mut dir = OutDir {
            path: path.to_path_buf(),
            marker: Marker {
                tool: "sowlab".into(),
                kind,
                version: env!("CARGO_PKG_VERSION").into(),
                pid: Some(std::process::id()),
                files,
            },
            lock,
        };
        dir.write_marker()?;
        Ok(dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records `names` in the manifest, before the files are written.
    ///
    /// # Panics
    /// A name that is not a plain file name: sowlab's own names are.
    ///
    /// # Errors
    /// The marker cannot be written.
    pub fn claim<S: AsRef<str>>(&mut self, names: &[S]) -> Result<(), OutDirError> {
        let before = self.marker.files.len();
        for name in names {
            let name = name.as_ref();
            assert!(plain(name), "`{name}` is not a plain file name");
            if !self.marker.files.iter().any(|f| f == name) {
                self.marker.files.push(name.to_string());
            }
        }
        if self.marker.files.len() > before {
            self.write_marker()?;
        }
        Ok(())
    }

    /// Writes a whole file `name` (under a temporary name, then renamed into place), after
    /// recording both names.
    ///
    /// # Errors
    /// The marker or the file cannot be written.
    pub fn write_file(&mut self, name: &str, bytes: &[u8]) -> Result<(), OutDirError> {
        let path = self.path.join(name);
        let tmp = file_name(&temporary(&path));
        self.claim(&[name, tmp.as_str()])?;
        Ok(write_atomically(&mut RealDisk, &path, bytes)?)
    }

    /// Removes every file of the manifest, leaving the directory with its marker alone.
    ///
    /// # Errors
    /// A file cannot be removed, or the marker written.
    pub fn clear(&mut self) -> Result<(), OutDirError> {
        for name in &self.marker.files {
            let path = self.path.join(name);
            match fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(FileError::at(&path)(e).into()),
            }
        }
        self.marker.files.clear();
        self.write_marker()
    }

    /// Renames the directory (the lock goes with it).
    ///
    /// # Errors
    /// The rename fails (`to` exists and is not empty, say).
    pub fn rename(&mut self, to: &Path) -> Result<(), OutDirError> {
        fs::rename(&self.path, to).map_err(FileError::at(to))?;
        self.path = to.to_path_buf();
        Ok(())
    }

    /// Removes the files of the manifest, the marker and the directory. Anything else that
    /// appeared in it in the meantime stays, and so does the directory.
    ///
    /// # Errors
    /// A file or the directory cannot be removed.
    pub fn remove(mut self) -> Result<(), OutDirError> {
        self.clear()?;
        let marker = self.path.join(MARKER);
        fs::remove_file(&marker).map_err(FileError::at(&marker))?;
        fs::remove_dir(&self.path).map_err(FileError::at(&self.path))?;
        Ok(())
    }

    /// Ends the writing: the manifest keeps the files that are there (temporary names go),
    /// sorted, and the marker no longer names a process. Returns the manifest.
    ///
    /// # Errors
    /// The marker cannot be written.
    pub fn finish(mut self) -> Result<Vec<String>, OutDirError> {
        let path = self.path.clone();
        self.marker
            .files
            .retain(|f| fs::symlink_metadata(path.join(f)).is_ok());
        self.marker.files.sort();
        self.marker.pid = None;
        self.write_marker()?;
        Ok(self.marker.files.clone())
    }

    /// Replaces the marker whole (a temporary file renamed over it), so that no interruption
    /// leaves it torn.
    fn write_marker(&mut self) -> Result<(), OutDirError> {
        let json = serde_json::to_string_pretty(&self.marker).expect("a marker serialises") + "\n";
        Ok(write_atomically(
            &mut RealDisk,
            &self.path.join(MARKER),
            json.as_bytes(),
        )?)
    }
}

/// Releases the lock explicitly: the directory may still be open elsewhere for a moment (in a
/// child process between its fork and its exec, say), and the lock would last as long.
impl Drop for OutDir {
    fn drop(&mut self) {
        let _ = self.lock.unlock();
    }
}

/// Checks, without writing or locking anything, that `path` could be opened as a `kind`
/// directory ([`OutDir::open`]): it is absent, empty, or such a directory with only the files
/// of its manifest.
///
/// # Errors
/// As [`OutDir::open`], except that a directory in use is not detected.
pub fn check(path: &Path, kind: Kind) -> Result<(), OutDirError> {
    if directory(path)? {
        owned(path, kind)?;
    }
    Ok(())
}

/// Whether `path` is an existing directory (a link to one is not: it is refused); `false` if
/// nothing has the name.
fn directory(path: &Path) -> Result<bool, OutDirError> {
    // An empty path would put the marker, and a report's scratch directory, in the current
    // directory.
    if path.as_os_str().is_empty() {
        return Err(OutDirError::NotADirectory(path.to_path_buf()));
    }
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(OutDirError::Link(path.to_path_buf())),
        Ok(m) if !m.is_dir() => Err(OutDirError::NotADirectory(path.to_path_buf())),
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(FileError::at(path)(e).into()),
    }
}

/// The manifest of `dir`, if it may be written as a `kind` directory: it holds nothing, or a
/// marker of that kind, written as sowlab writes it, whose every name is a plain file name,
/// and nothing but the files the marker names, each a regular file with no other link.
fn owned(dir: &Path, kind: Kind) -> Result<Vec<String>, OutDirError> {
    let untrusted = |what: String| OutDirError::Untrusted {
        dir: dir.to_path_buf(),
        what,
    };
    let files = match read_marker(dir).map_err(untrusted)? {
        Some(found) if found.kind != kind => {
            return Err(OutDirError::WrongKind {
                dir: dir.to_path_buf(),
                found: found.kind,
                wanted: kind,
            })
        }
        Some(found) => found.files,
        None => Vec::new(),
    };
    if let Some(bad) = files.iter().find(|f| !plain(f)) {
        return Err(untrusted(format!(
            "its marker names `{bad}`, which is not a file directly inside it"
        )));
    }
    let mut strays = Vec::new();
    for name in entries(dir)? {
        if files.contains(&name) || name == temporary_marker() {
            if let Some(why) = not_own_file(&dir.join(&name)).map_err(FileError::at(dir))? {
                return Err(untrusted(format!("`{name}` is {why}")));
            }
        } else {
            strays.push(name);
        }
    }
    if strays.is_empty() {
        Ok(files)
    } else {
        strays.sort();
        Err(OutDirError::Foreign {
            dir: dir.to_path_buf(),
            files: strays,
        })
    }
}

/// Whether `name` is a plain file name: one component, not `.` or `..`, not the marker's.
fn plain(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name != MARKER
        && name != temporary_marker()
        && !name.contains(['/', '\\', '\0'])
}

/// The name the marker is written under before it is renamed into place.
fn temporary_marker() -> String {
    file_name(&temporary(Path::new(MARKER)))
}

/// Why the file at `path` is not one sowlab may have written, if it is not: sowlab writes
/// regular files, each with one link. Nothing having the name is fine.
fn not_own_file(path: &Path) -> io::Result<Option<&'static str>> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Ok(Some("a link")),
        Ok(m) if !m.is_file() => Ok(Some("not a regular file")),
        Ok(m) if disk::links(&m) > 1 => Ok(Some("a file with other links to it")),
        Ok(_) => Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The names in `dir`, except the marker.
fn entries(dir: &Path) -> Result<Vec<String>, OutDirError> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(FileError::at(dir))? {
        let name = file_name(&entry.map_err(FileError::at(dir))?.path());
        if name != MARKER {
            names.push(name);
        }
    }
    Ok(names)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The marker of `dir`, if it has one (at most 1 MiB is read); why it is not sowlab's, if it
/// is not: not a regular file of its own, or not a marker sowlab writes.
fn read_marker(dir: &Path) -> Result<Option<Marker>, String> {
    let path = dir.join(MARKER);
    let not_sowlabs = |why: &str| format!("its `{MARKER}` is {why}");
    match not_own_file(&path) {
        Ok(Some(why)) => return Err(not_sowlabs(why)),
        Ok(None) => {}
        Err(e) => return Err(not_sowlabs(&format!("unreadable ({e})"))),
    }
    let mut text = String::new();
    match disk::open_own(&path, false) {
        Ok(file) => {
            if let Err(e) = file.take(1 << 20).read_to_string(&mut text) {
                return Err(not_sowlabs(&format!("unreadable ({e})")));
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(not_sowlabs(&format!("unreadable ({e})"))),
    }
    match serde_json::from_str::<Marker>(&text) {
        Ok(marker) if marker.tool == "sowlab" => Ok(Some(marker)),
        _ => Err(not_sowlabs("not a marker sowlab wrote")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names = entries(dir).unwrap();
        names.sort();
        names
    }

    #[test]
    fn an_empty_or_new_directory_is_taken_over_and_a_full_one_is_not() {
        let tmp = tempfile::tempdir().unwrap();
        let new = tmp.path().join("new");
        let dir = OutDir::open(&new, Kind::Run).unwrap();
        assert!(new.join(MARKER).is_file());
        drop(dir);
        OutDir::open(tmp.path(), Kind::Report).expect_err("holds `new`");
        fs::write(new.join("notes.txt"), "mine").unwrap();
        let error = OutDir::open(&new, Kind::Run).unwrap_err();
        assert!(matches!(&error, OutDirError::Foreign { files, .. } if files == &["notes.txt"]));
        assert_eq!(fs::read_to_string(new.join("notes.txt")).unwrap(), "mine");
    }

    #[test]
    fn only_the_files_of_the_manifest_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("report");
        let mut dir = OutDir::open(&path, Kind::Report).unwrap();
        dir.write_file("a.csv", b"a\n").unwrap();
        dir.claim(&["b.svg"]).unwrap();
        fs::write(path.join("b.svg"), "<svg/>").unwrap();
        let marker = fs::read_to_string(path.join(MARKER)).unwrap();
        assert!(
            marker.contains("\"a.tmp\""),
            "recorded before it is written: {marker}"
        );
        // The temporary file is gone, and from the manifest too.
        assert_eq!(dir.finish().unwrap(), ["a.csv", "b.svg"]);
        check(&path, Kind::Report).unwrap();
        assert!(matches!(
            check(&path, Kind::Run),
            Err(OutDirError::WrongKind { .. })
        ));
        // A file of the user's appears: the directory is no longer sowlab's alone.
        fs::write(path.join("mine.txt"), "mine").unwrap();
        assert!(matches!(
            check(&path, Kind::Report),
            Err(OutDirError::Foreign { .. })
        ));
        fs::remove_file(path.join("mine.txt")).unwrap();
        OutDir::open(&path, Kind::Report).unwrap().remove().unwrap();
        assert!(!path.exists());
        assert_eq!(names(tmp.path()), Vec::<String>::new());
    }

    #[test]
    fn a_second_open_is_refused_while_the_first_holds_the_lock() {
        let tmp = tempfile::tempdir().unwrap();
        let first = OutDir::open(tmp.path(), Kind::Run).unwrap();
        let error = OutDir::open(tmp.path(), Kind::Run).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "`{}` is in use by another sowlab run (process {})",
                tmp.path().display(),
                std::process::id()
            )
        );
        let files = first.finish().unwrap();
        assert!(files.is_empty());
        let marker = fs::read_to_string(tmp.path().join(MARKER)).unwrap();
        assert!(!marker.contains("pid"), "{marker}");
        OutDir::open(tmp.path(), Kind::Run).expect("free again");
    }
}
