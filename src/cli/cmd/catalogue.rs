//! `sowlab catalogue [FOLDER...] [--games N] [--seed S] [--out FILE [--check]]`: the catalogue
//! page of some variant files, printed, written, or checked against the file it would replace.

use std::path::Path;

use super::super::args::CatalogueArgs;
use super::super::{Console, Error, Outcome};
use crate::made::quote_path;
use crate::outdir::disk::{replace_file, FileError, Links};
use crate::report::catalogue::{page, Play};
use crate::report::document::thousands;

/// Makes the page; a file that does not compile is named on stderr and nothing is printed or
/// written (a page without it would not be the catalogue of the files given).
pub fn run(args: &CatalogueArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let (compiled, failed) = super::compile_each(&args.paths, console)?;
    if failed > 0 {
        return Ok(Outcome::Errors);
    }
    let paths: Vec<String> = args.paths.iter().map(|p| quote_path(p)).collect();
    let out = args
        .out
        .as_ref()
        .map_or(String::new(), |f| format!(" --out {}", quote_path(f)));
    let command = format!(
        "sowlab catalogue {} --games {} --seed {}{out}",
        paths.join(" "),
        args.games,
        args.seed
    );
    let files = compiled.len();
    let variants = compiled
        .into_iter()
        .map(|(path, rules)| (path.display().to_string(), rules))
        .collect();
    let play = Play {
        games: args.games,
        seed: args.seed,
    };
    let text = page(variants, play, &command);
    let Some(out) = &args.out else {
        console
            .out
            .write_all(text.as_bytes())
            .map_err(Error::Stdout)?;
        return Ok(Outcome::Done);
    };
    if args.check {
        return check(out, &text, &command, console);
    }
    // A link is kept: the file it names is the one written, as `fmt` does.
    replace_file(out, text.as_bytes(), Links::Follow)?;
    let _ = writeln!(
        console.err,
        "wrote {}: {files} variant file(s), {} random games each",
        out.display(),
        thousands(2 * args.games)
    );
    Ok(Outcome::Done)
}

/// `--check`: whether `out` holds `text`, said on stderr with, if not, the first line that
/// differs and the command that makes the page again.
fn check(
    out: &Path,
    text: &str,
    command: &str,
    console: &mut Console<'_>,
) -> Result<Outcome, Error> {
    let shown = out.display();
    let now = match std::fs::read(out) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let _ = writeln!(console.err, "{shown} is missing: make it with `{command}`");
            return Ok(Outcome::Errors);
        }
        Err(e) => return Err(FileError::at(out)(e).into()),
    };
    if now == text.as_bytes() {
        let _ = writeln!(console.err, "{shown} is up to date");
        return Ok(Outcome::Done);
    }
    let now = String::from_utf8_lossy(&now);
    let same = now
        .lines()
        .zip(text.lines())
        .take_while(|(a, b)| a == b)
        .count();
    let _ = writeln!(
        console.err,
        "{shown} is stale (from line {}): make it again with `{command}`",
        same + 1
    );
    Ok(Outcome::Errors)
}
