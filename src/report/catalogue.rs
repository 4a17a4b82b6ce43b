//! The catalogue page of `sowlab catalogue`: every variant file with its provenance, board and
//! readings, and how its games end under random play, the degenerate ones flagged.

use crate::report::tree::{broad, Broad};
use crate::rules::families::{uses, Family};
use std::convert::Infallible;
use std::sync::atomic::AtomicBool;

use super::compare::percent;
use super::document::{markdown, thousands, Block};
use crate::agents::AgentSpec;
use crate::engine::EndClass;
use crate::rules::{Rules, Stores};
use crate::sim::runner::{Entrant, Experiment, Place};
use crate::sim::stats::Tally;

/// A game that finishes fewer than this share of its random games is flagged degenerate: most
/// of them are stopped by the move cap or by repetition (R10), so its random results say more
/// about that reading than about its own rules.
pub const DEGENERATE_BELOW: f64 = 0.5;

/// What the page plays: games per file and seat order, and the master seed.
#[derive(Clone, Copy, Debug)]
pub struct Play {
    /// Games per file and seat order.
    pub games: u64,
    /// The master seed.
    pub seed: u64,
}

/// The page, in Markdown, for `variants` (each file as the page names it, and its rules), whose
/// games are played random against random as `play` says; `command` is the command that makes
/// it again. The same files and settings give the same bytes: the page holds no date, time
/// or build, which would make it differ on every commit without a change to the games.
pub fn page(variants: Vec<(String, Rules)>, play: Play, command: &str) -> String {
    let random = Entrant::from(AgentSpec::Random);
    let experiment = Experiment {
        variants: variants
            .into_iter()
            .map(|(file, rules)| (file.into(), rules))
            .collect(),
        pairings: vec![[random.clone(), random]],
        games: play.games,
        seed: play.seed,
        record_moves: false,
        matches: false,
        opening: 0,
    };
    let tallies = random_play(&experiment);
    let games: Vec<Game<'_>> = experiment
        .variants
        .iter()
        .zip(&tallies)
        .map(|((file, rules), tally)| Game { file, rules, tally })
        .collect();
    markdown(&blocks(&games, play, command))
}

/// Plays the experiment and tallies each file's games, outcomes over the finished ones only.
fn random_play(experiment: &Experiment) -> Vec<Tally> {
    let mut tallies = vec![Tally::default(); experiment.variants.len()];
    let never = AtomicBool::new(false);
    let played = experiment.run(0..experiment.units(), &never, |done, batch| {
        let first = done - batch.len() as u64;
        for (unit, played) in (first..).zip(&batch) {
            let place = Place::of(unit, 1, experiment.games, experiment.seed);
            for game in played.games() {
                tallies[place.variant].add(game, false);
            }
        }
        Ok::<(), Infallible>(())
    });
    // Nothing stops the run and the tally cannot fail: every game is counted.
    let Ok(_) = played;
    tallies
}

/// A file of the page, with its random games.
struct Game<'a> {
    file: &'a str,
    rules: &'a Rules,
    tally: &'a Tally,
}

impl Game<'_> {
    fn finished_share(&self) -> f64 {
        self.tally.finished() as f64 / self.tally.games as f64
    }

    fn degenerate(&self) -> bool {
        self.finished_share() < DEGENERATE_BELOW
    }

    /// `⚠ 5.5%` for a degenerate game, `93.0%` for another.
    fn finished(&self) -> String {
        let share = percent(self.finished_share());
        if self.degenerate() {
            format!("⚠ {share}")
        } else {
            share
        }
    }

    /// What stopped the unfinished games, the commoner first: `94.5% repetition, 0.5% move
    /// cap`; `—` for none.
    fn stopped(&self) -> String {
        let mut ends = [
            (self.tally.ended(EndClass::Repetition), "repetition"),
            (self.tally.ended(EndClass::Cap), "move cap"),
        ];
        ends.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
        let said: Vec<String> = ends
            .iter()
            .filter(|&&(n, _)| n > 0)
            .map(|&(n, why)| format!("{} {why}", percent(n as f64 / self.tally.games as f64)))
            .collect();
        if said.is_empty() {
            "—".into()
        } else {
            said.join(", ")
        }
    }

    /// `0.514 (n = 1,942)`: the first mover's wins and half the draws over the finished games;
    /// with none, no number.
    fn first_player_score(&self) -> String {
        let t = self.tally;
        if t.scored == 0 {
            return format!("n/a (no finished game: {})", self.stopped());
        }
        let score = (t.first_mover_wins as f64 + t.outcomes.draws as f64 / 2.0) / t.scored as f64;
        format!("{score:.3} (n = {})", thousands(t.scored))
    }

    /// `R10, R11, R17`: the readings the file marks or declares.
    fn reading_numbers(&self) -> Vec<u16> {
        let mut numbers = self.rules.reading_numbers();
        numbers.extend(self.rules.declared.iter().map(|d| d.number));
        numbers.sort_unstable();
        numbers.dedup();
        numbers
    }

    /// Each reading with the rules it marks and what it says.
    fn readings(&self) -> Vec<String> {
        self.reading_numbers()
            .into_iter()
            .map(|n| {
                let marks: Vec<String> = self
                    .rules
                    .readings
                    .iter()
                    .filter(|r| r.number == n)
                    .map(|r| {
                        if r.default {
                            format!("{} (default)", r.rule)
                        } else {
                            r.rule.clone()
                        }
                    })
                    .collect();
                let text = self.rules.reading_text(n);
                if marks.is_empty() {
                    format!("R{n}: {text}")
                } else {
                    format!("R{n} ({}): {text}", marks.join(", "))
                }
            })
            .collect()
    }
}

/// `2×6, 48 seeds`: the board as `sowlab list` and the catalogue give it.
pub fn board(rules: &Rules) -> String {
    format!("2×{}, {} seeds", rules.holes_per_row(), rules.total_seeds())
}

/// The first text of a provenance field, `""` if the file has none.
pub fn first<'r>(rules: &'r Rules, key: &str) -> &'r str {
    rules.provenance.get(key).first().copied().unwrap_or("")
}

/// `2×6, 48 seeds, stores kept`.
fn board_and_stores(rules: &Rules) -> String {
    let stores = match rules.program.board.stores {
        Stores::None => "no stores",
        Stores::Kept => "stores kept",
        Stores::Sown => "stores sown",
        Stores::SownByBoth => "stores sown by both",
    };
    format!("{}, {stores}", board(rules))
}

/// The first source up to its first `, `, ` (` or `; `: `Mancala World – Ayoayo`, `Ludii`,
/// `R. Davies`: who to look up; the game's section gives every source whole.
fn short_source(rules: &Rules) -> &str {
    let source = first(rules, "source");
    let end = [", ", " (", "; "]
        .iter()
        .filter_map(|cut| source.find(cut))
        .min()
        .unwrap_or(source.len());
    &source[..end]
}

fn blocks(games: &[Game<'_>], play: Play, command: &str) -> Vec<Block> {
    let degenerate: Vec<&Game<'_>> = games.iter().filter(|g| g.degenerate()).collect();
    let mut blocks = vec![
        Block::Heading(1, "Catalogue of the variants".into()),
        Block::Paragraph(format!(
            "Every variant file the command below names ({} files): where its rules come from, its board, the readings it rests on, and how its games end when both players move at random. {} of them are flagged degenerate (⚠). The page is generated; after changing a variant, make it again with",
            games.len(),
            match degenerate.len() {
                0 => "None".to_string(),
                n => n.to_string(),
            }
        )),
        Block::Code(command.to_string()),
        Block::Paragraph(format!(
            "Random play: two random agents (uniform over legal moves), {} games per file and seat order, {} in all per file, master seed {}; single games, a file's match rules not played. Game i of every file is played on the same seed.",
            thousands(play.games),
            thousands(2 * play.games),
            play.seed
        )),
        Block::List(vec![
            "**finished**: the share of the games that reached one of the variant's end rules, or a position in which neither player could move. The others were stopped by the move cap or by the third repetition of a position (R10); **stopped** gives their shares, the commoner first.".into(),
            "**first player's score**: (the wins of the player who moved first + half the draws) / the finished games, with n the finished games: 0.5 when random play gives the first move no edge. With no finished game there is no score.".into(),
            format!("⚠ **degenerate**: under {:.0}% of the games finished. Random results for such a game say more about R10, which stops it, than about its own rules; its notes say why, where the file knows.", 100.0 * DEGENERATE_BELOW),
        ]),
        Block::Heading(2, "Degenerate games".into()),
    ];
    blocks.push(if degenerate.is_empty() {
        Block::Paragraph(format!(
            "None: every game finished at least {:.0}% of its random games.",
            100.0 * DEGENERATE_BELOW
        ))
    } else {
        Block::List(
            degenerate
                .iter()
                .map(|g| {
                    format!(
                        "⚠ **{}** (`{}`): {} of {} random games finished; stopped: {}.",
                        g.rules.provenance.name,
                        g.file,
                        percent(g.finished_share()),
                        thousands(g.tally.games),
                        g.stopped()
                    )
                })
                .collect(),
        )
    });
    blocks.extend(by_family(games));
    blocks.push(Block::Heading(2, "Every game".into()));
    blocks.push(Block::Table(
        [
            "game",
            "file",
            "region",
            "board",
            "source",
            "readings",
            "finished",
            "stopped",
            "first player's score",
        ]
        .map(String::from)
        .to_vec(),
        games
            .iter()
            .map(|g| {
                let readings: Vec<String> = g
                    .reading_numbers()
                    .iter()
                    .map(|n| format!("R{n}"))
                    .collect();
                vec![
                    g.rules.provenance.name.clone(),
                    format!("`{}`", g.file),
                    first(g.rules, "region").to_string(),
                    board_and_stores(g.rules),
                    short_source(g.rules).to_string(),
                    readings.join(", "),
                    g.finished(),
                    g.stopped(),
                    g.first_player_score(),
                ]
            })
            .collect(),
    ));
    blocks.push(Block::Heading(2, "The games one by one".into()));
    for g in games {
        blocks.extend(section(g));
    }
    blocks
}

/// A game's place in a listing by family, then by the broad region its `region:` names (in
/// the relations report's order).
pub fn order_key(rules: &Rules) -> (Family, Broad) {
    (Family::of(rules), broad(first(rules, "region")))
}

/// The games grouped by family, then by the area their region names, each with the rule
/// families it uses ([`crate::rules::families`]).
fn by_family(games: &[Game<'_>]) -> Vec<Block> {
    let mut sorted: Vec<&Game<'_>> = games.iter().collect();
    sorted.sort_by_key(|g| order_key(g.rules));
    let mut blocks = vec![
        Block::Heading(2, "By family and region".into()),
        Block::Paragraph("Each game under the family its sowing puts it in (houses made in play, then sown stores, then relay sowing, else single laps), then the broad region its region names first (as the relations report reads it), with the rule families it uses beyond plain sowing.".into()),
    ];
    for family in Family::ALL {
        let members: Vec<&&Game<'_>> = sorted
            .iter()
            .filter(|g| Family::of(g.rules) == family)
            .collect();
        if members.is_empty() {
            continue;
        }
        blocks.push(Block::Heading(
            3,
            format!("{} ({} files)", family.name(), members.len()),
        ));
        blocks.push(Block::Table(
            ["area", "game", "region", "rules used"]
                .map(String::from)
                .to_vec(),
            members
                .iter()
                .map(|g| {
                    let region = first(g.rules, "region");
                    vec![
                        broad(region).name().to_string(),
                        g.rules.provenance.name.clone(),
                        region.to_string(),
                        uses(g.rules).join(", "),
                    ]
                })
                .collect(),
        ));
    }
    blocks
}

/// A game's heading, its provenance field by field, its random games and its readings.
fn section(g: &Game<'_>) -> Vec<Block> {
    let rules = g.rules;
    let mut facts = vec![
        format!("**file**: `{}` (rules {})", g.file, rules.hash()),
        format!("**board**: {}", board_and_stores(rules)),
    ];
    facts.extend(
        rules
            .provenance
            .fields
            .iter()
            .map(|(key, values)| format!("**{key}**: {}", values.join("; "))),
    );
    facts.push(format!(
        "**random play**: {} of {} games finished{}; first player's score {}",
        g.finished(),
        thousands(g.tally.games),
        match g.stopped().as_str() {
            "—" => String::new(),
            stopped => format!(" (stopped: {stopped})"),
        },
        g.first_player_score()
    ));
    let mut blocks = vec![
        Block::Heading(3, rules.provenance.name.clone()),
        Block::List(facts),
    ];
    let readings = g.readings();
    if readings.is_empty() {
        blocks.push(Block::Paragraph("No readings.".into()));
    } else {
        blocks.push(Block::Paragraph("Readings:".into()));
        blocks.push(Block::List(readings));
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::shipped;

    /// Each file of the page, played as the page plays it.
    fn played(names: &[&str], games: u64) -> String {
        let variants = names
            .iter()
            .map(|n| (format!("variants/{n}.sow"), shipped(n)))
            .collect();
        page(variants, Play { games, seed: 1 }, "sowlab catalogue X")
    }

    #[test]
    fn the_short_source_is_who_to_look_up() {
        let short = |name| short_source(&shipped(name)).to_string();
        assert_eq!(short("ayoayo"), "Mancala World – Ayoayo");
        assert_eq!(short("catalogue/adi"), "Ludii");
        assert_eq!(short("catalogue/kara"), "R. Davies");
        assert_eq!(
            short("catalogue/cross-kalah"),
            "Mancala World – Cross-Kalah"
        );
        assert_eq!(short("kalah"), "Kalah(6,4)");
    }

    /// Kara stops most of its random games by repetition and is flagged; Oware finishes
    /// nearly all of them and is not.
    #[test]
    fn a_game_that_seldom_finishes_is_flagged_degenerate() {
        let page = played(&["catalogue/kara", "oware"], 100);
        let degenerate = page
            .split("## Degenerate games")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .unwrap();
        assert!(degenerate.contains("⚠ **Kara**"), "{degenerate}");
        assert!(!degenerate.contains("Oware"), "{degenerate}");
        let row = |name: &str| {
            page.lines()
                .find(|l| l.starts_with(&format!("| {name} |")))
                .unwrap()
                .to_string()
        };
        assert!(row("Kara").contains("| ⚠ "), "{}", row("Kara"));
        assert!(!row("Oware").contains('⚠'), "{}", row("Oware"));
    }

    /// A rate over no finished game is not a number: a move cap of one move stops every game.
    #[test]
    fn with_no_finished_game_the_score_is_not_a_number() {
        let rules =
            crate::lang::beside_shipped("extends \"oware.sow\"\nend { move cap: 1, to owners }\n");
        let page = page(
            vec![("capped.sow".into(), rules)],
            Play { games: 5, seed: 1 },
            "sowlab catalogue capped.sow",
        );
        assert!(
            page.contains("| ⚠ 0.0% | 100.0% move cap | n/a (no finished game: 100.0% move cap) |"),
            "{page}"
        );
    }

    #[test]
    fn the_page_lists_each_reading_with_its_rules_and_text() {
        let page = played(&["catalogue/kara"], 1);
        assert!(page.contains(
            "- R10 (end.move cap, end.repetition): move cap 2000 and third repetition end a game; seeds to the side owners"
        ), "{page}");
        assert!(
            page.contains(
                "- R17 (board.starter): The source does not say who moves first; South does"
            ),
            "{page}"
        );
        assert!(page.contains("| R10, R17, R18, R19, R20 |"), "{page}");
    }
}
