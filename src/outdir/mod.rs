//! Directories sowlab writes. A hidden marker file, `.sowlab`, says that sowlab owns a
//! directory, what it holds (a simulation run or a report) and which files sowlab wrote there
//! (its manifest, each name recorded before the file is created). sowlab replaces, empties or
//! removes a directory only when it has the marker and holds nothing but the files of its
//! manifest, so a user's files are never touched. While a run writes a directory it holds an
//! advisory lock on the marker, with its process id written in it: a second run is refused at
//! once.

pub mod disk;

use std::fmt;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
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
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Run => "a simulation run",
            Kind::Report => "a report",
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
    /// A file operation failed.
    #[error(transparent)]
    File(#[from] FileError),
}

fn holder_text(pid: Option<u32>) -> String {
    pid.map_or_else(|| "process unknown".into(), |p| format!("process {p}"))
}

/// A directory sowlab owns and holds locked: it writes files there only after recording their
/// names in the marker. The lock is released when the value is dropped.
#[derive(Debug)]
pub struct OutDir {
    path: PathBuf,
    marker: Marker,
    /// The marker, open and locked.
    file: File,
}

impl OutDir {
    /// Opens `path` to write a `kind` directory there, creating it if it does not exist, and
    /// takes the lock. An existing directory must be empty, or have the marker of a `kind`
    /// directory and hold only the files of its manifest.
    ///
    /// # Errors
    /// The directory is in use, holds other files or another kind of directory, or cannot be
    /// created or read.
    pub fn open(path: &Path, kind: Kind) -> Result<OutDir, OutDirError> {
        let at = FileError::at;
        // An empty path would put the marker, and a report's scratch directory, in the
        // current directory.
        if path.as_os_str().is_empty() {
            return Err(OutDirError::NotADirectory(path.to_path_buf()));
        }
        match fs::metadata(path) {
            Ok(m) if !m.is_dir() => return Err(OutDirError::NotADirectory(path.to_path_buf())),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(path).map_err(at(path))?;
            }
            Err(e) => return Err(at(path)(e).into()),
        }
        let marker_path = path.join(MARKER);
        // Only an empty directory is taken over; the marker is the first file written.
        if !has_marker(path)? {
            let strays = entries(path)?;
            if !strays.is_empty() {
                return Err(foreign(path, strays));
            }
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&marker_path)
            .map_err(at(&marker_path))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(OutDirError::InUse {
                    dir: path.to_path_buf(),
                    pid: holder(&mut file),
                })
            }
            Err(TryLockError::Error(e)) => return Err(at(&marker_path)(e).into()),
        }
        let files = owned(path, kind, read_marker(&mut file), entries(path)?)?;
        let mut dir = OutDir {
            path: path.to_path_buf(),
            marker: Marker {
                tool: "sowlab".into(),
                kind,
                version: env!("CARGO_PKG_VERSION").into(),
                pid: Some(std::process::id()),
                files,
            },
            file,
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
    /// # Errors
    /// The marker cannot be written.
    pub fn claim<S: AsRef<str>>(&mut self, names: &[S]) -> Result<(), OutDirError> {
        let before = self.marker.files.len();
        for name in names {
            let name = name.as_ref();
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
        self.marker.files.retain(|f| path.join(f).exists());
        self.marker.files.sort();
        self.marker.pid = None;
        self.write_marker()?;
        Ok(self.marker.files.clone())
    }

    /// Rewrites the marker in place: the lock is on this file, so it is never replaced.
    fn write_marker(&mut self) -> Result<(), OutDirError> {
        let json = serde_json::to_string_pretty(&self.marker).expect("a marker serialises") + "\n";
        let path = self.path.join(MARKER);
        let file = &mut self.file;
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(json.as_bytes()))
            .map_err(FileError::at(&path))?;
        Ok(())
    }
}

/// Releases the lock explicitly: the marker's file may still be open elsewhere for a moment
/// (in a child process between its fork and its exec, say), and the lock would last as long.
impl Drop for OutDir {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Checks, without writing or locking anything, that `path` could be opened as a `kind`
/// directory ([`OutDir::open`]): it is absent, empty, or such a directory with only the files
/// of its manifest.
///
/// # Errors
/// As [`OutDir::open`], except that a directory in use is not detected.
pub fn check(path: &Path, kind: Kind) -> Result<(), OutDirError> {
    if path.as_os_str().is_empty() {
        return Err(OutDirError::NotADirectory(path.to_path_buf()));
    }
    match fs::metadata(path) {
        Ok(m) if !m.is_dir() => return Err(OutDirError::NotADirectory(path.to_path_buf())),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(FileError::at(path)(e).into()),
    }
    let found = if has_marker(path)? {
        File::open(path.join(MARKER))
            .ok()
            .and_then(|mut f| read_marker(&mut f))
    } else {
        None
    };
    owned(path, kind, found, entries(path)?).map(|_| ())
}

/// Whether `dir` has a marker file; a marker that is not a regular file is not sowlab's.
fn has_marker(dir: &Path) -> Result<bool, OutDirError> {
    let path = dir.join(MARKER);
    match fs::symlink_metadata(&path) {
        Ok(m) if m.is_file() => Ok(true),
        Ok(_) => Err(foreign(dir, vec![MARKER.into()])),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(FileError::at(&path)(e).into()),
    }
}

/// The manifest of a directory holding `entries` (the marker aside) whose marker says `found`,
/// if it may be written as a `kind` directory: the marker is of that kind and every entry is
/// in its manifest. A marker that cannot be read (a torn write, or not sowlab's) lists no
/// files, so such a directory is taken over only if it holds nothing else.
fn owned(
    path: &Path,
    kind: Kind,
    found: Option<Marker>,
    entries: Vec<String>,
) -> Result<Vec<String>, OutDirError> {
    if let Some(found) = &found {
        if found.kind != kind {
            return Err(OutDirError::WrongKind {
                dir: path.to_path_buf(),
                found: found.kind,
                wanted: kind,
            });
        }
    }
    let files = found.map(|m| m.files).unwrap_or_default();
    let strays: Vec<String> = entries.into_iter().filter(|e| !files.contains(e)).collect();
    if strays.is_empty() {
        Ok(files)
    } else {
        Err(foreign(path, strays))
    }
}

fn foreign(dir: &Path, mut files: Vec<String>) -> OutDirError {
    files.sort();
    OutDirError::Foreign {
        dir: dir.to_path_buf(),
        files,
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

/// The process holding a locked marker, as the marker says. The holder may be rewriting it at
/// this very moment (it is rewritten in place, so it is briefly incomplete): it is read again
/// a few times, 10 ms apart, before the holder is given up as unknown.
fn holder(file: &mut File) -> Option<u32> {
    for _ in 0..20 {
        if let Some(pid) = read_marker(file).and_then(|m| m.pid) {
            return Some(pid);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

/// The marker's contents, if they are a marker (at most a few kB are read).
fn read_marker(file: &mut File) -> Option<Marker> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(1 << 20).read_to_string(&mut text).ok()?;
    serde_json::from_str(&text).ok()
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
