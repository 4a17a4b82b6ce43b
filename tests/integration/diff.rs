//! `sowlab diff A B`: the rules two variants differ in, from their compiled rules.

use predicates::prelude::*;
use sowlab::rules::explain::Section;

use super::util::{assert_golden, path, sowlab, variant};

/// The pairs with golden output in `tests/golden/diff/<a>--<b>.txt`.
const PAIRS: [(&str, &str); 9] = [
    ("hoyito-i", "hoyito-ii"),
    ("hoyito-ii", "hoyito-iii"),
    ("hoyito-i", "hoyito-iii"),
    ("hoyito-i", "hoyito-i-12"),
    ("hoyito-i", "ba-awa"),
    ("ayoayo", "ayoayo-r7-lone-seed"),
    ("oware", "ayoayo"),
    ("kalah", "oware"),
    ("catalogue/awale", "oware"),
];

/// `diff` output, compared with its golden file (rules hashes masked, as they change with
/// every new field of the compiled rules; `SOWLAB_BLESS=1` rewrites the files — read them
/// before committing).
#[test]
fn diff_output_matches_its_golden_files() {
    for (a, b) in PAIRS {
        let files = [a, b].map(|v| format!("variants/{v}.sow"));
        let out = sowlab().arg("diff").args(&files).assert();
        let same = a == "catalogue/awale";
        let out = out.code(if same { 0 } else { 1 });
        let mut text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        for v in [a, b] {
            text = text.replace(&variant(v).hash(), "<hash>");
        }
        let name = |v: &'static str| v.rsplit('/').next().unwrap_or(v);
        assert_golden(
            &format!("tests/golden/diff/{}--{}.txt", name(a), name(b)),
            &text,
        );
    }
}

/// Hoyito III's source lists its differences from Hoyito II: captures only in the landing
/// hole (no backward run of fours), and the last seeds to the previous winner from round 3.
/// Those, and nothing else.
#[test]
fn hoyito_ii_and_iii_differ_in_exactly_what_the_source_lists() {
    let (a, b) = (variant("hoyito-ii"), variant("hoyito-iii"));
    let found: Vec<(Section, String)> = sowlab::rules::diff::differences(&a, &b)
        .into_iter()
        .map(|d| (d.section, d.topic))
        .collect();
    assert_eq!(
        found,
        [
            (Section::Captures, "\"final casa\"".to_string()),
            (Section::Match, "from round 3".to_string())
        ]
    );
}

#[test]
fn a_file_diffed_with_itself_is_the_same() {
    sowlab()
        .args(["diff", "variants/hoyito-iii.sow", "variants/hoyito-iii.sow"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("The rules are the same (rules "));
}

/// Hoyito I written out again: its own blocks in another order, lines within them reordered,
/// other capture names, comments, provenance and no reading marks. The same rules.
const HOYITO_I_RESPELLED: &str = r#"
# Written out by hand, not extended.
match {
  round cap: 50
  lose below: 4
  starter: round winner
  surplus: reserve
  unfilled holes: closed
  refill: 4 per hole
}

end {
  winner: most captured
  endless moves: illegal
  repetition: 3, to owners
  move cap: 2000, to owners
  no move: pass
  last seeds: at most 4 after each capture, to capturer
}

game "Casitas, respelled" {
  source: "a test"
}

sowing {
  relay: when occupied
  skip origin: never
  laps start: next hole
  direction: counterclockwise
}

capture "four on the way" {
  to: mover
  take: hole
  if: count is 4
  on: every drop but the last of a lap
  then: sowing continues
}

capture "four at the end" {
  then: sowing ends
  on: last drop of a lap
  to: mover
  if: count is 4
  take: hole
}

board {
  starter: south
  seeds: 4 per hole
  stores: none
  holes: 6 per row
}
"#;

#[test]
fn a_respelled_equivalent_is_the_same() {
    let text = diff_with("hoyito-i", HOYITO_I_RESPELLED, 0);
    assert!(text.contains("The rules are the same"), "{text}");
    let marks: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  only A rests on "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(
        marks,
        ["R1", "R2", "R3", "R10", "R11", "R12", "R13"],
        "{text}"
    );
    assert!(
        text.contains(
            "  only A rests on R1: only a drop that makes a hole's count exactly 4 forms a casa\n"
        ),
        "{text}"
    );
}

/// One rule changed, and the captures renamed: only that rule is listed.
#[test]
fn a_file_with_one_rule_changed_names_exactly_that_rule() {
    let changed = HOYITO_I_RESPELLED.replace("move cap: 2000", "move cap: 1500");
    let text = diff_with("hoyito-i", &changed, 1);
    let body: Vec<&str> = text
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("Reading marks"))
        .collect();
    assert_eq!(
        body,
        [
            "",
            "1 rule differs:",
            "",
            "End",
            "  move cap",
            "    A: after 2000 moves the game stops; the board goes to the owners of the sides they lie on",
            "    B: after 1500 moves the game stops; the board goes to the owners of the sides they lie on",
            "    A says \"2000\", B says \"1500\"",
            "",
        ],
        "{text}"
    );
}

/// Captures are tried in file order: the same two captures in the other order differ, and
/// each is listed with its place.
#[test]
fn a_capture_moved_is_listed_with_its_places() {
    let passing = HOYITO_I_RESPELLED.find("capture \"four on").unwrap();
    let at_end = HOYITO_I_RESPELLED.find("capture \"four at").unwrap();
    let board = HOYITO_I_RESPELLED.find("board {").unwrap();
    let r = HOYITO_I_RESPELLED;
    let swapped = format!(
        "{}{}{}{}",
        &r[..passing],
        &r[at_end..board],
        &r[passing..at_end],
        &r[board..]
    );
    let text = diff_with("hoyito-i", &swapped, 1);
    assert!(text.contains("2 rules differ:"), "{text}");
    assert!(
        text.contains("  \"casa in passing\" (1st in A)\n")
            && text.contains("  \"four on the way\" (2nd in B)\n"),
        "{text}"
    );
}

/// Captures pair by content whatever their names, and a changed one shows both names.
#[test]
fn a_changed_capture_shows_both_names() {
    let changed = HOYITO_I_RESPELLED.replace("then: sowing ends", "then: extra turn");
    let text = diff_with("hoyito-i", &changed, 1);
    assert!(text.contains("1 rule differs:"), "{text}");
    assert!(
        text.contains("  \"final casa\" in A, \"four at the end\" in B\n"),
        "{text}"
    );
    assert!(
        text.contains("    only B says \"and the mover plays again\"\n"),
        "{text}"
    );
}

/// `diff variants/<variant>.sow FILE`, with `text` in FILE: the exit code checked, stdout.
fn diff_with(variant: &str, text: &str, code: i32) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("respelled.sow");
    std::fs::write(&file, text).unwrap();
    let out = sowlab()
        .arg("diff")
        .arg(path(&format!("variants/{variant}.sow")))
        .arg(&file)
        .assert()
        .code(code);
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// A difference no sentence shows (here a rule single laps never bring into play) is still
/// a difference: the compiled fields are named.
#[test]
fn a_difference_no_sentence_shows_names_the_compiled_field() {
    let oware = path("variants/oware.sow");
    let text = format!(
        "extends \"{}\"\nend {{ endless moves: end the game }}\n",
        oware.display()
    );
    let out = diff_with("oware", &text, 1);
    assert!(
        out.contains("No rule reads differently, but the compiled rules differ in these fields:\n  ending.endless: A \"Illegal\", B \"EndsGame\"\n"),
        "{out}"
    );
}

#[test]
fn board_overrides_apply_to_both_files() {
    sowlab()
        .args([
            "diff",
            "variants/hoyito-i.sow",
            "variants/hoyito-i-12.sow",
            "--set",
            "holes=9",
        ])
        .assert()
        .code(0);
}

#[test]
fn a_missing_or_broken_file_is_one_line_and_exit_2() {
    for (a, b, error) in [
        (
            "variants/oware.sow",
            "nope.sow",
            "error: cannot read `nope.sow`",
        ),
        (
            "tests/bad/capture-missing-on.sow",
            "variants/oware.sow",
            "error: tests/bad/capture-missing-on.sow:",
        ),
    ] {
        let out = sowlab().args(["diff", a, b]).assert().code(2).stdout("");
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(error), "{err}");
    }
}
