//! `sowlab compare` and `sowlab sweep`: every chart is written as a valid PNG and a parseable
//! SVG, the tables and pages are complete, and a one-reading difference is tested for
//! significance.

use std::path::Path;

use sowlab::report::compare::ComparisonRecord;

use super::util::sowlab;

/// `sowlab compare` of Hoyito I alone, 5 games: waiting for `--out`.
fn small_compare() -> assert_cmd::Command {
    let mut cmd = sowlab();
    cmd.args([
        "compare",
        "variants/hoyito-i.sow",
        "--games",
        "5",
        "--agents",
        "random,random",
        "--out",
    ]);
    cmd
}

fn check_chart(dir: &Path, stem: &str) {
    let png = std::fs::read(dir.join(format!("{stem}.png")))
        .unwrap_or_else(|_| panic!("{stem}.png missing"));
    assert!(
        png.len() > 1000 && png.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{stem}.png is not a PNG"
    );
    let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
    let doc = roxmltree::Document::parse(&svg)
        .unwrap_or_else(|e| panic!("{stem}.svg does not parse: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        texts.iter().any(|t| t.contains("games")),
        "{stem}.svg has no title saying how many games"
    );
}

fn comparison(dir: &Path) -> Vec<ComparisonRecord> {
    csv::Reader::from_path(dir.join("comparison.csv"))
        .unwrap()
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn compare_writes_every_chart_table_and_page() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("small");
    sowlab()
        .args([
            "compare",
            "variants/hoyito-i.sow",
            "variants/oware.sow",
            "--games",
            "30",
        ])
        .args([
            "--agents",
            "random,random",
            "--agents",
            "greedy,random",
            "--seed",
            "2",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    // One set of charts per seating, never pooled.
    for seating in [
        "random-vs-random-1",
        "random-vs-random-2",
        "greedy-vs-random-1",
        "random-vs-greedy-2",
    ] {
        for chart in [
            "rates",
            "lengths",
            "end-reasons",
            "timeline",
            "branching",
            "laps",
        ] {
            check_chart(&out, &format!("{chart}-{seating}"));
        }
    }
    for file in [
        "games.csv",
        "moves.csv",
        "summary.csv",
        "run.json",
        "comparison.csv",
        "timeline.csv",
    ] {
        assert!(
            out.join(file).metadata().unwrap().len() > 0,
            "{file} is empty"
        );
    }
    let md = std::fs::read_to_string(out.join("index.md")).unwrap();
    // Every row of every table has as many cells as its header.
    let mut header_cells = None;
    for line in md.lines() {
        let cells = line.starts_with('|').then(|| line.matches('|').count());
        match (cells, header_cells) {
            (Some(n), None) => header_cells = Some(n),
            (Some(n), Some(h)) => assert_eq!(n, h, "a row that does not fit its header: {line}"),
            (None, _) => header_cells = None,
        }
    }
    assert!(md.contains("sowlab compare variants/hoyito-i.sow variants/oware.sow --games 30"));
    assert!(md.contains("![") && md.contains("rates-random-vs-random-2.png"));
    assert!(md.contains("### South random, North greedy (seat order 2)"));
    assert!(md.contains("R1 ") && md.contains("only a drop that makes a hole's count exactly 4"));
    assert!(
        md.contains("Caution: with 30 games"),
        "a small run must say its intervals are wide"
    );
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    // Two seatings' charts, and each variant's start position.
    assert_eq!(html.matches("<svg").count(), 24 + 2, "every chart inlined");
    assert!(
        !html.contains("<?xml"),
        "SVG prologs must not stand inside HTML"
    );
    let rows = comparison(&out);
    // One pair of variants in each of four seatings: a test of South's wins and a paired
    // difference in moves.
    for measure in ["south_rate_difference", "moves_difference"] {
        let pairs = rows
            .iter()
            .filter(|r| r.kind == "pair" && r.measure == measure);
        assert_eq!(pairs.count(), 4, "{measure}");
    }
    // The measures of how the games play, per variant and seating, inside their ranges.
    for (measure, low, high) in [
        ("completion_rate", 0.0, 1.0),
        ("seat_balance", -1.0, 1.0),
        ("decisiveness", 0.0, 1.0),
        ("forced_move_rate", 0.0, 1.0),
        ("branching_factor", 1.0, 12.0),
        ("lead_changes", 0.0, 1000.0),
    ] {
        let values: Vec<f64> = rows
            .iter()
            .filter(|r| r.kind == "variant" && r.measure == measure)
            .map(|r| r.value.unwrap())
            .collect();
        assert_eq!(values.len(), 8, "{measure}: two variants in four seatings");
        assert!(
            values.iter().all(|v| (low..=high).contains(v)),
            "{measure}: {values:?}"
        );
    }
    assert!(rows.iter().all(|r| {
        let (a, b) = r.pairing.split_once(',').unwrap();
        let seated = if r.seat_order == 0 { (a, b) } else { (b, a) };
        seated == (r.south_agent.as_str(), r.north_agent.as_str())
    }));
    assert!(rows
        .iter()
        .any(|r| r.measure == "first_mover_rate" && r.low.is_some()));
    // A second run replaces the report whole.
    small_compare().arg(&out).assert().success();
    assert!(!out.join("rates-greedy-vs-random-1.png").exists());
}

#[test]
fn compare_refuses_to_replace_a_directory_it_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("notes.txt"), "mine").unwrap();
    small_compare().arg(tmp.path()).assert().code(2);
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn comparing_two_readings_of_ayoayo_states_whether_they_differ() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r7");
    sowlab()
        .args([
            "compare",
            "variants/ayoayo.sow",
            "variants/ayoayo-r7-lone-seed.sow",
            "--games",
            "400",
        ])
        .args(["--agents", "random,random", "--seed", "3", "--out"])
        .arg(&out)
        .assert()
        .success();
    let rows = comparison(&out);
    let pair = rows
        .iter()
        .find(|r| r.measure == "south_rate_difference")
        .expect("one pair");
    assert_eq!(
        (pair.variant.as_str(), pair.other.as_str()),
        ("Ayoayo", "Ayoayo (R7: lone seed captured)")
    );
    let p = pair.p_value.unwrap();
    assert!((0.0..=1.0).contains(&p));
    // Every game of one variant is paired with the game of the other on the same seed.
    assert_eq!(pair.games, 400);
    let (low, high) = (pair.low.unwrap(), pair.high.unwrap());
    assert!(
        low <= pair.value.unwrap() && pair.value.unwrap() <= high && high - low < 0.2,
        "{pair:?}"
    );
    assert_eq!(pair.significant, Some(pair.p_holm.unwrap() < 0.05));
    let md = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(md.contains("significant?"));
    // No "no difference" without the difference the test could have found.
    let detectable = pair.detectable.unwrap();
    assert!(detectable > 0.0 && detectable < 0.2, "{pair:?}");
    assert!(md.contains(&if pair.p_holm.unwrap() < 0.05 {
        "yes: South's win rate differs".to_string()
    } else {
        format!(
            "no difference found; one of {:.1} points or more would have been (80% power)",
            100.0 * detectable
        )
    }));
    assert!(!md.contains("not distinguishable"));
    // The reading behind the difference, with its text and the rule it stands on.
    assert!(
        md.contains("- R7: no capture when the hole opposite is empty (capture \"opposite\".if)"),
        "{md}"
    );
}

#[test]
fn sweep_charts_measures_across_board_sizes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sweep");
    sowlab()
        .args([
            "sweep",
            "variants/hoyito-i.sow",
            "--set",
            "holes=6..8",
            "--set",
            "seeds=3,4",
        ])
        .args(["--games", "10", "--agents", "random,random", "--out"])
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with(
        "pairing,seat_order,south_agent,north_agent,parameter_holes,parameter_seeds,games"
    ));
    assert_eq!(lines.count(), 12, "a row per grid point and seating");
    for seeds in [3, 4] {
        for order in [1, 2] {
            check_chart(
                &out,
                &format!("sweep-rates-random-vs-random-{order}-seeds{seeds}"),
            );
            check_chart(
                &out,
                &format!("sweep-length-random-vs-random-{order}-seeds{seeds}"),
            );
        }
    }
    // Ten games a seating: every point's rates rest on fewer than 20 scored games, so the
    // charts leave them out and their captions say so; the CSV keeps them.
    let md = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(
        md.contains("the rates of 3 of 3 points, over fewer than 20 scored games, are left out"),
        "{md}"
    );
    let svg =
        std::fs::read_to_string(out.join("sweep-rates-random-vs-random-1-seeds3.svg")).unwrap();
    // Only the unfinished share is drawn: its three points, beside the legend's two circle
    // markers (the first line's and the fifth's), and no other line's.
    assert_eq!(svg.matches("<circle").count(), 3 + 2);
}

/// Games stopped by the move cap are counted apart and left out of win rates unless
/// `--score-unfinished`; a sweep warns where the cap stops more than 5% of the games.
#[test]
fn unfinished_games_are_counted_apart_from_win_rates() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = tmp.path().join(name);
        sowlab()
            .args(["compare", "variants/oware.sow", "variants/ayoayo.sow"])
            .args(["--games", "30", "--agents", "random,random", "--seed", "4"])
            .args(["--set", "cap=40"])
            .args(extra)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        out
    };
    let measure = |rows: &[ComparisonRecord], measure: &str| {
        rows.iter()
            .find(|r| r.measure == measure && r.variant == "Oware" && r.seat_order == 0)
            .cloned()
            .unwrap()
    };
    let out = run("finished", &[]);
    let rows = comparison(&out);
    let capped = measure(&rows, "cap_rate");
    assert!(
        capped.value.unwrap() > 0.2 && capped.games == 30,
        "{capped:?}"
    );
    let south = measure(&rows, "south_rate");
    assert_eq!(
        south.games as f64,
        (30.0 * (1.0 - measure(&rows, "unfinished_rate").value.unwrap())).round(),
        "win rates over finished games only"
    );
    let md = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(md.contains("finished games (win rates are over these)"));
    assert!(md.contains("stopped by move cap") && md.contains("are left out of the win rates"));
    let out = run("scored", &["--score-unfinished"]);
    let rows = comparison(&out);
    assert_eq!(measure(&rows, "south_rate").games, 30);
    let md = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(
        md.contains("--set cap=40 --score-unfinished") && md.contains("as --score-unfinished asks")
    );

    let sweep = tmp.path().join("sweep");
    sowlab()
        .args([
            "sweep",
            "variants/oware.sow",
            "--set",
            "holes=6..7",
            "--set",
            "cap=40",
        ])
        .args(["--games", "10", "--agents", "random,random", "--out"])
        .arg(&sweep)
        .assert()
        .success();
    let md = std::fs::read_to_string(sweep.join("index.md")).unwrap();
    assert!(
        md.contains("Warning: more than 5% of the games were stopped by the move cap at holes=6"),
        "{md}"
    );
    let csv = std::fs::read_to_string(sweep.join("sweep.csv")).unwrap();
    assert!(csv
        .lines()
        .next()
        .unwrap()
        .ends_with("cap_rate,cap_low,cap_high"));
}
