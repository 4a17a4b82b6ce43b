//! Matches: properties over random matches of every variant with match rules (shipped, and
//! shipped ones with their match rules changed), checked state by state.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::engine::{Match, MatchEnd};
use sowlab::rules::{Carry, Rules, Side};

use crate::util;

/// Variants that play matches: the shipped ones, and shipped ones with other match rules.
fn match_variants() -> Vec<(String, Rules)> {
    let files = sowlab::lang::variant_files(&[util::path("variants")])
        .expect("variants/ reads")
        .files;
    let mut out: Vec<(String, Rules)> = files
        .iter()
        .map(|p| {
            let name = p.strip_prefix(util::path("variants")).unwrap();
            let name = name.with_extension("").to_string_lossy().replace('\\', "/");
            let rules = util::variant(&name);
            (name, rules)
        })
        .filter(|(_, rules)| rules.program.matches.is_some())
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    let dir = util::path("variants");
    for (name, text) in [
        (
            "hoyito-i, surplus wins the opponent's holes",
            "extends \"hoyito-i.sow\"\nmatch { surplus: opponent holes }\n",
        ),
        (
            "hoyito-i, unfilled holes stay open, loser starts",
            "extends \"hoyito-i.sow\"\nmatch { unfilled holes: open  starter: round loser }\n",
        ),
        (
            "oware, a series of fresh rounds, first to 3",
            "extends \"oware.sow\"\nmatch { refill: none  first to: 3 rounds  winner: most rounds  starter: alternate }\n",
        ),
        (
            "hoyito-i, refilled from the last hole, mirrored, leftover hole, poorer starts",
            "extends \"hoyito-i.sow\"\nmatch { refill from: last hole  filled: as many as the poorer  leftover hole: to the larger remainder  starter: poorer player }\n",
        ),
        (
            "ba-awa, held territory and the leftover hole",
            "extends \"ba-awa.sow\"\nmatch { leftover hole: to the larger remainder  lose below: 1 }\n",
        ),
        (
            "ba-awa on 2×5, refill by 3, lose below 1",
            "extends \"ba-awa.sow\"\nboard { holes: 5 per row }\nmatch { refill: 3 per hole  lose below: 1  round cap: 20 }\n",
        ),
    ] {
        let rules = sowlab::lang::compile_text("tweak.sow", text, &dir)
            .unwrap_or_else(|e| panic!("{name}:\n{}", e.render(false)));
        out.push((name.to_string(), rules));
    }
    assert!(out.len() >= 20, "only {} match variants", out.len());
    out
}

/// Plays one random match of `rules`, checking after every move and every refill that:
/// - board + stores + reserves + seeds removed hold the variant's seeds;
/// - closed holes are empty (never sown) and never legal; legal holes are the mover's own;
/// - the match ends within its round cap, each round within its move cap.
fn play_match(name: &str, rules: &Rules, seed: u64) -> Result<(), TestCaseError> {
    let total = rules.total_seeds();
    let cap = rules.program.matches.as_ref().unwrap().round_cap;
    let mut m = Match::new(rules).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let held = |m: &Match<'_>| -> u32 {
        let p = m.game().position();
        p.board_seeds()
            + p.stores().iter().map(|&s| u32::from(s)).sum::<u32>()
            + m.reserve().iter().map(|&s| u32::from(s)).sum::<u32>()
            + m.removed()
    };
    loop {
        let mut moves = 0;
        while !m.game().is_over() {
            let game = m.game_mut();
            let mover = game.to_move().unwrap();
            let closed = game.position().closed();
            let owned = game.position().owned(mover);
            for hole in game.legal_moves().iter().map(|m| m.hole()) {
                prop_assert!(
                    closed >> hole & 1 == 0,
                    "{}: closed hole {} legal",
                    name,
                    hole
                );
                prop_assert!(
                    owned >> hole & 1 == 1,
                    "{}: hole {} not {}'s",
                    name,
                    hole,
                    mover
                );
            }
            game.play_random(&mut rng);
            moves += 1;
            prop_assert!(
                moves <= rules.program.ending.move_cap,
                "{}: round without end",
                name
            );
            let p = m.game().position();
            for hole in 0..rules.holes() {
                if closed >> hole & 1 == 1 {
                    prop_assert_eq!(p.board()[hole], 0, "{}: closed hole {} sown", name, hole);
                }
            }
            prop_assert_eq!(
                held(&m),
                total,
                "{}: round {} breaks conservation",
                name,
                m.round()
            );
        }
        let round = m.round();
        let (result, refill) = m.next_round();
        prop_assert_eq!(result.round, round);
        prop_assert_eq!(held(&m), total, "{}: refill after round {}", name, round);
        if let Some(refill) = refill {
            prop_assert_eq!(refill.round, round + 1);
            let closing = matches!(
                rules.program.matches.as_ref().unwrap().carry,
                Carry::Refill(r) if r.close_unfilled
            );
            for hole in 0..rules.holes() {
                let closed = refill.closed >> hole & 1 == 1;
                prop_assert_eq!(
                    closed,
                    closing && refill.board[hole] == 0,
                    "{}: hole {}",
                    name,
                    hole
                );
            }
        }
        if m.is_over() {
            break;
        }
        prop_assert!(round < cap, "{}: past the round cap", name);
    }
    let outcome = m.outcome().unwrap();
    prop_assert!(m.round() <= cap);
    if let (MatchEnd::LoseBelow, Some(winner)) = (outcome.reason, outcome.winner) {
        let lose_below = rules.program.matches.as_ref().unwrap().lose_below;
        let loser = winner.other();
        let position = m.game().position();
        let holds = u32::from(position.store(loser)) + u32::from(m.reserve()[loser.index()]);
        prop_assert!(
            holds < u32::from(lose_below),
            "{}: {} lost holding {}",
            name,
            loser,
            holds
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(12),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Conservation over rounds, closed holes never sown or played, and an end to every match.
    #[test]
    fn random_matches_keep_the_invariants(seed in any::<u64>()) {
        for (name, rules) in &match_variants() {
            play_match(name, rules, seed)?;
        }
    }
}

/// Oware refilled by 25 per hole: after a drawn round (24 each) neither player can fill a hole,
/// and the match ends there, a draw, with its reason, rather than starting an empty round.
#[test]
fn a_match_that_cannot_start_ends_with_its_reason() {
    let text = "extends \"oware.sow\"\nmatch { refill: 25 per hole }\n";
    let rules = sowlab::lang::compile_text("tweak.sow", text, &util::path("variants"))
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let ended = (0..200u64).find_map(|seed| {
        let mut m = Match::new(&rules).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !m.is_over() {
            while !m.game().is_over() {
                m.game_mut().play_random(&mut rng);
            }
            let (result, _) = m.next_round();
            let outcome = m.outcome();
            if outcome.is_some_and(|o| o.reason == MatchEnd::CannotStart) {
                return Some((result.holdings, outcome.unwrap()));
            }
        }
        None
    });
    let (holdings, outcome) = ended.expect("a drawn round within 200 matches");
    assert_eq!(holdings, [24, 24]);
    assert_eq!(outcome.winner, None);
    assert_eq!(MatchEnd::CannotStart.name(), "cannot-start");
}

/// `simulate --match` with these extra arguments, into `out`.
fn simulate_matches(out: &std::path::Path, extra: &[&str]) {
    super::util::sowlab()
        .args(["simulate", "variants/hoyito-i.sow", "variants/ba-awa.sow"])
        .args(["--match", "--games", "40", "--agents", "random,greedy"])
        .args(["--seed", "5", "--moves", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
}

fn read_csv<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Vec<T> {
    csv::Reader::from_path(path)
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect()
}

/// One row per match in matches.csv, one per round in games.csv, and the two agree: the
/// rounds of each match, their winners, and the totals of the last round.
#[test]
fn simulate_match_writes_matches_and_their_rounds_consistently() {
    use sowlab::sim::record::{GameRecord, MatchRecord, MoveRecord};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    simulate_matches(&out, &[]);
    let matches: Vec<MatchRecord> = read_csv(&out.join("matches.csv"));
    let rounds: Vec<GameRecord> = read_csv(&out.join("games.csv"));
    let moves: Vec<MoveRecord> = read_csv(&out.join("moves.csv"));
    assert_eq!(matches.len(), 2 * 2 * 40);
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["matches"], true);
    assert_eq!(run["rows"]["matches"], 160);
    assert_eq!(run["rows"]["games"], rounds.len());
    for m in &matches {
        let mine: Vec<&GameRecord> = rounds
            .iter()
            .filter(|r| r.variant == m.variant && r.match_index == Some(m.match_index))
            .collect();
        assert_eq!(mine.len(), usize::from(m.rounds), "{m:?}");
        let numbers: Vec<u16> = mine.iter().map(|r| r.round.unwrap()).collect();
        assert_eq!(numbers, (1..=m.rounds).collect::<Vec<_>>());
        assert_eq!(mine[0].winner, m.round_1_winner);
        assert_eq!(mine[0].starter, m.starter);
        let won = |side| mine.iter().filter(|r| r.winner == Some(side)).count() as u16;
        assert_eq!(
            (won(Side::South), won(Side::North)),
            (m.south_rounds, m.north_rounds)
        );
        // The winner of a match that ended below the losing total holds more.
        if m.end_reason == MatchEnd::LoseBelow && m.winner == Some(Side::South) {
            assert!(m.south_total > m.north_total, "{m:?}");
        }
        let last = mine.last().unwrap();
        let turns: u32 = moves
            .iter()
            .filter(|mv| {
                mv.variant == m.variant && mv.game == m.match_index && mv.round == Some(m.rounds)
            })
            .count() as u32;
        assert_eq!(
            turns, last.turns,
            "moves.csv has every move of the last round"
        );
    }
    assert!(rounds.iter().all(|r| r.game == r.match_index.unwrap()));
}

/// Matches are as reproducible as games: the same files on 1 or 2 threads, and shards merge
/// into the files of a whole run.
#[test]
fn match_runs_do_not_depend_on_threads_and_shards_merge_into_them() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    simulate_matches(&one, &["--threads", "1"]);
    simulate_matches(&two, &["--threads", "2"]);
    let shards: Vec<std::path::PathBuf> = (1..=2)
        .map(|k| dir.path().join(format!("shard{k}")))
        .collect();
    for k in [2, 1] {
        simulate_matches(&shards[k - 1], &["--shard", &format!("{k}/2")]);
    }
    let merged = dir.path().join("merged");
    super::util::sowlab()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "merged 2 shards: wrote 160 matches (",
        ));
    for name in [
        "matches.csv",
        "games.csv",
        "moves.csv",
        "summary.csv",
        "run.json",
    ] {
        let read = |d: &std::path::Path| std::fs::read(d.join(name)).unwrap();
        assert!(read(&one) == read(&two), "{name} depends on the threads");
        assert!(read(&one) == read(&merged), "{name} differs after a merge");
    }
}

/// `--match` on a variant that plays single games says so in one line, exit 2, and writes
/// nothing; `trace --match` too.
#[test]
fn match_flag_on_a_variant_without_match_rules_is_one_line_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let line = "error: `variants/oware.sow` has no match rules (no `match` block), so --match cannot play it\n";
    super::util::sowlab()
        .args(["simulate", "variants/oware.sow", "--match", "--games", "2"])
        .args(["--agents", "random,random", "--out"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(line);
    assert!(!out.exists());
    super::util::sowlab()
        .args(["trace", "variants/oware.sow", "--match", "--random", "3"])
        .assert()
        .code(2)
        .stderr(line);
}

/// `trace --match --json`: states carry the round, closed holes, reserves and owners, each
/// round ends with a `round_end` line, the round numbers rise by one, and the last line ends
/// the match.
#[test]
fn trace_match_json_steps_through_every_round() {
    let out = super::util::sowlab()
        .args([
            "trace",
            "variants/hoyito-i.sow",
            "--match",
            "--random",
            "100000",
        ])
        .args(["--seed", "3", "--json"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut round = 1;
    for line in &lines {
        if let Some(end) = line.get("round_end") {
            assert_eq!(end["round"], round);
            round += 1;
        } else {
            assert_eq!(line["round"], round);
            for key in ["closed", "reserve", "owner"] {
                assert!(line.get(key).is_some(), "{key} missing");
            }
        }
    }
    let last = &lines.last().unwrap()["round_end"];
    assert!(
        last["match_winner"].is_string() && last["next"].is_null(),
        "{last}"
    );
    assert!(round > 2, "a match of several rounds");
}

/// `compare --match`: the report has the match table and charts, and `comparison.csv` the
/// match measures with intervals; `sweep --match` charts them over the grid.
#[test]
fn compare_and_sweep_with_match_report_matches() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    super::util::sowlab()
        .args([
            "compare",
            "variants/hoyito-i.sow",
            "variants/hoyito-iii.sow",
            "--match",
        ])
        .args(["--games", "20", "--agents", "random,random", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicates::str::contains("wrote 80 matches ("));
    for chart in ["match-rates", "match-rounds", "match-ends"] {
        for ext in ["svg", "png"] {
            let file = out.join(format!("{chart}-random-vs-random-2.{ext}"));
            assert!(file.exists(), "{} missing", file.display());
        }
    }
    let index = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(index.contains("#### Matches") && index.contains("round-1 winner wins the match"));
    assert!(index.contains("--match"), "the command that made it");
    let rows: Vec<sowlab::report::compare::ComparisonRecord> =
        read_csv(&out.join("comparison.csv"));
    for measure in [
        "match_starter_rate",
        "round_1_winner_match_rate",
        "mean_rounds",
    ] {
        let found: Vec<_> = rows.iter().filter(|r| r.measure == measure).collect();
        assert_eq!(found.len(), 4, "{measure}: two variants in two seatings");
        assert!(found
            .iter()
            .all(|r| r.low.unwrap() <= r.value.unwrap() && r.value.unwrap() <= r.high.unwrap()));
    }
    let sweep = dir.path().join("sweep");
    super::util::sowlab()
        .args([
            "sweep",
            "variants/hoyito-i.sow",
            "--set",
            "holes=5..6",
            "--match",
        ])
        .args(["--games", "10", "--agents", "random,random", "--out"])
        .arg(&sweep)
        .assert()
        .success();
    assert!(sweep.join("sweep-matches-random-vs-random-1.svg").exists());
    let csv = std::fs::read_to_string(sweep.join("sweep.csv")).unwrap();
    assert!(csv.lines().next().unwrap().contains("match_starter_rate"));
}
