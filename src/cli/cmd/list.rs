//! `sowlab list [FOLDER...] [--notes]`: one line per variant file: name, board, region,
//! source; with `--notes`, the file's `note:` lines under it.

use super::super::args::ListArgs;
use super::super::{Console, Error, Outcome};
use crate::report::catalogue::{board, first};

/// Prints the table, columns aligned, under a header; files that do not compile are named on
/// stderr with their first error.
pub fn run(args: &ListArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let (compiled, failed) = super::compile_each(&args.paths, console)?;
    let mut rows = vec![["file", "name", "board", "region", "source"].map(String::from)];
    // Under each row, the lines printed with `--notes`; none under the header.
    let mut notes = vec![Vec::new()];
    for (path, rules) in &compiled {
        rows.push([
            path.display().to_string(),
            rules.provenance.name.clone(),
            board(rules),
            first(rules, "region").to_string(),
            first(rules, "source").to_string(),
        ]);
        notes.push(if args.notes {
            rules.provenance.get("note")
        } else {
            Vec::new()
        });
    }
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2), width(3)];
    for (row, notes) in rows.iter().zip(&notes) {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if let Some(&w) = widths.get(c) {
                line.push_str(&" ".repeat(w - cell.chars().count() + 2));
            }
        }
        writeln!(console.out, "{}", line.trim_end()).map_err(Error::Stdout)?;
        for note in notes {
            writeln!(console.out, "    note: {note}").map_err(Error::Stdout)?;
        }
    }
    Ok(if failed > 0 {
        Outcome::Errors
    } else {
        Outcome::Done
    })
}
