//! One module per subcommand.

pub mod catalogue;
pub mod check;
pub mod compare;
pub mod diff;
pub mod exact;
pub mod explain;
pub mod fmt;
pub mod list;
pub mod play;
pub mod relate;
pub mod simulate;
pub mod solve;
pub mod trace;

use std::path::{Path, PathBuf};

use super::{load_rules, Console, Error};
use crate::rules::Rules;
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

/// Refuses `perfect` among `agents` for rules it cannot play ([`crate::agents::perfect::fits`]).
fn perfect_fits(
    rules: &Rules,
    mut agents: impl Iterator<Item = crate::agents::AgentSpec>,
) -> Result<(), Error> {
    if !agents.any(|a| a == crate::agents::AgentSpec::Perfect) {
        return Ok(());
    }
    crate::agents::perfect::fits(rules).map_err(|why| Error::PerfectUnfit {
        variant: rules.provenance.name.clone(),
        why,
    })
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

/// The variant files `paths` name, each compiled as it stands; a file that cannot be read or
/// compiled is named on stderr with its first error and left out. Returns the compiled files,
/// in order, and how many were left out.
fn compile_each(
    paths: &[PathBuf],
    console: &mut Console<'_>,
) -> Result<(Vec<(PathBuf, Rules)>, usize), Error> {
    let mut compiled = Vec::new();
    let mut failed = 0;
    for path in variant_files(paths, console)? {
        match load_rules(&path, &[]) {
            Ok(rules) => compiled.push((path, rules)),
            Err(e) => {
                failed += 1;
                let _ = writeln!(console.err, "error: {e}");
            }
        }
    }
    Ok((compiled, failed))
}
