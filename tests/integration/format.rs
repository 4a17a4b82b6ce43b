//! `sowlab fmt`: one layout, every comment kept, idempotent, the rules unchanged.

use std::path::{Path, PathBuf};

use predicates::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sowlab::lang;
use sowlab::source::SourceFile;

use super::util::{path, sowlab};

/// Every rule file of the repository that parses: the shipped variants, the golden cases' own,
/// the bad files whose errors are not syntax errors and the files with warnings.
fn rule_files() -> Vec<PathBuf> {
    let roots = [
        path("variants"),
        path("tests/golden/corners"),
        path("tests/bad"),
        path("tests/warn"),
    ];
    lang::variant_files(&roots)
        .expect("the folders exist")
        .files
}

fn formatted(file: &Path) -> Option<(String, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    let source = SourceFile::new(file.display().to_string(), text.clone());
    lang::format_source(&source).ok().map(|f| (text, f))
}

fn comments(text: &str) -> Vec<&str> {
    // Good enough for these files: no `#` inside their texts but in comments.
    text.lines()
        .filter_map(|l| l.find('#').map(|i| l[i..].trim_end()))
        .collect()
}

#[test]
fn every_shipped_variant_is_formatted() {
    let files = lang::variant_files(&[path("variants")]).unwrap().files;
    assert!(files.len() >= 8);
    for file in files {
        let (text, formatted) = formatted(&file).expect("shipped variants parse");
        assert_eq!(
            text,
            formatted,
            "{} is not formatted: run `sowlab fmt variants`",
            file.display()
        );
    }
}

#[test]
fn formatting_keeps_every_comment_and_the_rules_and_is_idempotent() {
    let mut checked = 0;
    for file in rule_files() {
        let Some((text, once)) = formatted(&file) else {
            continue;
        };
        checked += 1;
        let twice = lang::format_source(&SourceFile::new("again", once.clone())).unwrap();
        assert_eq!(
            once,
            twice,
            "{}: formatting twice changes it",
            file.display()
        );
        assert_eq!(
            comments(&text),
            comments(&once),
            "{}: comments",
            file.display()
        );
        let dir = file.parent().unwrap();
        let before = lang::compile_text("a.sow", &text, dir);
        let after = lang::compile_text("a.sow", &once, dir);
        match (before, after) {
            (Ok(a), Ok(b)) => assert_eq!(a.hash(), b.hash(), "{}: rules changed", file.display()),
            (Err(_), Err(_)) => {}
            _ => panic!("{}: formatting changed whether it compiles", file.display()),
        }
    }
    assert!(checked > 60, "only {checked} files parsed");
}

#[test]
fn fmt_check_lists_unformatted_files_and_exits_1_fmt_rewrites_them() {
    let dir = tempfile::tempdir().unwrap();
    let messy = dir.path().join("messy.sow");
    let tidy = dir.path().join("tidy.sow");
    std::fs::write(
        &messy,
        "game \"M\"{source:\"s\" region:\"r\"}  # why\nboard{holes:6}\n",
    )
    .unwrap();
    std::fs::write(&tidy, "game \"T\" {\n  source: \"s\"\n}\n").unwrap();
    sowlab()
        .args(["fmt", "--check"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("messy.sow").and(predicate::str::contains("tidy").not()))
        .stderr(predicate::str::contains("1 of 2 file(s) are not formatted"));
    assert!(std::fs::read_to_string(&messy)
        .unwrap()
        .starts_with("game \"M\"{"));
    sowlab().arg("fmt").arg(&messy).assert().success();
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        "game \"M\" {\n  source: \"s\"\n  region: \"r\"\n}  # why\n\nboard {\n  holes: 6\n}\n"
    );
    sowlab()
        .args(["fmt", "--check"])
        .arg(dir.path())
        .assert()
        .success();
    // Nothing is left beside the files.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn fmt_leaves_a_file_with_syntax_errors_untouched_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.sow");
    let text = "game \"B\" { source: \"s\" }\nboard { holes 6 }\n";
    std::fs::write(&broken, text).unwrap();
    sowlab()
        .arg("fmt")
        .arg(&broken)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("broken.sow:2:15"));
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), text);
}

/// `text` spaced differently wherever the language ignores spacing: each run of blanks
/// outside texts and comments becomes another (a space, several, a tab, a line break, a blank
/// line, a break and an indent; always a break after a comment, which ends at one), and
/// blanks may appear before `:`, `,`, `{` and `}`. The words, texts and comments stay.
fn respace(text: &str, rng: &mut ChaCha8Rng) -> String {
    const BLANKS: [&str; 6] = [" ", "   ", " \t", "\n", "\n\n", "\n      "];
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    let mut after_comment = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push(c);
                while let Some(c) = chars.next() {
                    out.push(c);
                    match c {
                        '\\' => out.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '#' => {
                out.push(c);
                while let Some(c) = chars.next_if(|&c| c != '\n') {
                    out.push(c);
                }
                after_comment = true;
                continue;
            }
            c if c.is_whitespace() => {
                while chars.next_if(|c| c.is_whitespace()).is_some() {}
                let pick = if after_comment {
                    BLANKS[rng.gen_range(3..BLANKS.len())]
                } else {
                    BLANKS[rng.gen_range(0..BLANKS.len())]
                };
                out.push_str(pick);
            }
            ':' | ',' | '{' | '}' => {
                if !out.ends_with(char::is_whitespace) && rng.gen_bool(0.3) {
                    out.push_str(BLANKS[rng.gen_range(0..BLANKS.len())]);
                }
                out.push(c);
            }
            c => out.push(c),
        }
        after_comment = false;
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Regression (issue 29): `holes  :\n6 per row` was still listed by `fmt --check` after
    /// `fmt`. Any spacing of any shipped file formats to a text that formatting leaves alone,
    /// with the same rules.
    #[test]
    fn formatting_any_spacing_of_a_shipped_file_is_idempotent(pick in 0usize..1000, seed: u64) {
        let files = lang::variant_files(&[path("variants")]).unwrap().files;
        let file = &files[pick % files.len()];
        let text = std::fs::read_to_string(file).unwrap();
        let spaced = respace(&text, &mut ChaCha8Rng::seed_from_u64(seed));
        let source = SourceFile::new(file.display().to_string(), spaced.clone());
        let once = lang::format_source(&source)
            .unwrap_or_else(|e| panic!("{}: respaced, it no longer parses:\n{}\n{spaced}", file.display(), e.render(false)));
        let twice = lang::format_source(&SourceFile::new("again", once.clone())).unwrap();
        proptest::prop_assert_eq!(&once, &twice, "{}, spaced as\n{}", file.display(), spaced);
        let dir = file.parent().unwrap();
        let rules = |t: &str| lang::compile_text("a.sow", t, dir).map(|r| r.hash()).ok();
        proptest::prop_assert_eq!(rules(&text), rules(&once), "{}: the rules changed", file.display());
    }
}
