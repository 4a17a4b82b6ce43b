//! `docs/outputs.md` cannot drift from the code: the header of every CSV file that small
//! `simulate`, `compare`, `sweep` and `balance` runs write is the column list of that file's
//! table there, in order, and every field of `run.json`, the `.sowlab` marker and the
//! `trace --json` lines is one its tables name.

use std::collections::BTreeSet;
use std::path::Path;

use super::util::{path, sowlab};

/// The names in the first column of the tables under the heading `heading` of
/// `docs/outputs.md` (up to the next heading), backticks removed, table headers skipped.
fn documented(heading: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path("docs/outputs.md")).expect("docs/outputs.md");
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim_start_matches('#').trim() != heading);
    assert!(
        lines.next().is_some(),
        "docs/outputs.md has no heading `{heading}`"
    );
    lines
        .take_while(|l| !l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The header of a CSV file, column by column.
fn header(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|_| panic!("{file:?} missing"));
    let first = text.lines().next().unwrap_or_default();
    first.split(',').map(str::to_string).collect()
}

/// The columns `docs/outputs.md` gives for `file`, with a placeholder column (`parameter_KEY`,
/// `R<n>`) written out as `keys`, and without the `--match`-only columns unless `matched`.
fn columns(file: &str, keys: &[&str], matched: bool) -> Vec<String> {
    let text = std::fs::read_to_string(path("docs/outputs.md")).unwrap();
    let match_only: BTreeSet<String> = text
        .lines()
        .filter(|l| l.contains("| `--match` only"))
        .filter_map(|l| {
            l.strip_prefix("| `")?
                .split_once('`')
                .map(|(n, _)| n.to_string())
        })
        .collect();
    documented(file)
        .into_iter()
        .filter(|c| matched || !match_only.contains(c))
        .flat_map(|c| {
            if c == "parameter_KEY" || c == "R<n>" {
                keys.iter().map(|k| k.to_string()).collect()
            } else {
                vec![c]
            }
        })
        .collect()
}

/// Runs `sowlab COMMAND --out OUT`, one game per seat order between random agents.
fn run_small(command: &str, out: &str) {
    sowlab()
        .args(command.split(' '))
        .args(["--out", out, "--games", "1", "--agents", "random,random"])
        .assert()
        .success();
}

/// The keys of a JSON object.
fn keys(value: &serde_json::Value) -> Vec<String> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect()
}

fn assert_documented(what: &str, found: &[String], heading: &str) {
    let known = documented(heading);
    let missing: Vec<&String> = found.iter().filter(|k| !known.contains(k)).collect();
    assert!(
        missing.is_empty(),
        "{what}: {missing:?} not documented under `{heading}` in docs/outputs.md"
    );
}

#[test]
fn the_csv_headers_are_the_documented_columns() {
    let tmp = tempfile::tempdir().unwrap();
    let out = |name: &str| tmp.path().join(name).display().to_string();
    let (single, matched, report, swept) =
        (out("single"), out("matched"), out("report"), out("swept"));
    run_small("simulate variants/hoyito-i.sow --moves", &single);
    run_small("simulate variants/hoyito-iii.sow --match --moves", &matched);
    run_small("compare variants/hoyito-i.sow", &report);
    run_small("sweep variants/hoyito-i.sow --set holes=6..7", &swept);
    let balanced = out("balanced");
    let balance = "balance variants/hoyito-i.sow --ladder random,greedy --games 1 --out";
    sowlab()
        .args(balance.split(' '))
        .arg(&balanced)
        .assert()
        .success();
    let exact = out("exact");
    sowlab()
        .args([
            "exact",
            "variants/kalah.sow",
            "--holes",
            "2",
            "--seeds",
            "1..2",
            "--out",
        ])
        .arg(&exact)
        .assert()
        .success();
    let written = [
        (&exact, "values.csv"),
        (&single, "games.csv"),
        (&single, "moves.csv"),
        (&single, "summary.csv"),
        (&matched, "games.csv"),
        (&matched, "moves.csv"),
        (&matched, "matches.csv"),
        (&matched, "summary.csv"),
        (&report, "comparison.csv"),
        (&report, "timeline.csv"),
        (&balanced, "balance.csv"),
        (&balanced, "skill.csv"),
    ];
    for (dir, file) in written {
        let found = header(&Path::new(dir).join(file));
        assert_eq!(
            found,
            columns(file, &[], false),
            "{dir}/{file} against docs/outputs.md"
        );
    }
    let found = header(&Path::new(&swept).join("sweep.csv"));
    assert_eq!(
        found,
        columns("sweep.csv", &["parameter_holes"], false),
        "sweep.csv"
    );
    let read = out("readings");
    run_small("readings variants/hoyito-i.sow --only R2,R10", &read);
    let found = header(&Path::new(&read).join("readings.csv"));
    assert_eq!(found, columns("readings.csv", &["R2", "R10"], false));
    let found = header(&Path::new(&read).join("effects.csv"));
    assert_eq!(found, columns("effects.csv", &[], false));
    for dir in [&single, &matched] {
        let run_json: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(Path::new(dir).join("run.json")).unwrap(),
        )
        .unwrap();
        assert_documented("run.json", &keys(&run_json), "run.json");
        let marker: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(Path::new(dir).join(".sowlab")).unwrap())
                .unwrap();
        assert_documented(".sowlab", &keys(&marker), "The .sowlab marker");
    }
}

#[test]
fn the_trace_json_fields_are_documented() {
    // A match of Hoyito III, and a match whose every round is over before its first move.
    let traces = [
        "variants/hoyito-iii.sow --random 400",
        "tests/warn/every-round-over-at-start.sow --random 5",
    ];
    let (mut round_ends, mut over_at_start) = (0, 0);
    for trace in traces {
        let output = sowlab()
            .arg("trace")
            .args(trace.split(' '))
            .args(["--match", "--json"])
            .output()
            .unwrap();
        assert!(output.status.success());
        for line in String::from_utf8(output.stdout).unwrap().lines() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Some(end) = value.get("round_end") {
                round_ends += 1;
                assert_documented("a round_end line", &keys(end), "trace --json");
            } else if let Some(over) = value.get("over_before_first_move") {
                over_at_start += 1;
                assert_documented(
                    "an over_before_first_move line",
                    &keys(over),
                    "trace --json",
                );
            } else {
                assert_documented("a state line", &keys(&value), "trace --json");
            }
        }
    }
    assert!(
        round_ends > 0 && over_at_start > 0,
        "the traces end no round, or none before its first move: pick others"
    );
}

/// Every field of a step-through page's frames is one the page's section names.
#[test]
fn the_step_through_frames_are_documented() {
    let tmp = tempfile::tempdir().unwrap();
    let html = tmp.path().join("game.html");
    sowlab()
        .args(["trace", "variants/hoyito-i.sow", "--random", "30", "--html"])
        .arg(&html)
        .assert()
        .success();
    let page = std::fs::read_to_string(&html).unwrap();
    let data = super::util::page_data(&page);
    let documented = documented("Board diagrams and the step-through page");
    for frame in data["frames"].as_array().unwrap() {
        for key in frame.as_object().unwrap().keys() {
            assert!(
                documented.contains(key),
                "frame field `{key}` is not documented"
            );
        }
    }
    assert_eq!(documented.len(), 17);
}
