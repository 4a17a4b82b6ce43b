//! Diagnostics: every kind of compile error, as the user sees it.
//!
//! `tests/bad/<kind>.sow` is a deliberately broken variant file and `tests/bad/<kind>.stderr` the
//! report `sowlab check` prints for it (`CompileErrors::render(false)`, paths relative to the
//! repository root). `SOWLAB_BLESS=1 cargo test --test integration diagnostics` rewrites the
//! `.stderr` files from the current output: read every one before committing it.
//!
//! Besides the byte-for-byte comparison, [`EXPECTED`] says for every file which errors it must
//! give, where (file, line, column and the exact text under the caret) and what they must say.
//! A few files give a wrong or misleading report today because of bugs in `src/`; they are in
//! [`KNOWN_SRC_BUGS`], have no `.stderr` (none is blessed for them), and are checked against the
//! right report by the ignored test `known_src_bugs_are_fixed`
//! (`cargo test --test integration diagnostics -- --ignored`).

use std::path::{Path, PathBuf};

use sowlab::lang::{compile_path, CompileError, CompileErrorKind, CompileErrors};

use crate::util;

/// Files whose report is wrong today, with what is wrong. Take a file off this list once
/// `src/` is fixed, bless, and read its new `.stderr`.
const KNOWN_SRC_BUGS: &[(&str, &str)] = &[
    (
        "syntax-missing-colon",
        "the caret is under `holes` (where the rule starts) instead of under `6` (where `:` is \
         missing); the expected list names the whitespace and comment tokens",
    ),
    ("syntax-misspelt-keyword", "the expected list names the whitespace and comment tokens, raw"),
    ("syntax-unknown-block", "the expected list names the whitespace and comment tokens, raw"),
    ("syntax-garbage-at-end", "the expected list names the whitespace and comment tokens, raw"),
    (
        "syntax-unterminated-string",
        "says ``unexpected `\\\"`; expected `\"` or a quoted text`` at the opening quote instead of \
         saying that the text is never closed",
    ),
    ("duplicate", "the `first given here` label runs onto the next rule (rule spans end after the trailing blanks)"),
    ("out-of-range-holes", "the span runs onto the next rule: a two-line bracket instead of a caret"),
    ("contradiction-counts", "the span of `count is 4` runs onto the next rule"),
    ("capture-missing-on", "the span of the capture header runs onto its first rule"),
    (
        "impossible-count",
        "the span runs onto the next rule, and `count is 99` also gives a second, spurious \
         `no count passes all of its count tests`",
    ),
    (
        "several-errors",
        "spans run onto the next rule, and the contradiction inside the capture that lacks `on:` is \
         never reported",
    ),
];

/// One error a bad file must give.
struct Expect {
    /// The diagnostic code, `sowlab::...`.
    code: &'static str,
    /// The file the error is in, if not the bad file itself.
    file: Option<&'static str>,
    /// `line:column`, 1-based.
    at: &'static str,
    /// The exact source text under the primary label; any one of these.
    under: &'static [&'static str],
    /// The text under the secondary label (`first given here`), if there is one.
    related: Option<&'static str>,
    /// Texts the rendered report must contain.
    says: &'static [&'static str],
    /// Texts it must not contain.
    says_not: &'static [&'static str],
}

const fn at(code: &'static str, at: &'static str, under: &'static [&'static str]) -> Expect {
    Expect {
        code,
        file: None,
        at,
        under,
        related: None,
        says: &[],
        says_not: &[],
    }
}

impl Expect {
    const fn says(mut self, says: &'static [&'static str]) -> Expect {
        self.says = says;
        self
    }
    const fn says_not(mut self, says_not: &'static [&'static str]) -> Expect {
        self.says_not = says_not;
        self
    }
    const fn related(mut self, related: &'static str) -> Expect {
        self.related = Some(related);
        self
    }
    const fn in_file(mut self, file: &'static str) -> Expect {
        self.file = Some(file);
        self
    }
}

const SYNTAX: &str = "sowlab::syntax";

/// Every bad file and the errors it must give (in any order).
const EXPECTED: &[(&str, &[Expect])] = &[
    (
        "capture-missing-on",
        &[at(
            "sowlab::capture::missing",
            "4:1",
            &["capture \"casa\"", "capture \"casa\" {"],
        )
        .says(&["capture `casa` needs `on:`"])],
    ),
    (
        "contradiction-counts",
        &[
            at("sowlab::condition::contradiction", "6:21", &["count is 4"])
                .says(&["this condition can never hold"]),
        ],
    ),
    (
        "contradiction-sides",
        &[at(
            "sowlab::condition::contradiction",
            "6:20",
            &["opponent side"],
        )
        .says(&["this condition can never hold: `own side` and `opponent side`"])],
    ),
    (
        "duplicate",
        &[at("sowlab::duplicate", "7:3", &["holes: 7 per row"])
            .related("holes: 6 per row")
            .says(&[
                "`holes` is given twice",
                "first given here",
                "give each rule once",
            ])],
    ),
    (
        "ends-mid-lap",
        &[at(
            "sowlab::capture::ends_mid_lap",
            "10:3",
            &["then: sowing ends"],
        )
        .says(&[
            "a capture on a passing drop cannot end the sowing",
            "use `on: last drop of a lap`",
        ])],
    ),
    (
        "extends-cycle",
        &[at("sowlab::extends::cycle", "2:9", &["\"a.sow\""])
            .in_file("tests/bad/cycle/b.sow")
            .says(&[
                "`a.sow` extends itself",
                "tests/bad/cycle/a.sow",
                "tests/bad/cycle/b.sow",
            ])],
    ),
    (
        "extends-unreadable",
        &[at(
            "sowlab::extends::unreadable",
            "2:9",
            &["\"no-such-parent.sow\""],
        )
        .says(&["cannot read `tests/bad/no-such-parent.sow`"])],
    ),
    (
        "impossible-count",
        &[at(
            "sowlab::condition::impossible_count",
            "8:7",
            &["count is 99"],
        )
        .says(&["a hole can never hold 99: the game has 48 seeds"])],
    ),
    (
        "layout-length",
        &[at("sowlab::board::layout", "6:3", &["layout: 4 4 4"])
            .says(&["the layout gives 3 holes but the board has 12"])],
    ),
    (
        "needs-sown-stores",
        &[at("sowlab::needs", "7:3", &["extra turn: in own store"])
            .says(&["`extra turn: in own store` needs `stores: sown`"])],
    ),
    (
        "no-such-capture",
        &[
            at("sowlab::capture::no_such", "10:1", &["no capture \"x\""])
                .says(&["there is no capture `x` to remove"]),
        ],
    ),
    (
        "number-too-large",
        &[at("sowlab::out_of_range", "5:10", &["99999999999"]).says(&["not 99999999999"])],
    ),
    (
        "out-of-range-holes",
        &[at("sowlab::out_of_range", "5:3", &["holes: 40 per row"])
            .says(&["holes per row must be between 1 and 16, not 40"])],
    ),
    (
        "several-errors",
        &[
            at(
                "sowlab::game::unknown_field",
                "3:3",
                &["sorce: \"tests/bad\""],
            )
            .says(&["did you mean `source`?"]),
            at("sowlab::out_of_range", "7:3", &["holes: 0 per row"])
                .says(&["holes per row must be between 1 and 16, not 0"]),
            at("sowlab::duplicate", "9:3", &["seeds: 5 per hole"])
                .related("seeds: 4 per hole")
                .says(&["`seeds` is given twice"]),
            at(
                "sowlab::capture::missing",
                "12:1",
                &["capture \"nowhere\"", "capture \"nowhere\" {"],
            )
            .says(&["capture `nowhere` needs `on:`"]),
            at(
                "sowlab::condition::contradiction",
                "13:20",
                &["opponent side"],
            )
            .says(&["`own side` and `opponent side`"]),
            at(
                "sowlab::capture::no_such",
                "16:1",
                &["no capture \"ghost\""],
            )
            .says(&["there is no capture `ghost` to remove"]),
            at(
                "sowlab::reading",
                "19:3",
                &["move cap: 2000, to owners     reading R99", "R99"],
            )
            .says(&["there is no reading R99"]),
        ],
    ),
    (
        "syntax-garbage-at-end",
        &[at(SYNTAX, "5:1", &["}"]).says(&["unexpected `}`", "end of file"])],
    ),
    (
        "syntax-missing-colon",
        &[at(SYNTAX, "5:9", &["6"]).says(&["expected `:`"])],
    ),
    (
        "syntax-misspelt-keyword",
        &[at(SYNTAX, "6:3", &["rellay"]).says(&["unexpected `rellay`", "did you mean `relay`?"])],
    ),
    (
        "syntax-unknown-block",
        &[at(SYNTAX, "6:1", &["players"]).says(&["unexpected `players`", "`sowing`"])],
    ),
    (
        "syntax-unterminated-string",
        &[at(SYNTAX, "3:11", &["\""]).says_not(&["expected `\"` or a quoted text"])],
    ),
    (
        "unknown-field",
        &[at(
            "sowlab::game::unknown_field",
            "3:3",
            &["sorce: \"tests/bad\""],
        )
        .says(&["unknown provenance field `sorce`", "did you mean `source`?"])],
    ),
    (
        "unknown-reading",
        &[at(
            "sowlab::reading",
            "5:3",
            &["holes: 6 per row      reading R17", "R17"],
        )
        .says(&["there is no reading R17; readings are R1 to R16"])],
    ),
];

// ------------------------------------------------------------------------------ helpers

/// The bad files, as stems (`duplicate` for `tests/bad/duplicate.sow`), sorted.
fn bad_files() -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(util::path("tests/bad"))
        .expect("tests/bad exists")
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sow"))
        .map(|p| {
            p.file_stem()
                .expect("a file name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    stems.sort();
    stems
}

fn known_bug(stem: &str) -> Option<&'static str> {
    KNOWN_SRC_BUGS
        .iter()
        .find(|(s, _)| *s == stem)
        .map(|(_, why)| *why)
}

fn stderr_path(stem: &str) -> PathBuf {
    util::path(&format!("tests/bad/{stem}.stderr"))
}

/// The repository root as written in paths the compiler builds: as given and canonical, each
/// with a trailing slash.
fn root_prefixes() -> Vec<String> {
    let root = util::root();
    let mut prefixes = vec![format!("{}/", root.display())];
    if let Ok(canonical) = root.canonicalize() {
        prefixes.push(format!("{}/", canonical.display()));
    }
    prefixes.sort_by_key(|p| std::cmp::Reverse(p.len()));
    prefixes
}

fn relative(text: &str) -> String {
    root_prefixes()
        .iter()
        .fold(text.to_string(), |t, prefix| t.replace(prefix.as_str(), ""))
}

/// Compiles `tests/bad/<stem>.sow`, which must fail, with every path in the errors made relative
/// to the repository root: file names, `extends` targets, and the canonical (absolute) paths of an
/// `extends` cycle. Done before rendering, so line wrapping does not depend on where the
/// repository is checked out.
fn compile_bad(stem: &str) -> CompileErrors {
    let file = util::path(&format!("tests/bad/{stem}.sow"));
    let errors = match compile_path(&file, &[]) {
        Ok(rules) => panic!(
            "tests/bad/{stem}.sow compiled (as {:?}) but must not",
            rules.provenance.name
        ),
        Err(errors) => errors,
    };
    assert!(
        !errors.0.is_empty(),
        "tests/bad/{stem}.sow: Err with no error in it"
    );
    CompileErrors(errors.0.into_iter().map(relative_error).collect())
}

fn relative_error(mut error: CompileError) -> CompileError {
    error.file.name = relative(&error.file.name);
    error.kind = match error.kind {
        CompileErrorKind::Unreadable { path, reason } => CompileErrorKind::Unreadable {
            path: relative(&path),
            reason,
        },
        CompileErrorKind::ExtendsCycle { path, chain } => CompileErrorKind::ExtendsCycle {
            path: relative(&path),
            chain: relative(&chain),
        },
        other => other,
    };
    error
}

fn render_one(error: &CompileError) -> String {
    CompileErrors(vec![error.clone()]).render(false)
}

/// A line-by-line comparison, for a failure message.
fn diff(expected: &str, got: &str) -> String {
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    let mut out = String::new();
    for i in 0..e.len().max(g.len()) {
        match (e.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => out.push_str(&format!("   {a}\n")),
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!("-  {a}\n"));
                }
                if let Some(b) = b {
                    out.push_str(&format!("+  {b}\n"));
                }
            }
        }
    }
    if expected.ends_with('\n') != got.ends_with('\n') {
        out.push_str("(the two differ in the final line end)\n");
    }
    format!("--- expected\n+++ got\n{out}")
}

/// Checks `errors` (of `tests/bad/<stem>.sow`) against [`EXPECTED`]; returns every problem.
///
/// Every span the parser gives today ends after the blanks that follow its text (pest's implicit
/// whitespace), so `lenient` compares the text under a label without its trailing blanks and
/// only requires that the report draws no multi-line bracket; strict, the span must be exact.
fn problems(stem: &str, errors: &CompileErrors, lenient: bool) -> Vec<String> {
    let visible = |text: &str| -> String {
        if lenient {
            text.trim_end().to_string()
        } else {
            text.to_string()
        }
    };
    let mut problems = Vec::new();
    let Some((_, expected)) = EXPECTED.iter().find(|(s, _)| *s == stem) else {
        return vec![format!("tests/bad/{stem}.sow is not described in EXPECTED")];
    };
    let own = format!("tests/bad/{stem}.sow");
    // Generic: where it is, a caret on one line, a clean message.
    for error in &errors.0 {
        let (line, column) = error.line_column();
        let rendered = render_one(error);
        let header = format!("[{}:{line}:{column}]", error.file.name);
        if !rendered.contains(&header) {
            problems.push(format!("the report does not name {header}:\n{rendered}"));
        }
        let message = error.kind.to_string();
        if message.chars().any(|c| c.is_control() || c == '\u{feff}') || message.contains("``") {
            problems.push(format!(
                "the message has raw control characters or empty quotes: {message:?}"
            ));
        }
        let text = &error.file.text;
        let under =
            visible(&text[error.span.start.min(text.len())..error.span.end.min(text.len())]);
        if under.contains('\n') || rendered.contains("╭─▶") {
            problems.push(format!(
                "{}:{line}:{column}: the label spans lines: {under:?}",
                error.file.name
            ));
        }
        if let Some((span, _)) = error.related {
            let related = visible(&text[span.start..span.end]);
            if related.contains('\n') {
                problems.push(format!(
                    "{}:{line}:{column}: the related label spans lines: {related:?}",
                    error.file.name
                ));
            }
        }
    }
    // Specific: each expected error is there, exactly once, and nothing else.
    let mut unmatched: Vec<&CompileError> = errors.0.iter().collect();
    for want in expected.iter() {
        let file = want.file.unwrap_or(&own);
        let found = unmatched.iter().position(|e| {
            let (line, column) = e.line_column();
            e.kind.code() == want.code
                && e.file.name == file
                && format!("{line}:{column}") == want.at
        });
        let Some(i) = found else {
            problems.push(format!("no `{}` error at {file}:{}", want.code, want.at));
            continue;
        };
        let error = unmatched.remove(i);
        let text = &error.file.text;
        let under =
            visible(&text[error.span.start.min(text.len())..error.span.end.min(text.len())]);
        if !want.under.contains(&under.as_str()) {
            problems.push(format!(
                "{file}:{}: the label is under {under:?}, expected one of {:?}",
                want.at, want.under
            ));
        }
        match (want.related, error.related) {
            (None, None) => {}
            (Some(wanted), Some((span, _))) if visible(&text[span.start..span.end]) == wanted => {}
            (wanted, got) => {
                let got = got.map(|(span, _)| text[span.start..span.end].to_string());
                problems.push(format!(
                    "{file}:{}: the related label is under {got:?}, expected {wanted:?}",
                    want.at
                ));
            }
        }
        let rendered = render_one(error);
        for says in want.says {
            if !rendered.contains(says) {
                problems.push(format!(
                    "{file}:{}: the report does not say {says:?}:\n{rendered}",
                    want.at
                ));
            }
        }
        for says in want.says_not {
            if rendered.contains(says) {
                problems.push(format!(
                    "{file}:{}: the report says {says:?}:\n{rendered}",
                    want.at
                ));
            }
        }
    }
    for extra in unmatched {
        problems.push(format!("an unexpected error: {extra}"));
    }
    problems
}

// ------------------------------------------------------------------------------ tests

#[test]
fn every_bad_file_is_described_and_every_description_has_a_file() {
    let files = bad_files();
    assert!(
        files.len() >= 20,
        "tests/bad has only {} files",
        files.len()
    );
    for stem in &files {
        assert!(
            EXPECTED.iter().any(|(s, _)| s == stem),
            "tests/bad/{stem}.sow is not described in EXPECTED"
        );
    }
    let listed = EXPECTED
        .iter()
        .map(|(s, _)| *s)
        .chain(KNOWN_SRC_BUGS.iter().map(|(s, _)| *s));
    for stem in listed {
        assert!(
            files.iter().any(|f| f == stem),
            "{stem} is listed but tests/bad/{stem}.sow does not exist"
        );
    }
}

/// Every compile error kind that a file can cause has a bad file (`--set` errors are tested
/// through the command line below).
#[test]
fn every_error_kind_has_a_bad_file() {
    let mut codes: Vec<&str> = EXPECTED
        .iter()
        .flat_map(|(_, e)| e.iter().map(|e| e.code))
        .collect();
    codes.sort_unstable();
    codes.dedup();
    for code in [
        "sowlab::syntax",
        "sowlab::extends::unreadable",
        "sowlab::extends::cycle",
        "sowlab::duplicate",
        "sowlab::game::unknown_field",
        "sowlab::out_of_range",
        "sowlab::board::layout",
        "sowlab::condition::impossible_count",
        "sowlab::condition::contradiction",
        "sowlab::capture::missing",
        "sowlab::capture::ends_mid_lap",
        "sowlab::needs",
        "sowlab::capture::no_such",
        "sowlab::reading",
    ] {
        assert!(codes.contains(&code), "no bad file gives {code}");
    }
}

/// The golden test: each bad file's report, byte for byte. `SOWLAB_BLESS=1` rewrites them.
#[test]
fn bad_files_render_as_their_stderr_files() {
    let bless = std::env::var_os("SOWLAB_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for stem in bad_files() {
        let got = compile_bad(&stem).render(false);
        let path = stderr_path(&stem);
        if let Some(why) = known_bug(&stem) {
            // No golden is blessed for a report known to be wrong.
            eprintln!("tests/bad/{stem}.sow: golden comparison skipped, known bug in src/: {why}");
            if path.exists() {
                failures.push(format!(
                    "tests/bad/{stem}.stderr exists but {stem} is in KNOWN_SRC_BUGS: take it off the list if the bug is fixed"
                ));
            }
            continue;
        }
        if bless {
            std::fs::write(&path, &got)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == got => {}
            Ok(expected) => failures.push(format!("tests/bad/{stem}.sow: the report differs from its .stderr\n{}", diff(&expected, &got))),
            Err(e) => failures.push(format!(
                "tests/bad/{stem}.stderr: {e}; run `SOWLAB_BLESS=1 cargo test --test integration diagnostics` and read it. It would be:\n{got}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Each file gives the errors it is meant to, at the right spot, saying the right thing.
#[test]
fn bad_files_point_at_the_right_spot() {
    let mut failures = Vec::new();
    for stem in bad_files() {
        let errors = compile_bad(&stem);
        if known_bug(&stem).is_some() {
            // Known to be off today (see `known_src_bugs_are_fixed`); still, the first error
            // expected must be among those given.
            let (_, expected) = EXPECTED
                .iter()
                .find(|(s, _)| *s == stem)
                .expect("described");
            let codes: Vec<&str> = errors.0.iter().map(|e| e.kind.code()).collect();
            if !codes.contains(&expected[0].code) {
                failures.push(format!(
                    "tests/bad/{stem}.sow: no {} error among {codes:?}",
                    expected[0].code
                ));
            }
            continue;
        }
        for p in problems(&stem, &errors, true) {
            failures.push(format!("tests/bad/{stem}.sow: {p}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The reports that are wrong today, against what they should be. Run with `--ignored`; once a
/// file passes here, take it off [`KNOWN_SRC_BUGS`] and bless its `.stderr`.
#[test]
#[ignore = "bugs in src/ (see KNOWN_SRC_BUGS)"]
fn known_src_bugs_are_fixed() {
    let mut failures = Vec::new();
    for (stem, why) in KNOWN_SRC_BUGS {
        let errors = compile_bad(stem);
        let problems = problems(stem, &errors, false);
        if !problems.is_empty() {
            failures.push(format!(
                "tests/bad/{stem}.sow ({why}):\n  {}\n{}",
                problems.join("\n  "),
                errors.render(false)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The other messages known to be wrong: they come from `--set` and from numbers too large to
/// store, not from a bad file of their own.
#[test]
#[ignore = "bugs in src/: misleading out-of-range messages"]
fn out_of_range_messages_give_the_number_written() {
    // `reading R999`: 999 is in 0..=65535, yet the message says it is not, and calls it
    // 18446744073709551615.
    let errors = sowlab::lang::compile_text(
        "r.sow",
        "board { holes: 6 per row reading R999 }",
        Path::new("."),
    )
    .expect_err("R999 is no reading");
    let message = errors.to_string();
    assert!(
        message.contains("999") && !message.contains("18446744073709551615"),
        "{message}"
    );
    // A number of 30 digits is reported as u64::MAX.
    let errors = sowlab::lang::compile_text(
        "n.sow",
        "board { holes: 999999999999999999999999999999 per row }",
        Path::new("."),
    )
    .expect_err("too large");
    assert!(
        errors
            .to_string()
            .contains("not 999999999999999999999999999999"),
        "{errors}"
    );
    // `--set holes=abc` says "not 0".
    let errors = compile_path(
        &util::path("variants/kalah.sow"),
        &[("holes".into(), "abc".into())],
    )
    .expect_err("abc");
    assert!(errors.to_string().contains("abc"), "{errors}");
}

// ------------------------------------------------------------------------------ the binary

/// `sowlab check` prints exactly the blessed report, then a summary line, and exits 1.
#[test]
fn check_prints_the_report_and_exits_1() {
    let mut checked = 0;
    for stem in bad_files() {
        let path = stderr_path(&stem);
        let Ok(expected) = std::fs::read_to_string(&path) else {
            continue;
        };
        let file = format!("tests/bad/{stem}.sow");
        let output = util::sowlab()
            .args(["check", &file])
            .output()
            .expect("sowlab runs");
        let stderr = relative(&String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(1), "{file}: {stderr}");
        assert!(
            output.stdout.is_empty(),
            "{file}: stdout {:?}",
            String::from_utf8_lossy(&output.stdout)
        );
        assert!(!stderr.contains("panicked"), "{file}: {stderr}");
        if stem == "extends-cycle" {
            // Its message is wrapped where the absolute paths make it wrap; only the pieces.
            assert!(stderr.contains("[tests/bad/cycle/b.sow:2:9]"), "{stderr}");
            continue;
        }
        let want = format!("{expected}1 of 1 file(s) have errors\n");
        assert!(stderr == want, "{file}:\n{}", diff(&want, &stderr));
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} blessed reports");
}

#[test]
fn check_of_a_file_with_a_known_bug_still_exits_1() {
    for (stem, _) in KNOWN_SRC_BUGS {
        let file = format!("tests/bad/{stem}.sow");
        let output = util::sowlab()
            .args(["check", &file])
            .output()
            .expect("sowlab runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{file}: {stderr}");
        assert!(stderr.contains(&format!("[{file}:")), "{file}: {stderr}");
        assert!(!stderr.contains("panicked"), "{file}: {stderr}");
    }
}

fn shipped_variants() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(util::path("variants"))
        .expect("variants/ exists")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sow"))
        .map(|p| {
            format!(
                "variants/{}",
                p.file_name().expect("a name").to_string_lossy()
            )
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no variants/*.sow");
    files
}

#[test]
fn check_accepts_every_shipped_variant() {
    let files = shipped_variants();
    let output = util::sowlab()
        .arg("check")
        .args(&files)
        .output()
        .expect("sowlab runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), files.len(), "{stdout}");
    for (line, file) in lines.iter().zip(&files) {
        assert!(line.starts_with(&format!("ok  {file}  \"")), "{line}");
        assert!(
            line.contains("  rules ") && line.contains("  readings: "),
            "{line}"
        );
    }
}

#[test]
fn check_of_good_and_bad_files_reports_the_bad_and_exits_1() {
    let output = util::sowlab()
        .args([
            "check",
            "variants/kalah.sow",
            "tests/bad/layout-length.sow",
            "variants/oware.sow",
        ])
        .output()
        .expect("sowlab runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(
        stdout.contains("ok  variants/kalah.sow") && stdout.contains("ok  variants/oware.sow"),
        "{stdout}"
    );
    assert!(
        stderr.contains("[tests/bad/layout-length.sow:6:3]"),
        "{stderr}"
    );
    assert!(stderr.ends_with("1 of 3 file(s) have errors\n"), "{stderr}");
}

/// `--set` values out of range or unknown are diagnostics (exit 1 from `check`, exit 2 with one
/// line from `trace`), never a panic.
#[test]
fn bad_settings_are_errors_not_panics() {
    let cases: &[(&str, &str)] = &[
        ("holes=99", "holes per row must be between 1 and 16, not 99"),
        ("holes=0", "holes per row must be between 1 and 16, not 0"),
        ("holes=17", "holes per row must be between 1 and 16, not 17"),
        ("holes=70000", "not 70000"),
        ("holes=99999999999999999999", "a setting's number"),
        ("holes=-3", "a setting's number"),
        ("holes=abc", "a setting's number"),
        (
            "seeds=0",
            "seeds per hole must be between 1 and 1000, not 0",
        ),
        (
            "seeds=1001",
            "seeds per hole must be between 1 and 1000, not 1001",
        ),
        (
            "cap=0",
            "the move cap must be between 1 and 10000000, not 0",
        ),
        (
            "width=3",
            "unknown setting `width`; settings are holes, seeds, starter, cap",
        ),
        ("starter=east", "starter=south, starter=north"),
    ];
    for (set, says) in cases {
        let output = util::sowlab()
            .args(["check", "variants/kalah.sow", "--set", set])
            .output()
            .expect("sowlab runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "--set {set}: {stderr}");
        assert!(
            stderr.contains(says),
            "--set {set}: expected {says:?} in\n{stderr}"
        );
        assert!(stderr.contains("[--set:1:1]"), "--set {set}: {stderr}");
        assert!(!stderr.contains("panicked"), "--set {set}: {stderr}");

        let output = util::sowlab()
            .args([
                "trace",
                "variants/kalah.sow",
                "--random",
                "3",
                "--json",
                "--set",
                set,
            ])
            .output()
            .expect("sowlab runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "trace --set {set}: {stderr}");
        assert!(output.stdout.is_empty(), "trace --set {set}");
        assert_eq!(stderr.lines().count(), 1, "trace --set {set}: {stderr}");
        assert!(
            stderr.starts_with("error: --set:1:1: ") && stderr.contains(says),
            "trace --set {set}: {stderr}"
        );
    }
    // Not KEY=VALUE at all: a usage error.
    let output = util::sowlab()
        .args(["check", "variants/kalah.sow", "--set", "holes"])
        .output()
        .expect("sowlab runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "error: `--set holes` should be KEY=VALUE; keys are holes, seeds, starter, cap"
    );
    // In range, the same variant checks.
    util::sowlab()
        .args([
            "check",
            "variants/kalah.sow",
            "--set",
            "holes=16",
            "--set",
            "seeds=1000",
        ])
        .assert()
        .success();
}

/// A file that is not there: exit 1 and a short report naming it.
#[test]
fn check_of_a_missing_file_exits_1_with_a_short_message() {
    let output = util::sowlab()
        .args(["check", "no-such-variant.sow"])
        .output()
        .expect("sowlab runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(
        stderr.contains("cannot read `no-such-variant.sow`"),
        "{stderr}"
    );
    assert!(stderr.contains("[no-such-variant.sow:1:1]"), "{stderr}");
    assert!(
        stderr.lines().count() <= 8,
        "a long report for a missing file:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");

    // A directory is no file either.
    let output = util::sowlab()
        .args(["check", "variants"])
        .output()
        .expect("sowlab runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot read `variants`"), "{stderr}");

    // Other commands: one line, exit 2.
    let output = util::sowlab()
        .args(["trace", "no-such-variant.sow", "--random", "3"])
        .output()
        .expect("sowlab runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: no-such-variant.sow:1:1: cannot read `no-such-variant.sow`"),
        "{stderr}"
    );
}

/// The report for a path relative to the repository root (as `sowlab check` is usually run) is
/// the one the golden test makes from the absolute path: the normalisation hides nothing.
#[test]
fn relative_paths_give_the_golden_report() {
    let cwd = std::env::current_dir().and_then(|d| d.canonicalize()).ok();
    if cwd != util::root().canonicalize().ok() {
        eprintln!("skipped: the tests do not run from the repository root");
        return;
    }
    for stem in ["layout-length", "extends-unreadable", "unknown-field"] {
        let direct =
            compile_path(Path::new(&format!("tests/bad/{stem}.sow")), &[]).expect_err("a bad file");
        assert_eq!(
            direct.render(false),
            compile_bad(stem).render(false),
            "{stem}"
        );
    }
}
