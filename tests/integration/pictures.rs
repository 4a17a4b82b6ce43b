//! Board diagrams and the step-through page from the command line: `trace --svg DIR`,
//! `trace --html FILE` and `explain --picture FILE`, on every shipped and catalogue variant.

use std::path::Path;

use serde_json::Value;

use crate::util::{page_frames, path, sowlab, trace_states};

/// The names in a directory, sorted, the marker left out.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".sowlab")
        .collect();
    names.sort();
    names
}

/// Every variant: a diagram of the start and of each move, each well-formed SVG naming its
/// move; a page with a frame for the start and at least one for each move, whose last frame
/// is the game's end as `trace --json` gives it; nothing in the page reaches the network.
#[test]
fn trace_draws_every_variant_as_diagrams_and_a_page() {
    let files = sowlab::lang::variant_files(&[path("variants")])
        .unwrap()
        .files;
    assert!(files.len() > 70);
    for file in files {
        let tmp = tempfile::tempdir().unwrap();
        let (svg, html) = (tmp.path().join("svg"), tmp.path().join("game.html"));
        let args = ["--random", "60", "--seed", "1"];
        sowlab()
            .arg("trace")
            .arg(&file)
            .args(args)
            .arg("--svg")
            .arg(&svg)
            .arg("--html")
            .arg(&html)
            .assert()
            .success();
        let mut traced = vec![file.clone().into_os_string()];
        traced.extend(args.map(Into::into));
        let states = trace_states(&traced);
        let moves = states.len();
        let drawn = names(&svg);
        let expected: Vec<String> = (0..=moves).map(|m| format!("move-{m:04}.svg")).collect();
        assert_eq!(drawn, expected, "{}", file.display());
        for name in &drawn {
            let text = std::fs::read_to_string(svg.join(name)).unwrap();
            roxmltree::Document::parse(&text)
                .unwrap_or_else(|e| panic!("{}: {name}: {e}", file.display()));
        }
        let page = std::fs::read_to_string(&html).unwrap();
        for outside in ["http://", "https://", "src=\"", "<link"] {
            // The SVG namespace is a name, not a fetch.
            let count = page.matches(outside).count()
                - page.matches("http://www.w3.org/2000/svg").count()
                    * usize::from(outside == "http://");
            assert_eq!(count, 0, "{}: `{outside}` in the page", file.display());
        }
        let frames = page_frames(&page);
        assert!(frames.len() > moves, "{}", file.display());
        let last = frames.last().unwrap();
        if let Some(state) = states.last() {
            assert_eq!(last["board"], state["board"], "{}", file.display());
            assert_eq!(last["stores"], state["store"], "{}", file.display());
            assert_eq!(last["index"], Value::from(moves));
        }
    }
}

/// In a match each round's start is drawn too, named by its round, and the page holds the
/// round's start with the words of the round's end.
#[test]
fn a_match_is_drawn_round_by_round() {
    let tmp = tempfile::tempdir().unwrap();
    let (svg, html) = (tmp.path().join("svg"), tmp.path().join("game.html"));
    sowlab()
        .args([
            "trace",
            "variants/hoyito-i.sow",
            "--match",
            "--random",
            "400",
        ])
        .args(["--seed", "2", "--svg"])
        .arg(&svg)
        .arg("--html")
        .arg(&html)
        .assert()
        .success();
    let drawn = names(&svg);
    assert!(
        drawn.contains(&"round-2-move-0000.svg".to_string()),
        "{drawn:?}"
    );
    let frames = page_frames(&std::fs::read_to_string(&html).unwrap());
    let second = frames
        .iter()
        .find(|f| f["round"] == 2 && f["turn"] == 0)
        .expect("round 2 starts");
    let words = second["words"].as_array().unwrap();
    assert!(
        words[0].as_str().unwrap().starts_with("round 1 over"),
        "{words:?}"
    );
}

/// A second trace into the same directory replaces the first's diagrams; a directory with
/// someone else's files is refused, and nothing in it touched.
#[test]
fn trace_svg_replaces_its_own_diagrams_and_leaves_other_files_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("svg");
    let trace = |moves: &str| {
        sowlab()
            .args(["trace", "variants/kalah.sow", "--moves", moves, "--svg"])
            .arg(&svg)
            .assert()
    };
    trace("2,0,8").success();
    assert_eq!(names(&svg).len(), 4);
    trace("2").success();
    assert_eq!(names(&svg), ["move-0000.svg", "move-0001.svg"]);
    let mine = tmp.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep").unwrap();
    sowlab()
        .args(["trace", "variants/kalah.sow", "--moves", "2", "--svg"])
        .arg(&mine)
        .assert()
        .code(2);
    assert_eq!(names(&mine), ["notes.txt"]);
}

/// `explain --picture` draws the start: SVG by default, PNG for a `.png` name.
#[test]
fn explain_draws_the_start_position() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["kalah.svg", "kalah.png"] {
        let out = tmp.path().join(name);
        sowlab()
            .args(["explain", "variants/kalah.sow", "--picture"])
            .arg(&out)
            .assert()
            .success();
        let bytes = std::fs::read(&out).unwrap();
        if name.ends_with(".png") {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        } else {
            let text = String::from_utf8(bytes).unwrap();
            let doc = roxmltree::Document::parse(&text).unwrap();
            // Twelve pits of four and two empty stores, each count written, beside the hole
            // numbers 0 to 11: thirteen 4s (hole 4's number) and three 0s (hole 0's).
            let texts: Vec<&str> = doc
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .filter_map(|n| n.text())
                .collect();
            let count = |t: &str| texts.iter().filter(|x| x.trim() == t).count();
            assert_eq!((count("4"), count("0")), (13, 3), "{texts:?}");
        }
    }
}

/// A report draws each variant's start and carries a sample game, whose page is the one
/// `trace` makes with the command the report gives for it.
#[test]
fn a_report_carries_each_variants_start_and_a_game_trace_makes_again() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report");
    sowlab()
        .args(["compare", "variants/hoyito-i.sow", "variants/kalah.sow"])
        .args([
            "--games",
            "2",
            "--agents",
            "random,random",
            "--seed",
            "7",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let index = std::fs::read_to_string(out.join("index.md")).unwrap();
    for stem in ["hoyito-i", "kalah"] {
        assert!(out.join(format!("start-{stem}.svg")).is_file());
        assert!(out.join(format!("start-{stem}.png")).is_file());
        assert!(index.contains(&format!("](start-{stem}.png)")), "{index}");
        let page = format!("game-{stem}.html");
        let command =
            format!("sowlab trace variants/{stem}.sow --random 100000 --seed 7 --html {page}");
        assert!(index.contains(&command), "{index}");
        let again = tmp.path().join(&page);
        sowlab()
            .args([
                "trace",
                &format!("variants/{stem}.sow"),
                "--random",
                "100000",
            ])
            .args(["--seed", "7", "--html"])
            .arg(&again)
            .assert()
            .success();
        let frames = |path: &Path| page_frames(&std::fs::read_to_string(path).unwrap());
        assert_eq!(frames(&out.join(&page)), frames(&again), "{stem}");
    }
}

/// A game over before its first move: the page's one step says who won in its picture's line,
/// and why in its words; nothing else is drawn as if played.
#[test]
fn a_game_over_before_its_first_move_says_why_on_its_page() {
    let tmp = tempfile::tempdir().unwrap();
    let html = tmp.path().join("game.html");
    sowlab()
        .args([
            "trace",
            "tests/warn/every-round-over-at-start.sow",
            "--random",
            "10",
        ])
        .arg("--html")
        .arg(&html)
        .assert()
        .success();
    let frames = page_frames(&std::fs::read_to_string(&html).unwrap());
    assert_eq!(frames.len(), 1);
    assert_eq!(
        frames[0]["status"],
        "game over before the first move: north wins\n"
    );
    let words = frames[0]["words"].as_array().unwrap();
    assert!(
        words[0]
            .as_str()
            .unwrap()
            .starts_with("over before the first move: north wins, because south, to move first, has no legal move"),
        "{words:?}"
    );
    assert_eq!(frames[0]["played"], Value::Null);
}
