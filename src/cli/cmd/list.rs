//! `sowlab list [FOLDER...] [--notes] [--families]`: one line per variant file: name, board,
//! region, source; with `--notes`, the file's `note:` lines under it; with `--families`,
//! grouped by family and area, each with the rule families it uses.

use super::super::args::ListArgs;
use super::super::{Console, Error, Outcome};
use crate::report::catalogue::{board, first, order_key};
use crate::rules::families::{uses, Family};

/// Prints the table, columns aligned, under a header; files that do not compile are named on
/// stderr with their first error.
pub fn run(args: &ListArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let (mut compiled, failed) = super::compile_each(&args.paths, console)?;
    if args.families {
        compiled.sort_by_key(|(_, rules)| order_key(rules));
    }
    let last = if args.families {
        "rules used"
    } else {
        "source"
    };
    let mut rows = vec![["file", "name", "board", "region", last].map(String::from)];
    // Under each row, the lines printed with `--notes`; none under the header.
    let mut notes = vec![Vec::new()];
    // Before each row, the family and area headings it opens with `--families`.
    let mut headings = vec![Vec::new()];
    let mut group = None;
    for (path, rules) in &compiled {
        let region = first(rules, "region");
        rows.push([
            path.display().to_string(),
            rules.provenance.name.clone(),
            board(rules),
            region.to_string(),
            if args.families {
                uses(rules).join(", ")
            } else {
                first(rules, "source").to_string()
            },
        ]);
        notes.push(if args.notes {
            rules.provenance.get("note")
        } else {
            Vec::new()
        });
        let this = order_key(rules);
        let mut opened = Vec::new();
        if args.families && group != Some(this) {
            let (family, broad) = this;
            if group.map(|(f, _)| f) != Some(family) {
                let games = compiled
                    .iter()
                    .filter(|(_, r)| Family::of(r) == family)
                    .count();
                opened.push(format!("{} ({games} files)", family.name()));
            }
            opened.push(format!("  {}", broad.name()));
            group = Some(this);
        }
        headings.push(opened);
    }
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2), width(3)];
    let indent = if args.families { "    " } else { "" };
    for ((row, notes), headings) in rows.iter().zip(&notes).zip(&headings) {
        for heading in headings {
            writeln!(console.out, "{heading}").map_err(Error::Stdout)?;
        }
        let mut line = String::from(indent);
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if let Some(&w) = widths.get(c) {
                line.push_str(&" ".repeat(w - cell.chars().count() + 2));
            }
        }
        writeln!(console.out, "{}", line.trim_end()).map_err(Error::Stdout)?;
        for note in notes {
            writeln!(console.out, "{indent}    note: {note}").map_err(Error::Stdout)?;
        }
    }
    Ok(if failed > 0 {
        Outcome::Errors
    } else {
        Outcome::Done
    })
}
