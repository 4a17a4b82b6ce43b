//! The comparison report: `comparison.csv` (measures with intervals per variant, and paired
//! tests between variants), charts, `index.md` and `index.html`, from a finished run's files.

use serde::{Deserialize, Serialize};

use super::analysis::{Analysis, Group, MatchGroup, Pairs, Seating, NO_MOVES_RULE};
use super::chart::{self, Bars, Chart, Line, Plot, Scale};
use super::document::{self, Block};
use super::error::ReportError;
use super::variants::{self, Carried};
use crate::engine::EndClass;
use crate::outdir::OutDir;
use crate::sim::endings;
use crate::sim::stats::{detectable_difference, holm, mcnemar, paired_difference, wilson, Z95};

/// One row of `comparison.csv`, long format: a measure of one variant (`kind` = `variant`)
/// or a test between two variants (`kind` = `pair`), for one seating of an agent pairing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonRecord {
    /// The agent pairing, `A,B`.
    pub pairing: String,
    /// Seat order: 0 when the pairing's first agent played South, 1 when its second did.
    pub seat_order: u8,
    /// South's agent.
    pub south_agent: String,
    /// North's agent.
    pub north_agent: String,
    /// `variant` or `pair`.
    pub kind: String,
    /// The variant (the first of the two for a pair).
    pub variant: String,
    /// The second variant of a pair; empty otherwise.
    pub other: String,
    /// What is measured.
    pub measure: String,
    /// Its value (for a pair: first minus second, over the paired games); empty for a rate
    /// over no finished game.
    pub value: Option<f64>,
    /// 95% interval, low end (empty where none applies; for a pair, Bonett and Price's
    /// adjusted Wald interval for a difference of paired proportions).
    pub low: Option<f64>,
    /// 95% interval, high end.
    pub high: Option<f64>,
    /// Games behind the value (for a pair: the pairs of games played on the same seed).
    pub games: u64,
    /// McNemar's z = (b − c)/√(b + c) over the discordant pairs (pairs).
    pub z: Option<f64>,
    /// Two-sided exact mid-p value of McNemar's test (pairs), or of the sign test of South's
    /// wins against North's (`seat_balance`).
    pub p_value: Option<f64>,
    /// p-value after Holm's correction over the pair tests of its seating.
    pub p_holm: Option<f64>,
    /// Whether the Holm-corrected p-value is below 0.05.
    pub significant: Option<bool>,
    /// The smallest difference the pair test would detect with 80% power at 5% (pairs).
    pub detectable: Option<f64>,
}

/// A paired test of South's wins between two variants, in one seating.
struct PairTest {
    a: usize,
    b: usize,
    pairs: Pairs,
    z: f64,
    p: f64,
    holm: f64,
    /// Difference of rates over the pairs, and its 95% interval.
    difference: (f64, f64, f64),
}

/// Intervals wider than this (half-width) get a warning in the report.
const WIDE: f64 = 0.05;

/// Writes the report files into `dir`, which holds a finished run. `command` is the command
/// line that made it; `score_unfinished` counts games stopped by cap or repetition in win
/// rates; `carried` are the variants' files, copied into `dir` ([`variants::carry`]).
///
/// # Errors
/// Unreadable run files, unwritable report files, drawing errors.
pub fn write(
    dir: &mut OutDir,
    command: &str,
    score_unfinished: bool,
    carried: &[Carried],
) -> Result<(), ReportError> {
    let analysis = Analysis::read(dir.path(), score_unfinished)?;
    let endings = endings::read(dir.path())?;
    let mut rows = Vec::new();
    let mut blocks = header(&analysis, command);
    blocks.splice(1..1, variants::banner(&endings));
    let seatings = analysis.seatings();
    let tests: Vec<Vec<PairTest>> = seatings
        .iter()
        .map(|seating| pair_tests(&analysis.of_seating(seating).collect::<Vec<_>>()))
        .collect();
    for (seating, tests) in seatings.iter().zip(&tests) {
        if seating.order == 0 {
            blocks.push(Block::Heading(2, format!("Agents {}", seating.pairing)));
            blocks.push(Block::Paragraph("Each seating is shown on its own, never pooled with the other: a difference between the agents and a difference between the seats cannot be told apart in a pooled figure.".into()));
        }
        blocks.push(Block::Heading(
            3,
            format!("{} (seat order {})", seating.label(), seating.order + 1),
        ));
        let groups: Vec<&Group> = analysis.of_seating(seating).collect();
        let matches: Vec<&MatchGroup> = analysis.matches_of(seating).collect();
        // Rounds of one match are not independent: in a match run they are described, and
        // only the matches are compared.
        let tests: &[PairTest] = if matches.is_empty() { tests } else { &[] };
        if !matches.is_empty() {
            rows.extend(match_rows(seating, &matches));
            blocks.extend(match_section(&analysis, seating, &matches, dir)?);
            blocks.push(Block::Heading(4, "Rounds".into()));
            blocks.push(Block::Paragraph("Every round of every match, as a game of its own: the first mover is the round's starter. Rounds of one match are not independent (the same players, seeds carried from round to round, and where the rules say so the round winner starting the next round, so that the first mover's rate is confounded with it): the intervals below treat them as if they were, and are too narrow. Read this section as a description of the rounds; compare variants on the matches above, and no rounds are tested pairwise.".into()));
        }
        rows.extend(comparison_rows(seating, &groups, tests));
        blocks.extend(pairing_section(&analysis, seating, &groups, tests, dir)?);
        if seating.order == 1 && seating.south == seating.north && matches.is_empty() {
            let other = Seating::of(&seating.pairing, 0);
            let first: Vec<&Group> = analysis.of_seating(&other).collect();
            blocks.extend(replicates_section(&seating.south, &first, &groups));
        }
    }
    blocks.extend(variants::readings_section(&analysis.info, &endings));
    blocks.extend(variants::files_section(&analysis.info, carried));
    write_table(dir, "comparison.csv", &rows)?;
    write_timeline(dir, &analysis)?;
    Ok(document::write_pages(dir, "sowlab comparison", &blocks)?)
}

/// Where games ended because nobody could move, what says so and names the rule behind it.
fn stalled_note(groups: &[&Group]) -> Option<String> {
    let stalled: Vec<String> = groups
        .iter()
        .filter(|g| g.tally.ended(EndClass::NoMoves) > 0)
        .map(|g| {
            format!(
                "{} {}",
                g.variant,
                count_share(g.tally.ended(EndClass::NoMoves), g.tally.games)
            )
        })
        .collect();
    (!stalled.is_empty()).then(|| format!(
        "Games ended because nobody could move ({}) came about through the rule {NO_MOVES_RULE}. They are finished games and count in the win rates.",
        stalled.join(", ")
    ))
}

/// Writes `rows` as the CSV file `name` in `dir`.
pub(crate) fn write_table<T: Serialize>(
    dir: &mut OutDir,
    name: &str,
    rows: &[T],
) -> Result<(), ReportError> {
    let mut out = csv::Writer::from_writer(Vec::new());
    for row in rows {
        out.serialize(row).map_err(|source| ReportError::Csv {
            path: dir.path().join(name),
            source,
        })?;
    }
    let bytes = out.into_inner().expect("writing to memory cannot fail");
    Ok(dir.write_file(name, &bytes)?)
}

/// A rate among a group's scored games with its interval, or `n/a` and why where none was.
fn rate_text(g: &Group, k: u64) -> String {
    match g.rate_of(k) {
        Some(rate) => with_interval(rate),
        None => format!("n/a ({})", g.endings().basis()),
    }
}

/// `p = 0.3725`, or `p < 0.0001`.
pub(crate) fn p_is(p: f64) -> String {
    let text = p_text(p);
    if text.starts_with('<') {
        format!("p {text}")
    } else {
        format!("p = {text}")
    }
}

/// A p-value as a reader wants it: four decimals, or a bound when smaller.
pub(crate) fn p_text(p: f64) -> String {
    if p < 0.0001 {
        "< 0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

pub(crate) fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

pub(crate) fn with_interval((v, lo, hi): (f64, f64, f64)) -> String {
    format!("{} [{}–{}]", percent(v), percent(lo), percent(hi))
}

/// `3.14 [2.90, 3.38]`: a mean and its interval.
fn number((v, lo, hi): (f64, f64, f64)) -> String {
    format!("{v:.2} [{lo:.2}, {hi:.2}]")
}

/// `+4.2 points [+1.0, +7.4]`: a difference of rates and its interval, in percentage points.
fn signed_points((d, lo, hi): (f64, f64, f64)) -> String {
    format!(
        "{:+.1} points [{:+.1}, {:+.1}]",
        100.0 * d,
        100.0 * lo,
        100.0 * hi
    )
}

/// `12 (1.2%)`: a count of games and its share.
pub fn count_share(k: u64, n: u64) -> String {
    format!("{k} ({})", percent(k as f64 / n.max(1) as f64))
}

fn header(analysis: &Analysis, command: &str) -> Vec<Block> {
    let info = &analysis.info;
    let mut blocks = vec![
        Block::Heading(1, format!("Comparison of {} variants", info.variants.len())),
        Block::Paragraph(format!(
            "Self-play of {} with {} {} per variant, pairing and seat order (each agent plays South in half of them), master seed {}. Made by {}.",
            info.variants.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(", "),
            info.games,
            if info.matches {
                "matches of rounds (as each variant's match rules link them)"
            } else {
                "games"
            },
            info.seed,
            analysis.made_by()
        )),
        Block::Heading(2, "How this was made".into()),
        Block::Code(command.to_string()),
        Block::List(vec![
            format!("Agent pairings: {}", info.agents.join("; ")),
            format!("Simulation command recorded in run.json: {}", info.command),
            "Every game's seed is in games.csv; a game is a pure function of (rules, agents, seed).".into(),
            "Each seating of each pairing is reported on its own, never pooled with the other.".into(),
            analysis.scoring_note(),
        ]),
        Block::Table(
            vec!["variant".into(), "file".into(), "rules hash".into()],
            info.variants.iter().map(|v| vec![v.name.clone(), v.file.clone(), v.rules_hash.clone()]).collect(),
        ),
    ];
    let widest = analysis
        .groups
        .iter()
        .map(|g| {
            let (_, lo, hi) = g.rate(g.tally.first_mover_wins);
            (hi - lo) / 2.0
        })
        .fold(0.0, f64::max);
    if widest > WIDE {
        blocks.push(Block::Paragraph(format!(
            "Caution: with {} games per variant and seating, the 95% intervals are up to ±{:.1} percentage points wide, so only differences larger than that can be told apart. Run with more --games for firmer results.",
            info.games,
            100.0 * widest
        )));
    }
    blocks
}

/// Every pair of variants of one seating with pairs of finished games, game by game:
/// South's wins on the same seeds compared with McNemar's test (exact mid-p) and a paired
/// interval for the difference of rates, Holm-corrected over the tests of the seating: the
/// family a reader compares in one table.
fn pair_tests(groups: &[&Group]) -> Vec<PairTest> {
    let mut tests = Vec::new();
    for a in 0..groups.len() {
        for b in a + 1..groups.len() {
            let pairs = groups[a].pairs(groups[b]);
            if pairs.n == 0 {
                continue;
            }
            let (z, p) = mcnemar(pairs.first_only, pairs.second_only);
            tests.push(PairTest {
                a,
                b,
                pairs,
                z,
                p,
                holm: p,
                difference: paired_difference(pairs.first_only, pairs.second_only, pairs.n, Z95),
            });
        }
    }
    let adjusted = holm(&tests.iter().map(|t| t.p).collect::<Vec<_>>());
    for (t, holm) in tests.iter_mut().zip(adjusted) {
        t.holm = holm;
    }
    tests
}

impl PairTest {
    /// The smallest difference of South's win rates this test would have found, with 80%
    /// power.
    fn detectable(&self) -> f64 {
        let p = &self.pairs;
        detectable_difference(p.first_only, p.second_only, p.n).unwrap_or(1.0)
    }

    /// What the test says, in words: a difference, or none it could have found above its
    /// detectable difference.
    fn verdict(&self) -> String {
        if self.holm < 0.05 {
            "yes: South's win rate differs".into()
        } else {
            format!(
                "no difference found; one of {:.1} points or more would have been (80% power)",
                100.0 * self.detectable()
            )
        }
    }
}

/// A `comparison.csv` row of one variant's measure, with no test.
fn record(
    seating: &Seating,
    variant: &str,
    measure: &str,
    (value, low, high): (f64, f64, f64),
    games: u64,
) -> ComparisonRecord {
    ComparisonRecord {
        pairing: seating.pairing.clone(),
        seat_order: seating.order,
        south_agent: seating.south.clone(),
        north_agent: seating.north.clone(),
        kind: "variant".into(),
        variant: variant.to_string(),
        other: String::new(),
        measure: measure.into(),
        value: Some(value),
        low: Some(low),
        high: Some(high),
        games,
        z: None,
        p_value: None,
        p_holm: None,
        significant: None,
        detectable: None,
    }
}

/// A rate's `(value, low, high)`, or nothing for a rate over no game.
fn or_none(rate: Option<(f64, f64, f64)>) -> (Option<f64>, Option<f64>, Option<f64>) {
    rate.map_or((None, None, None), |(v, lo, hi)| {
        (Some(v), Some(lo), Some(hi))
    })
}

fn comparison_rows(
    seating: &Seating,
    groups: &[&Group],
    tests: &[PairTest],
) -> Vec<ComparisonRecord> {
    // Win rates are over the scored games, and nothing where none was; everything else over
    // all of them.
    let rate = |g: &Group, measure: &str, k| {
        let (value, low, high) = or_none(g.rate_of(k));
        ComparisonRecord {
            value,
            low,
            high,
            ..record(
                seating,
                &g.variant,
                measure,
                (0.0, 0.0, 0.0),
                g.tally.scored,
            )
        }
    };
    let row = |g: &Group, measure: &str, values| {
        record(seating, &g.variant, measure, values, g.tally.games)
    };
    let mut rows = Vec::new();
    for g in groups {
        rows.push(rate(g, "first_mover_rate", g.tally.first_mover_wins));
        rows.push(rate(g, "south_rate", g.tally.outcomes[0]));
        rows.push(rate(g, "north_rate", g.tally.outcomes[1]));
        rows.push(rate(g, "draw_rate", g.tally.outcomes[2]));
        rows.push(row(g, "mean_turns", g.mean_length()));
        rows.push(ComparisonRecord {
            low: None,
            high: None,
            ..row(g, "median_turns", (g.length_median(), 0.0, 0.0))
        });
        rows.push(row(g, "unfinished_rate", g.share(g.tally.unfinished())));
        rows.push(row(g, "cap_rate", g.share(g.tally.ended(EndClass::Cap))));
        rows.push(row(
            g,
            "repetition_rate",
            g.share(g.tally.ended(EndClass::Repetition)),
        ));
        rows.push(row(
            g,
            "no_moves_rate",
            g.share(g.tally.ended(EndClass::NoMoves)),
        ));
        rows.push(row(g, "mean_captures", g.mean_captures()));
        rows.push(row(g, "completion_rate", g.share(g.tally.finished())));
        let (value, low, high) = or_none(g.seat_balance_of());
        rows.push(ComparisonRecord {
            value,
            low,
            high,
            p_value: (g.tally.scored > 0).then(|| g.seat_test()),
            ..record(
                seating,
                &g.variant,
                "seat_balance",
                (0.0, 0.0, 0.0),
                g.tally.scored,
            )
        });
        rows.push(row(g, "mean_margin", g.margin.interval()));
        rows.push(row(g, "mean_player_turns", g.player_turns.interval()));
        // The measures read from moves.csv, over the games it holds.
        let over = |measure: &str, values, n| record(seating, &g.variant, measure, values, n);
        if g.branching_factor.count() > 0 {
            // Over won games alone: nothing where no game was won.
            let (value, low, high) =
                or_none((g.decisiveness.count() > 0).then(|| g.decisiveness.interval()));
            rows.push(ComparisonRecord {
                value,
                low,
                high,
                ..over("decisiveness", (0.0, 0.0, 0.0), g.decisiveness.count())
            });
            rows.push(over(
                "lead_changes",
                g.lead_changes.interval(),
                g.lead_changes.count(),
            ));
            rows.push(over(
                "branching_factor",
                g.branching_factor.interval(Z95),
                g.branching_factor.count(),
            ));
            rows.push(over(
                "forced_move_rate",
                g.forced.interval(Z95),
                g.forced.count(),
            ));
        }
    }
    for t in tests {
        let (a, b) = (groups[t.a], groups[t.b]);
        let moves = a.moves_difference(b);
        rows.push(ComparisonRecord {
            kind: "pair".into(),
            other: b.variant.clone(),
            ..record(
                seating,
                &a.variant,
                "moves_difference",
                moves.interval(),
                moves.count(),
            )
        });
        rows.push(ComparisonRecord {
            kind: "pair".into(),
            other: b.variant.clone(),
            z: Some(t.z),
            p_value: Some(t.p),
            p_holm: Some(t.holm),
            significant: Some(t.holm < 0.05),
            detectable: Some(t.detectable()),
            ..record(
                seating,
                &a.variant,
                "south_rate_difference",
                t.difference,
                t.pairs.n,
            )
        });
    }
    rows
}

fn pairing_section(
    analysis: &Analysis,
    seating: &Seating,
    groups: &[&Group],
    tests: &[PairTest],
    dir: &mut OutDir,
) -> Result<Vec<Block>, ReportError> {
    let games = analysis.info.games;
    let names: Vec<String> = groups.iter().map(|g| g.variant.clone()).collect();
    let slug = seating.slug();
    let what = if analysis.info.matches {
        format!(
            "{}, the rounds of {games} matches per variant",
            seating.label()
        )
    } else {
        format!("{}, {games} games per variant", seating.label())
    };
    let mut blocks = vec![Block::Table(
        [
            "variant",
            "games",
            if analysis.score_unfinished {
                "games in win rates"
            } else {
                "finished games (win rates are over these)"
            },
            "first mover wins",
            format!("South ({}) wins", seating.south).as_str(),
            format!("North ({}) wins", seating.north).as_str(),
            "draws",
            "mean length",
            "median",
            "stopped by move cap",
            "stopped by repetition",
            "no moves (R3)",
            "mean captures",
        ]
        .map(String::from)
        .to_vec(),
        groups
            .iter()
            .map(|g| {
                let (m, lo, hi) = g.mean_length();
                vec![
                    g.variant.clone(),
                    g.tally.games.to_string(),
                    g.tally.scored.to_string(),
                    rate_text(g, g.tally.first_mover_wins),
                    rate_text(g, g.tally.outcomes[0]),
                    rate_text(g, g.tally.outcomes[1]),
                    rate_text(g, g.tally.outcomes[2]),
                    format!("{m:.1} [{lo:.1}–{hi:.1}]"),
                    format!("{}", g.length_median()),
                    count_share(g.tally.ended(EndClass::Cap), g.tally.games),
                    count_share(g.tally.ended(EndClass::Repetition), g.tally.games),
                    count_share(g.tally.ended(EndClass::NoMoves), g.tally.games),
                    format!("{:.2}", g.mean_captures().0),
                ]
            })
            .collect(),
    )];
    blocks.extend(stalled_note(groups).map(Block::Paragraph));
    blocks.push(Block::Paragraph(format!(
        "How the games play ({what}); docs/measures.md defines each measure. Seat balance is South's win rate minus North's (0 is even), with the p-value of the sign test of South's wins against North's (draws aside): a small p says the seats are not even; a large one says only that this many games could not tell. Decisiveness is the share of a won game's moves after which the final winner led in the stores to the end (1: led from the first move). Lead changes, branching factor and forced moves come from moves.csv; a player turn is a move with the extra moves it earns, or a pass."
    )));
    blocks.push(Block::Table(
        [
            "variant",
            "completed",
            "seat balance",
            "mean margin",
            "decisiveness",
            "lead changes",
            "branching factor",
            "forced moves",
            "player turns",
        ]
        .map(String::from)
        .to_vec(),
        groups
            .iter()
            .map(|g| {
                // Measures read from moves.csv: a dash where the run did not write it.
                let from_moves = |text: String| {
                    if g.branching_factor.count() > 0 {
                        text
                    } else {
                        "–".to_string()
                    }
                };
                vec![
                    g.variant.clone(),
                    with_interval(g.share(g.tally.finished())),
                    match g.seat_balance_of() {
                        Some(balance) => {
                            format!("{}, {}", signed_points(balance), p_is(g.seat_test()))
                        }
                        None => format!("n/a ({})", g.endings().basis()),
                    },
                    number(g.margin.interval()),
                    from_moves(if g.decisiveness.count() > 0 {
                        number(g.decisiveness.interval())
                    } else {
                        "n/a (no game won)".into()
                    }),
                    from_moves(number(g.lead_changes.interval())),
                    from_moves(number(g.branching_factor.interval(Z95))),
                    from_moves(with_interval(g.forced.interval(Z95))),
                    number(g.player_turns.interval()),
                ]
            })
            .collect(),
    ));
    if !tests.is_empty() {
        let starter = if groups.iter().all(|g| g.south_starts == g.tally.games) {
            " Every variant here has South move first, so this is also the first mover's win rate."
        } else {
            ""
        };
        blocks.push(Block::Paragraph(format!(
            "South's ({}) win rate compared pairwise, game by game: the variants played the same seeds in this seating, so each game of one is paired with the game of the other on the same seed (pairs in which either game did not finish are left out).{starter} The test is McNemar's on the discordant pairs, b where only the first variant's South won and c where only the second's did: z = (b − c)/√(b + c), p two-sided exact mid-p. The interval is Bonett and Price's adjusted Wald interval for a difference of paired proportions, which keeps its width however few the discordant pairs. Where no difference is found, the table says the smallest one the test would have found with 80% power: a smaller one may be there. The moves difference is the mean of the pairs' differences in game length, with a normal interval (no test). p-values are Holm-corrected over the {} pair tests of this table; significant at 5%:",
            seating.south,
            tests.len()
        )));
        blocks.push(Block::Table(
            [
                "variant",
                "vs",
                "difference [95% interval]",
                "pairs n (b, c)",
                "moves difference [95% interval]",
                "z",
                "p",
                "p (Holm)",
                "significant?",
            ]
            .map(String::from)
            .to_vec(),
            tests
                .iter()
                .map(|t| {
                    let (a, b) = (groups[t.a], groups[t.b]);
                    vec![
                        a.variant.clone(),
                        b.variant.clone(),
                        signed_points(t.difference),
                        format!(
                            "{} ({}, {})",
                            t.pairs.n, t.pairs.first_only, t.pairs.second_only
                        ),
                        number(a.moves_difference(b).interval()),
                        format!("{:.2}", t.z),
                        p_text(t.p),
                        p_text(t.holm),
                        t.verdict(),
                    ]
                })
                .collect(),
        ));
    }
    // Where South moves first in every game the first mover's bar would repeat South's.
    let south_always_starts = groups.iter().all(|g| g.south_starts == g.tally.games);
    let first_mover = (!south_always_starts).then(|| Bars {
        name: "first mover".into(),
        values: groups
            .iter()
            .map(|g| g.rate_of(g.tally.first_mover_wins))
            .collect(),
    });
    let mut charts = vec![
        (
            format!("rates-{slug}"),
            Chart {
                title: format!("Win rates with 95% intervals ({what})"),
                y_label: "share of games".into(),
                y: Scale::Share,
                plot: Plot::Bars {
                    categories: names.clone(),
                    series: first_mover.into_iter().chain([
                        Bars {
                            name: format!("South ({})", seating.south),
                            values: groups.iter().map(|g| g.rate_of(g.tally.outcomes[0])).collect(),
                        },
                        Bars {
                            name: format!("North ({})", seating.north),
                            values: groups.iter().map(|g| g.rate_of(g.tally.outcomes[1])).collect(),
                        },
                        Bars {
                            name: "draw".into(),
                            values: groups.iter().map(|g| g.rate_of(g.tally.outcomes[2])).collect(),
                        },
                    ]).collect(),
                },
            },
            format!(
                "Win rates {} over {}; error bars are 95% Wilson intervals. {what}.",
                if south_always_starts {
                    "of South, North and draws (South moves first in every game here, so South's rate is also the first mover's)"
                } else {
                    "of the first mover, South, North and draws"
                },
                if analysis.score_unfinished {
                    "all games (unfinished ones scored as each variant says)"
                } else {
                    "finished games (games stopped by cap or repetition are left out: see the table and the end-reasons chart)"
                }
            ),
        ),
        (
            format!("lengths-{slug}"),
            Chart {
                title: format!("Game length in moves ({what})"),
                y_label: "moves (box: quartiles; whiskers: 5th–95th percentile)".into(),
                y: Scale::Linear,
                plot: Plot::Boxes {
                    categories: names.clone(),
                    boxes: groups
                        .iter()
                        .map(|g| [0.05, 0.25, 0.5, 0.75, 0.95].map(|q| g.length_quantile(q)))
                        .collect(),
                },
            },
            format!("Game length in moves: boxes span the middle half of the games, whiskers the 5th to 95th percentile. {what}."),
        ),
    ];
    let rules: Vec<&str> = {
        let mut all: Vec<&str> = groups
            .iter()
            .flat_map(|g| g.end_rules.keys().copied())
            .collect();
        all.sort();
        all.dedup();
        all
    };
    charts.push((
        format!("end-reasons-{slug}"),
        Chart {
            title: format!("How games end ({what})"),
            y_label: "share of games".into(),
            y: Scale::Share,
            plot: Plot::Stacked {
                categories: names.clone(),
                layers: rules
                    .iter()
                    .map(|r| {
                        (
                            r.to_string(),
                            groups
                                .iter()
                                .map(|g| {
                                    *g.end_rules.get(r).unwrap_or(&0) as f64 / g.tally.games.max(1) as f64
                                })
                                .collect(),
                        )
                    })
                    .collect(),
            },
        },
        format!("How the games ended, by end rule, as shares of all games: games nobody could move in (no-moves) and games stopped by the move cap or repetition are layers of their own. {what}."),
    ));
    if groups.iter().any(|g| !g.timeline.is_empty()) {
        charts.push((
            format!("timeline-{slug}"),
            Chart {
                title: format!("Mean score difference South − North by move ({what})"),
                y_label: "captured seeds, South minus North".into(),
                y: Scale::Linear,
                plot: Plot::Lines { x_label: "move".into(), lines: groups.iter().map(|g| timeline_line(g)).collect() },
            },
            format!("Mean score difference South − North after each move, with 95% bands, over every game: a game that has ended counts with its final difference, so the line is not the survivors' alone. Drawn to the 95th percentile of game length. {what}."),
        ));
        charts.push((
            format!("branching-{slug}"),
            Chart {
                title: format!("Legal moves available per move ({what})"),
                y_label: "share of moves".into(),
                y: Scale::Share,
                plot: Plot::Lines {
                    x_label: "legal moves (branching factor)".into(),
                    lines: groups
                        .iter()
                        .map(|g| distribution(&g.variant, g.branching.counts(), 0, 24))
                        .collect(),
                },
            },
            format!("Share of moves by the number of legal moves the mover had (1: a forced move). {what}."),
        ));
        charts.push((
            format!("laps-{slug}"),
            Chart {
                title: format!("Moves sowing at least k laps ({what})"),
                y_label: "share of moves".into(),
                y: Scale::Log,
                plot: Plot::Lines {
                    x_label: "laps in one move, k".into(),
                    lines: groups
                        .iter()
                        .map(|g| at_least(&g.variant, g.laps.counts()))
                        .collect(),
                },
            },
            format!("Share of moves that sowed at least k laps (relay sowing), on a log axis so the long tail shows: the line ends at the longest move played. {what}."),
        ));
    }
    for (stem, c, caption) in charts {
        chart::save(&c, dir, &stem)?;
        blocks.push(Block::Chart(stem, caption));
    }
    Ok(blocks)
}

/// For an agent playing itself, the two seat orders are replicates (the same agents, other
/// seeds): combined, with twice the games behind each figure, and the variants compared over
/// the pairs of both.
fn replicates_section(agent: &str, first: &[&Group], second: &[&Group]) -> Vec<Block> {
    let mut blocks = vec![
        Block::Heading(
            3,
            format!("{agent} against itself, both seat orders together"),
        ),
        Block::Paragraph(format!(
            "With {agent} in both seats the two seat orders above are replicates of one design, \
             played on different seeds: here they are combined. Rates are over the finished \
             games of both; the seat balance comes with its sign test, and the variants are \
             compared on the pairs of both seat orders (McNemar's test on the summed \
             discordant pairs, Bonett and Price's interval, Holm over this table's tests)."
        )),
    ];
    let sum = |f: fn(&Group) -> u64, i: usize| f(first[i]) + f(second[i]);
    let rows = (0..first.len())
        .map(|i| {
            let scored = sum(|g| g.tally.scored, i);
            let wins = |k: usize| first[i].tally.outcomes[k] + second[i].tally.outcomes[k];
            let rate = |k: u64| match scored {
                0 => "n/a (no finished game)".to_string(),
                n => with_interval(wilson(k, n, Z95)),
            };
            let balance = match scored {
                0 => "n/a (no finished game)".to_string(),
                n => format!(
                    "{}, {}",
                    signed_points(paired_difference(wins(0), wins(1), n, Z95)),
                    p_is(mcnemar(wins(0), wins(1)).1)
                ),
            };
            vec![
                first[i].variant.clone(),
                sum(|g| g.tally.games, i).to_string(),
                scored.to_string(),
                rate(sum(|g| g.tally.first_mover_wins, i)),
                rate(wins(0)),
                rate(wins(1)),
                rate(wins(2)),
                balance,
            ]
        })
        .collect();
    blocks.push(Block::Table(
        [
            "variant",
            "games",
            "finished",
            "first mover wins",
            "South wins",
            "North wins",
            "draws",
            "seat balance, p (seats even)",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    ));
    // The variants compared over the pairs of both seat orders: each seat order's pairs are
    // on seeds of their own, so the discordant counts add up.
    let mut tests = Vec::new();
    for a in 0..first.len() {
        for b in a + 1..first.len() {
            let (one, two) = (first[a].pairs(first[b]), second[a].pairs(second[b]));
            let pairs = Pairs {
                n: one.n + two.n,
                first_only: one.first_only + two.first_only,
                second_only: one.second_only + two.second_only,
            };
            if pairs.n == 0 {
                continue;
            }
            let (z, p) = mcnemar(pairs.first_only, pairs.second_only);
            tests.push(PairTest {
                a,
                b,
                pairs,
                z,
                p,
                holm: p,
                difference: paired_difference(pairs.first_only, pairs.second_only, pairs.n, Z95),
            });
        }
    }
    let adjusted = holm(&tests.iter().map(|t| t.p).collect::<Vec<_>>());
    for (t, holm) in tests.iter_mut().zip(adjusted) {
        t.holm = holm;
    }
    if !tests.is_empty() {
        blocks.push(Block::Table(
            [
                "variant",
                "vs",
                "difference [95% interval]",
                "pairs n (b, c)",
                "p",
                "p (Holm)",
                "significant?",
            ]
            .map(String::from)
            .to_vec(),
            tests
                .iter()
                .map(|t| {
                    vec![
                        first[t.a].variant.clone(),
                        first[t.b].variant.clone(),
                        signed_points(t.difference),
                        format!(
                            "{} ({}, {})",
                            t.pairs.n, t.pairs.first_only, t.pairs.second_only
                        ),
                        p_text(t.p),
                        p_text(t.holm),
                        t.verdict(),
                    ]
                })
                .collect(),
        ));
    }
    blocks
}

/// `comparison.csv` rows of the matches of one seating.
fn match_rows(seating: &Seating, groups: &[&MatchGroup]) -> Vec<ComparisonRecord> {
    let row =
        |g: &MatchGroup, measure: &str, values, n| record(seating, &g.variant, measure, values, n);
    let mut rows = Vec::new();
    for g in groups {
        let n = g.matches;
        rows.push(row(g, "match_starter_rate", g.rate(g.starter_wins), n));
        rows.push(row(g, "match_south_rate", g.rate(g.outcomes[0]), n));
        rows.push(row(g, "match_north_rate", g.rate(g.outcomes[1]), n));
        rows.push(row(g, "match_draw_rate", g.rate(g.outcomes[2]), n));
        let round_1 = g.round_1_rate();
        rows.push(row(
            g,
            "round_1_winner_match_rate",
            round_1,
            g.decided_round_1,
        ));
        rows.push(row(g, "mean_rounds", g.mean_rounds(), n));
        rows.push(ComparisonRecord {
            low: None,
            high: None,
            ..row(g, "median_rounds", (g.rounds_median(), 0.0, 0.0), n)
        });
    }
    rows
}

/// The matches of one seating: a table, win rates, match lengths and how matches end.
fn match_section(
    analysis: &Analysis,
    seating: &Seating,
    groups: &[&MatchGroup],
    dir: &mut OutDir,
) -> Result<Vec<Block>, ReportError> {
    let matches = analysis.info.games;
    let names: Vec<String> = groups.iter().map(|g| g.variant.clone()).collect();
    let slug = seating.slug();
    let what = format!("{}, {matches} matches per variant", seating.label());
    let share = |g: &MatchGroup, k: u64| k as f64 / g.matches.max(1) as f64;
    let capped: Vec<String> = groups
        .iter()
        .map(|g| {
            let k = g.ends.get("round-cap").copied().unwrap_or(0);
            format!(
                "{} {k} of {} ({})",
                g.variant,
                g.matches,
                percent(share(g, k))
            )
        })
        .collect();
    let mut blocks = vec![
        Block::Heading(4, "Matches".into()),
        Block::Paragraph(format!(
            "First, how many matches the round cap decided rather than play: a match stopped by \
             it is decided on the totals after its last round, a draw where they are equal. \
             Stopped by the round cap (reading R13): {}.",
            capped.join("; ")
        )),
        Block::Table(
            [
                "variant",
                "matches",
                "match starter wins",
                "South wins",
                "North wins",
                "draws",
                "round-1 winner wins the match",
                "mean rounds",
                "median",
                "how matches end",
            ]
            .map(String::from)
            .to_vec(),
            groups
                .iter()
                .map(|g| {
                    let (m, lo, hi) = g.mean_rounds();
                    let ends: Vec<String> = g
                        .ends
                        .iter()
                        .map(|(end, &k)| format!("{end} {}", percent(share(g, k))))
                        .collect();
                    vec![
                        g.variant.clone(),
                        g.matches.to_string(),
                        with_interval(g.rate(g.starter_wins)),
                        with_interval(g.rate(g.outcomes[0])),
                        with_interval(g.rate(g.outcomes[1])),
                        with_interval(g.rate(g.outcomes[2])),
                        format!(
                            "{} of {}",
                            with_interval(g.round_1_rate()),
                            g.decided_round_1
                        ),
                        format!("{m:.1} [{lo:.1}–{hi:.1}]"),
                        format!("{}", g.rounds_median()),
                        ends.join(", "),
                    ]
                })
                .collect(),
        ),
    ];
    let most = groups
        .iter()
        .filter_map(|g| g.rounds.max())
        .max()
        .unwrap_or(1);
    let ends: Vec<&str> = {
        let mut all: Vec<&str> = groups.iter().flat_map(|g| g.ends.keys().copied()).collect();
        all.sort();
        all.dedup();
        all
    };
    let charts = [
        (
            format!("match-rates-{slug}"),
            Chart {
                title: format!("Match win rates with 95% intervals ({what})"),
                y_label: "share of matches".into(),
                y: Scale::Share,
                plot: Plot::Bars {
                    categories: names.clone(),
                    series: vec![
                        Bars {
                            name: "match starter".into(),
                            values: groups.iter().map(|g| Some(g.rate(g.starter_wins))).collect(),
                        },
                        Bars {
                            name: "South".into(),
                            values: groups.iter().map(|g| Some(g.rate(g.outcomes[0]))).collect(),
                        },
                        Bars {
                            name: "North".into(),
                            values: groups.iter().map(|g| Some(g.rate(g.outcomes[1]))).collect(),
                        },
                        Bars {
                            name: "draw".into(),
                            values: groups.iter().map(|g| Some(g.rate(g.outcomes[2]))).collect(),
                        },
                        Bars {
                            name: "round-1 winner".into(),
                            values: groups
                                .iter()
                                .map(|g| (g.decided_round_1 > 0).then(|| g.round_1_rate()))
                                .collect(),
                        },
                    ],
                },
            },
            "Who wins matches: the player who started the first round, each seat, draws, and the winner of round 1 (among matches whose first round was won); bars are 95% Wilson intervals".to_string(),
        ),
        (
            format!("match-rounds-{slug}"),
            Chart {
                title: format!("Rounds per match ({what})"),
                y_label: "share of matches".into(),
                y: Scale::Share,
                plot: Plot::Lines {
                    x_label: "rounds in the match".into(),
                    lines: groups
                        .iter()
                        .map(|g| {
                            // Every line to the longest match of any group, zeros included.
                            let mut counts = g.rounds.counts().to_vec();
                            counts.resize(most + 1, 0);
                            distribution(&g.variant, &counts, 1, most)
                        })
                        .collect(),
                },
            },
            "Distribution of match length in rounds (a spike at the round cap means matches stopped by it)".to_string(),
        ),
        (
            format!("match-ends-{slug}"),
            Chart {
                title: format!("How matches end ({what})"),
                y_label: "share of matches".into(),
                y: Scale::Share,
                plot: Plot::Stacked {
                    categories: names,
                    layers: ends
                        .iter()
                        .map(|end| {
                            let shares = groups
                                .iter()
                                .map(|g| share(g, *g.ends.get(end).unwrap_or(&0)))
                                .collect();
                            (end.to_string(), shares)
                        })
                        .collect(),
                },
            },
            "Match end rules: lose-below (a player could not go on), first-to, round-cap (stopped), cannot-start".to_string(),
        ),
    ];
    for (stem, c, caption) in charts {
        chart::save(&c, dir, &stem)?;
        blocks.push(Block::Chart(stem, caption));
    }
    Ok(blocks)
}

/// The timeline of one variant, up to the move its 95th-percentile game reaches: past that,
/// few games still move and the line is flat.
fn timeline_line(g: &Group) -> Line {
    let last = g.length_quantile(0.95) as usize;
    let (mut points, mut band) = (Vec::new(), Vec::new());
    for (i, ((mean, lo, hi), _, _)) in g.timeline_all().into_iter().enumerate().take(last) {
        let x = (i + 1) as f64;
        points.push((x, mean));
        band.push((x, lo, hi));
    }
    Line {
        name: g.variant.clone(),
        points,
        band,
    }
}

fn distribution(name: &str, histogram: &[u64], from: usize, to: usize) -> Line {
    let total: u64 = histogram.iter().sum::<u64>().max(1);
    // A group may have no moves at all (a start with no legal move): then no points.
    let points = (from..=to)
        .take_while(|&v| v < histogram.len())
        .map(|v| (v as f64, histogram[v] as f64 / total as f64))
        .collect();
    Line {
        name: name.to_string(),
        points,
        band: Vec::new(),
    }
}

/// The share of counts at or above each value from 1: a tail that a log axis shows whole.
fn at_least(name: &str, histogram: &[u64]) -> Line {
    let total: u64 = histogram.iter().sum::<u64>().max(1);
    let mut above: u64 = histogram.iter().skip(1).sum();
    let mut points = Vec::new();
    for (v, &count) in histogram.iter().enumerate().skip(1) {
        if above == 0 {
            break;
        }
        points.push((v as f64, above as f64 / total as f64));
        above -= count;
    }
    Line {
        name: name.to_string(),
        points,
        band: Vec::new(),
    }
}

/// `timeline.csv`: the mean score difference by move, so the timeline chart can be redrawn
/// without `moves.csv`.
fn write_timeline(dir: &mut OutDir, analysis: &Analysis) -> Result<(), ReportError> {
    #[derive(Serialize)]
    struct Row<'a> {
        pairing: &'a str,
        seat_order: u8,
        variant: &'a str,
        turn: usize,
        games: u64,
        running: u64,
        mean_difference: f64,
        low: f64,
        high: f64,
    }
    let mut rows = Vec::new();
    for g in &analysis.groups {
        for (i, ((mean_difference, low, high), games, running)) in
            g.timeline_all().into_iter().enumerate()
        {
            let row = Row {
                pairing: &g.seating.pairing,
                seat_order: g.seating.order,
                variant: &g.variant,
                turn: i + 1,
                games,
                running,
                mean_difference,
                low,
                high,
            };
            rows.push(row);
        }
    }
    write_table(dir, "timeline.csv", &rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::stats::Tally;

    #[test]
    fn games_nobody_could_move_in_are_named_with_their_rule() {
        let group = |variant: &str, no_moves| {
            let mut tally = Tally {
                games: 200,
                ..Tally::default()
            };
            tally.ends[EndClass::NoMoves as usize] = no_moves;
            Group {
                variant: variant.into(),
                tally,
                ..Group::default()
            }
        };
        let (a, b) = (group("A", 0), group("B", 5));
        assert_eq!(stalled_note(&[&a]), None);
        let note = stalled_note(&[&a, &b]).unwrap();
        assert!(note.starts_with("Games ended because nobody could move (B 5 (2.5%)) came about through the rule `no move: pass` (reading R3)"), "{note}");
    }
}
