//! Alternative readings: an alternative chosen with `--set` is the rules an extending file
//! would write, and `sowlab readings` measures each one against the file's reading on the
//! same games that `simulate` plays.

use std::collections::BTreeMap;
use std::path::Path;

use sowlab::lang::{compile_path, compile_text};

use crate::util::{path, sowlab};

/// `--set R2="after the move"` compiles to the rules of a file that extends Hoyito I and
/// gives the alternative's rule again, marked with its reading (docs/readings.md's own
/// example of R2's alternative).
#[test]
fn an_alternative_chosen_is_the_extending_file_that_writes_it_out() {
    let chosen = compile_path(
        &path("variants/hoyito-i.sow"),
        &[("R2".into(), "after the move".into())],
    )
    .expect("compiles");
    let written = compile_text(
        "r2.sow",
        "extends \"hoyito-i.sow\"\ngame \"Hoyito I (R2)\" { }\nend {\n  last seeds: at most 4 after each move, to capturer  reading R2\n}\n",
        &path("variants"),
    )
    .expect("compiles");
    let default = compile_path(&path("variants/hoyito-i.sow"), &[]).expect("compiles");
    assert_eq!(chosen.hash(), written.hash());
    assert_ne!(chosen.hash(), default.hash());
    let marks = |r: &sowlab::rules::Rules| -> Vec<(u16, String)> {
        r.readings
            .iter()
            .map(|m| (m.number, m.rule.clone()))
            .collect()
    };
    assert_eq!(marks(&chosen), marks(&written));
    // `default` names the file's own reading.
    let named = compile_path(
        &path("variants/hoyito-i.sow"),
        &[("R2".into(), "default".into())],
    )
    .expect("compiles");
    assert_eq!(named.hash(), default.hash());
    let offered: Vec<(u16, &str, bool)> = chosen
        .alternatives
        .iter()
        .map(|a| (a.reading, a.name.as_str(), a.chosen))
        .collect();
    assert_eq!(
        offered,
        [
            (2, "after the move", true),
            (10, "split", false),
            (10, "draw", false),
            (11, "end the game", false),
            (11, "stop at cap", false),
            (12, "surplus to the opponent", false),
        ]
    );
}

/// `diff F F --b-set R11=NAME` says in words what the alternative changes, exit 1.
#[test]
fn diff_of_a_file_and_its_alternative_names_the_rule_it_changes() {
    let out = sowlab()
        .args(["diff", "variants/hoyito-i.sow", "variants/hoyito-i.sow"])
        .args(["--b-set", "R11=stop at cap"])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let body: Vec<&str> = text.lines().skip(3).collect();
    assert_eq!(
        body,
        [
            "1 rule differs:",
            "",
            "End",
            "  endless moves",
            "    A: a move whose sowing would never end, or would drop 1000000 seeds or more, is illegal",
            "    B: a move's sowing stops once it has dropped 10000 seeds, so one that would never end stops there",
        ]
    );
}

#[test]
fn an_alternative_the_file_does_not_offer_is_one_line_naming_those_it_does() {
    let out = sowlab()
        .args(["explain", "variants/hoyito-i.sow", "--set", "R10=drawn"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(
        stderr,
        "error: --set:1:1: `--set R10=drawn`: R10 has no alternative of that name; it has `split`, `draw` (or `default`)\n"
    );
    let out = sowlab()
        .args(["explain", "variants/kalah.sow", "--set", "R3=end"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("the file offers no alternative for R3"),
        "{stderr}"
    );
}

/// The rows of a CSV file as maps from column to value.
fn rows(file: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(file).unwrap();
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Per game index, the first player's score (1 a win, ½ a draw), from a `games.csv`.
fn first_scores(file: &Path, variant: Option<&str>) -> BTreeMap<u64, f64> {
    rows(file)
        .into_iter()
        .filter(|r| variant.is_none_or(|v| r["variant"] == v))
        .map(|r| {
            let score = if r["winner"] == "draw" {
                0.5
            } else if r["winner"] == r["starter"] {
                1.0
            } else {
                0.0
            };
            (r["game"].parse().unwrap(), score)
        })
        .collect()
}

/// Anywoli's R17 (Mancala World's extra move after a four made by the last seed, or
/// Wikipedia's end of the turn): the readings report's numbers are those of two plain
/// `simulate` runs of the same seeds, one with the alternative chosen, compared game by game.
#[test]
fn readings_measures_an_alternative_on_the_games_simulate_plays() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report");
    let run = ["--games", "60", "--agents", "random,random", "--seed", "7"];
    sowlab()
        .args([
            "readings",
            "variants/catalogue/anywoli.sow",
            "--only",
            "R17",
        ])
        .args(run)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let mut simulated = Vec::new();
    for (name, set) in [("default", None), ("alternative", Some("R17=turn ends"))] {
        let dir = tmp.path().join(name);
        let mut cmd = sowlab();
        cmd.args(["simulate", "variants/catalogue/anywoli.sow"])
            .args(run)
            .arg("--out")
            .arg(&dir);
        if let Some(set) = set {
            cmd.args(["--set", set]);
        }
        cmd.assert().success();
        simulated.push(first_scores(&dir.join("games.csv"), None));
    }
    // The same games: each combination's games are those simulate plays, seed for seed.
    let report = |label: &str| first_scores(&out.join("games.csv"), Some(label));
    assert_eq!(report("Anywoli [R17=default]"), simulated[0]);
    assert_eq!(report("Anywoli [R17=turn ends]"), simulated[1]);
    let mean = |m: &BTreeMap<u64, f64>| m.values().sum::<f64>() / m.len() as f64;
    let table = rows(&out.join("readings.csv"));
    let value = |combination: &str, measure: &str| -> f64 {
        let row = table
            .iter()
            .find(|r| r["combination"] == combination && r["measure"] == measure)
            .unwrap_or_else(|| panic!("no row {combination} {measure}"));
        assert_eq!(
            row["R17"],
            if combination == "all default" {
                "default"
            } else {
                "turn ends"
            }
        );
        row["value"].parse().unwrap()
    };
    assert!((value("all default", "first_player_score") - mean(&simulated[0])).abs() < 1e-9);
    assert!((value("R17=turn ends", "first_player_score") - mean(&simulated[1])).abs() < 1e-9);
    // The effect is the mean of the differences game by game.
    let differences: Vec<f64> = simulated[1]
        .iter()
        .map(|(k, x)| x - simulated[0][k])
        .collect();
    let expected = differences.iter().sum::<f64>() / differences.len() as f64;
    let effects = rows(&out.join("effects.csv"));
    let effect = effects
        .iter()
        .find(|r| r["change"] == "R17=turn ends" && r["measure"] == "first_player_score")
        .expect("the main effect is there");
    assert_eq!(effect["effect"], "main");
    assert_eq!(effect["games"], "120");
    let got: f64 = effect["difference"].parse().unwrap();
    assert!((got - expected).abs() < 1e-9, "{got} against {expected}");
    // An exact value a combination, on the default 3×2 board.
    let exact: Vec<_> = table
        .iter()
        .filter(|r| r["measure"] == "exact_first_player_margin")
        .collect();
    assert_eq!(exact.len(), 2);
    assert!(exact.iter().all(|r| r["agents"] == "perfect play on 3×2"));
    let page = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(page.contains("sowlab readings variants/catalogue/anywoli.sow --only R17"));
}

#[test]
fn readings_of_a_file_without_alternatives_is_one_line() {
    for (args, message) in [
        (
            &["variants/kalah.sow"][..],
            "error: variants/kalah.sow offers no alternative readings; write them as `alternative R<n> \"name\" { ... }` blocks (docs/language.md)\n",
        ),
        (
            &["variants/hoyito-i.sow", "--only", "R12"],
            "error: variants/hoyito-i.sow offers no alternative for R12 that single games can tell apart\n",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let out = sowlab()
            .arg("readings")
            .args(args)
            .args(["--games", "2", "--agents", "random,random", "--out"])
            .arg(tmp.path().join("r"))
            .assert()
            .code(2);
        assert_eq!(String::from_utf8_lossy(&out.get_output().stderr), message);
        assert!(!tmp.path().join("r").exists());
    }
}

/// Past `--most`, the file's own readings and each alternative alone are always played, and
/// the rest is a sample drawn from the seed: the same seed, the same sample.
#[test]
fn a_sampled_design_keeps_every_alternative_alone() {
    let combinations = |seed: &str| -> Vec<String> {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("r");
        sowlab()
            .args([
                "readings",
                "variants/hoyito-i.sow",
                "--most",
                "8",
                "--no-exact",
            ])
            .args(["--games", "1", "--agents", "random,random", "--seed", seed])
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let page = std::fs::read_to_string(out.join("index.md")).unwrap();
        assert!(page.contains("8 combinations of the file's alternative readings (of 18:"));
        let mut seen: Vec<String> = rows(&out.join("readings.csv"))
            .into_iter()
            .map(|r| r["combination"].clone())
            .collect();
        seen.dedup();
        seen
    };
    let first = combinations("5");
    assert_eq!(first.len(), 8);
    for alone in [
        "all default",
        "R2=after the move",
        "R10=split",
        "R10=draw",
        "R11=end the game",
        "R11=stop at cap",
    ] {
        assert!(first.iter().any(|c| c == alone), "{alone} in {first:?}");
    }
    assert_eq!(first, combinations("5"));
}

/// A game random play seldom finishes (Bule Perga: most games stop at the third repetition):
/// the page warns that the scores count stopped games as the file scores them, and does not
/// speak of rates over finished games, which this report does not give.
#[test]
fn readings_of_a_game_that_seldom_ends_says_its_scores_count_stopped_games() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("bule-perga.sow");
    let text = std::fs::read_to_string(path("variants/catalogue/bule-perga.sow")).unwrap();
    let alternative = "\nalternative R10 \"draw\" {\n  end {\n    unfinished: draw\n  }\n}\n";
    std::fs::write(&file, text + alternative).unwrap();
    let out = tmp.path().join("r");
    sowlab()
        .arg("readings")
        .arg(&file)
        .args([
            "--games",
            "20",
            "--agents",
            "random,random",
            "--no-exact",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let page = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(
        page.contains("> **Warning:** In 2 of the 2 combinations more than 5.0% of the games"),
        "{page}"
    );
    assert!(!page.contains("its win rates rest on"), "{page}");
    let table = rows(&out.join("readings.csv"));
    let stopped: f64 = table
        .iter()
        .find(|r| r["combination"] == "all default" && r["measure"] == "unfinished_share")
        .unwrap()["value"]
        .parse()
        .unwrap();
    assert!(stopped > 0.5, "{stopped}");
}
