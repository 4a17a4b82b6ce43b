//! The comparison report: `comparison.csv` (measures with intervals per variant, and paired
//! tests between variants), charts, `index.md` and `index.html`, from a finished run's files.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::analysis::{Analysis, Group, MatchGroup, Pairs, Seating, NO_MOVES_RULE};
use super::chart::{self, Bars, Chart, Line, Plot, Scale};
use super::document::{self, Block};
use super::error::ReportError;
use super::variants::{self, Carried};
use crate::agents::{AgentSpec, Pairing};
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
            let other = Seating::of(seating.pairing, 0);
            let first: Vec<&Group> = analysis.of_seating(&other).collect();
            blocks.extend(replicates_section(seating.south, &first, &groups));
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

/// `12.3%`: a share as a percentage, to one decimal.
pub(crate) fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// `12.3% [10.1%–14.8%]`: a rate and its interval, as percentages.
pub(crate) fn with_interval((v, lo, hi): (f64, f64, f64)) -> String {
    format!("{} [{}–{}]", percent(v), percent(lo), percent(hi))
}

/// `3.14 [2.90, 3.38]`: a mean and its interval.
fn number((v, lo, hi): (f64, f64, f64)) -> String {
    format!("{v:.2} [{lo:.2}, {hi:.2}]")
}

/// `52.3 [50.1–54.6]`: a mean and its interval, to one decimal.
fn one_decimal((m, lo, hi): (f64, f64, f64)) -> String {
    format!("{m:.1} [{lo:.1}–{hi:.1}]")
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
    format!("{k} ({})", percent(share_of(k, n)))
}

/// The share `k` is of `n`, and 0 where `n` is 0.
fn share_of(k: u64, n: u64) -> f64 {
    k as f64 / n.max(1) as f64
}

/// The report's title, how it was made, and a caution where intervals are wide.
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
            format!("Agent pairings: {}", info.agents.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")),
            format!("Simulation command recorded in run.json: {}", info.command),
            "Every game's seed is in games.csv; a game is a pure function of (rules, agents, seed).".into(),
            "Each seating of each pairing is reported on its own, never pooled with the other.".into(),
            analysis.scoring_note(),
        ]),
        Block::Table(
            vec!["variant".into(), "file".into(), "rules hash".into()],
            info.variants.iter().map(|v| vec![v.name.clone(), v.file.clone(), v.rules_hash.to_string()]).collect(),
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

impl PairTest {
    /// The test of variants `a` and `b` over their pairs of games, before Holm's correction.
    fn new(a: usize, b: usize, pairs: Pairs) -> PairTest {
        let (z, p) = mcnemar(pairs.first_only, pairs.second_only);
        PairTest {
            a,
            b,
            pairs,
            z,
            p,
            holm: p,
            difference: paired_difference(pairs.first_only, pairs.second_only, pairs.n, Z95),
        }
    }

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

/// The tests of every pair of `count` variants with pairs of games (`pairs_of(a, b)`),
/// Holm-corrected together: the family a reader compares in one table.
fn holm_tests(count: usize, pairs_of: impl Fn(usize, usize) -> Pairs) -> Vec<PairTest> {
    let mut tests = Vec::new();
    for a in 0..count {
        for b in a + 1..count {
            let pairs = pairs_of(a, b);
            if pairs.n > 0 {
                tests.push(PairTest::new(a, b, pairs));
            }
        }
    }
    let adjusted = holm(&tests.iter().map(|t| t.p).collect::<Vec<_>>());
    for (t, holm) in tests.iter_mut().zip(adjusted) {
        t.holm = holm;
    }
    tests
}

/// Every pair of variants of one seating with pairs of finished games, game by game:
/// South's wins on the same seeds compared with McNemar's test (exact mid-p) and a paired
/// interval for the difference of rates, Holm-corrected over the tests of the seating.
fn pair_tests(groups: &[&Group]) -> Vec<PairTest> {
    holm_tests(groups.len(), |a, b| groups[a].pairs(groups[b]))
}

/// The pair tests of an agent against itself over both seat orders (`first`, `second`).
fn replicate_tests(first: &[&Group], second: &[&Group]) -> Vec<PairTest> {
    // Each seat order's pairs are on seeds of their own, so the discordant counts add up.
    holm_tests(first.len(), |a, b| {
        let (one, two) = (first[a].pairs(first[b]), second[a].pairs(second[b]));
        Pairs {
            n: one.n + two.n,
            first_only: one.first_only + two.first_only,
            second_only: one.second_only + two.second_only,
        }
    })
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
        pairing: seating.pairing.to_string(),
        seat_order: seating.order,
        south_agent: seating.south.to_string(),
        north_agent: seating.north.to_string(),
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

/// A [`record`] whose value may be missing (a rate over no game): then empty, interval too.
fn maybe_record(
    seating: &Seating,
    variant: &str,
    measure: &str,
    values: Option<(f64, f64, f64)>,
    games: u64,
) -> ComparisonRecord {
    ComparisonRecord {
        value: values.map(|v| v.0),
        low: values.map(|v| v.1),
        high: values.map(|v| v.2),
        ..record(seating, variant, measure, (0.0, 0.0, 0.0), games)
    }
}

/// A [`record`] of a value with no interval (a median).
fn point_record(
    seating: &Seating,
    variant: &str,
    measure: &str,
    value: f64,
    games: u64,
) -> ComparisonRecord {
    ComparisonRecord {
        low: None,
        high: None,
        ..record(seating, variant, measure, (value, 0.0, 0.0), games)
    }
}

/// `comparison.csv` rows of one seating: every variant's measures, then every pair test's.
fn comparison_rows(
    seating: &Seating,
    groups: &[&Group],
    tests: &[PairTest],
) -> Vec<ComparisonRecord> {
    let variants = groups.iter().flat_map(|g| variant_rows(seating, g));
    let pairs = tests
        .iter()
        .flat_map(|t| pair_rows(seating, groups[t.a], groups[t.b], t));
    variants.chain(pairs).collect()
}

/// `comparison.csv` rows of one variant's measures.
fn variant_rows(seating: &Seating, g: &Group) -> Vec<ComparisonRecord> {
    // Win rates are over the scored games, and nothing where none was; everything else over
    // all of them.
    let scored =
        |measure: &str, values| maybe_record(seating, &g.variant, measure, values, g.tally.scored);
    let row = |measure: &str, values| record(seating, &g.variant, measure, values, g.tally.games);
    let t = &g.tally;
    let mut rows = vec![
        scored("first_mover_rate", g.rate_of(t.first_mover_wins)),
        scored("south_rate", g.rate_of(t.outcomes.south)),
        scored("north_rate", g.rate_of(t.outcomes.north)),
        scored("draw_rate", g.rate_of(t.outcomes.draws)),
        row("mean_turns", g.mean_length()),
        point_record(
            seating,
            &g.variant,
            "median_turns",
            g.length_median(),
            t.games,
        ),
        row("unfinished_rate", g.share(t.unfinished())),
        row("cap_rate", g.share(t.ended(EndClass::Cap))),
        row("repetition_rate", g.share(t.ended(EndClass::Repetition))),
        row("no_moves_rate", g.share(t.ended(EndClass::NoMoves))),
        row("mean_captures", g.mean_captures()),
        row("completion_rate", g.share(t.finished())),
        ComparisonRecord {
            p_value: (t.scored > 0).then(|| g.seat_test()),
            ..scored("seat_balance", g.seat_balance_of())
        },
        row("mean_margin", g.margin.interval()),
        row("mean_player_turns", g.player_turns.interval()),
    ];
    if g.branching_factor.count() > 0 {
        rows.extend(moves_rows(seating, g));
    }
    rows
}

/// `comparison.csv` rows of one variant's measures read from `moves.csv`, over the games it
/// holds.
fn moves_rows(seating: &Seating, g: &Group) -> [ComparisonRecord; 4] {
    let row = |measure: &str, values, n| record(seating, &g.variant, measure, values, n);
    [
        // Over won games alone: nothing where no game was won.
        maybe_record(
            seating,
            &g.variant,
            "decisiveness",
            (g.decisiveness.count() > 0).then(|| g.decisiveness.interval()),
            g.decisiveness.count(),
        ),
        row(
            "lead_changes",
            g.lead_changes.interval(),
            g.lead_changes.count(),
        ),
        row(
            "branching_factor",
            g.branching_factor.interval(Z95),
            g.branching_factor.count(),
        ),
        row("forced_move_rate", g.forced.interval(Z95), g.forced.count()),
    ]
}

/// `comparison.csv` rows of the test of variants `a` and `b`: the moves difference and the
/// difference of South's win rates.
fn pair_rows(seating: &Seating, a: &Group, b: &Group, t: &PairTest) -> [ComparisonRecord; 2] {
    let pair = |measure: &str, values, games| ComparisonRecord {
        kind: "pair".into(),
        other: b.variant.clone(),
        ..record(seating, &a.variant, measure, values, games)
    };
    let moves = a.moves_difference(b);
    [
        pair("moves_difference", moves.interval(), moves.count()),
        ComparisonRecord {
            z: Some(t.z),
            p_value: Some(t.p),
            p_holm: Some(t.holm),
            significant: Some(t.holm < 0.05),
            detectable: Some(t.detectable()),
            ..pair("south_rate_difference", t.difference, t.pairs.n)
        },
    ]
}

/// Column headings from their texts.
fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

/// Whether South moved first in every game of every group.
fn south_always_starts(groups: &[&Group]) -> bool {
    groups.iter().all(|g| g.south_starts == g.tally.games)
}

/// A chart to draw: the file stem it is saved under, the chart and its caption.
struct Figure {
    stem: String,
    chart: Chart,
    caption: String,
}

/// Draws `figures` into `dir` and returns the blocks that show them, in order.
fn save_figures(dir: &mut OutDir, figures: Vec<Figure>) -> Result<Vec<Block>, ReportError> {
    let mut blocks = Vec::new();
    for figure in figures {
        chart::save(&figure.chart, dir, &figure.stem)?;
        blocks.push(Block::Chart(figure.stem, figure.caption));
    }
    Ok(blocks)
}

/// A series of bars, one per group: its rate with interval, or none.
fn bars<G>(
    name: impl Into<String>,
    groups: &[&G],
    rate: impl Fn(&G) -> Option<(f64, f64, f64)>,
) -> Bars {
    Bars {
        name: name.into(),
        values: groups.iter().map(|g| rate(g)).collect(),
    }
}

/// Stacked layers of how the groups ended: one per end any group has, in name order, each
/// its share of a group's games (`ends_of` gives a group's count by end, and its games).
fn end_layers<G>(
    groups: &[&G],
    ends_of: impl Fn(&G) -> (&BTreeMap<&'static str, u64>, u64),
) -> Vec<(String, Vec<f64>)> {
    let mut names: Vec<&str> = groups
        .iter()
        .flat_map(|g| ends_of(g).0.keys().copied())
        .collect();
    names.sort();
    names.dedup();
    names
        .iter()
        .map(|end| {
            let shares = groups
                .iter()
                .map(|g| {
                    let (ends, n) = ends_of(g);
                    share_of(ends.get(end).copied().unwrap_or(0), n)
                })
                .collect();
            (end.to_string(), shares)
        })
        .collect()
}

/// The games of one seating: their outcomes, how they play, the pair tests and the charts.
fn pairing_section(
    analysis: &Analysis,
    seating: &Seating,
    groups: &[&Group],
    tests: &[PairTest],
    dir: &mut OutDir,
) -> Result<Vec<Block>, ReportError> {
    let games = analysis.info.games;
    let what = if analysis.info.matches {
        format!(
            "{}, the rounds of {games} matches per variant",
            seating.label()
        )
    } else {
        format!("{}, {games} games per variant", seating.label())
    };
    let mut blocks = vec![outcomes_table(seating, groups, analysis.score_unfinished)];
    blocks.extend(stalled_note(groups).map(Block::Paragraph));
    blocks.push(Block::Paragraph(format!(
        "How the games play ({what}); docs/measures.md defines each measure. Seat balance is South's win rate minus North's (0 is even), with the p-value of the sign test of South's wins against North's (draws aside): a small p says the seats are not even; a large one says only that this many games could not tell. Decisiveness is the share of a won game's moves after which the final winner led in the stores to the end (1: led from the first move). Lead changes, branching factor and forced moves come from moves.csv; a player turn is a move with the extra moves it earns, or a pass."
    )));
    blocks.push(play_table(groups));
    if !tests.is_empty() {
        blocks.push(pair_tests_paragraph(seating, groups, tests.len()));
        blocks.push(pair_tests_table(groups, tests, true));
    }
    let figures = pairing_figures(seating, groups, &what, analysis.score_unfinished);
    blocks.extend(save_figures(dir, figures)?);
    Ok(blocks)
}

/// The table of each variant's outcomes: win rates, lengths and why games stopped.
fn outcomes_table(seating: &Seating, groups: &[&Group], score_unfinished: bool) -> Block {
    let scored = if score_unfinished {
        "games in win rates"
    } else {
        "finished games (win rates are over these)"
    };
    let south = format!("South ({}) wins", seating.south);
    let north = format!("North ({}) wins", seating.north);
    Block::Table(
        columns(&[
            "variant",
            "games",
            scored,
            "first mover wins",
            &south,
            &north,
            "draws",
            "mean length",
            "median",
            "stopped by move cap",
            "stopped by repetition",
            "no moves (R3)",
            "mean captures",
        ]),
        groups.iter().map(|g| outcomes_row(g)).collect(),
    )
}

/// One variant's row of [`outcomes_table`].
fn outcomes_row(g: &Group) -> Vec<String> {
    let t = &g.tally;
    vec![
        g.variant.clone(),
        t.games.to_string(),
        t.scored.to_string(),
        rate_text(g, t.first_mover_wins),
        rate_text(g, t.outcomes.south),
        rate_text(g, t.outcomes.north),
        rate_text(g, t.outcomes.draws),
        one_decimal(g.mean_length()),
        format!("{}", g.length_median()),
        count_share(t.ended(EndClass::Cap), t.games),
        count_share(t.ended(EndClass::Repetition), t.games),
        count_share(t.ended(EndClass::NoMoves), t.games),
        format!("{:.2}", g.mean_captures().0),
    ]
}

/// The table of how each variant's games play: completion, seat balance and the measures of
/// docs/measures.md.
fn play_table(groups: &[&Group]) -> Block {
    Block::Table(
        columns(&[
            "variant",
            "completed",
            "seat balance",
            "mean margin",
            "decisiveness",
            "lead changes",
            "branching factor",
            "forced moves",
            "player turns",
        ]),
        groups.iter().map(|g| play_row(g)).collect(),
    )
}

/// One variant's row of [`play_table`].
fn play_row(g: &Group) -> Vec<String> {
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
            Some(balance) => format!("{}, {}", signed_points(balance), p_is(g.seat_test())),
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
}

/// The paragraph that says how the `count` pair tests of one seating were made.
fn pair_tests_paragraph(seating: &Seating, groups: &[&Group], count: usize) -> Block {
    let starter = if south_always_starts(groups) {
        " Every variant here has South move first, so this is also the first mover's win rate."
    } else {
        ""
    };
    Block::Paragraph(format!(
        "South's ({}) win rate compared pairwise, game by game: the variants played the same seeds in this seating, so each game of one is paired with the game of the other on the same seed (pairs in which either game did not finish are left out).{starter} The test is McNemar's on the discordant pairs, b where only the first variant's South won and c where only the second's did: z = (b − c)/√(b + c), p two-sided exact mid-p. The interval is Bonett and Price's adjusted Wald interval for a difference of paired proportions, which keeps its width however few the discordant pairs. Where no difference is found, the table says the smallest one the test would have found with 80% power: a smaller one may be there. The moves difference is the mean of the pairs' differences in game length, with a normal interval (no test). p-values are Holm-corrected over the {count} pair tests of this table; significant at 5%:",
        seating.south,
    ))
}

/// The table of pair tests between `groups`; `with_moves` adds the moves difference and z
/// (left out where seat orders are combined).
fn pair_tests_table(groups: &[&Group], tests: &[PairTest], with_moves: bool) -> Block {
    let mut headings = vec![
        "variant",
        "vs",
        "difference [95% interval]",
        "pairs n (b, c)",
    ];
    if with_moves {
        headings.extend(["moves difference [95% interval]", "z"]);
    }
    headings.extend(["p", "p (Holm)", "significant?"]);
    let rows = tests
        .iter()
        .map(|t| {
            let (a, b) = (groups[t.a], groups[t.b]);
            let p = &t.pairs;
            let mut row = vec![
                a.variant.clone(),
                b.variant.clone(),
                signed_points(t.difference),
                format!("{} ({}, {})", p.n, p.first_only, p.second_only),
            ];
            if with_moves {
                row.extend([
                    number(a.moves_difference(b).interval()),
                    format!("{:.2}", t.z),
                ]);
            }
            row.extend([p_text(t.p), p_text(t.holm), t.verdict()]);
            row
        })
        .collect();
    Block::Table(columns(&headings), rows)
}

/// The charts of one seating's games: win rates, lengths, end reasons and, where moves.csv
/// was written, the timeline, branching and laps.
fn pairing_figures(
    seating: &Seating,
    groups: &[&Group],
    what: &str,
    score_unfinished: bool,
) -> Vec<Figure> {
    let slug = seating.slug();
    let names: Vec<String> = groups.iter().map(|g| g.variant.clone()).collect();
    let mut figures = vec![
        rates_figure(seating, groups, &names, what, score_unfinished),
        lengths_figure(&slug, groups, &names, what),
        end_reasons_figure(&slug, groups, names, what),
    ];
    if groups.iter().any(|g| !g.timeline.is_empty()) {
        figures.extend([
            timeline_figure(&slug, groups, what),
            branching_figure(&slug, groups, what),
            laps_figure(&slug, groups, what),
        ]);
    }
    figures
}

/// Win rates of the first mover, South, North and draws, with their intervals.
fn rates_figure(
    seating: &Seating,
    groups: &[&Group],
    names: &[String],
    what: &str,
    score_unfinished: bool,
) -> Figure {
    // Where South moves first in every game the first mover's bar would repeat South's.
    let south_always_starts = south_always_starts(groups);
    let first_mover = (!south_always_starts).then(|| {
        bars("first mover", groups, |g| {
            g.rate_of(g.tally.first_mover_wins)
        })
    });
    let series = first_mover
        .into_iter()
        .chain([
            bars(format!("South ({})", seating.south), groups, |g| {
                g.rate_of(g.tally.outcomes.south)
            }),
            bars(format!("North ({})", seating.north), groups, |g| {
                g.rate_of(g.tally.outcomes.north)
            }),
            bars("draw", groups, |g| g.rate_of(g.tally.outcomes.draws)),
        ])
        .collect();
    Figure {
        stem: format!("rates-{}", seating.slug()),
        chart: Chart {
            title: format!("Win rates with 95% intervals ({what})"),
            y_label: "share of games".into(),
            y: Scale::Share,
            plot: Plot::Bars {
                categories: names.to_vec(),
                series,
            },
        },
        caption: format!(
            "Win rates {} over {}; error bars are 95% Wilson intervals. {what}.",
            if south_always_starts {
                "of South, North and draws (South moves first in every game here, so South's rate is also the first mover's)"
            } else {
                "of the first mover, South, North and draws"
            },
            if score_unfinished {
                "all games (unfinished ones scored as each variant says)"
            } else {
                "finished games (games stopped by cap or repetition are left out: see the table and the end-reasons chart)"
            }
        ),
    }
}

/// Boxes of game length in moves.
fn lengths_figure(slug: &str, groups: &[&Group], names: &[String], what: &str) -> Figure {
    Figure {
        stem: format!("lengths-{slug}"),
        chart: Chart {
            title: format!("Game length in moves ({what})"),
            y_label: "moves (box: quartiles; whiskers: 5th–95th percentile)".into(),
            y: Scale::Linear,
            plot: Plot::Boxes {
                categories: names.to_vec(),
                boxes: groups
                    .iter()
                    .map(|g| [0.05, 0.25, 0.5, 0.75, 0.95].map(|q| g.length_quantile(q)))
                    .collect(),
            },
        },
        caption: format!("Game length in moves: boxes span the middle half of the games, whiskers the 5th to 95th percentile. {what}."),
    }
}

/// Shares of games by the end rule that ended them.
fn end_reasons_figure(slug: &str, groups: &[&Group], names: Vec<String>, what: &str) -> Figure {
    Figure {
        stem: format!("end-reasons-{slug}"),
        chart: Chart {
            title: format!("How games end ({what})"),
            y_label: "share of games".into(),
            y: Scale::Share,
            plot: Plot::Stacked {
                categories: names,
                layers: end_layers(groups, |g| (&g.end_rules, g.tally.games)),
            },
        },
        caption: format!("How the games ended, by end rule, as shares of all games: games nobody could move in (no-moves) and games stopped by the move cap or repetition are layers of their own. {what}."),
    }
}

/// The mean score difference South − North by move, with bands.
fn timeline_figure(slug: &str, groups: &[&Group], what: &str) -> Figure {
    Figure {
        stem: format!("timeline-{slug}"),
        chart: Chart {
            title: format!("Mean score difference South − North by move ({what})"),
            y_label: "captured seeds, South minus North".into(),
            y: Scale::Linear,
            plot: Plot::Lines {
                x_label: "move".into(),
                lines: groups.iter().map(|g| timeline_line(g)).collect(),
            },
        },
        caption: format!("Mean score difference South − North after each move, with 95% bands, over every game: a game that has ended counts with its final difference, so the line is not the survivors' alone. Drawn to the 95th percentile of game length. {what}."),
    }
}

/// Shares of moves by the number of legal moves the mover had.
fn branching_figure(slug: &str, groups: &[&Group], what: &str) -> Figure {
    Figure {
        stem: format!("branching-{slug}"),
        chart: Chart {
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
        caption: format!(
            "Share of moves by the number of legal moves the mover had (1: a forced move). {what}."
        ),
    }
}

/// Shares of moves sowing at least k laps, on a log axis.
fn laps_figure(slug: &str, groups: &[&Group], what: &str) -> Figure {
    Figure {
        stem: format!("laps-{slug}"),
        chart: Chart {
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
        caption: format!("Share of moves that sowed at least k laps (relay sowing), on a log axis so the long tail shows: the line ends at the longest move played. {what}."),
    }
}

/// For an agent playing itself, the two seat orders are replicates (the same agents, other
/// seeds): combined, with twice the games behind each figure, and the variants compared over
/// the pairs of both.
fn replicates_section(agent: AgentSpec, first: &[&Group], second: &[&Group]) -> Vec<Block> {
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
        Block::Table(
            columns(&[
                "variant",
                "games",
                "finished",
                "first mover wins",
                "South wins",
                "North wins",
                "draws",
                "seat balance, p (seats even)",
            ]),
            first
                .iter()
                .zip(second)
                .map(|(one, two)| replicates_row(one, two))
                .collect(),
        ),
    ];
    let tests = replicate_tests(first, second);
    if !tests.is_empty() {
        blocks.push(pair_tests_table(first, &tests, false));
    }
    blocks
}

/// One variant's row of the combined seat orders: the games of both (`one`, `two`) added up.
fn replicates_row(one: &Group, two: &Group) -> Vec<String> {
    let (a, b) = (&one.tally, &two.tally);
    let scored = a.scored + b.scored;
    let wins = a.outcomes + b.outcomes;
    let rate = |k: u64| match scored {
        0 => "n/a (no finished game)".to_string(),
        n => with_interval(wilson(k, n, Z95)),
    };
    let balance = match scored {
        0 => "n/a (no finished game)".to_string(),
        n => format!(
            "{}, {}",
            signed_points(paired_difference(wins.south, wins.north, n, Z95)),
            p_is(mcnemar(wins.south, wins.north).1)
        ),
    };
    vec![
        one.variant.clone(),
        (a.games + b.games).to_string(),
        scored.to_string(),
        rate(a.first_mover_wins + b.first_mover_wins),
        rate(wins.south),
        rate(wins.north),
        rate(wins.draws),
        balance,
    ]
}

/// `comparison.csv` rows of the matches of one seating.
fn match_rows(seating: &Seating, groups: &[&MatchGroup]) -> Vec<ComparisonRecord> {
    let mut rows = Vec::new();
    for g in groups {
        let row = |measure: &str, values, n| record(seating, &g.variant, measure, values, n);
        let n = g.matches;
        rows.extend([
            row("match_starter_rate", g.rate(g.starter_wins), n),
            row("match_south_rate", g.rate(g.outcomes.south), n),
            row("match_north_rate", g.rate(g.outcomes.north), n),
            row("match_draw_rate", g.rate(g.outcomes.draws), n),
            row(
                "round_1_winner_match_rate",
                g.round_1_rate(),
                g.decided_round_1,
            ),
            row("mean_rounds", g.mean_rounds(), n),
            point_record(seating, &g.variant, "median_rounds", g.rounds_median(), n),
        ]);
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
    let what = format!(
        "{}, {} matches per variant",
        seating.label(),
        analysis.info.games
    );
    let mut blocks = vec![
        Block::Heading(4, "Matches".into()),
        round_cap_paragraph(groups),
        matches_table(groups),
    ];
    blocks.extend(save_figures(dir, match_figures(seating, groups, &what))?);
    Ok(blocks)
}

/// The paragraph on how many matches each variant's round cap decided.
fn round_cap_paragraph(groups: &[&MatchGroup]) -> Block {
    let capped: Vec<String> = groups
        .iter()
        .map(|g| {
            let k = g.ends.get("round-cap").copied().unwrap_or(0);
            format!(
                "{} {k} of {} ({})",
                g.variant,
                g.matches,
                percent(share_of(k, g.matches))
            )
        })
        .collect();
    Block::Paragraph(format!(
        "First, how many matches the round cap decided rather than play: a match stopped by \
         it is decided on the totals after its last round, a draw where they are equal. \
         Stopped by the round cap (reading R13): {}.",
        capped.join("; ")
    ))
}

/// The table of each variant's matches: win rates, lengths and how they ended.
fn matches_table(groups: &[&MatchGroup]) -> Block {
    Block::Table(
        columns(&[
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
        ]),
        groups.iter().map(|g| matches_row(g)).collect(),
    )
}

/// One variant's row of [`matches_table`].
fn matches_row(g: &MatchGroup) -> Vec<String> {
    let ends: Vec<String> = g
        .ends
        .iter()
        .map(|(end, &k)| format!("{end} {}", percent(share_of(k, g.matches))))
        .collect();
    vec![
        g.variant.clone(),
        g.matches.to_string(),
        with_interval(g.rate(g.starter_wins)),
        with_interval(g.rate(g.outcomes.south)),
        with_interval(g.rate(g.outcomes.north)),
        with_interval(g.rate(g.outcomes.draws)),
        format!(
            "{} of {}",
            with_interval(g.round_1_rate()),
            g.decided_round_1
        ),
        one_decimal(g.mean_rounds()),
        format!("{}", g.rounds_median()),
        ends.join(", "),
    ]
}

/// The charts of one seating's matches: win rates, rounds per match and how matches end.
fn match_figures(seating: &Seating, groups: &[&MatchGroup], what: &str) -> Vec<Figure> {
    let slug = seating.slug();
    let names: Vec<String> = groups.iter().map(|g| g.variant.clone()).collect();
    vec![
        match_rates_figure(&slug, groups, names.clone(), what),
        match_rounds_figure(&slug, groups, what),
        match_ends_figure(&slug, groups, names, what),
    ]
}

/// Match win rates of the starter, each seat, draws and the round-1 winner.
fn match_rates_figure(
    slug: &str,
    groups: &[&MatchGroup],
    names: Vec<String>,
    what: &str,
) -> Figure {
    Figure {
        stem: format!("match-rates-{slug}"),
        chart: Chart {
            title: format!("Match win rates with 95% intervals ({what})"),
            y_label: "share of matches".into(),
            y: Scale::Share,
            plot: Plot::Bars {
                categories: names,
                series: vec![
                    bars("match starter", groups, |g| Some(g.rate(g.starter_wins))),
                    bars("South", groups, |g| Some(g.rate(g.outcomes.south))),
                    bars("North", groups, |g| Some(g.rate(g.outcomes.north))),
                    bars("draw", groups, |g| Some(g.rate(g.outcomes.draws))),
                    bars("round-1 winner", groups, |g| {
                        (g.decided_round_1 > 0).then(|| g.round_1_rate())
                    }),
                ],
            },
        },
        caption: "Who wins matches: the player who started the first round, each seat, draws, and the winner of round 1 (among matches whose first round was won); bars are 95% Wilson intervals".to_string(),
    }
}

/// Shares of matches by their number of rounds.
fn match_rounds_figure(slug: &str, groups: &[&MatchGroup], what: &str) -> Figure {
    let most = groups
        .iter()
        .filter_map(|g| g.rounds.max())
        .max()
        .unwrap_or(1);
    Figure {
        stem: format!("match-rounds-{slug}"),
        chart: Chart {
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
        caption: "Distribution of match length in rounds (a spike at the round cap means matches stopped by it)".to_string(),
    }
}

/// Shares of matches by the match end rule that ended them.
fn match_ends_figure(slug: &str, groups: &[&MatchGroup], names: Vec<String>, what: &str) -> Figure {
    Figure {
        stem: format!("match-ends-{slug}"),
        chart: Chart {
            title: format!("How matches end ({what})"),
            y_label: "share of matches".into(),
            y: Scale::Share,
            plot: Plot::Stacked {
                categories: names,
                layers: end_layers(groups, |g| (&g.ends, g.matches)),
            },
        },
        caption: "Match end rules: lose-below (a player could not go on), first-to, round-cap (stopped), cannot-start".to_string(),
    }
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

/// The share of counts at each value from `from` to `to`, as a line.
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
        pairing: Pairing,
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
                pairing: g.seating.pairing,
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
