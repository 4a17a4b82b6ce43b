//! The readings report of `sowlab readings`: how each alternative reading of a file's gaps
//! moves what its games measure — `readings.csv`, `effects.csv`, charts and pages — from a run
//! of the combinations of the alternatives on common random numbers.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::analysis::{for_each_row, Mean};
use super::chart::{self, Bars, Chart, Plot, Scale};
use super::compare::{percent, write_table};
use super::document::{self, Block};
use super::error::ReportError;
use super::variants::{self, Carried};
use crate::engine::EndClass;
use crate::outdir::OutDir;
use crate::sim::endings;
use crate::sim::output::{read_run, RunInfo};
use crate::sim::record::GameRecord;
use crate::sim::stats::{holm, normal_tail, wilson, Z95};

/// A combination "finishes" when the upper end of its unfinished share's interval is at most
/// this, under the last pairing of agents.
const FINISHES: f64 = 0.05;
/// ... is "balanced" when its first player's score interval lies within these bounds.
const BALANCED: (f64, f64) = (0.40, 0.60);
/// ... "lasts a plausible time" when its mean game is at most this many moves (some 20
/// minutes at 4 seconds a move).
const PLAUSIBLE_MOVES: f64 = 300.0;

/// One reading the run varies, with its levels: the file's own first, then the alternatives.
pub struct Factor {
    /// The reading's number.
    pub reading: u16,
    /// What the reading says (the gap, and the file's choice).
    pub text: String,
    /// The levels: `default` first.
    pub levels: Vec<Level>,
}

/// One way to read a gap.
pub struct Level {
    /// `default` for the file's own reading, or the alternative's name.
    pub name: String,
    /// The rules it changes, in `explain`'s words (`topic: sentence`); none for the default.
    pub changes: Vec<String>,
}

/// What was played: the readings varied and, per variant of the run (in run order), the level
/// of each reading.
pub struct Design {
    /// The readings varied.
    pub factors: Vec<Factor>,
    /// Per variant of the run, the level of each factor, in factor order.
    pub combinations: Vec<Vec<usize>>,
    /// How many combinations there are in all (more than were played, for a sampled design).
    pub all: usize,
    /// What was left out, and why.
    pub notes: Vec<String>,
}

impl Design {
    /// `R2=after the move, R10=split` (or `all default`).
    pub fn label(&self, combination: &[usize]) -> String {
        let changed: Vec<String> = self
            .factors
            .iter()
            .zip(combination)
            .filter(|(_, &l)| l > 0)
            .map(|(f, &l)| format!("R{}={}", f.reading, f.levels[l].name))
            .collect();
        if changed.is_empty() {
            "all default".into()
        } else {
            changed.join(", ")
        }
    }

    /// The played combination equal to `combination`, if it was played.
    fn find(&self, combination: &[usize]) -> Option<usize> {
        self.combinations.iter().position(|c| c == combination)
    }
}

/// The exact value of one combination on a small board.
pub struct Exact {
    /// The board, `3×2`.
    pub board: String,
    /// The first player's margin with perfect play, or why it is not known.
    pub value: Result<i64, String>,
}

/// What [`write`] needs besides the run's files.
pub struct Setup<'a> {
    /// The command that made the report.
    pub command: &'a str,
    /// The variant's name.
    pub name: &'a str,
    /// What was played.
    pub design: &'a Design,
    /// Per combination, in run order: its exact value, where one was sought.
    pub exact: &'a [Exact],
    /// The variant's file, carried into the report.
    pub carried: &'a [Carried],
}

/// What a game is measured by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Measure {
    FirstScore,
    Decisive,
    Unfinished,
    Length,
}

impl Measure {
    const ALL: [Measure; 4] = [
        Measure::FirstScore,
        Measure::Decisive,
        Measure::Unfinished,
        Measure::Length,
    ];

    /// The column value in the CSV files.
    fn name(self) -> &'static str {
        match self {
            Measure::FirstScore => "first_player_score",
            Measure::Decisive => "decisive_share",
            Measure::Unfinished => "unfinished_share",
            Measure::Length => "moves",
        }
    }

    /// In words, for the pages.
    fn words(self) -> &'static str {
        match self {
            Measure::FirstScore => "first player's score",
            Measure::Decisive => "games won outright",
            Measure::Unfinished => "games stopped unfinished",
            Measure::Length => "moves a game",
        }
    }

    /// As a sentence names it: `raises {phrase} by ...`.
    fn phrase(self) -> &'static str {
        match self {
            Measure::FirstScore => "the first player's score",
            Measure::Decisive => "the share of games won outright",
            Measure::Unfinished => "the share of games stopped unfinished",
            Measure::Length => "the length of a game",
        }
    }

    /// A share of games (counted), rather than a mean.
    fn is_share(self) -> bool {
        matches!(self, Measure::Decisive | Measure::Unfinished)
    }

    /// A value or a difference of values, as the pages show it.
    fn show(self, x: f64) -> String {
        match self {
            Measure::Length => format!("{x:.1}"),
            _ => percent(x),
        }
    }

    fn show_interval(self, (v, lo, hi): (f64, f64, f64)) -> String {
        format!("{} [{}, {}]", self.show(v), self.show(lo), self.show(hi))
    }
}

/// In the CSV files, a measure is its name.
impl Serialize for Measure {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// One game's measures, in [`Measure::ALL`] order.
type Observation = [f64; 4];

/// Every game of the run: by combination and pairing, by game index (the index that gives
/// every combination the same seed).
struct Games {
    cells: HashMap<(usize, usize), BTreeMap<u64, Observation>>,
}

impl Games {
    fn read(dir: &std::path::Path, info: &RunInfo) -> Result<Games, ReportError> {
        let index: HashMap<&str, usize> = info
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| (v.name.as_str(), i))
            .collect();
        let mut cells: HashMap<(usize, usize), BTreeMap<u64, Observation>> = HashMap::new();
        for_each_row(&dir.join("games.csv"), |r: GameRecord| {
            let (Some(&combination), Some(place)) = (index.get(&*r.variant), info.place(r.game))
            else {
                return;
            };
            // Every game is scored as the file scores it, stopped games too: a reading of how
            // stopped games are scored must show in the scores.
            let first = match r.winner {
                Some(w) if w == r.starter => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let unfinished = matches!(r.end_reason, EndClass::Cap | EndClass::Repetition);
            let observation = [
                first,
                f64::from(u8::from(r.winner.is_some())),
                f64::from(u8::from(unfinished)),
                f64::from(r.turns),
            ];
            cells
                .entry((combination, place.pairing))
                .or_default()
                .insert(r.game, observation);
        })?;
        Ok(Games { cells })
    }

    /// The estimate of `measure` for `combination` under `pairing`: `(value, low, high)` and
    /// the games it is over.
    fn estimate(
        &self,
        combination: usize,
        pairing: usize,
        measure: Measure,
    ) -> ((f64, f64, f64), u64) {
        let k = measure as usize;
        let mut mean = Mean::default();
        for game in self
            .cells
            .get(&(combination, pairing))
            .into_iter()
            .flatten()
        {
            mean.add(game.1[k]);
        }
        let n = mean.count();
        let estimate = if measure.is_share() {
            // The share's games, counted back from the mean of 0s and 1s.
            let k = (mean.interval().0 * n as f64).round() as u64;
            wilson(k, n, Z95)
        } else {
            mean.interval()
        };
        (estimate, n)
    }

    /// The paired contrast `Σ sign · x(combination)` of each of `sets`, game by game on the
    /// same seeds; averaged over the sets first, so that each game index counts once.
    fn contrast(&self, sets: &[Vec<(usize, f64)>], pairing: usize, measure: Measure) -> Effect {
        let k = measure as usize;
        let mut by_game: BTreeMap<u64, (f64, f64)> = BTreeMap::new();
        for set in sets {
            let cells: Option<Vec<(&BTreeMap<u64, Observation>, f64)>> = set
                .iter()
                .map(|&(c, sign)| Some((self.cells.get(&(c, pairing))?, sign)))
                .collect();
            let Some(cells) = cells else { continue };
            for (&game, first) in cells[0].0 {
                let mut d = cells[0].1 * first[k];
                let mut all = true;
                for (cell, sign) in &cells[1..] {
                    match cell.get(&game) {
                        Some(o) => d += sign * o[k],
                        None => all = false,
                    }
                }
                if all {
                    let entry = by_game.entry(game).or_insert((0.0, 0.0));
                    entry.0 += d;
                    entry.1 += 1.0;
                }
            }
        }
        Effect::of(by_game.values().map(|(d, n)| d / n))
    }
}

/// A paired difference: its mean over game indices, the 95% interval, and the two-sided
/// z-test of no difference.
#[derive(Clone, Copy, Debug)]
struct Effect {
    n: u64,
    mean: f64,
    low: f64,
    high: f64,
    z: f64,
    p: f64,
}

impl Effect {
    fn of(differences: impl Iterator<Item = f64>) -> Effect {
        let mut all = Mean::default();
        differences.for_each(|d| all.add(d));
        let n = all.count();
        let (mean, low, high) = all.interval();
        let se = (high - mean) / Z95;
        let (z, p) = if se > 0.0 {
            let z = mean / se;
            (z, (2.0 * normal_tail(z.abs())).min(1.0))
        } else if mean == 0.0 || n < 2 {
            (0.0, 1.0)
        } else {
            // Every game moved by the same amount: no doubt is left.
            (f64::INFINITY * mean.signum(), 0.0)
        };
        Effect {
            n,
            mean,
            low,
            high,
            z,
            p,
        }
    }
}

/// One row of `readings.csv`, without its reading columns (written before these).
struct Row {
    combination: String,
    levels: Vec<String>,
    agents: String,
    measure: String,
    n: String,
    value: String,
    low: String,
    high: String,
    note: String,
}

/// One row of `effects.csv`.
#[derive(Serialize)]
struct EffectRow {
    effect: &'static str,
    change: String,
    agents: String,
    measure: Measure,
    games: u64,
    difference: f64,
    low: f64,
    high: f64,
    z: f64,
    p: f64,
    p_holm: f64,
}

/// Reads the run in `dir` and writes the readings report beside it.
///
/// # Errors
/// Missing or malformed run files, unwritable report files.
pub fn write(dir: &mut OutDir, setup: &Setup<'_>) -> Result<(), ReportError> {
    let file = read_run(dir.path())?;
    let info = &file.run;
    let endings = endings::read(dir.path())?;
    let games = Games::read(dir.path(), info)?;
    let design = setup.design;
    let agents: Vec<String> = info.agents.iter().map(ToString::to_string).collect();

    let mut blocks = vec![
        Block::Heading(1, format!("Readings of {}", setup.name)),
        Block::Paragraph(format!(
            "Made by sowlab {} (commit {}) on {}. {} combination{} of the file's alternative readings{}, each played {} times per pairing of agents and seat order, every combination on the same seeds (common random numbers): game k of one combination and game k of another begin alike, so each change of reading is measured game by game.",
            info.version,
            info.commit,
            file.date,
            design.combinations.len(),
            if design.combinations.len() == 1 { "" } else { "s" },
            if design.all > design.combinations.len() {
                format!(" (of {}: the file's own, each alternative alone, and a seeded sample of the rest)", design.all)
            } else {
                String::new()
            },
            info.games
        )),
    ];
    // The shared banner speaks of rates over finished games; here stopped games are scored.
    blocks.extend(stopped_warning(design, &games, agents.len()));
    blocks.push(Block::Heading(2, "How this was made".into()));
    blocks.push(Block::Code(setup.command.to_string()));
    blocks.push(Block::Paragraph(format!(
        "Every game is scored as the file scores it, games stopped by the move cap or by repetition too (a reading of how stopped games are scored must show in the scores); their share is a measure of its own. The first player's score counts a win 1 and a draw ½, over both seat orders of a pairing, so an agent's strength cancels out. Intervals are 95%: Wilson for shares, normal for means. A change of reading is measured against the file's own reading on the same seeds, all else equal: per game, the difference between the two combinations, averaged over the other readings' levels, then the mean over games with a normal interval and a two-sided z-test; p-values are Holm-corrected over every test of `effects.csv`. A combination is called finishing when its share of stopped games is at most {} (upper end of the interval), balanced when its first player's score interval lies within {}–{}, and of plausible length at a mean of at most {PLAUSIBLE_MOVES} moves (some 20 minutes at 4 seconds a move), all under the last pairing of agents given.",
        percent(FINISHES),
        percent(BALANCED.0),
        percent(BALANCED.1),
    )));
    blocks.extend(what_varies(design));
    let (rows, tables) = measures(design, &games, &agents, setup.exact);
    blocks.extend(tables);
    let (effect_rows, effect_blocks) = effects(dir, design, &games, &agents)?;
    blocks.extend(effect_blocks);
    blocks.extend(plausible(design, &games, agents.len() - 1, &agents));
    blocks.extend(exact_section(design, setup.exact));
    blocks.extend(variants::readings_section(info, &endings));
    blocks.extend(variants::files_section(info, setup.carried));
    write_rows(dir, design, &rows)?;
    write_table(dir, "effects.csv", &effect_rows)?;
    Ok(document::write_pages(dir, "sowlab readings", &blocks)?)
}

/// A warning where games stopped by the move cap or a repetition weigh on the scores: those
/// games count as the file scores them, not as finished play.
fn stopped_warning(design: &Design, games: &Games, pairings: usize) -> Option<Block> {
    let mut worst = 0.0_f64;
    let mut affected = 0;
    for c in 0..design.combinations.len() {
        let most = (0..pairings)
            .map(|p| games.estimate(c, p, Measure::Unfinished).0 .0)
            .fold(0.0, f64::max);
        worst = worst.max(most);
        affected += usize::from(most > FINISHES);
    }
    (affected > 0).then(|| {
        Block::Warning(format!(
            "In {affected} of the {} combinations more than {} of the games under some pairing were stopped by the move cap or a repetition (up to {}). Their scores count those games as the file scores stopped games (R10), not as games played to an end: read them with the share of stopped games beside them.",
            design.combinations.len(),
            percent(FINISHES),
            percent(worst)
        ))
    })
}

/// The readings varied, each level with the rules it changes.
fn what_varies(design: &Design) -> Vec<Block> {
    let mut blocks = vec![Block::Heading(2, "The readings varied".into())];
    for f in &design.factors {
        blocks.push(Block::Paragraph(format!("R{}: {}", f.reading, f.text)));
        let items = f
            .levels
            .iter()
            .map(|l| {
                if l.changes.is_empty() {
                    format!("`{}`: the file's own reading", l.name)
                } else {
                    format!("`{}`: {}", l.name, l.changes.join("; "))
                }
            })
            .collect();
        blocks.push(Block::List(items));
    }
    for note in &design.notes {
        blocks.push(Block::Paragraph(note.clone()));
    }
    blocks
}

/// Each combination's measures under each pairing: the rows of `readings.csv` and a table a
/// pairing.
fn measures(
    design: &Design,
    games: &Games,
    agents: &[String],
    exact: &[Exact],
) -> (Vec<Row>, Vec<Block>) {
    let mut rows = Vec::new();
    let mut blocks = vec![Block::Heading(2, "Each combination".into())];
    let level_names = |c: &[usize]| -> Vec<String> {
        design
            .factors
            .iter()
            .zip(c)
            .map(|(f, &l)| f.levels[l].name.clone())
            .collect()
    };
    for (p, pairing) in agents.iter().enumerate() {
        let mut header = vec!["combination".to_string()];
        header.extend(Measure::ALL.iter().map(|m| m.words().to_string()));
        header.push("games".into());
        let mut table = Vec::new();
        for (c, combination) in design.combinations.iter().enumerate() {
            let mut line = vec![design.label(combination)];
            let mut n_games = 0;
            for m in Measure::ALL {
                let ((v, lo, hi), n) = games.estimate(c, p, m);
                n_games = n;
                line.push(m.show_interval((v, lo, hi)));
                rows.push(Row {
                    combination: design.label(combination),
                    levels: level_names(combination),
                    agents: pairing.clone(),
                    measure: m.name().into(),
                    n: n.to_string(),
                    value: v.to_string(),
                    low: lo.to_string(),
                    high: hi.to_string(),
                    note: String::new(),
                });
            }
            line.push(n_games.to_string());
            table.push(line);
        }
        blocks.push(Block::Heading(3, format!("Agents {pairing}")));
        blocks.push(Block::Table(header, table));
    }
    for (combination, e) in design.combinations.iter().zip(exact) {
        let (value, note) = match &e.value {
            Ok(v) => (v.to_string(), String::new()),
            Err(why) => (String::new(), why.clone()),
        };
        rows.push(Row {
            combination: design.label(combination),
            levels: level_names(combination),
            agents: format!("perfect play on {}", e.board),
            measure: "exact_first_player_margin".into(),
            n: String::new(),
            value,
            low: String::new(),
            high: String::new(),
            note,
        });
    }
    (rows, blocks)
}

/// `readings.csv`: a column per reading varied, then the measure.
fn write_rows(dir: &mut OutDir, design: &Design, rows: &[Row]) -> Result<(), ReportError> {
    let path = dir.path().join("readings.csv");
    let csv_error = |source| ReportError::Csv {
        path: path.clone(),
        source,
    };
    let mut out = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["combination".to_string()];
    header.extend(design.factors.iter().map(|f| format!("R{}", f.reading)));
    header.extend(["agents", "measure", "n", "value", "low", "high", "note"].map(String::from));
    out.write_record(&header).map_err(csv_error)?;
    for r in rows {
        let mut record = vec![r.combination.clone()];
        record.extend(r.levels.iter().cloned());
        record.extend([
            r.agents.clone(),
            r.measure.clone(),
            r.n.clone(),
            r.value.clone(),
            r.low.clone(),
            r.high.clone(),
            r.note.clone(),
        ]);
        out.write_record(&record).map_err(csv_error)?;
    }
    let bytes = out.into_inner().expect("writing to memory cannot fail");
    Ok(dir.write_file("readings.csv", &bytes)?)
}

/// A change the effects are measured for: one factor's level, or two factors' levels together.
struct Change {
    effect: &'static str,
    label: String,
    /// Per set of combinations that measures it once: the combinations and their signs.
    sets: Vec<Vec<(usize, f64)>>,
}

/// The changes of the design: each alternative against the file's reading (main effects),
/// and each pair of alternatives of two readings beyond their two effects (interactions),
/// where the combinations the contrast needs were played.
fn changes(design: &Design) -> Vec<Change> {
    let mut out = Vec::new();
    let with = |c: &[usize], f: usize, l: usize| {
        let mut c = c.to_vec();
        c[f] = l;
        c
    };
    for (f, factor) in design.factors.iter().enumerate() {
        for l in 1..factor.levels.len() {
            let sets = design
                .combinations
                .iter()
                .enumerate()
                .filter(|(_, c)| c[f] == l)
                .filter_map(|(i, c)| Some(vec![(i, 1.0), (design.find(&with(c, f, 0))?, -1.0)]))
                .collect();
            out.push(Change {
                effect: "main",
                label: format!("R{}={}", factor.reading, factor.levels[l].name),
                sets,
            });
        }
    }
    for f in 0..design.factors.len() {
        for g in f + 1..design.factors.len() {
            let (ff, fg) = (&design.factors[f], &design.factors[g]);
            for a in 1..ff.levels.len() {
                for b in 1..fg.levels.len() {
                    let sets: Vec<Vec<(usize, f64)>> = design
                        .combinations
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c[f] == a && c[g] == b)
                        .filter_map(|(i, c)| {
                            let without_f = design.find(&with(c, f, 0))?;
                            let without_g = design.find(&with(c, g, 0))?;
                            let neither = design.find(&with(&with(c, f, 0), g, 0))?;
                            Some(vec![
                                (i, 1.0),
                                (without_f, -1.0),
                                (without_g, -1.0),
                                (neither, 1.0),
                            ])
                        })
                        .collect();
                    if !sets.is_empty() {
                        out.push(Change {
                            effect: "interaction",
                            label: format!(
                                "R{}={} × R{}={}",
                                ff.reading, ff.levels[a].name, fg.reading, fg.levels[b].name
                            ),
                            sets,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The effects of every change on every measure under every pairing: `effects.csv`'s rows,
/// and the pages' tables and charts.
fn effects(
    dir: &mut OutDir,
    design: &Design,
    games: &Games,
    agents: &[String],
) -> Result<(Vec<EffectRow>, Vec<Block>), ReportError> {
    let changes = changes(design);
    let mut rows = Vec::new();
    for change in &changes {
        for (p, pairing) in agents.iter().enumerate() {
            for m in Measure::ALL {
                let e = games.contrast(&change.sets, p, m);
                rows.push(EffectRow {
                    effect: change.effect,
                    change: change.label.clone(),
                    agents: pairing.clone(),
                    measure: m,
                    games: e.n,
                    difference: e.mean,
                    low: e.low,
                    high: e.high,
                    z: e.z,
                    p: e.p,
                    p_holm: 1.0,
                });
            }
        }
    }
    let adjusted = holm(&rows.iter().map(|r| r.p).collect::<Vec<_>>());
    for (row, p) in rows.iter_mut().zip(adjusted) {
        row.p_holm = p;
    }
    let mut blocks = vec![
        Block::Heading(2, "What each reading changes".into()),
        Block::Paragraph("Each alternative against the file's own reading, on the same seeds, all other readings alike (averaged over their levels): the difference it makes, with its 95% interval. Differences significant at 5% after Holm's correction are marked *; every p-value is in effects.csv.".into()),
        Block::Table(effect_header(), effect_table(&rows, "main", false)),
    ];
    blocks.push(Block::Paragraph(moved(&rows)));
    for m in [Measure::FirstScore, Measure::Unfinished, Measure::Length] {
        blocks.push(effect_chart(dir, &rows, &changes, agents, m)?);
    }
    blocks.push(Block::Heading(2, "Interactions".into()));
    let tested = rows.iter().filter(|r| r.effect == "interaction").count();
    if tested == 0 {
        blocks.push(Block::Paragraph(
            "None can be measured: fewer than two readings vary, or the sample of combinations lacks the four a contrast needs.".into(),
        ));
    } else {
        let found = effect_table(&rows, "interaction", true);
        blocks.push(Block::Paragraph(format!(
            "Whether two changes together do more (or less) than the sum of each alone: the contrast x(both) − x(first only) − x(second only) + x(neither), game by game, over {tested} tests (effects.csv). {}",
            if found.is_empty() {
                "None is significant at 5% after Holm's correction.".to_string()
            } else {
                "Those with a measure significant at 5% after Holm's correction:".to_string()
            }
        )));
        if !found.is_empty() {
            blocks.push(Block::Table(effect_header(), found));
        }
    }
    Ok((rows, blocks))
}

/// Which alternatives move which measure significantly, in words.
fn moved(rows: &[EffectRow]) -> String {
    let found: Vec<String> = rows
        .iter()
        .filter(|r| r.effect == "main" && r.p_holm < 0.05)
        .map(|r| {
            let m = r.measure;
            let way = if r.difference > 0.0 {
                "raises"
            } else {
                "lowers"
            };
            format!(
                "{} {way} {} by {} under {}",
                r.change,
                m.phrase(),
                match m {
                    Measure::Length => format!("{:.1} moves", r.difference.abs()),
                    _ => format!("{:.1} percentage points", 100.0 * r.difference.abs()),
                },
                r.agents
            )
        })
        .collect();
    if found.is_empty() {
        "No alternative moves any measure significantly at 5% after Holm's correction: with these games, the readings cannot be told apart by what they measure (a difference smaller than the intervals may still be there).".into()
    } else {
        format!(
            "Significant at 5% after Holm's correction: {}.",
            found.join("; ")
        )
    }
}

/// The effects tables' header: the change, the agents, then a column a measure.
fn effect_header() -> Vec<String> {
    let mut header = vec!["change".to_string(), "agents".to_string()];
    header.extend(Measure::ALL.iter().map(|m| m.words().to_string()));
    header
}

/// A row a change and pairing of agents, a column a measure; with `significant`, only the
/// rows with a measure significant at 5% after Holm's correction.
fn effect_table(rows: &[EffectRow], effect: &str, significant: bool) -> Vec<Vec<String>> {
    let rows: Vec<&EffectRow> = rows.iter().filter(|r| r.effect == effect).collect();
    rows.chunk_by(|a, b| (&a.change, &a.agents) == (&b.change, &b.agents))
        .filter(|cells| !significant || cells.iter().any(|r| r.p_holm < 0.05))
        .map(|cells| {
            let mut line = vec![cells[0].change.clone(), cells[0].agents.clone()];
            for r in cells {
                let star = if r.p_holm < 0.05 { " *" } else { "" };
                let difference = signed(r.measure, (r.difference, r.low, r.high));
                line.push(format!("{difference}{star}"));
            }
            line
        })
        .collect()
}

/// `+1.2 [+0.4, +2.0]`: a difference and its interval, signed.
fn signed(m: Measure, (v, lo, hi): (f64, f64, f64)) -> String {
    let s = |x: f64| {
        let text = m.show(x.abs());
        // What rounds to nothing has no sign.
        if !text.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            text
        } else if x < 0.0 {
            format!("−{text}")
        } else {
            format!("+{text}")
        }
    };
    format!("{} [{}, {}]", s(v), s(lo), s(hi))
}

/// A chart of the main effects on `measure`: a bar per alternative, a series per pairing.
fn effect_chart(
    dir: &mut OutDir,
    rows: &[EffectRow],
    changes: &[Change],
    agents: &[String],
    measure: Measure,
) -> Result<Block, ReportError> {
    let categories: Vec<String> = changes
        .iter()
        .filter(|c| c.effect == "main")
        .map(|c| c.label.clone())
        .collect();
    let series = agents
        .iter()
        .map(|a| Bars {
            name: a.clone(),
            values: categories
                .iter()
                .map(|c| {
                    rows.iter()
                        .find(|r| &r.change == c && &r.agents == a && r.measure == measure)
                        .filter(|r| r.games > 0)
                        .map(|r| (r.difference, r.low, r.high))
                })
                .collect(),
        })
        .collect();
    let chart = Chart {
        title: format!("Change in {} against the file's reading", measure.words()),
        y_label: match measure {
            Measure::Length => "difference in moves".into(),
            _ => "difference (share)".into(),
        },
        y: Scale::Linear,
        plot: Plot::Bars { categories, series },
    };
    let stem = format!("effects-{}", measure.name().replace('_', "-"));
    chart::save(&chart, dir, &stem)?;
    Ok(Block::Chart(
        stem,
        format!(
            "Each alternative's paired difference in {} from the file's own reading, with 95% intervals (effects.csv).",
            measure.words()
        ),
    ))
}

/// Which combinations finish, are balanced and last a plausible time under pairing `p`.
fn plausible(design: &Design, games: &Games, p: usize, agents: &[String]) -> Vec<Block> {
    let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mut good = Vec::new();
    let table = design
        .combinations
        .iter()
        .enumerate()
        .map(|(c, combination)| {
            let (unfinished, _) = games.estimate(c, p, Measure::Unfinished);
            let (score, _) = games.estimate(c, p, Measure::FirstScore);
            let (length, _) = games.estimate(c, p, Measure::Length);
            let finishes = unfinished.2 <= FINISHES;
            let balanced = score.1 >= BALANCED.0 && score.2 <= BALANCED.1;
            let short = length.0 <= PLAUSIBLE_MOVES;
            if finishes && balanced && short {
                good.push(design.label(combination));
            }
            vec![
                design.label(combination),
                yes(finishes),
                yes(balanced),
                yes(short),
            ]
        })
        .collect();
    let verdict = if good.is_empty() {
        "None of the combinations meets all three.".to_string()
    } else {
        format!("All three hold for: {}.", good.join("; "))
    };
    vec![
        Block::Heading(2, "Which combinations give a plausible game".into()),
        Block::Paragraph(format!(
            "Under agents {}, by the criteria of \"How this was made\". {verdict}",
            agents[p]
        )),
        Block::Table(
            ["combination", "finishes", "balanced", "plausible length"]
                .map(String::from)
                .to_vec(),
            table,
        ),
    ]
}

/// The exact values, where they were sought.
fn exact_section(design: &Design, exact: &[Exact]) -> Vec<Block> {
    let Some(board) = exact.first().map(|e| e.board.clone()) else {
        return Vec::new();
    };
    let table = design
        .combinations
        .iter()
        .zip(exact)
        .map(|(c, e)| {
            let value = match &e.value {
                Ok(0) => "0".to_string(),
                Ok(v) => format!("{v:+}"),
                Err(why) => format!("not solved: {why}"),
            };
            vec![design.label(c), value]
        })
        .collect();
    vec![
        Block::Heading(2, format!("Exact values on a {board} board")),
        Block::Paragraph("The first player's margin with perfect play by both (`sowlab solve`), the same board for every combination: where readings change it, they change the game itself, not only how agents play it.".into()),
        Block::Table(
            ["combination", "first player's margin"].map(String::from).to_vec(),
            table,
        ),
    ]
}
