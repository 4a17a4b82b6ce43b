//! The binary from outside: every subcommand, success and failure, exit codes.

use predicates::prelude::*;

use super::util::sowlab;

#[test]
fn check_accepts_every_shipped_variant_given_their_folder() {
    sowlab()
        .args(["check", "variants"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("ok  variants/hoyito-i.sow")
                .and(predicate::str::contains("ok  variants/catalogue/awale.sow")),
        );
}

#[test]
fn list_prints_name_board_region_and_source_of_each_variant() {
    let out = sowlab().args(["list", "variants"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(header, ["file", "name", "board", "region", "source"]);
    let toguz = text
        .lines()
        .find(|l| l.starts_with("variants/catalogue/toguz-kumalak.sow"))
        .expect("a row per file");
    assert!(
        toguz.contains("Toguz Kumalak") && toguz.contains("2×9, 162 seeds"),
        "{toguz}"
    );
    assert_eq!(
        text.lines().count() - 1,
        sowlab::lang::variant_files(&[super::util::path("variants")])
            .unwrap()
            .files
            .len()
    );
}

/// `--families` groups the files by family, then area, each row with the rule families it
/// uses: Oware under single laps and West Africa, Kalah under sown stores and the Americas.
#[test]
fn list_families_groups_by_family_and_area_with_the_rules_used() {
    let out = sowlab()
        .args([
            "list",
            "variants/kalah.sow",
            "variants/oware.sow",
            "variants/ayoayo.sow",
            "--families",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    // Each line's indent and its first column.
    let starts: Vec<String> = lines
        .iter()
        .map(|l| {
            let indent = l.len() - l.trim_start().len();
            let first = l.trim_start().split("  ").next().unwrap_or("");
            format!("{}{first}", &l[..indent])
        })
        .collect();
    assert_eq!(
        starts,
        [
            "    file",
            "single laps (1 files)",
            "  West Africa",
            "    variants/oware.sow",
            "relay sowing (1 files)",
            "  West Africa",
            "    variants/ayoayo.sow",
            "sown stores (1 files)",
            "  Americas",
            "    variants/kalah.sow",
        ],
        "{text}"
    );
    assert!(
        lines[3].ends_with("captures by count, capture runs, feeding, majority ends"),
        "{text}"
    );
    assert!(
        lines[9].ends_with("sown stores, captures across, empty row ends"),
        "{text}"
    );
}

/// `--notes` puts a file's `note:` lines under its row, and nothing under a file without any.
#[test]
fn list_notes_prints_each_files_notes_under_its_row() {
    let out = sowlab()
        .args([
            "list",
            "variants/catalogue/adi.sow",
            "variants/catalogue/bule-perga.sow",
            "--notes",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].starts_with("variants/catalogue/adi.sow"), "{text}");
    assert!(
        lines[2].starts_with("variants/catalogue/bule-perga.sow"),
        "{text}"
    );
    let notes = &lines[3..];
    assert_eq!(notes.len(), 3, "{text}");
    assert!(notes.iter().all(|l| l.starts_with("    note: ")), "{text}");
    assert!(
        notes[1].contains("Random play seldom reaches an end"),
        "{text}"
    );
}

/// The page written with `--out` passes `--check`; changed, or gone, it fails it, with the
/// command that makes it again.
#[test]
fn catalogue_check_finds_a_stale_page_and_names_the_command() {
    let scratch = tempfile::tempdir().unwrap();
    let page = scratch.path().join("page.md");
    let args = |check: bool| {
        let mut args = vec![
            "catalogue".to_string(),
            "variants/oware.sow".into(),
            "--games".into(),
            "20".into(),
            "--out".into(),
            page.display().to_string(),
        ];
        if check {
            args.push("--check".into());
        }
        args
    };
    sowlab()
        .args(args(false))
        .assert()
        .success()
        .stderr(
            predicate::str::contains("wrote ").and(predicate::str::contains(
                "1 variant file(s), 40 random games each",
            )),
        );
    sowlab()
        .args(args(true))
        .assert()
        .success()
        .stderr(predicate::str::contains("is up to date"));
    let command = format!(
        "`sowlab catalogue variants/oware.sow --games 20 --seed 1 --out {}`",
        page.display()
    );
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.contains(&command[1..command.len() - 1]), "{text}");
    std::fs::write(&page, text.replace("Oware", "Owari")).unwrap();
    let changed = 1 + text.lines().position(|l| l.contains("Oware")).unwrap();
    sowlab()
        .args(args(true))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "is stale (from line {changed}): make it again with {command}"
        )));
    std::fs::remove_file(&page).unwrap();
    sowlab()
        .args(args(true))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is missing"));
    assert!(!page.exists(), "--check writes nothing");
}

/// A file that does not compile: named on stderr, and no page, which would leave it out.
#[test]
fn catalogue_prints_no_page_when_a_file_does_not_compile() {
    sowlab()
        .args([
            "catalogue",
            "variants/oware.sow",
            "tests/bad/duplicate.sow",
            "--games",
            "2",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("error: "));
}

#[test]
fn check_fails_with_exit_code_2_on_a_missing_file() {
    sowlab()
        .args(["check", "variants/no-such.sow"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: cannot read `variants/no-such.sow`",
        ));
}

#[test]
fn trace_json_prints_one_state_per_move_in_the_documented_shape() {
    let out = sowlab()
        .args(["trace", "variants/hoyito-i.sow", "--moves", "0,6", "--json"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        r#"{"turn":1,"player":"south","move":0,"board":[2,7,1,6,1,6,6,6,0,1,6,6],"store":[0,0],"to_move":"north","over":false,"winner":null,"end_reason":null}"#
    );
}

#[test]
fn trace_refuses_an_illegal_move_with_one_line_and_exit_code_2() {
    sowlab()
        .args(["trace", "variants/hoyito-i.sow", "--moves", "7", "--json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "move 1: hole 7 cannot be played: it is not the mover's hole",
        ))
        .stderr(predicate::function(|s: &str| s.lines().count() == 1));
}

#[test]
fn trace_random_is_reproducible_for_a_seed_and_honours_set() {
    let run = |seed: &str| {
        let out = sowlab()
            .args([
                "trace",
                "variants/hoyito-i.sow",
                "--random",
                "50",
                "--seed",
                seed,
                "--json",
                "--set",
                "holes=9",
            ])
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let first = run("4");
    assert_eq!(first, run("4"));
    assert_ne!(first, run("5"));
    let state: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(state["board"].as_array().unwrap().len(), 18);
}

#[test]
fn a_bad_setting_is_a_one_line_error_not_a_panic() {
    sowlab()
        .args([
            "trace",
            "variants/hoyito-i.sow",
            "--random",
            "5",
            "--set",
            "holes=99",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "holes per row must be between 1 and 16, not 99",
        ));
}

#[test]
fn explain_lists_the_readings_a_variant_rests_on() {
    sowlab()
        .args(["explain", "variants/hoyito-iii.sow"])
        .assert()
        .success()
        .stdout(predicate::str::contains("R4"))
        .stdout(predicate::str::contains(
            "the move ends and the mover plays again",
        ));
}

/// `explain` output, compared with `tests/golden/explain/<variant>.txt` (the rules hash is
/// masked; `SOWLAB_BLESS=1` rewrites the files — read them before committing).
#[test]
fn explain_output_matches_its_golden_files() {
    for variant in ["hoyito-iii", "oware", "kalah"] {
        let out = sowlab()
            .args(["explain", &format!("variants/{variant}.sow")])
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let text = text.replace(&super::util::variant(variant).hash(), "<hash>");
        super::util::assert_golden(&format!("tests/golden/explain/{variant}.txt"), &text);
    }
}
