//! The balance report of `sowlab balance`: who a variant favours, and how much skill weighs,
//! along a ladder of agents — `balance.csv`, `skill.csv`, charts and pages — read from a run of
//! self-play at every rung and of every rung against the next, in both seatings.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Serialize;

use super::analysis::{for_each_row, mean_interval, seatings};
use super::chart::{self, Bars, Chart, Plot, Scale};
use super::compare::{p_is, percent, with_interval, write_table};
use super::document::{self, Block};
use super::error::ReportError;
use super::variants::{self, Carried};
use crate::engine::EndClass;
use crate::outdir::OutDir;
use crate::sim::endings::{self, Endings};
use crate::sim::output::{read_run, OutputError, RunFile, RunInfo};
use crate::sim::record::{GameRecord, MoveRecord, Name};
use crate::sim::stats::{mcnemar, wilson, Tally, Z95};

/// The games of one variant between one South agent and one North agent.
#[derive(Default)]
struct Cell {
    variant: String,
    south: String,
    north: String,
    /// Outcomes counted over the finished games: those that reached one of the variant's end
    /// rules (or in which nobody could move).
    tally: Tally,
    /// The move sequences played, hashed: how many games were really different.
    sequences: HashSet<u64>,
    /// South's total minus North's: sum and sum of squares.
    margin: (f64, f64),
    /// Seconds spent playing its games, summed over threads.
    seconds: f64,
}

impl Cell {
    /// A rate among the scored games, or `None` where none was.
    fn rate(&self, k: u64) -> Option<(f64, f64, f64)> {
        (self.tally.scored > 0).then(|| wilson(k, self.tally.scored, Z95))
    }

    /// [`Cell::rate`] in words: `n/a` and why where no game was scored.
    fn rate_text(&self, k: u64) -> String {
        match self.rate(k) {
            Some(rate) => with_interval(rate),
            None => self.none_scored(),
        }
    }

    /// `n/a` and what the cell's endings say of why no game was scored.
    fn none_scored(&self) -> String {
        format!("n/a ({})", Endings::of(&self.variant, &self.tally).basis())
    }

    /// South's score over the scored games (a win 1, a draw ½), with a 95% interval; `None`
    /// where none was scored.
    fn south_score(&self) -> Option<(f64, f64, f64)> {
        let o = self.tally.outcomes;
        (self.tally.scored > 0)
            .then(|| score_interval(o.south as f64, o.draws as f64, self.tally.scored as f64))
    }

    /// South's score with its interval and the p-value of the seats being even (the sign
    /// test of South's wins against North's, draws aside).
    fn south_score_text(&self) -> String {
        let o = self.tally.outcomes;
        match self.south_score() {
            Some(score) => format!(
                "{}, {}",
                with_interval(score),
                p_is(mcnemar(o.south, o.north).1)
            ),
            None => self.none_scored(),
        }
    }

    /// The share of the games that ended because nobody could move.
    fn no_moves_share(&self) -> f64 {
        self.tally.ended(EndClass::NoMoves) as f64 / self.tally.games as f64
    }
}

/// The mean of scores made of `wins` ones, `draws` halves and zeros over `n` games, with a
/// normal 95% interval.
fn score_interval(wins: f64, draws: f64, n: f64) -> (f64, f64, f64) {
    mean_interval(wins + draws / 2.0, wins + draws / 4.0, n)
}

/// One row of `balance.csv`.
#[derive(Serialize)]
struct BalanceRow<'a> {
    variant: &'a str,
    south_agent: &'a str,
    north_agent: &'a str,
    games: u64,
    distinct_games: usize,
    finished: u64,
    south_rate: Option<f64>,
    south_low: Option<f64>,
    south_high: Option<f64>,
    north_rate: Option<f64>,
    north_low: Option<f64>,
    north_high: Option<f64>,
    draw_rate: Option<f64>,
    draw_low: Option<f64>,
    draw_high: Option<f64>,
    south_score: Option<f64>,
    seats_even_p: Option<f64>,
    unfinished_share: f64,
    unfinished_low: f64,
    unfinished_high: f64,
    no_moves_share: f64,
    mean_margin: f64,
    margin_low: f64,
    margin_high: f64,
}

/// One row of `skill.csv`: a rung against the one below it, both seatings together.
#[derive(Serialize)]
struct SkillRow<'a> {
    variant: &'a str,
    weaker: String,
    stronger: String,
    finished: u64,
    stronger_score: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
    /// `yes`, `not shown` (the interval reaches ½) or `no`.
    beats: Beats,
}

/// A rung against the one below it, in one variant.
struct Step {
    weaker: String,
    stronger: String,
    finished: u64,
    /// The stronger rung's score, `None` with no scored game.
    score: Option<(f64, f64, f64)>,
}

/// Whether a rung beat the one below it; `skill.csv` writes it `yes`, `not shown`, `no` or
/// `n/a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
enum Beats {
    /// Its score's interval lies above ½.
    #[serde(rename = "yes")]
    Yes,
    /// Its score is above ½, but the interval reaches ½.
    #[serde(rename = "not shown")]
    NotShown,
    /// It scored ½ or less.
    #[serde(rename = "no")]
    No,
    /// No game between them was scored.
    #[serde(rename = "n/a")]
    NotScored,
}

impl Beats {
    /// Whether the step climbs: it counts in the skill trace.
    fn climbs(self) -> bool {
        matches!(self, Beats::Yes | Beats::NotShown)
    }

    /// The answer as the report's table gives it.
    fn words(self) -> &'static str {
        match self {
            Beats::Yes => "yes",
            Beats::NotShown => "not shown: the interval reaches ½",
            Beats::No => "no: it is not stronger here",
            Beats::NotScored => "n/a: no finished game",
        }
    }
}

impl Step {
    /// Whether the stronger rung beat the one below.
    fn beats(&self) -> Beats {
        match self.score {
            Some((_, low, _)) if low > 0.5 => Beats::Yes,
            Some((score, _, _)) if score > 0.5 => Beats::NotShown,
            Some(_) => Beats::No,
            None => Beats::NotScored,
        }
    }
}

/// What [`write`] needs besides the run's files.
pub struct Setup<'a> {
    /// The command that made the report.
    pub command: &'a str,
    /// The agents, weakest first, as given.
    pub ladder: &'a [String],
    /// Per variant, in run order: its value with perfect play, or why it was not solved.
    pub exact: &'a [String],
    /// The time spent playing each cell of the run (variant, pairing and seat order, in unit
    /// order), summed over threads.
    pub seconds: &'a [f64],
    /// Whether games stopped by the move cap or by repetition count in the rates, as each
    /// variant scores them (`--score-unfinished`).
    pub score_unfinished: bool,
    /// The variants' files, carried into the report.
    pub carried: &'a [Carried],
}

/// Reads the run in `dir` and writes the balance report beside it.
///
/// # Errors
/// Missing or malformed run files, unwritable report files.
pub fn write(dir: &mut OutDir, setup: &Setup<'_>) -> Result<(), ReportError> {
    let file = read_run(dir.path())?;
    let endings = endings::read(dir.path())?;
    let mut cells = read_cells(dir.path(), setup.score_unfinished)?;
    add_seconds(&mut cells, &file.run, setup.seconds);
    let ladder = Ladder {
        rungs: setup.ladder,
        cells: &cells,
    };
    let variants: Vec<String> = file.run.variants.iter().map(|v| v.name.clone()).collect();
    let mut blocks = opening(&file, setup.ladder, &variants);
    blocks.extend(variants::banner(&endings));
    blocks.extend(how_made(setup.command, setup.score_unfinished));
    let mut tables = Tables::default();
    for (k, variant) in variants.iter().enumerate() {
        let exact = setup.exact.get(k);
        let section = variant_section(dir, &ladder, k, variant, exact, &mut tables)?;
        blocks.extend(section);
    }
    let Tables {
        balance,
        skill,
        step_bars,
    } = tables;
    if !step_bars.is_empty() {
        blocks.push(skill_chart(dir, setup.ladder, step_bars)?);
    }
    blocks.extend(variants::readings_section(&file.run, &endings));
    blocks.extend(variants::files_section(&file.run, setup.carried));
    write_table(dir, "balance.csv", &balance)?;
    write_table(dir, "skill.csv", &skill)?;
    Ok(document::write_pages(dir, "sowlab balance", &blocks)?)
}

/// The run's cells, looked up along the ladder of agents.
struct Ladder<'a> {
    /// The agents, weakest first.
    rungs: &'a [String],
    /// Every variant's cells, as the run's files hold them.
    cells: &'a [Cell],
}

impl<'a> Ladder<'a> {
    /// The cell of `variant` with these agents South and North, if it was played.
    fn find(&self, variant: &str, south: &str, north: &str) -> Option<&'a Cell> {
        self.cells
            .iter()
            .find(|c| c.variant == variant && c.south == south && c.north == north)
    }

    /// A variant's cells as its seats table lists them: by South's rung, then North's.
    fn seated(&self, variant: &str) -> Vec<&'a Cell> {
        self.rungs
            .iter()
            .flat_map(|south| {
                self.rungs
                    .iter()
                    .filter_map(move |north| self.find(variant, south, north))
            })
            .collect()
    }

    /// South's score when each rung plays itself in `variant`, rung by rung.
    fn self_play_scores(&self, variant: &str) -> Vec<Option<(f64, f64, f64)>> {
        self.rungs
            .iter()
            .map(|a| self.find(variant, a, a).and_then(Cell::south_score))
            .collect()
    }

    /// Every rung of `variant`'s ladder against the one below it.
    fn steps(&self, variant: &str) -> Vec<Step> {
        steps(self.rungs, |s, n| self.find(variant, s, n))
    }
}

/// What the variants' sections add up to besides their blocks.
#[derive(Default)]
struct Tables<'a> {
    /// The rows of `balance.csv`.
    balance: Vec<BalanceRow<'a>>,
    /// The rows of `skill.csv`.
    skill: Vec<SkillRow<'a>>,
    /// One series of the skill chart per variant with a step up the ladder.
    step_bars: Vec<Bars>,
}

/// Adds to each cell the seconds spent playing it, given in the run's unit order.
fn add_seconds(cells: &mut [Cell], run: &RunInfo, seconds: &[f64]) {
    // The run's cells in unit order: variant, then its seatings.
    let seatings = seatings(run);
    let played = run
        .variants
        .iter()
        .flat_map(|v| seatings.iter().map(move |s| (v.name.as_str(), s)));
    for ((variant, seating), &s) in played.zip(seconds) {
        if let Some(cell) = cells.iter_mut().find(|c| {
            c.variant == variant
                && c.south == seating.south.to_string()
                && c.north == seating.north.to_string()
        }) {
            cell.seconds += s;
        }
    }
}

/// The report's title and what was played, by which version, when.
fn opening(file: &RunFile, rungs: &[String], variants: &[String]) -> Vec<Block> {
    vec![
        Block::Heading(1, "Balance along a ladder of agents".into()),
        Block::Paragraph(format!(
            "Self-play of {} at every rung of the ladder {}, and every rung against the next, \
             each agent in both seats; {} games per pairing and seat order, the first {} plies \
             of every game at random (distinct games from deterministic agents), master seed \
             {}. Made by sowlab {} (commit {}) on {}.",
            variants.join(", "),
            rungs.join(" < "),
            file.run.games,
            file.run.opening,
            file.run.seed,
            file.run.version,
            file.run.commit,
            file.date
        )),
    ]
}

/// The "How this was made" section: the command, and how rates, scores and intervals are read.
fn how_made(command: &str, score_unfinished: bool) -> [Block; 3] {
    let counted = if score_unfinished {
        "Rates are over all games: games stopped by the move cap or by repetition count as \
         each variant scores them (--score-unfinished), and their share is shown apart."
    } else {
        "Rates are over finished games: those that reached one of the variant's end rules or \
         in which nobody could move. Games stopped by the move cap or by repetition are \
         counted apart (unfinished), whatever the variant awards for them; a rate over no \
         finished game is n/a."
    };
    [
        Block::Heading(2, "How this was made".into()),
        Block::Code(command.to_string()),
        Block::Paragraph(format!(
            "{counted} Games that ended because nobody could move are finished, and their \
             share has its own column (`explain` names the rule that ends them). A score \
             counts a win 1 and a draw ½; South's score comes with the p-value of the sign \
             test of South's wins against North's (draws aside): a small p says the seats are \
             not even at that level of play, a large one only that this many games could not \
             tell. Intervals are 95%: Wilson for rates, normal for means and scores. Distinct \
             games count different move sequences: fewer than the games played means some \
             games were replays. Seconds are the time spent playing a cell's games, summed \
             over the threads that played them."
        )),
    ]
}

/// The section of `variant` (the `k`th), adding its rows and skill bars to `tables`.
fn variant_section<'a>(
    dir: &mut OutDir,
    ladder: &Ladder<'a>,
    k: usize,
    variant: &'a str,
    exact: Option<&String>,
    tables: &mut Tables<'a>,
) -> Result<Vec<Block>, ReportError> {
    let mut blocks = vec![Block::Heading(2, variant.to_string())];
    if let Some(exact) = exact {
        blocks.push(Block::Paragraph(format!(
            "Value of the start position: {exact}."
        )));
    }
    let seated = ladder.seated(variant);
    tables
        .balance
        .extend(seated.iter().copied().map(balance_row));
    blocks.push(seats_table(&seated));
    blocks.push(seats_chart(dir, k, variant, ladder)?);
    let steps = ladder.steps(variant);
    tables
        .skill
        .extend(steps.iter().map(|step| skill_row(variant, step)));
    if !steps.is_empty() {
        blocks.extend(skill_section(variant, &steps));
        tables.step_bars.push(Bars {
            name: variant.to_string(),
            values: steps.iter().map(|s| s.score).collect(),
        });
    }
    Ok(blocks)
}

/// A variant's seats table: one row per seating of two rungs.
fn seats_table(seated: &[&Cell]) -> Block {
    let header = [
        "South",
        "North",
        "games",
        "distinct",
        "South wins",
        "North wins",
        "draws",
        "South's score, p (seats even)",
        "unfinished",
        "nobody could move",
        "mean margin (S−N)",
        "seconds",
    ];
    let rows = seated
        .iter()
        .map(|cell| {
            vec![
                cell.south.clone(),
                cell.north.clone(),
                cell.tally.games.to_string(),
                cell.sequences.len().to_string(),
                cell.rate_text(cell.tally.outcomes.south),
                cell.rate_text(cell.tally.outcomes.north),
                cell.rate_text(cell.tally.outcomes.draws),
                cell.south_score_text(),
                percent(cell.tally.unfinished() as f64 / cell.tally.games as f64),
                percent(cell.no_moves_share()),
                margin_text(cell),
                format!("{:.2}", cell.seconds),
            ]
        })
        .collect();
    Block::Table(header.map(String::from).to_vec(), rows)
}

/// Saves the chart of South's score in self-play at every rung of `variant`, the `k`th.
fn seats_chart(
    dir: &mut OutDir,
    k: usize,
    variant: &str,
    ladder: &Ladder<'_>,
) -> Result<Block, ReportError> {
    // Numbered as the variants are given: two names can make one file name ("Oware!" and
    // "oware?"), and a long one is cut.
    let stem = format!("seats-{}-{}", k + 1, file_stem(variant));
    chart::save(
        &Chart {
            title: format!("{variant}: South's score in self-play, by rung"),
            y_label: "South's score (win 1, draw ½)".into(),
            y: Scale::Share,
            plot: Plot::Bars {
                categories: ladder.rungs.to_vec(),
                series: vec![Bars {
                    name: "South's score".into(),
                    values: ladder.self_play_scores(variant),
                }],
            },
        },
        dir,
        &stem,
    )?;
    Ok(Block::Chart(
        stem,
        format!(
            "{variant}: South's score when each rung plays itself, with 95% intervals \
             (n/a where no game was scored); 0.5 is a fair game at that level of play, \
             and the table's p-value says whether a score is told apart from it"
        ),
    ))
}

/// Saves the chart of every step of the ladder, a series per variant, as `skill`.
fn skill_chart(
    dir: &mut OutDir,
    rungs: &[String],
    step_bars: Vec<Bars>,
) -> Result<Block, ReportError> {
    chart::save(
        &Chart {
            title: "The stronger rung's score against the rung below".into(),
            y_label: "stronger rung's score (win 1, draw ½)".into(),
            y: Scale::Share,
            plot: Plot::Bars {
                categories: rungs
                    .windows(2)
                    .map(|w| format!("{} over {}", w[1], w[0]))
                    .collect(),
                series: step_bars,
            },
        },
        dir,
        "skill",
    )?;
    Ok(Block::Chart(
        "skill".into(),
        "Each step of the ladder: the stronger rung's score against the one below it, both \
         seatings together, with 95% intervals; a bar at or below 0.5 is a step the \
         ladder has out of order"
            .into(),
    ))
}

/// A variant's steps up the ladder: the order checked, each step's score, and the skill
/// trace over the steps that do climb.
fn skill_section(variant: &str, steps: &[Step]) -> Vec<Block> {
    let mut blocks = Vec::new();
    let out_of_order: Vec<String> = steps
        .iter()
        .filter(|s| s.beats() == Beats::No)
        .map(|s| {
            let score = s
                .score
                .map_or_else(|| "n/a".into(), |(v, _, _)| format!("{v:.2}"));
            format!("{} scores {score} against {}", s.stronger, s.weaker)
        })
        .collect();
    if !out_of_order.is_empty() {
        blocks.push(Block::Warning(format!(
            "in {variant} the ladder is not in order of strength: {}. A rung that does not beat \
             the one below is left out of the skill trace.",
            out_of_order.join("; ")
        )));
    }
    let climbing: Vec<f64> = steps
        .iter()
        .filter(|s| s.beats().climbs())
        .filter_map(|s| s.score.map(|(v, _, _)| v))
        .collect();
    let all: Vec<f64> = steps
        .iter()
        .filter_map(|s| s.score.map(|(v, _, _)| v))
        .collect();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let trace = match (climbing.len(), all.len()) {
        (_, 0) => "Skill trace: n/a, no game between two rungs was scored.".to_string(),
        (0, _) => "Skill trace: n/a, no step of the ladder climbs.".to_string(),
        (c, a) if c == a => format!(
            "Skill trace: {:.3}, the mean score of the stronger rung against the one below it \
             over the {c} steps of the ladder (0.5: skill does not tell; 1: the stronger always \
             wins).",
            mean(&climbing)
        ),
        (c, a) => format!(
            "Skill trace: {:.3}, the mean score of the stronger rung against the one below it \
             over the {c} of {a} steps in which it beats it (0.5: skill does not tell; 1: the \
             stronger always wins); over all {a} steps it is {:.3}.",
            mean(&climbing),
            mean(&all)
        ),
    };
    blocks.push(Block::Paragraph(trace));
    blocks.push(Block::Table(
        [
            "weaker",
            "stronger",
            "finished games",
            "stronger's score",
            "beats the rung below?",
        ]
        .map(String::from)
        .to_vec(),
        steps
            .iter()
            .map(|s| {
                vec![
                    s.weaker.clone(),
                    s.stronger.clone(),
                    s.finished.to_string(),
                    s.score.map_or_else(|| "n/a".into(), with_interval),
                    s.beats().words().into(),
                ]
            })
            .collect(),
    ));
    blocks
}

/// A variant's name as part of a file name, cut to 40 characters: `Hoyito I` → `hoyito-i`.
fn file_stem(name: &str) -> String {
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let stem = words.join("-");
    let cut: String = stem.chars().take(40).collect();
    cut.trim_end_matches('-').to_string()
}

/// A cell's mean margin, South's total minus North's, with its 95% interval.
fn margin_text(cell: &Cell) -> String {
    let (m, lo, hi) = mean_interval(cell.margin.0, cell.margin.1, cell.tally.games as f64);
    format!("{m:+.1} [{lo:+.1}, {hi:+.1}]")
}

/// An interval's value, low and high as three CSV columns, all empty where there is none.
fn split(interval: Option<(f64, f64, f64)>) -> (Option<f64>, Option<f64>, Option<f64>) {
    match interval {
        Some((v, lo, hi)) => (Some(v), Some(lo), Some(hi)),
        None => (None, None, None),
    }
}

/// A cell's row of `balance.csv`.
fn balance_row(cell: &Cell) -> BalanceRow<'_> {
    let t = &cell.tally;
    let (south_rate, south_low, south_high) = split(cell.rate(t.outcomes.south));
    let (north_rate, north_low, north_high) = split(cell.rate(t.outcomes.north));
    let (draw_rate, draw_low, draw_high) = split(cell.rate(t.outcomes.draws));
    let (unfinished_share, unfinished_low, unfinished_high) = wilson(t.unfinished(), t.games, Z95);
    let (mean_margin, margin_low, margin_high) =
        mean_interval(cell.margin.0, cell.margin.1, t.games as f64);
    BalanceRow {
        variant: &cell.variant,
        south_agent: &cell.south,
        north_agent: &cell.north,
        games: t.games,
        distinct_games: cell.sequences.len(),
        finished: t.finished(),
        south_rate,
        south_low,
        south_high,
        north_rate,
        north_low,
        north_high,
        draw_rate,
        draw_low,
        draw_high,
        south_score: cell.south_score().map(|(v, _, _)| v),
        seats_even_p: (t.scored > 0).then(|| mcnemar(t.outcomes.south, t.outcomes.north).1),
        unfinished_share,
        unfinished_low,
        unfinished_high,
        no_moves_share: cell.no_moves_share(),
        mean_margin,
        margin_low,
        margin_high,
    }
}

/// A step's row of `skill.csv`.
fn skill_row<'a>(variant: &'a str, step: &Step) -> SkillRow<'a> {
    let (stronger_score, low, high) = split(step.score);
    SkillRow {
        variant,
        weaker: step.weaker.clone(),
        stronger: step.stronger.clone(),
        finished: step.finished,
        stronger_score,
        low,
        high,
        beats: step.beats(),
    }
}

/// Every rung against the one below it, both seatings together.
fn steps<'c>(ladder: &[String], find: impl Fn(&str, &str) -> Option<&'c Cell>) -> Vec<Step> {
    ladder
        .windows(2)
        .filter_map(|pair| {
            let (weaker, stronger) = (&pair[0], &pair[1]);
            let up = find(stronger, weaker)?;
            let down = find(weaker, stronger)?;
            let (up, down) = (&up.tally, &down.tally);
            let wins = (up.outcomes.south + down.outcomes.north) as f64;
            let draws = (up.outcomes.draws + down.outcomes.draws) as f64;
            let finished = up.scored + down.scored;
            Some(Step {
                weaker: weaker.clone(),
                stronger: stronger.clone(),
                finished,
                score: (finished > 0).then(|| score_interval(wins, draws, finished as f64)),
            })
        })
        .collect()
}

/// Gathers `games.csv` and `moves.csv` of the run in `dir` by variant and seating.
fn read_cells(dir: &Path, score_unfinished: bool) -> Result<Vec<Cell>, OutputError> {
    let mut cells: Vec<Cell> = Vec::new();
    let mut cell_of: HashMap<(Name, u64), usize> = HashMap::new();
    // FNV-1a over each game's holes, in the order they were played.
    let mut sequences: HashMap<(Name, u64), u64> = HashMap::new();
    for_each_row(&dir.join("games.csv"), |r: GameRecord| {
        let at = cells
            .iter()
            .position(|c| {
                c.variant == *r.variant && c.south == *r.south_agent && c.north == *r.north_agent
            })
            .unwrap_or_else(|| {
                cells.push(Cell {
                    variant: r.variant.to_string(),
                    south: r.south_agent.to_string(),
                    north: r.north_agent.to_string(),
                    ..Cell::default()
                });
                cells.len() - 1
            });
        let cell = &mut cells[at];
        cell.tally.add(&r, score_unfinished);
        let margin = f64::from(r.south_total) - f64::from(r.north_total);
        cell.margin.0 += margin;
        cell.margin.1 += margin * margin;
        sequences.insert((r.variant.clone(), r.game), 0xcbf2_9ce4_8422_2325);
        cell_of.insert((r.variant, r.game), at);
    })?;
    for_each_row(&dir.join("moves.csv"), |r: MoveRecord| {
        if let Some(h) = sequences.get_mut(&(r.variant, r.game)) {
            *h = (*h ^ u64::from(r.hole + 1)).wrapping_mul(0x0100_0000_01b3);
        }
    })?;
    for (key, hash) in sequences {
        if let Some(&at) = cell_of.get(&key) {
            cells[at].sequences.insert(hash);
        }
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::stats::Outcomes;

    fn cell(south: &str, north: &str, [s, n, d]: [u64; 3]) -> Cell {
        let outcomes = Outcomes {
            south: s,
            north: n,
            draws: d,
        };
        let games = outcomes.total();
        Cell {
            variant: "V".into(),
            south: south.into(),
            north: north.into(),
            tally: Tally {
                games,
                scored: games,
                outcomes,
                ..Tally::default()
            },
            ..Cell::default()
        }
    }

    /// The stronger rung (b) as South wins 3 and draws 1 of 5; as North it wins 2 of 4.
    /// Scores: 5 wins, 1 draw, 3 losses over 9 games: mean 5.5/9 = 0.6111; squares 5.25, so
    /// the sample variance is (5.25 - 9 * 0.6111^2) / 8 = 0.23611, the standard error
    /// sqrt(0.23611 / 9) = 0.16197, and the 95% interval 0.6111 -/+ 1.96 * 0.16197.
    #[test]
    fn a_step_scores_the_stronger_rung_over_both_seatings() {
        let cells = [cell("b", "a", [3, 1, 1]), cell("a", "b", [2, 2, 0])];
        let ladder = ["a".to_string(), "b".to_string()];
        let steps = steps(&ladder, |s, n| {
            cells.iter().find(|c| c.south == s && c.north == n)
        });
        assert_eq!(steps.len(), 1);
        assert_eq!(
            (steps[0].weaker.as_str(), steps[0].stronger.as_str()),
            ("a", "b")
        );
        assert_eq!(steps[0].finished, 9);
        let (m, lo, hi) = steps[0].score.unwrap();
        assert!((m - 0.611_11).abs() < 1e-4, "{m}");
        assert!((lo - 0.293_65).abs() < 1e-4, "{lo}");
        assert!((hi - 0.928_57).abs() < 1e-4, "{hi}");
        // Above ½, but its interval reaches it.
        assert_eq!(steps[0].beats(), Beats::NotShown);
    }

    /// A ladder a < b < c in which c loses to b (1 win in 10): the step is flagged, and the
    /// skill trace is taken over the step that climbs (b over a, 9 wins of 10: 0.9), with the
    /// mean over both steps (0.9 and 0.1: 0.5) said beside it.
    #[test]
    fn a_rung_that_does_not_beat_the_one_below_is_flagged_and_left_out_of_the_trace() {
        let cells = [
            cell("b", "a", [5, 0, 0]),
            cell("a", "b", [1, 4, 0]),
            cell("c", "b", [1, 4, 0]),
            cell("b", "c", [5, 0, 0]),
        ];
        let ladder = ["a", "b", "c"].map(String::from);
        let steps = steps(&ladder, |s, n| {
            cells.iter().find(|c| c.south == s && c.north == n)
        });
        assert_eq!(
            steps.iter().map(Step::beats).collect::<Vec<_>>(),
            [Beats::Yes, Beats::No]
        );
        let blocks = skill_section("V", &steps);
        let Block::Warning(warning) = &blocks[0] else {
            panic!("no warning first")
        };
        assert!(warning.contains("c scores 0.10 against b"), "{warning}");
        let Block::Paragraph(trace) = &blocks[1] else {
            panic!("no trace")
        };
        assert!(
            trace.starts_with("Skill trace: 0.900,") && trace.ends_with("it is 0.500."),
            "{trace}"
        );
    }

    #[test]
    fn variant_names_become_plain_file_names() {
        assert_eq!(file_stem("Hoyito I [holes=9]"), "hoyito-i-holes-9");
        assert_eq!(file_stem("Awalé"), "awalé");
    }
}
