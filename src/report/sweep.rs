//! The sweep report: the same measures over a grid of board parameters (`sweep.csv`, line
//! charts with interval bands, `index.md`, `index.html`), per seating, built from a finished
//! run whose variants are the grid points.

use std::path::Path;

use super::analysis::{Analysis, Group, MatchGroup};
use super::chart::{self, Chart, Line, Plot, Scale};
use super::compare::{count_share, percent, with_interval};
use super::document::{self, Block};
use super::error::ReportError;
use super::variants::{self, Carried};
use crate::engine::EndClass;
use crate::outdir::OutDir;
use crate::sim::endings;

/// A grid point's parameter values, from the `--set` list recorded in run.json.
fn parameters(settings: &[String]) -> Vec<(String, f64)> {
    settings
        .iter()
        .filter_map(|s| {
            s.split_once('=')
                .and_then(|(k, v)| Some((k.to_string(), v.parse().ok()?)))
        })
        .collect()
}

/// A measure of a grid point's group, with its interval, or nothing.
type Measure<'a> = &'a dyn Fn(&Group) -> Option<(f64, f64, f64)>;

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
    let csv_error = |path: &Path| {
        let path = path.join("sweep.csv");
        move |source| ReportError::Csv { path, source }
    };
    let info = &analysis.info;
    let points: Vec<Vec<(String, f64)>> = info
        .variants
        .iter()
        .map(|v| parameters(&v.settings))
        .collect();
    let value = |point: &[(String, f64)], key: &str| {
        point
            .iter()
            .find(|(k, _)| k == key)
            .map_or(f64::NAN, |p| p.1)
    };
    let base = info
        .variants
        .first()
        .map_or("variant", |v| v.name.split(" [").next().unwrap_or(&v.name))
        .to_string();
    let mut blocks = vec![
        Block::Heading(1, format!("{base}: sweep over {}", swept.join(" and "))),
        Block::Paragraph(format!(
            "{} grid points, {} {} per point, pairing and seat order, master seed {}. Made by {}.",
            points.len(),
            info.games,
            if info.matches { "matches" } else { "games" },
            info.seed,
            analysis.made_by()
        )),
        Block::Code(command.to_string()),
        Block::Paragraph(format!(
            "{} A rate over no finished game is n/a, and a chart leaves that point out.",
            analysis.scoring_note()
        )),
    ];
    blocks.splice(1..1, variants::banner(&endings));
    let mut csv_out = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = ["pairing", "seat_order", "south_agent", "north_agent"]
        .map(String::from)
        .to_vec();
    header.extend(swept.iter().map(|k| format!("parameter_{k}")));
    header.extend(
        [
            "games",
            "rules_hash",
            "first_mover_rate",
            "first_mover_low",
            "first_mover_high",
            "south_rate",
            "south_low",
            "south_high",
            "north_rate",
            "north_low",
            "north_high",
            "draw_rate",
            "draw_low",
            "draw_high",
            "mean_turns",
            "mean_turns_low",
            "mean_turns_high",
            "unfinished_rate",
            "unfinished_low",
            "unfinished_high",
            "cap_rate",
            "cap_low",
            "cap_high",
        ]
        .map(String::from),
    );
    let matched = info.matches;
    if matched {
        for measure in [
            "match_starter",
            "match_draw",
            "round_1_winner_match",
            "mean_rounds",
        ] {
            header.extend(["rate", "low", "high"].map(|s| {
                let s = if measure == "mean_rounds" && s == "rate" {
                    ""
                } else {
                    s
                };
                if s.is_empty() {
                    measure.to_string()
                } else {
                    format!("{measure}_{s}")
                }
            }));
        }
    }
    let match_of = |g: &Group| {
        analysis
            .matches
            .iter()
            .find(|m| m.variant == g.variant && m.seating == g.seating)
    };
    csv_out
        .write_record(&header)
        .map_err(csv_error(dir.path()))?;
    let x_key = swept.first().cloned().unwrap_or_default();
    let seatings = analysis.seatings();
    for seating in &seatings {
        let groups: Vec<(&Group, &Vec<(String, f64)>)> = analysis
            .groups
            .iter()
            .zip(
                points
                    .iter()
                    .flat_map(|p| std::iter::repeat_n(p, seatings.len())),
            )
            .filter(|(g, _)| g.seating == *seating)
            .collect();
        let mut table = Vec::new();
        let mut warnings = Vec::new();
        for (g, point) in &groups {
            let mut record: Vec<String> = vec![
                seating.pairing.clone(),
                seating.order.to_string(),
                seating.south.clone(),
                seating.north.clone(),
            ];
            record.extend(swept.iter().map(|k| value(point, k).to_string()));
            record.push(g.tally.games.to_string());
            record.push(g.rules_hash.clone());
            for value in [
                g.rate_of(g.tally.first_mover_wins),
                g.rate_of(g.tally.outcomes[0]),
                g.rate_of(g.tally.outcomes[1]),
                g.rate_of(g.tally.outcomes[2]),
                Some(g.mean_length()),
                Some(g.share(g.tally.unfinished())),
                Some(g.share(g.tally.ended(EndClass::Cap))),
            ] {
                // Empty cells for a rate over no finished game.
                let cells = value.map_or(
                    [String::new(), String::new(), String::new()],
                    |(v, lo, hi)| [v, lo, hi].map(|x| x.to_string()),
                );
                record.extend(cells);
            }
            if let Some(m) = match_of(g) {
                for (v, lo, hi) in [
                    m.rate(m.starter_wins),
                    m.rate(m.outcomes[2]),
                    m.round_1_rate(),
                    m.mean_rounds(),
                ] {
                    record.extend([v, lo, hi].map(|x| x.to_string()));
                }
            }
            csv_out
                .write_record(&record)
                .map_err(csv_error(dir.path()))?;
            let mut row: Vec<String> = swept.iter().map(|k| value(point, k).to_string()).collect();
            let none = || format!("n/a ({})", g.endings().basis());
            row.push(
                g.rate_of(g.tally.first_mover_wins)
                    .map_or_else(none, with_interval),
            );
            row.push(
                g.rate_of(g.tally.outcomes[2])
                    .map_or_else(none, |(v, _, _)| percent(v)),
            );
            row.push(format!("{:.1}", g.mean_length().0));
            row.push(format!("{:.1}%", 100.0 * g.share(g.tally.unfinished()).0));
            let capped = g.share(g.tally.ended(EndClass::Cap)).0;
            row.push(format!(
                "{}{}",
                count_share(g.tally.ended(EndClass::Cap), g.tally.games),
                if capped > CAPPED { " ⚠" } else { "" }
            ));
            if capped > CAPPED {
                let at: Vec<String> = swept
                    .iter()
                    .map(|k| format!("{k}={}", value(point, k)))
                    .collect();
                warnings.push(format!(
                    "{} ({})",
                    at.join(", "),
                    count_share(g.tally.ended(EndClass::Cap), g.tally.games)
                ));
            }
            if let Some(m) = match_of(g) {
                let (v, lo, hi) = m.rate(m.starter_wins);
                row.push(format!(
                    "{:.1}% [{:.1}–{:.1}]",
                    100.0 * v,
                    100.0 * lo,
                    100.0 * hi
                ));
                row.push(format!("{:.1}", m.mean_rounds().0));
            }
            table.push(row);
        }
        blocks.push(Block::Heading(
            2,
            format!(
                "Agents {}: {} (seat order {})",
                seating.pairing,
                seating.label(),
                seating.order + 1
            ),
        ));
        let mut head: Vec<String> = swept.to_vec();
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
        blocks.push(Block::Table(head, table));
        if !warnings.is_empty() {
            blocks.push(Block::Paragraph(format!(
                "Warning: more than {:.0}% of the games were stopped by the move cap at {}. Measures there describe games cut short, not games played out; win rates {}.",
                100.0 * CAPPED,
                warnings.join("; "),
                if analysis.score_unfinished { "count them as each variant scores them" } else { "leave them out" }
            )));
        }
        // One chart per combination of the other parameters, in grid order.
        let mut others: Vec<Vec<(String, f64)>> = Vec::new();
        for (_, p) in &groups {
            let other: Vec<(String, f64)> = p
                .iter()
                .filter(|(k, _)| *k != x_key && swept.contains(k))
                .cloned()
                .collect();
            if !others.contains(&other) {
                others.push(other);
            }
        }
        for other in others {
            let selected: Vec<(&Group, f64)> = groups
                .iter()
                .filter(|(_, p)| other.iter().all(|(k, v)| value(p, k) == *v))
                .map(|(g, p)| (*g, value(p, &x_key)))
                .collect();
            let fixed: String = other.iter().map(|(k, v)| format!(", {k}={v}")).collect();
            let stem_extra: String = other.iter().map(|(k, v)| format!("-{k}{v}")).collect();
            // A point with no value (a rate over no finished game) is left out of its line.
            let line = |name: &str, f: Measure<'_>| {
                let values: Vec<(f64, (f64, f64, f64))> = selected
                    .iter()
                    .filter_map(|(g, x)| f(g).map(|v| (*x, v)))
                    .collect();
                Line {
                    name: name.into(),
                    points: values.iter().map(|&(x, (v, _, _))| (x, v)).collect(),
                    band: values.iter().map(|&(x, (_, lo, hi))| (x, lo, hi)).collect(),
                }
            };
            let what = format!(
                "{base}, {}, {} games per point{fixed}",
                seating.label(),
                info.games
            );
            let rates = Chart {
                title: format!("Win rates by {x_key} ({what})"),
                y_label: "share of games (bands: 95% intervals)".into(),
                y: Scale::Share,
                plot: Plot::Lines {
                    x_label: x_key.clone(),
                    lines: vec![
                        line("first mover", &|g| g.rate_of(g.tally.first_mover_wins)),
                        line(&format!("South ({})", seating.south), &|g| {
                            g.rate_of(g.tally.outcomes[0])
                        }),
                        line(&format!("North ({})", seating.north), &|g| {
                            g.rate_of(g.tally.outcomes[1])
                        }),
                        line("draw", &|g| g.rate_of(g.tally.outcomes[2])),
                        line("unfinished", &|g| Some(g.share(g.tally.unfinished()))),
                    ],
                },
            };
            let stem = format!("sweep-rates-{}{stem_extra}", seating.slug());
            chart::save(&rates, dir, &stem)?;
            blocks.push(Block::Chart(
                stem,
                format!("Win rates as {x_key} varies{fixed}"),
            ));
            let length = Chart {
                title: format!("Mean game length by {x_key} ({what})"),
                y_label: "moves (band: 95% interval)".into(),
                y: Scale::Linear,
                plot: Plot::Lines {
                    x_label: x_key.clone(),
                    lines: vec![line("mean length", &|g| Some(g.mean_length()))],
                },
            };
            let stem = format!("sweep-length-{}{stem_extra}", seating.slug());
            chart::save(&length, dir, &stem)?;
            blocks.push(Block::Chart(
                stem,
                format!("Mean game length as {x_key} varies{fixed}"),
            ));
            if matched {
                let of =
                    |f: fn(&MatchGroup) -> (f64, f64, f64)| move |g: &Group| match_of(g).map(f);
                let results = Chart {
                    title: format!("Match results by {x_key} ({what} (matches))"),
                    y_label: "share of matches (bands: 95% intervals)".into(),
                    y: Scale::Share,
                    plot: Plot::Lines {
                        x_label: x_key.clone(),
                        lines: vec![
                            line("match starter", &of(|m| m.rate(m.starter_wins))),
                            line("draw", &of(|m| m.rate(m.outcomes[2]))),
                            line("round-1 winner", &of(|m| m.round_1_rate())),
                        ],
                    },
                };
                let stem = format!("sweep-matches-{}{stem_extra}", seating.slug());
                chart::save(&results, dir, &stem)?;
                blocks.push(Block::Chart(
                    stem,
                    format!("Who wins matches as {x_key} varies{fixed}: the match starter, draws, and the winner of round 1"),
                ));
                let rounds = Chart {
                    title: format!("Mean rounds per match by {x_key} ({what} (matches))"),
                    y_label: "rounds (band: 95% interval)".into(),
                    y: Scale::Linear,
                    plot: Plot::Lines {
                        x_label: x_key.clone(),
                        lines: vec![line("mean rounds", &of(|m| m.mean_rounds()))],
                    },
                };
                let stem = format!("sweep-rounds-{}{stem_extra}", seating.slug());
                chart::save(&rounds, dir, &stem)?;
                blocks.push(Block::Chart(
                    stem,
                    format!("Match length in rounds as {x_key} varies{fixed}"),
                ));
            }
        }
    }
    blocks.extend(variants::readings_section(info, &endings));
    blocks.extend(variants::files_section(info, carried));
    let bytes = csv_out.into_inner().expect("writing to memory cannot fail");
    dir.write_file("sweep.csv", &bytes)?;
    Ok(document::write_pages(dir, "sowlab sweep", &blocks)?)
}
