//! `sowlab relate [FOLDER|FILE...] (--out DIR | --like FILE [--nearest K])`: how variants are
//! related, as files for phylogenetics software and a report with the tree drawn, or the
//! nearest relatives of one file.

use std::path::Path;

use super::super::args::RelateArgs;
use super::super::{load_rules, Console, Error, Outcome};
use crate::made::quote_path;
use crate::outdir::{Kind, OutDir};
use crate::relate::{labelled, Matrix, Tree};
use crate::report::relations;

/// Builds the matrix of every variant found; writes its files into `--out`, and prints the
/// nearest relatives of `--like`.
pub fn run(args: &RelateArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let (mut compiled, failed) = super::compile_each(&args.paths, console)?;
    if failed > 0 {
        return Ok(Outcome::Errors);
    }
    // The file `--like` asks about stands among the others, once.
    let like = match &args.like {
        Some(path) => {
            let same = |p: &Path| p.canonicalize().ok() == path.canonicalize().ok();
            match compiled.iter().position(|(p, _)| same(p)) {
                Some(i) => Some(i),
                None => {
                    compiled.push((path.clone(), load_rules(path, &[])?));
                    Some(compiled.len() - 1)
                }
            }
        }
        None => None,
    };
    let labelled = labelled(&compiled);
    let matrix = Matrix::of(&labelled);
    if let Some(a) = like {
        let t = &matrix.taxa[a];
        writeln!(
            console.out,
            "nearest to {} ({}):",
            t.name,
            compiled[a].0.display()
        )
        .map_err(Error::Stdout)?;
        for (b, d) in matrix.nearest(a, args.nearest) {
            writeln!(
                console.out,
                "  {d:.4}  {}  ({})",
                matrix.taxa[b].name,
                compiled[b].0.display()
            )
            .map_err(Error::Stdout)?;
        }
    }
    if let Some(out) = &args.out {
        let mut dir = OutDir::open(out, Kind::Report)?;
        dir.clear()?;
        let names: Vec<String> = matrix.taxa.iter().map(|t| t.label.clone()).collect();
        let tree = Tree::neighbour_joining(&names, &matrix.distances());
        let newick = tree.newick();
        dir.write_file("characters.csv", matrix.csv().as_bytes())?;
        dir.write_file("distances.csv", matrix.distances_csv().as_bytes())?;
        dir.write_file("relations.nex", matrix.nexus(&newick).as_bytes())?;
        dir.write_file("tree.nwk", format!("{newick}\n").as_bytes())?;
        let command = command(args, out);
        let setup = relations::Setup {
            command: &command,
            matrix: &matrix,
            tree: &tree,
        };
        relations::write(&mut dir, &setup)?;
        let files = dir.finish()?;
        writeln!(
            console.err,
            "wrote the relations of {} variants to {} ({})",
            matrix.taxa.len(),
            out.display(),
            files.join(", ")
        )
        .map_err(Error::Stdout)?;
    }
    Ok(Outcome::Done)
}

/// The command line that writes `out`, as the report records it: `--nearest` only prints.
fn command(args: &RelateArgs, out: &Path) -> String {
    let paths: Vec<String> = args.paths.iter().map(|p| quote_path(p)).collect();
    let like = args
        .like
        .as_ref()
        .map_or(String::new(), |f| format!(" --like {}", quote_path(f)));
    format!(
        "sowlab relate {}{like} --out {}",
        paths.join(" "),
        quote_path(out)
    )
}
