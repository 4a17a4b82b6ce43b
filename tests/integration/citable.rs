//! Regression tests for issue 30 ("results a historian can cite unedited"): readings travel
//! with their text, degenerate games are never silent, no number is shown over no game, a
//! ladder's order is checked, match reports lead with what the round cap decided, and a report
//! carries its variant files. `r30_<what>`, each failing before the change.

use std::fs;
use std::path::Path;

use sowlab::report::compare::ComparisonRecord;
use sowlab::sim::record::SummaryRecord;

use super::util::{path, sowlab, text};

/// Runs `sowlab ARGS` (which must succeed) from the repository root; its stderr.
fn succeeds(args: &[&str]) -> String {
    let output = sowlab().args(args).output().expect("sowlab runs");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    stderr
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

fn read_csv<T: serde::de::DeserializeOwned>(file: &Path) -> Vec<T> {
    csv::Reader::from_path(file)
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect()
}

/// A variant file `name` in `dir` holding `text`, its path.
fn variant(dir: &Path, name: &str, text: &str) -> String {
    let file = dir.join(name);
    fs::write(&file, text).unwrap();
    shown(&file)
}

/// Hoyito I stopped after one move: no game of it ever finishes.
fn never_finishing(dir: &Path) -> String {
    let hoyito = shown(&path("variants/hoyito-i.sow"));
    variant(
        dir,
        "never.sow",
        &format!(
            "extends \"{hoyito}\"\ngame \"Never ends\" {{ source: \"a test\" }}\nend {{ move cap: 1, to owners }}\n"
        ),
    )
}

/// A variant of which no game finishes was reported with win rates "0.0% [0.0%–100.0%]", pair
/// tests over no pair and a bar chart of zeros, with no warning. Now every batch command warns
/// on stderr, every report says so at its top, and every measure over finished games reads
/// "n/a" and why, in the pages and in the CSV files (empty); `balance --score-unfinished`
/// scores such games as the variant says.
#[test]
fn r30_a_variant_that_never_finishes_is_warned_about_and_never_given_a_rate() {
    let tmp = tempfile::tempdir().unwrap();
    let never = never_finishing(tmp.path());
    let hoyito = shown(&path("variants/hoyito-i.sow"));
    let warning = "Never ends: 0 of its 40 games finished (40 stopped by R10: 100% move cap); every measure over finished games is n/a";
    let compare = tmp.path().join("compare");
    let stderr = succeeds(&[
        "compare",
        &never,
        &hoyito,
        "--games",
        "20",
        "--agents",
        "random,random",
        "--out",
        &shown(&compare),
    ]);
    assert!(stderr.contains(&format!("warning: {warning}")), "{stderr}");
    let page = fs::read_to_string(compare.join("index.md")).unwrap();
    assert!(
        page.contains(&format!(
            "> **Warning:** {warning}. Unfinished games are stopped"
        )),
        "{page}"
    );
    assert!(
        page.contains("| Never ends | 20 | 0 | n/a (no finished game: 100% move cap) |"),
        "{page}"
    );
    assert!(!page.contains("0.0% [0.0%–100.0%]"), "{page}");
    let rows: Vec<ComparisonRecord> = read_csv(&compare.join("comparison.csv"));
    for row in rows.iter().filter(|r| r.variant == "Never ends") {
        let over_finished = row.measure.ends_with("_rate")
            && row.measure != "unfinished_rate"
            && ![
                "cap_rate",
                "repetition_rate",
                "no_moves_rate",
                "completion_rate",
                "forced_move_rate",
            ]
            .contains(&row.measure.as_str())
            || ["seat_balance", "decisiveness"].contains(&row.measure.as_str());
        if over_finished {
            assert_eq!(
                (row.value, row.low, row.high),
                (None, None, None),
                "{row:?}"
            );
        }
    }
    // No pair test over no pair.
    assert!(rows
        .iter()
        .all(|r| r.kind != "pair" || r.measure != "south_rate_difference"));
    let summary: Vec<SummaryRecord> = read_csv(&compare.join("summary.csv"));
    let never_rows: Vec<_> = summary
        .iter()
        .filter(|r| &*r.variant == "Never ends")
        .collect();
    assert_eq!(never_rows.len(), 2, "one row per seating");
    assert!(never_rows
        .iter()
        .all(|r| r.finished == 0 && r.south_rate.is_none()));

    let balance = tmp.path().join("balance");
    let args = [
        "balance",
        &never,
        "--ladder",
        "random,greedy",
        "--games",
        "4",
        "--out",
        &shown(&balance),
    ];
    let stderr = succeeds(&args);
    assert!(
        stderr.contains("warning: Never ends: 0 of its 24 games finished"),
        "{stderr}"
    );
    let page = fs::read_to_string(balance.join("index.md")).unwrap();
    assert!(
        page.contains("> **Warning:** Never ends: 0 of its 24 games finished"),
        "{page}"
    );
    assert!(page.contains("| random | random | 8 |"), "{page}");
    assert!(
        page.contains("n/a (no finished game: 100% move cap)"),
        "{page}"
    );
    assert!(
        page.contains("Skill trace: n/a, no game between two rungs was scored."),
        "{page}"
    );
    // Scored as the variant says, the rates are numbers again.
    let scored = tmp.path().join("scored");
    let mut args = args.to_vec();
    let out = shown(&scored);
    *args.last_mut().unwrap() = &out;
    args.push("--score-unfinished");
    succeeds(&args);
    let page = fs::read_to_string(scored.join("index.md")).unwrap();
    assert!(!page.contains("n/a (no finished game"), "{page}");
    assert!(page.contains("--score-unfinished"), "{page}");
}

/// Readings a file declares (R17 onwards) were printed as `R17 sowing.direction — ` with no
/// text, and meant a different thing in each file of one report; the language's defaults
/// (R10, R11) decided games without being listed. Now every reading is shown with its text,
/// a declared one named with its file, and a default marked as one, in `check`, `explain`,
/// run.json and the report, which also says how many games the reading decided.
#[test]
fn r30_readings_travel_with_their_text_and_defaults_are_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let board = "board {\n  holes: 4 per row\n  seeds: 3 per hole\n}\n\nsowing {\n  direction: counterclockwise  reading R17\n}\n\nend {\n  winner: most captured\n}\n";
    let file = |name: &str, gloss: &str| {
        variant(
            tmp.path(),
            &format!("{name}.sow"),
            &format!(
                "game \"{name}\" {{\n  source: \"a test\"\n}}\n\nreadings {{\n  R17: \"{gloss}\"\n}}\n\n{board}"
            ),
        )
    };
    let a = file("first", "the first file's reading of the direction");
    let b = file("second", "the second file's reading of the direction");
    let output = sowlab().args(["check", &a]).output().unwrap();
    assert!(
        text(&output.stdout).ends_with("readings: R17, by default R10\n"),
        "{}",
        text(&output.stdout)
    );
    let explained = text(&sowlab().args(["explain", &a]).output().unwrap().stdout);
    assert!(
        explained.contains("R10 end.move cap (default)"),
        "{explained}"
    );
    let out = tmp.path().join("report");
    succeeds(&[
        "compare",
        &a,
        &b,
        "--games",
        "10",
        "--agents",
        "random,random",
        "--out",
        &shown(&out),
    ]);
    let page = fs::read_to_string(out.join("index.md")).unwrap();
    for expected in [
        "- R17 (first.sow): the first file's reading of the direction (sowing.direction)",
        "- R17 (second.sow): the second file's reading of the direction (sowing.direction)",
        "- R10 (default): move cap 2000 and third repetition end a game; seeds to the side owners (end.move cap, end.repetition)",
    ] {
        assert!(page.contains(expected), "{expected}\n{page}");
    }
    let run: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let readings = &run["variants"][0]["readings"];
    assert!(
        readings
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == "R17 (first.sow)"
                && r["text"] == "the first file's reading of the direction"),
        "{readings}"
    );
    assert!(
        readings
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == "R10" && r["default"] == true),
        "{readings}"
    );
}

/// The balance ladder called a rung stronger than the one below when it scored 0.02 against
/// it, and the skill trace took it in. Now a rung that does not beat the one below is flagged,
/// and left out of the trace, which says so.
#[test]
fn r30_a_ladder_out_of_order_is_flagged() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("balance");
    // Greedy, then random: the second rung is the weaker.
    succeeds(&[
        "balance",
        "variants/kalah.sow",
        "--ladder",
        "greedy,random",
        "--games",
        "30",
        "--set",
        "holes=4",
        "--set",
        "seeds=3",
        "--out",
        &shown(&out),
    ]);
    let page = fs::read_to_string(out.join("index.md")).unwrap();
    assert!(
        page.contains(
            "> **Warning:** in Kalah the ladder is not in order of strength: random scores"
        ),
        "{page}"
    );
    assert!(page.contains("no: it is not stronger here"), "{page}");
    let skill = fs::read_to_string(out.join("skill.csv")).unwrap();
    assert!(skill.lines().nth(1).unwrap().ends_with(",no"), "{skill}");
}

/// The matches report's rounds table spoke of games and analysed some 40,000 rounds as if
/// independent, while the round cap decided most matches. Now the matches section opens with
/// the share the round cap decided, rounds are described and never tested pairwise.
#[test]
fn r30_the_matches_report_leads_with_what_the_round_cap_decided() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("matches");
    succeeds(&[
        "compare",
        "variants/hoyito-i.sow",
        "variants/hoyito-iii.sow",
        "--match",
        "--games",
        "10",
        "--agents",
        "random,random",
        "--out",
        &shown(&out),
    ]);
    let page = fs::read_to_string(out.join("index.md")).unwrap();
    let matches = page
        .find("#### Matches\n\nFirst, how many matches the round cap decided")
        .unwrap();
    assert!(
        page[matches..].contains("Stopped by the round cap (reading R13): Hoyito I "),
        "{page}"
    );
    assert!(
        page.contains("Rounds of one match are not independent"),
        "{page}"
    );
    assert!(
        !page.contains("McNemar"),
        "rounds are tested pairwise: {page}"
    );
}

/// A report named its variant files by path without carrying them: the hash could verify a
/// file, not recover it. Now each file, and every file it extends, is copied into the report
/// byte for byte, with the variant's rules in words.
#[test]
fn r30_a_report_carries_its_variant_files_and_their_rules_in_words() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report");
    succeeds(&[
        "compare",
        "variants/hoyito-ii.sow",
        "variants/oware.sow",
        "--games",
        "5",
        "--agents",
        "random,random",
        "--out",
        &shown(&out),
    ]);
    for (copy, original) in [
        ("hoyito-ii.sow", "variants/hoyito-ii.sow"),
        ("hoyito-i.sow", "variants/hoyito-i.sow"),
        ("oware.sow", "variants/oware.sow"),
    ] {
        assert_eq!(
            fs::read(out.join(copy)).unwrap(),
            fs::read(path(original)).unwrap(),
            "{copy}"
        );
    }
    let page = fs::read_to_string(out.join("index.md")).unwrap();
    assert!(
        page.contains("| variants/hoyito-ii.sow | hoyito-ii.sow |"),
        "{page}"
    );
    assert!(
        page.contains("| variants/hoyito-i.sow | hoyito-i.sow |"),
        "{page}"
    );
    let explained = text(
        &sowlab()
            .args(["explain", "variants/oware.sow"])
            .output()
            .unwrap()
            .stdout,
    );
    assert!(
        page.contains(explained.trim_end()),
        "the rules in words are missing"
    );
}

/// A file whose starter has no legal first move passed, and `simulate` reported North
/// winning 100% in 0 turns with no warning. Now every batch command warns, and a report says
/// so at its top.
#[test]
fn r30_games_over_before_their_first_move_are_never_silent() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let stderr = succeeds(&[
        "simulate",
        "tests/warn/no-first-move.sow",
        "--games",
        "5",
        "--agents",
        "random,random",
        "--out",
        &shown(&run),
    ]);
    let warning =
        "warning: No first move: every one of its 10 games was over before its first move";
    assert!(stderr.contains(warning), "{stderr}");
    let report = tmp.path().join("report");
    succeeds(&[
        "compare",
        "tests/warn/no-first-move.sow",
        "variants/kalah.sow",
        "--games",
        "5",
        "--agents",
        "random,random",
        "--out",
        &shown(&report),
    ]);
    let page = fs::read_to_string(report.join("index.md")).unwrap();
    assert!(page.contains("> **Warning:** No first move: every one of its 10 games was over before its first move, so its results say nothing of play (`sowlab trace` says why).\n"), "{page}");
}
