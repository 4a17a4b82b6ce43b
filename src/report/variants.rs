//! What every report says of its variants, so that it can be cited as it stands: a warning at
//! the top where few of a variant's games finished, the readings each rests on with their
//! text and the games they decided, and the variant files themselves, carried into the report
//! byte for byte (with the files they extend), with their rules in words.

use std::path::Path;

use super::chart;
use super::diagram::{Diagram, Layout, Scene};
use super::document::Block;
use super::error::ReportError;
use super::stepper::Recording;
use crate::engine::Game;
use crate::made;
use crate::outdir::disk::FileError;
use crate::outdir::{OutDir, OutDirError};
use crate::rules::explain::explain;
use crate::rules::Rules;
use crate::sim::endings::Endings;
use crate::sim::output::{ReadingInfo, RunInfo};

/// One variant's files as the report carries them, and its rules in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carried {
    /// The variant's name.
    pub name: String,
    /// Each file of the variant, the one given first and then those it extends: the path as
    /// it was compiled, and the name of its copy in the report.
    pub files: Vec<(String, String)>,
    /// `sowlab explain` of the compiled rules (with the run's `--set` overrides applied).
    pub rules: String,
    /// The stem of its start position's diagram (`start-hoyito-i`, as SVG and PNG).
    pub start: String,
    /// Its sample game's page (`game-hoyito-i.html`), and the command that makes it again.
    pub game: (String, String),
}

/// Moves at most in a report's sample game: more than any shipped game's move cap.
const SAMPLE_MOVES: u32 = 100_000;

/// Copies every file of `variants` into `dir`, byte for byte, each under its own file name
/// (a file met twice is copied once; two different files of one name are told apart by a
/// number before the name), and puts each variant's rules in words beside them, its start
/// position drawn, and a sample game to step through: random moves from the run's seed, as
/// `trace --random` plays them. `info` is the run's, its variants in the order of `variants`.
///
/// # Errors
/// A file that cannot be read again, or written into `dir`.
pub fn carry(
    dir: &mut OutDir,
    variants: &[&Rules],
    info: &RunInfo,
) -> Result<Vec<Carried>, ReportError> {
    let mut copies: Vec<(String, Vec<u8>)> = Vec::new();
    let mut carried = Vec::new();
    for (rules, variant) in variants.iter().zip(&info.variants) {
        let mut files = Vec::new();
        for given in &rules.provenance.files {
            let bytes = std::fs::read(given)
                .map_err(|e| OutDirError::from(FileError::at(Path::new(given))(e)))?;
            let mut name = Path::new(given)
                .file_name()
                .map_or_else(|| "variant".into(), |n| n.to_string_lossy().into_owned());
            // A copy is a rule file by its name too, whatever the original was called: it
            // cannot take the name of one of the report's own files.
            if !name.ends_with(".sow") {
                name.push_str(".sow");
            }
            let copy = match copies
                .iter()
                .find(|(c, b)| *b == bytes && c.ends_with(&name))
            {
                Some((copy, _)) => copy.clone(),
                None => {
                    let taken = copies.iter().any(|(c, _)| *c == name);
                    let copy = if taken {
                        format!("{}-{name}", copies.len() + 1)
                    } else {
                        name
                    };
                    dir.write_file(&copy, &bytes)?;
                    copies.push((copy.clone(), bytes));
                    copy
                }
            };
            files.push((given.clone(), copy));
        }
        let stem = files[0].1.trim_end_matches(".sow").to_string();
        let start = format!("start-{stem}");
        let layout = Layout::of(rules);
        let scene = Scene::at(
            &Game::new(rules),
            format!("{}: start", rules.provenance.name),
        );
        chart::save(&Diagram::new(rules, &layout, &scene), dir, &start)?;
        let page = format!("game-{stem}.html");
        let sets: String = variant
            .settings
            .iter()
            .map(|s| format!(" --set {}", made::quote(&s.to_string())))
            .collect();
        let command = format!(
            "sowlab trace {} --random {SAMPLE_MOVES} --seed {}{sets} --html {page}",
            made::quote(&variant.file),
            info.seed
        );
        let recording = Recording::random_game(rules, info.seed, SAMPLE_MOVES);
        let title = format!(
            "{}: a game of random moves — rules {}",
            rules.provenance.name,
            rules.hash()
        );
        let how = format!(
            "Made by sowlab {} (commit {}): {command}",
            info.version, info.commit
        );
        dir.write_file(&page, recording.html(&title, &how).as_bytes())?;
        carried.push(Carried {
            name: rules.provenance.name.clone(),
            files,
            rules: explain(rules),
            start,
            game: (page, command),
        });
    }
    Ok(carried)
}

/// The report's section on its variants' files: how to make the report again, and for each
/// variant the files carried (as given, and their copies here) and its rules in words.
pub fn files_section(info: &RunInfo, carried: &[Carried]) -> Vec<Block> {
    let mut blocks = vec![
        Block::Heading(2, "The variants, as they were run".into()),
        Block::Paragraph(format!(
            "Each variant's rule file, and every file it extends, is copied into this report \
             byte for byte; its rules hash is computed from them. To make the report again: \
             build sowlab {} at commit {} with the dependencies its Cargo.lock records \
             (`cargo install --locked --path .` in a clone checked out at that commit), put \
             each copy back at the path it was given as, and run the report's command from \
             that directory. The same command, seeds and rules give the same games.",
            info.version, info.commit
        )),
    ];
    for variant in carried {
        blocks.push(Block::Heading(3, variant.name.clone()));
        blocks.push(Block::Table(
            vec!["file as given".into(), "copy in this report".into()],
            variant
                .files
                .iter()
                .map(|(given, copy)| vec![given.clone(), copy.clone()])
                .collect(),
        ));
        blocks.push(Block::Paragraph(
            "Its rules in words (`sowlab explain`):".into(),
        ));
        blocks.push(Block::Code(variant.rules.trim_end().to_string()));
        blocks.push(Block::Chart(
            variant.start.clone(),
            format!(
                "{}: the start position, North's row on top (its first hole at the right), \
                 South's below; seeds as counts and dots, stores at the ends.",
                variant.name
            ),
        ));
        let (page, command) = &variant.game;
        blocks.push(Block::Link(
            format!(
                "{}: a game of random moves to step through, move by move and lap by lap \
                 ({page}; made again by {command})",
                variant.name
            ),
            page.clone(),
        ));
    }
    blocks
}

/// A warning for each variant of which fewer than half the games finished, or none was
/// played.
pub fn banner(endings: &[Endings]) -> Vec<Block> {
    endings
        .iter()
        .filter_map(|e| {
            let why = if e.unfinished() > 0 {
                " Unfinished games are stopped by the move cap or by repetition (reading \
                 R10); a variant that random play seldom finishes may lack an end rule its \
                 sources give, or may be a game that really goes round."
            } else {
                ""
            };
            e.warning().map(|w| Block::Warning(format!("{w}.{why}")))
        })
        .collect()
}

/// The readings each variant's rules rest on, with their text, the language's defaults
/// marked as such, and the games that the readings behind stopped games decided.
pub fn readings_section(info: &RunInfo, endings: &[Endings]) -> Vec<Block> {
    let mut blocks = vec![
        Block::Heading(2, "Readings the rules rest on".into()),
        Block::Paragraph(
            "Where the sources leave a gap, a variant file takes a reading; results for these \
             variants depend on them. R1 to R16 are sowlab's own (its docs/readings.md); a file \
             numbers the readings it declares from R17, so each of those is named with its \
             file. A default is a rule the file leaves to the language, which rests on the \
             reading named."
                .into(),
        ),
    ];
    for v in &info.variants {
        blocks.push(Block::Heading(3, v.name.clone()));
        if v.readings.is_empty() {
            blocks.push(Block::Paragraph("No editorial readings.".into()));
        } else {
            blocks.push(Block::List(grouped(&v.readings)));
        }
        let decided: Vec<String> = endings
            .iter()
            .filter(|e| e.variant == v.name)
            .flat_map(Endings::decided)
            .map(|(_, sentence)| sentence)
            .collect();
        if !decided.is_empty() {
            blocks.push(Block::Paragraph(format!(
                "In this run: {}.",
                decided.join("; ")
            )));
        }
    }
    blocks
}

/// Readings as a list a reader takes in: each reading once, with its text and the rules that
/// rest on it, `R10 (default): move cap 2000 … (end.move cap, end.repetition)`.
fn grouped(readings: &[ReadingInfo]) -> Vec<String> {
    let mut items: Vec<(&ReadingInfo, Vec<&str>)> = Vec::new();
    for r in readings {
        let same = |(first, _): &&mut (&ReadingInfo, Vec<&str>)| {
            first.id == r.id && first.default == r.default
        };
        match items.iter_mut().find(same) {
            Some((_, rules)) => rules.push(&r.rule),
            None => items.push((r, vec![&r.rule])),
        }
    }
    items
        .into_iter()
        .map(|(r, rules)| {
            let default = if r.default { " (default)" } else { "" };
            format!("{}{default}: {} ({})", r.id, r.text, rules.join(", "))
        })
        .collect()
}
