//! `sowlab list [FOLDER...]`: one line per variant file: name, board, region, source.

use super::super::args::ListArgs;
use super::super::{Console, Error, Outcome};
use crate::lang;

/// Prints the table, columns aligned, under a header; files that do not compile are named on
/// stderr with their first error.
pub fn run(args: &ListArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let files = super::variant_files(&args.paths, console)?;
    let mut rows = vec![["file", "name", "board", "region", "source"].map(String::from)];
    let mut failed = 0;
    for path in &files {
        let rules = match lang::read_variant(path)
            .map_err(Error::from)
            .and_then(|file| Ok(lang::compile_file(file, path, &[])?))
        {
            Ok(rules) => rules,
            Err(e) => {
                failed += 1;
                let _ = writeln!(console.err, "error: {e}");
                continue;
            }
        };
        let board = &rules.program.board;
        let first = |key: &str| {
            rules
                .provenance
                .get(key)
                .first()
                .map_or("", |s| s)
                .to_string()
        };
        rows.push([
            path.display().to_string(),
            rules.provenance.name.clone(),
            format!("2×{}, {} seeds", board.holes_per_row, rules.total),
            first("region"),
            first("source"),
        ]);
    }
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2), width(3)];
    for row in &rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if let Some(&w) = widths.get(c) {
                line.push_str(&" ".repeat(w - cell.chars().count() + 2));
            }
        }
        writeln!(console.out, "{}", line.trim_end()).map_err(Error::Stdout)?;
    }
    Ok(if failed > 0 {
        Outcome::Errors
    } else {
        Outcome::Done
    })
}
