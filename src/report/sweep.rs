//! The sweep report: the same measures over a grid of board parameters (`sweep.csv`, line
//! charts with interval bands, `index.md`, `index.html`), per seating, built from a finished
//! run whose variants are the grid points.

use std::path::Path;

use super::analysis::{Analysis, Group, MatchGroup, Seating};
use super::chart::{self, Chart, Line, Plot, Scale};
use super::compare::{count_share, percent, with_interval};
use super::document::{self, Block};
use super::error::ReportError;
use super::variants::{self, Carried};
use crate::engine::EndClass;
use crate::lang::Setting;
use crate::outdir::OutDir;
use crate::sim::endings;

/// Rates over fewer scored games than this are left out of the sweep's charts.
const FEW_SCORED: u64 = 20;

/// A grid point's parameter values, from the `--set` list recorded in run.json.
fn parameters(settings: &[Setting]) -> Vec<(String, f64)> {
    settings
        .iter()
        .filter_map(|s| Some((s.key.clone(), s.value.parse().ok()?)))
        .collect()
}

/// Games stopped by the move cap beyond this share of a grid point get a warning.
const CAPPED: f64 = 0.05;

/// Writes the sweep report into `dir`. `swept` names the parameters varied, in order: the
/// first is the x axis, the others split the charts. `score_unfinished` counts games stopped
/// by cap or repetition in win rates; `carried` is the variant's file, carried into `dir`.
///
/// # Errors
/// Unreadable run files, unwritable report files, drawing errors.
pub fn write(
    dir: &mut OutDir,
    command: &str,
    swept: &[String],
    score_unfinished: bool,
    carried: &[Carried],
) -> Result<(), ReportError> {
    let analysis = Analysis::read(dir.path(), score_unfinished)?;
    let endings = endings::read(dir.path())?;
    let grid = Grid::new(&analysis, swept);
    let mut blocks = grid.introduction(command);
    blocks.splice(1..1, variants::banner(&endings));
    let csv_error = |path: &Path| {
        let path = path.join("sweep.csv");
        move |source| ReportError::Csv { path, source }
    };
    let mut csv_out = csv::Writer::from_writer(Vec::new());
    csv_out
        .write_record(grid.csv_header())
        .map_err(csv_error(dir.path()))?;
    for seating in &analysis.seatings() {
        let points = grid.points(seating);
        for point in &points {
            csv_out
                .write_record(grid.csv_record(seating, point))
                .map_err(csv_error(dir.path()))?;
        }
        blocks.extend(grid.table(seating, &points));
        blocks.extend(grid.charts(dir, seating, &points)?);
    }
    blocks.extend(variants::readings_section(&analysis.info, &endings));
    blocks.extend(variants::files_section(&analysis.info, carried));
    let bytes = csv_out.into_inner().expect("writing to memory cannot fail");
    dir.write_file("sweep.csv", &bytes)?;
    Ok(document::write_pages(dir, "sowlab sweep", &blocks)?)
}

/// A sweep's grid: the run's analysis, the parameters varied, and each variant's values of
/// them (the variants are the grid points, in run order).
struct Grid<'a> {
    analysis: &'a Analysis,
    swept: &'a [String],
    /// Each variant's parameter values.
    values: Vec<Vec<(String, f64)>>,
    /// The variant's name without its grid point, for titles.
    base: String,
    /// The x axis: the first parameter swept.
    x_key: String,
}

/// One grid point under one seating: its games, its parameter values and, in a match run,
/// its matches.
struct Point<'a> {
    group: &'a Group,
    values: &'a [(String, f64)],
    matches: Option<&'a MatchGroup>,
}

impl Point<'_> {
    /// The value of parameter `key` here (NaN if the point does not set it).
    fn value(&self, key: &str) -> f64 {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map_or(f64::NAN, |p| p.1)
    }

    /// Each swept parameter's value, in `swept` order.
    fn values_of(&self, swept: &[String]) -> Vec<String> {
        swept.iter().map(|k| self.value(k).to_string()).collect()
    }
}

impl<'a> Grid<'a> {
    fn new(analysis: &'a Analysis, swept: &'a [String]) -> Grid<'a> {
        let info = &analysis.info;
        Grid {
            analysis,
            swept,
            values: info
                .variants
                .iter()
                .map(|v| parameters(&v.settings))
                .collect(),
            base: info
                .variants
                .first()
                .map_or("variant", |v| v.name.split(" [").next().unwrap_or(&v.name))
                .to_string(),
            x_key: swept.first().cloned().unwrap_or_default(),
        }
    }

    /// The title, what was run and by what, the command, and how rates are counted.
    fn introduction(&self, command: &str) -> Vec<Block> {
        let info = &self.analysis.info;
        vec![
            Block::Heading(1, format!("{}: sweep over {}", self.base, self.swept.join(" and "))),
            Block::Paragraph(format!(
                "{} grid points, {} {} per point, pairing and seat order, master seed {}. Made by {}.",
                self.values.len(),
                info.games,
                if info.matches { "matches" } else { "games" },
                info.seed,
                self.analysis.made_by()
            )),
            Block::Code(command.to_string()),
            Block::Paragraph(format!(
                "{} A rate over no finished game is n/a; the charts leave out every rate over \
                 fewer than {FEW_SCORED} scored games, whose interval would span most of 0 to 1 \
                 (the tables and sweep.csv keep them).",
                self.analysis.scoring_note()
            )),
        ]
    }

    /// The grid points played under `seating`, in grid order.
    fn points(&self, seating: &Seating) -> Vec<Point<'_>> {
        let analysis = self.analysis;
        let seatings = analysis.seatings().len();
        analysis
            .groups
            .iter()
            .zip(
                self.values
                    .iter()
                    .flat_map(|p| std::iter::repeat_n(p, seatings)),
            )
            .filter(|(g, _)| g.seating == *seating)
            .map(|(group, values)| Point {
                group,
                values,
                matches: analysis
                    .matches
                    .iter()
                    .find(|m| m.variant == group.variant && m.seating == group.seating),
            })
            .collect()
    }

    /// `sweep.csv`'s header (docs/outputs.md).
    fn csv_header(&self) -> Vec<String> {
        let mut header: Vec<String> = ["pairing", "seat_order", "south_agent", "north_agent"]
            .map(String::from)
            .to_vec();
        header.extend(self.swept.iter().map(|k| format!("parameter_{k}")));
        header.extend(["games", "rules_hash"].map(String::from));
        for measure in ["first_mover", "south", "north", "draw"] {
            header.extend(["rate", "low", "high"].map(|s| format!("{measure}_{s}")));
        }
        header.extend(["mean_turns", "mean_turns_low", "mean_turns_high"].map(String::from));
        for measure in ["unfinished", "cap"] {
            header.extend(["rate", "low", "high"].map(|s| format!("{measure}_{s}")));
        }
        if self.analysis.info.matches {
            for measure in ["match_starter", "match_draw", "round_1_winner_match"] {
                header.extend(["rate", "low", "high"].map(|s| format!("{measure}_{s}")));
            }
            header.extend(["mean_rounds", "mean_rounds_low", "mean_rounds_high"].map(String::from));
        }
        header
    }

    /// A point's row of `sweep.csv`: empty cells for a rate over no finished game.
    fn csv_record(&self, seating: &Seating, point: &Point<'_>) -> Vec<String> {
        let g = point.group;
        let mut record: Vec<String> = vec![
            seating.pairing.to_string(),
            seating.order.to_string(),
            seating.south.to_string(),
            seating.north.to_string(),
        ];
        record.extend(point.values_of(self.swept));
        record.push(g.tally.games.to_string());
        record.push(g.rules_hash.to_string());
        for value in [
            g.rate_of(g.tally.first_mover_wins),
            g.rate_of(g.tally.outcomes.south),
            g.rate_of(g.tally.outcomes.north),
            g.rate_of(g.tally.outcomes.draws),
            Some(g.mean_length()),
            Some(g.share(g.tally.unfinished())),
            Some(g.share(g.tally.ended(EndClass::Cap))),
        ] {
            let cells = value.map_or(
                [String::new(), String::new(), String::new()],
                |(v, lo, hi)| [v, lo, hi].map(|x| x.to_string()),
            );
            record.extend(cells);
        }
        if let Some(m) = point.matches {
            for (v, lo, hi) in [
                m.rate(m.starter_wins),
                m.rate(m.outcomes.draws),
                m.round_1_rate(),
                m.mean_rounds(),
            ] {
                record.extend([v, lo, hi].map(|x| x.to_string()));
            }
        }
        record
    }

    /// The seating's section: its heading, a row per grid point, and a warning where the
    /// move cap stopped many games.
    fn table(&self, seating: &Seating, points: &[Point<'_>]) -> Vec<Block> {
        let matched = self.analysis.info.matches;
        let mut head: Vec<String> = self.swept.to_vec();
        let per = if matched { " (rounds)" } else { "" };
        head.extend([
            format!("first mover wins{per}"),
            format!("draws{per}"),
            format!("mean length{per}"),
            format!("unfinished{per}"),
            format!("stopped by move cap{per}"),
        ]);
        if matched {
            head.extend(["match starter wins", "mean rounds"].map(String::from));
        }
        let rows = points.iter().map(|p| self.table_row(p)).collect();
        let mut blocks = vec![
            Block::Heading(
                2,
                format!(
                    "Agents {}: {} (seat order {})",
                    seating.pairing,
                    seating.label(),
                    seating.order + 1
                ),
            ),
            Block::Table(head, rows),
        ];
        let capped: Vec<String> = points
            .iter()
            .filter(|p| capped_share(p.group) > CAPPED)
            .map(|p| {
                let at: Vec<String> = self
                    .swept
                    .iter()
                    .map(|k| format!("{k}={}", p.value(k)))
                    .collect();
                let g = p.group;
                format!(
                    "{} ({})",
                    at.join(", "),
                    count_share(g.tally.ended(EndClass::Cap), g.tally.games)
                )
            })
            .collect();
        if !capped.is_empty() {
            blocks.push(Block::Paragraph(format!(
                "Warning: more than {:.0}% of the games were stopped by the move cap at {}. Measures there describe games cut short, not games played out; win rates {}.",
                100.0 * CAPPED,
                capped.join("; "),
                if self.analysis.score_unfinished { "count them as each variant scores them" } else { "leave them out" }
            )));
        }
        blocks
    }

    /// A point's row of the seating's table.
    fn table_row(&self, point: &Point<'_>) -> Vec<String> {
        let g = point.group;
        let mut row = point.values_of(self.swept);
        let none = || format!("n/a ({})", g.endings().basis());
        row.push(
            g.rate_of(g.tally.first_mover_wins)
                .map_or_else(none, with_interval),
        );
        row.push(
            g.rate_of(g.tally.outcomes.draws)
                .map_or_else(none, |(v, _, _)| percent(v)),
        );
        row.push(format!("{:.1}", g.mean_length().0));
        row.push(format!("{:.1}%", 100.0 * g.share(g.tally.unfinished()).0));
        row.push(format!(
            "{}{}",
            count_share(g.tally.ended(EndClass::Cap), g.tally.games),
            if capped_share(g) > CAPPED { " ⚠" } else { "" }
        ));
        if let Some(m) = point.matches {
            let (v, lo, hi) = m.rate(m.starter_wins);
            row.push(format!(
                "{:.1}% [{:.1}–{:.1}]",
                100.0 * v,
                100.0 * lo,
                100.0 * hi
            ));
            row.push(format!("{:.1}", m.mean_rounds().0));
        }
        row
    }

    /// The seating's charts: one set per combination of the parameters other than the x
    /// axis, in grid order.
    fn charts(
        &self,
        dir: &mut OutDir,
        seating: &Seating,
        points: &[Point<'_>],
    ) -> Result<Vec<Block>, ReportError> {
        let mut others: Vec<Vec<(String, f64)>> = Vec::new();
        for p in points {
            let other: Vec<(String, f64)> = p
                .values
                .iter()
                .filter(|(k, _)| *k != self.x_key && self.swept.contains(k))
                .cloned()
                .collect();
            if !others.contains(&other) {
                others.push(other);
            }
        }
        let mut blocks = Vec::new();
        for other in others {
            let line: Vec<&Point<'_>> = points
                .iter()
                .filter(|p| other.iter().all(|(k, v)| p.value(k) == *v))
                .collect();
            blocks.extend(self.charts_of_line(dir, seating, &line, &other)?);
        }
        Ok(blocks)
    }

    /// The charts along the x axis with the other parameters fixed at `other`: win rates and
    /// mean length, and in a match run the match results and rounds.
    fn charts_of_line(
        &self,
        dir: &mut OutDir,
        seating: &Seating,
        points: &[&Point<'_>],
        other: &[(String, f64)],
    ) -> Result<Vec<Block>, ReportError> {
        let x_key = &self.x_key;
        let fixed: String = other.iter().map(|(k, v)| format!(", {k}={v}")).collect();
        let stem_extra: String = other.iter().map(|(k, v)| format!("-{k}{v}")).collect();
        // A point with no value (a rate over no finished game) is left out of its line.
        let line = |name: &str, f: PointMeasure<'_>| {
            let values: Vec<(f64, (f64, f64, f64))> = points
                .iter()
                .filter_map(|p| f(p).map(|v| (p.value(x_key), v)))
                .collect();
            Line {
                name: name.into(),
                points: values.iter().map(|&(x, (v, _, _))| (x, v)).collect(),
                band: values.iter().map(|&(x, (_, lo, hi))| (x, lo, hi)).collect(),
            }
        };
        let of_games = |f: fn(&Group) -> Option<(f64, f64, f64)>| move |p: &Point<'_>| f(p.group);
        // A rate over few finished games is left out of the chart: its band would span most of
        // 0 to 1 and read as a measure (the tables keep it).
        let of_rates = |f: fn(&Group) -> Option<(f64, f64, f64)>| {
            move |p: &Point<'_>| {
                (p.group.tally.scored >= FEW_SCORED)
                    .then(|| f(p.group))
                    .flatten()
            }
        };
        let what = format!(
            "{}, {}, {} games per point{fixed}",
            self.base,
            seating.label(),
            self.analysis.info.games
        );
        let slug = seating.slug();
        let few = points
            .iter()
            .filter(|p| p.group.tally.scored < FEW_SCORED)
            .count();
        let left_out = if few > 0 {
            format!(
                "; the rates of {few} of {} points, over fewer than {FEW_SCORED} scored games, are \
                 left out (unfinished games are drawn at every point)",
                points.len()
            )
        } else {
            String::new()
        };
        let mut charts = vec![
            LineChart {
                stem: format!("sweep-rates-{slug}{stem_extra}"),
                title: format!("Win rates by {x_key} ({what})"),
                y_label: "share of games (bands: 95% intervals)",
                y: Scale::Share,
                lines: vec![
                    line(
                        "first mover",
                        &of_rates(|g| g.rate_of(g.tally.first_mover_wins)),
                    ),
                    line(
                        &format!("South ({})", seating.south),
                        &of_rates(|g| g.rate_of(g.tally.outcomes.south)),
                    ),
                    line(
                        &format!("North ({})", seating.north),
                        &of_rates(|g| g.rate_of(g.tally.outcomes.north)),
                    ),
                    line("draw", &of_rates(|g| g.rate_of(g.tally.outcomes.draws))),
                    line(
                        "unfinished",
                        &of_games(|g| Some(g.share(g.tally.unfinished()))),
                    ),
                ],
                caption: format!("Win rates as {x_key} varies{fixed}{left_out}"),
            },
            LineChart {
                stem: format!("sweep-length-{slug}{stem_extra}"),
                title: format!("Mean game length by {x_key} ({what})"),
                y_label: "moves (band: 95% interval)",
                y: Scale::Linear,
                lines: vec![line("mean length", &of_games(|g| Some(g.mean_length())))],
                caption: format!("Mean game length as {x_key} varies{fixed}"),
            },
        ];
        if self.analysis.info.matches {
            let of = |f: fn(&MatchGroup) -> (f64, f64, f64)| move |p: &Point<'_>| p.matches.map(f);
            charts.push(LineChart {
                stem: format!("sweep-matches-{slug}{stem_extra}"),
                title: format!("Match results by {x_key} ({what} (matches))"),
                y_label: "share of matches (bands: 95% intervals)",
                y: Scale::Share,
                lines: vec![
                    line("match starter", &of(|m| m.rate(m.starter_wins))),
                    line("draw", &of(|m| m.rate(m.outcomes.draws))),
                    line("round-1 winner", &of(|m| m.round_1_rate())),
                ],
                caption: format!("Who wins matches as {x_key} varies{fixed}: the match starter, draws, and the winner of round 1"),
            });
            charts.push(LineChart {
                stem: format!("sweep-rounds-{slug}{stem_extra}"),
                title: format!("Mean rounds per match by {x_key} ({what} (matches))"),
                y_label: "rounds (band: 95% interval)",
                y: Scale::Linear,
                lines: vec![line("mean rounds", &of(|m| m.mean_rounds()))],
                caption: format!("Match length in rounds as {x_key} varies{fixed}"),
            });
        }
        charts.into_iter().map(|c| c.save(dir, x_key)).collect()
    }
}

/// A measure of a grid point, with its interval, or nothing.
type PointMeasure<'a> = &'a dyn Fn(&Point<'_>) -> Option<(f64, f64, f64)>;

/// The share of a point's games the move cap stopped.
fn capped_share(g: &Group) -> f64 {
    g.share(g.tally.ended(EndClass::Cap)).0
}

/// One line chart of the report, before it is drawn.
struct LineChart {
    stem: String,
    title: String,
    y_label: &'static str,
    y: Scale,
    lines: Vec<Line>,
    caption: String,
}

impl LineChart {
    /// Draws the chart into `dir` (`x_label` on the x axis); its block in the report.
    fn save(self, dir: &mut OutDir, x_label: &str) -> Result<Block, ReportError> {
        let chart = Chart {
            title: self.title,
            y_label: self.y_label.into(),
            y: self.y,
            plot: Plot::Lines {
                x_label: x_label.to_string(),
                lines: self.lines,
            },
        };
        chart::save(&chart, dir, &self.stem)?;
        Ok(Block::Chart(self.stem, self.caption))
    }
}
