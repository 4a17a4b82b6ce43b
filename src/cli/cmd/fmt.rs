//! `sowlab fmt [--check] FILE...`: rule files in the language's one layout, written back in
//! place or, with `--check`, only listed.

use super::super::args::FmtArgs;
use super::super::{Console, Error, Outcome};
use crate::lang;
use crate::outdir::disk::{replace_file, Links};

/// Formats each file; prints the paths of those that change (with `--check`, that would).
pub fn run(args: &FmtArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let files = super::variant_files(&args.files, console)?;
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
            // A link is kept: the file it names is the one formatted.
            replace_file(path, text.as_bytes(), Links::Follow)?;
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
