//! One module per subcommand.

pub mod check;
pub mod compare;
pub mod diff;
pub mod explain;
pub mod fmt;
pub mod list;
pub mod play;
pub mod simulate;
pub mod solve;
pub mod trace;

use std::path::{Path, PathBuf};

use super::{Console, Error};
use crate::sim::endings;
use crate::{lang, outdir};

/// `--out` resolved once: a link becomes the directory it names, and the user is told so;
/// nothing afterwards renames, empties or writes through the link.
fn out_dir(out: &Path, console: &mut Console<'_>) -> Result<PathBuf, Error> {
    let resolved = outdir::resolve(out)?;
    if let Some(link) = &resolved.link {
        let _ = writeln!(
            console.err,
            "note: `{}` is a link; writing to `{}`",
            link.display(),
            resolved.path.display()
        );
    }
    Ok(resolved.path)
}

/// The variant files `paths` name ([`lang::variant_files`]), each folder passed over said
/// on stderr.
fn variant_files(paths: &[PathBuf], console: &mut Console<'_>) -> Result<Vec<PathBuf>, Error> {
    let found = lang::variant_files(paths)?;
    for (folder, why) in &found.skipped {
        let _ = writeln!(console.err, "note: skipped `{}`: {why}", folder.display());
    }
    Ok(found.files)
}

/// Warns on stderr of each variant of the finished run in `dir` of which few games finished
/// ([`endings::Endings::warning`]).
fn warn_few_finished(dir: &Path, console: &mut Console<'_>) -> Result<(), Error> {
    for warning in endings::read(dir)?
        .iter()
        .filter_map(endings::Endings::warning)
    {
        let _ = writeln!(console.err, "warning: {warning}");
    }
    Ok(())
}
