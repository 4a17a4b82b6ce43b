//! `sowlab fmt [--check] FILE...`: rule files in the language's one layout, written back in
//! place or, with `--check`, only listed.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;

use super::super::args::FmtArgs;
use super::super::{Console, Error, Outcome};
use crate::lang;
use crate::outdir::disk::FileError;

/// Formats each file; prints the paths of those that change (with `--check`, that would).
pub fn run(args: &FmtArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let files = lang::variant_files(&args.files)?;
    let mut changed = 0;
    let mut failed = 0;
    for path in &files {
        let file = lang::read_variant(path)?;
        let text = match lang::format_source(&file) {
            Ok(text) => text,
            Err(errors) => {
                failed += 1;
                let _ = write!(console.err, "{}", errors.render(console.terminal));
                continue;
            }
        };
        if text == *file.text {
            continue;
        }
        changed += 1;
        if !args.check {
            replace(path, &text)?;
        }
        writeln!(console.out, "{}", path.display()).map_err(Error::Stdout)?;
    }
    let total = files.len();
    let _ = if args.check {
        writeln!(
            console.err,
            "{changed} of {total} file(s) are not formatted"
        )
    } else {
        writeln!(console.err, "formatted {changed} of {total} file(s)")
    };
    Ok(if failed > 0 || (args.check && changed > 0) {
        Outcome::Errors
    } else {
        Outcome::Done
    })
}

/// Replaces the file at `path` by `text`: written beside it under a name of its own, with its
/// permissions, then renamed over it, so the file is always the old one or the new one.
fn replace(path: &Path, text: &str) -> Result<(), FileError> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.sowlab-fmt"));
    let permissions = fs::metadata(path)
        .map_err(FileError::at(path))?
        .permissions();
    let write = || -> std::io::Result<()> {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        fs::set_permissions(&tmp, permissions)
    };
    if let Err(e) = write() {
        let _ = fs::remove_file(&tmp);
        return Err(FileError::at(&tmp)(e));
    }
    fs::rename(&tmp, path).map_err(FileError::at(path))
}
