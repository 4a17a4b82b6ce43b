//! The line a command that wrote files ends with: how many games, where, which files.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::report::document::thousands;

/// The closing line of a command that wrote files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closing {
    /// What happened.
    pub what: Wrote,
    /// Games in the files, or matches.
    pub units: u64,
    /// In a match run: the rounds of the matches.
    pub rounds: Option<u64>,
    /// The directory.
    pub dir: PathBuf,
    /// The files sowlab wrote there (its manifest).
    pub files: Vec<String>,
}

/// What a command did with its directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrote {
    /// Wrote the files.
    Files,
    /// Merged this many shards into the files.
    Merged(usize),
    /// Found them complete already (`simulate --resume`).
    Nothing,
    /// Wrote the exact values of this many boards (`exact`): the units are boards solved.
    Boards,
}

/// The files readers look for first, in that order; charts are counted, anything else follows.
const FIRST: [&str; 11] = [
    "index.html",
    "index.md",
    "values.csv",
    "comparison.csv",
    "sweep.csv",
    "timeline.csv",
    "matches.csv",
    "games.csv",
    "moves.csv",
    "summary.csv",
    "run.json",
];

impl Closing {
    /// The files as the line lists them: the usual ones first, then others, and charts
    /// (each an SVG and a PNG) as a count.
    fn listed(&self) -> String {
        let mut listed: Vec<String> = FIRST
            .iter()
            .filter(|f| self.files.iter().any(|g| g == *f))
            .map(ToString::to_string)
            .collect();
        let chart = |f: &str| f.ends_with(".svg") || f.ends_with(".png");
        listed.extend(
            self.files
                .iter()
                .filter(|f| !FIRST.contains(&f.as_str()) && !chart(f))
                .cloned(),
        );
        // A variant's start position (`start-NAME.svg`) is a board diagram, not a chart.
        let pictures = |diagrams: bool| {
            self.files
                .iter()
                .filter(|f| f.ends_with(".svg") && f.starts_with("start-") == diagrams)
                .count()
        };
        let counts: Vec<String> = [
            (pictures(false), "chart"),
            (pictures(true), "board diagram"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}{}", if n == 1 { "" } else { "s" }))
        .collect();
        let mut text = listed.join(", ");
        match counts.as_slice() {
            [] => {}
            [one] => text += &format!(" and {one}"),
            [charts, diagrams] => text += &format!(", {charts} and {diagrams}"),
            _ => unreachable!("two counts at most"),
        }
        text
    }
}

/// `1 game`, `2 games`, `1,000 matches`.
fn counted(n: u64, what: &str) -> String {
    match (n, what) {
        (1, _) => format!("1 {what}"),
        (_, "match") => format!("{} matches", thousands(n)),
        _ => format!("{} {what}s", thousands(n)),
    }
}

impl fmt::Display for Closing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = slashed(&self.dir);
        let games = match self.rounds {
            None => counted(self.units, "game"),
            Some(rounds) => format!(
                "{} ({})",
                counted(self.units, "match"),
                counted(rounds, "round")
            ),
        };
        match self.what {
            Wrote::Files => write!(f, "wrote {games} to {dir} ({})", self.listed()),
            Wrote::Boards => write!(
                f,
                "wrote the values of {} to {dir} ({})",
                counted(self.units, "board"),
                self.listed()
            ),
            Wrote::Merged(shards) => write!(
                f,
                "merged {shards} shards: wrote {games} to {dir} ({})",
                self.listed()
            ),
            Wrote::Nothing => write!(
                f,
                "{dir} already holds this run, complete ({games}); nothing to do"
            ),
        }
    }
}

/// A directory as the line names it, with a trailing `/`.
fn slashed(dir: &Path) -> String {
    let text = dir.display().to_string();
    if text.ends_with('/') {
        text
    } else {
        format!("{text}/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_lists_the_usual_files_first_and_counts_charts() {
        let files = [
            "run.json",
            "a.png",
            "a.svg",
            "games.csv",
            "index.html",
            "extra.txt",
        ];
        let line = Closing {
            what: Wrote::Files,
            units: 24_000,
            rounds: None,
            dir: "reports/x".into(),
            files: files.map(String::from).to_vec(),
        };
        assert_eq!(
            line.to_string(),
            "wrote 24,000 games to reports/x/ (index.html, games.csv, run.json, extra.txt and 1 chart)"
        );
    }
}
