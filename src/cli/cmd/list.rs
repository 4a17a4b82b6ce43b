//! `sowlab list [FOLDER...]`: one line per variant file: name, board, region, source.

use super::super::args::ListArgs;
use super::super::{Console, Error, Outcome};
use crate::report::catalogue::{board, first};

/// Prints the table, columns aligned, under a header; files that do not compile are named on
/// stderr with their first error.
pub fn run(args: &ListArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let (compiled, failed) = super::compile_each(&args.paths, console)?;
    let mut rows = vec![["file", "name", "board", "region", "source"].map(String::from)];
    for (path, rules) in &compiled {
        rows.push([
            path.display().to_string(),
            rules.provenance.name.clone(),
            board(rules),
            first(rules, "region").to_string(),
            first(rules, "source").to_string(),
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
