//! The relate report's pages: how it was made, the distance, the tree, each nearest relative.

use super::chart;
use super::document::{self, Block};
use super::error::ReportError;
use super::tree::{broad, Phylogram};
use crate::made;
use crate::outdir::OutDir;
use crate::relate::{Matrix, Tree, QUANTITIES};

/// What [`write`] needs.
pub struct Setup<'a> {
    /// The command that made the report.
    pub command: &'a str,
    /// The variants and their characters.
    pub matrix: &'a Matrix,
    /// Their neighbour-joining tree.
    pub tree: &'a Tree,
}

/// Writes `tree.svg`, `tree.png`, `index.md` and `index.html` into `dir`.
///
/// # Errors
/// An unwritable file or a picture that cannot be drawn.
pub fn write(dir: &mut OutDir, setup: &Setup<'_>) -> Result<(), ReportError> {
    let matrix = setup.matrix;
    let n = matrix.taxa.len();
    let title = format!("How {n} variants are related");
    let picture = Phylogram::of(
        setup.tree,
        &matrix.taxa,
        format!("{title}: their neighbour-joining tree, rooted at its midpoint"),
    );
    chart::save(&picture, dir, "tree")?;
    let discrete = matrix.characters.len();
    let mut blocks = vec![
        Block::Heading(1, title),
        Block::Paragraph(format!(
            "Made by sowlab {} with the command below; nothing in it depends on the machine or the date. {n} variants, each described by {} characters read off its compiled rules, never off the file's text: {discrete} discrete ones (each rule as `sowlab explain` states it, its sentence the state; a capture rule in six parts) and {} quantitative ones ({}).",
            made::build(),
            discrete + QUANTITIES.len(),
            QUANTITIES.len(),
            QUANTITIES.join(", "),
        )),
        Block::Code(setup.command.to_string()),
        Block::Paragraph(format!(
            "The distance between two variants is the share of these characters in which they differ: a discrete character counts 1 where their states differ, a quantitative one the difference over its range among these {n} variants; 0 is the same rules, 1 a difference in every character. Its definition, and how the tree is built, are in docs/measures.md (\"How variants are related\")."
        )),
        Block::List(vec![
            "`characters.csv`: a row a variant, a column a character, each state in words.".into(),
            "`distances.csv`: the distance of every pair.".into(),
            "`tree.nwk`: the neighbour-joining tree in Newick, as it is built (unrooted, held at its last join).".into(),
            "`relations.nex`: all of it in NEXUS, for phylogenetics software.".into(),
        ]),
    ];
    let crowded = matrix.crowded();
    if !crowded.is_empty() {
        let named: Vec<String> = crowded
            .iter()
            .map(|(name, states)| format!("{name} ({states} states)"))
            .collect();
        blocks.push(Block::Warning(format!(
            "{}: more states than the 32 symbols NEXUS has; `relations.nex` codes the states past the 32nd as missing (`?`), and `characters.csv` keeps them.",
            named.join("; ")
        )));
    }
    blocks.push(Block::Heading(2, "The tree".into()));
    blocks.push(Block::Chart(
        "tree".into(),
        "The neighbour-joining tree of the distances, drawn rooted at its midpoint: neighbour joining gives an unrooted tree, and the root is placed halfway along the longest path between two variants. Branch lengths are to scale (the bar below the tree). Each leaf is a variant with the first part of its region; its mark is its broad region, read off the region's first place name (docs/measures.md).".into(),
    ));
    blocks.push(Block::Heading(2, "Nearest relatives".into()));
    blocks.push(Block::Paragraph(
        "Each variant's nearest relative among these (all of them where several are as near), and their distance; 0 is the same rules under another name.".into(),
    ));
    blocks.push(Block::Table(
        [
            "variant",
            "label",
            "broad region",
            "nearest relative",
            "distance",
        ]
        .map(String::from)
        .to_vec(),
        nearest_rows(matrix),
    ));
    Ok(document::write_pages(dir, "sowlab relate", &blocks)?)
}

/// A row a variant: its name, label and broad region, its nearest relatives and their
/// distance (none for a variant alone).
fn nearest_rows(matrix: &Matrix) -> Vec<Vec<String>> {
    let distances = matrix.distances();
    matrix
        .taxa
        .iter()
        .enumerate()
        .map(|(a, taxon)| {
            let others = || (0..matrix.taxa.len()).filter(move |&b| b != a);
            let least = others()
                .map(|b| distances[a][b])
                .fold(f64::INFINITY, f64::min);
            let nearest: Vec<&str> = others()
                .filter(|&b| distances[a][b] <= least + 1e-12)
                .map(|b| matrix.taxa[b].name.as_str())
                .collect();
            vec![
                taxon.name.clone(),
                format!("`{}`", taxon.label),
                broad(&taxon.region).name().to_string(),
                if nearest.is_empty() {
                    "—".into()
                } else {
                    nearest.join("; ")
                },
                if least.is_finite() {
                    format!("{least:.4}")
                } else {
                    "—".into()
                },
            ]
        })
        .collect()
}
