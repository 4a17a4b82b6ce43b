//! Diagnostics: every kind of compile error, as the user sees it.
//!
//! `tests/bad/<kind>.sow` is a deliberately broken variant file and `tests/bad/<kind>.stderr` the
//! report `sowlab check` prints for it (`CompileErrors::render(false)`, paths relative to the
//! repository root). `SOWLAB_BLESS=1 cargo test --test integration diagnostics` rewrites the
//! `.stderr` files from the current output: read every one before committing it.
//!
//! Besides the byte-for-byte comparison, [`EXPECTED`] says for every file which errors it must
//! give, in which order, where (file, line, column and the exact text under the caret) and what
//! they must say (the exact message and help). Errors that no file can cause (`--set`, a
//! missing top-level file) are checked in process and through the binary further down, and
//! [`every_error_kind_is_exercised`] makes sure no [`CompileErrorKind`] goes untested.

use std::path::{Path, PathBuf};

use miette::Diagnostic;
use sowlab::lang::{compile_path, compile_text, CompileError, CompileErrorKind, CompileErrors};

use crate::util;

/// Reports known to be wrong today because of bugs in `src/`, with what is wrong. Only `--set`
/// values are here (no bad file is): their tests check the right message, and tolerate the wrong
/// one only for the settings listed. Take a setting off the list once `src/` is fixed; the
/// test fails while a fixed setting is still listed.
const KNOWN_SRC_BUGS: &[(&str, &str)] = &[];

/// One error a bad file must give.
struct Expect {
    /// The diagnostic code, `sowlab::...`.
    code: &'static str,
    /// The file the error is in, if not the bad file itself.
    file: Option<&'static str>,
    /// `line:column`, 1-based.
    at: &'static str,
    /// The exact source text under the primary label.
    under: &'static str,
    /// The exact message (`CompileErrorKind`'s `Display`, before the report wraps it).
    message: &'static str,
    /// The exact help line, if there must be one.
    help: Option<&'static str>,
    /// The exact text under the secondary label (`first given here`), if there must be one.
    related: Option<&'static str>,
}

const fn at(
    code: &'static str,
    at: &'static str,
    under: &'static str,
    message: &'static str,
) -> Expect {
    Expect {
        code,
        file: None,
        at,
        under,
        message,
        help: None,
        related: None,
    }
}

impl Expect {
    const fn help(mut self, help: &'static str) -> Expect {
        self.help = Some(help);
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
const DUPLICATE_HELP: &str = "a file may override an inherited rule, but give each rule once";
const READING_HELP: &str =
    "declare a reading of the file's own, from R17, in a `readings` block: `readings { R17: \"...\" }`";

/// Every bad file and the errors it must give, in the order given (by file, then position).
const EXPECTED: &[(&str, &[Expect])] = &[
    (
        "alternatives",
        &[
            at(
                "sowlab::alternative",
                "5:1",
                "alternative R3 \"default\"",
                "an alternative cannot be named `default`: `--set R3=default` chooses the file's own rules",
            ),
            at(
                "sowlab::reading",
                "11:13",
                "R99",
                "there is no reading R99; the shipped readings are R1 to R16 (docs/readings.md)",
            )
            .help(READING_HELP),
            at(
                "sowlab::out_of_range",
                "19:5",
                "move cap: 0, to owners",
                "the move cap must be between 1 and 10000000, not 0",
            ),
        ],
    ),
    (
        "capture-missing-on",
        &[at(
            "sowlab::capture::missing",
            "4:1",
            "capture \"casa\" {",
            "capture `casa` needs `on:`",
        )],
    ),
    (
        "capture-ranges",
        &[
            at(
                "sowlab::out_of_range",
                "7:7",
                "count is 2 to 70",
                "the end of a count range must be between 0 and 63, not 70",
            ),
            at(
                "sowlab::out_of_range",
                "8:56",
                "0",
                "the holes a chain may take must be between 1 and 255, not 0",
            ),
            at(
                "sowlab::out_of_range",
                "9:3",
                "from move: 0",
                "the first move a capture may be made on must be between 1 and 10000000, not 0",
            ),
            at(
                "sowlab::condition::contradiction",
                "14:22",
                "next occupied",
                "this condition can never hold: no count meets `next empty` and `next occupied` at once",
            ),
        ],
    ),
    (
        "capturing-seed-moves-on",
        &[
            at(
                "sowlab::needs",
                "8:3",
                "take: hole and capturing seed",
                "`and capturing seed` needs a capture from the opposite hole (the capturing seed is not in it)",
            ),
            at(
                "sowlab::clash",
                "8:3",
                "take: hole and capturing seed",
                "`take` cannot hold here: `then: the capturing seed moves on` needs the seed left in its hole",
            ),
            at(
                "sowlab::clash",
                "9:3",
                "then: the capturing seed moves on",
                "`then: the capturing seed moves on` cannot hold here: the capture takes the capturing seed (take the opposite hole only)",
            ),
        ],
    ),
    (
        "clash-bear-off",
        &[
            at(
                "sowlab::clash",
                "9:3",
                "bear off: when no hole holds more than 1",
                "`bear off` cannot hold here: under `ring: own row` no seed goes on into the opponent's row",
            ),
            at(
                "sowlab::clash",
                "9:3",
                "bear off: when no hole holds more than 1",
                "`bear off` cannot hold here: the stores are sown, so a seed past the end of the mover's row goes into their store",
            ),
        ],
    ),
    (
        "clash-own-row-sown-by-both",
        &[at(
            "sowlab::clash",
            "7:10",
            "ring: own row",
            "`ring` cannot hold here: the stores are sown by both players, but a lap round the mover's own row never reaches the opponent's store",
        )],
    ),
    (
        "clash-skip-origin-lifted-hole",
        &[
            at(
                "sowlab::clash",
                "5:3",
                "laps start: lifted hole",
                "`laps start` cannot hold here: `skip origin` asks for the lifted hole to be passed over",
            ),
            at(
                "sowlab::clash",
                "6:3",
                "skip origin: always",
                "`skip origin` cannot hold here: laps start in the lifted hole, so the sowing never comes round to it",
            ),
        ],
    ),
    (
        "end-and-match-rules",
        &[
            at(
                "sowlab::out_of_range",
                "7:3",
                "no capture for: 0 moves, to owners",
                "the moves without a capture must be between 1 and 10000000, not 0",
            ),
            at(
                "sowlab::needs",
                "12:3",
                "surplus: opponent holes",
                "`surplus` needs `refill: N per hole` (rounds here start from the layout)",
            ),
            at(
                "sowlab::out_of_range",
                "14:3",
                "first to: 6 rounds",
                "the rounds to win must be between 1 and 5, not 6",
            ),
        ],
    ),
    (
        "house-mid-lap",
        &[
            at(
                "sowlab::needs",
                "5:3",
                "on: every drop but the last of a lap",
                "`on` needs the last drop of a lap or of the move for a house",
            ),
            at(
                "sowlab::capture::missing",
                "9:1",
                "house \"walda\" {",
                "house `walda` needs `on:`",
            ),
            at(
                "sowlab::out_of_range",
                "11:3",
                "limit: 0 per player",
                "the houses per player must be between 1 and 32, not 0",
            ),
        ],
    ),
    (
        "no-such-house",
        &[at(
            "sowlab::house::no_such",
            "4:1",
            "no house \"tuzdyk\"",
            "there is no house `tuzdyk` to remove",
        )],
    ),
    (
        "opening-hole",
        &[
            at(
                "sowlab::sowing::opening",
                "5:3",
                "opening: 8, 2",
                "hole 8 is not south's, whose move it is in the opening",
            ),
            at(
                "sowlab::sowing::opening",
                "5:3",
                "opening: 8, 2",
                "hole 2 is not north's, whose move it is in the opening",
            ),
        ],
    ),
    (
        "previous-winner-no-match",
        &[at(
            "sowlab::needs",
            "5:3",
            "last seeds: at most 4 after each capture, to previous winner",
            "`to previous winner` needs a `match` block: only a match has a previous round",
        )],
    ),
    (
        "shipped-reading",
        &[at(
            "sowlab::reading",
            "5:3",
            "R7: \"no capture when the hole opposite is empty\"",
            "R7 is a shipped reading (docs/readings.md); number the file's own readings from R17",
        )],
    ),
    (
        "sowing-ranges",
        &[
            at(
                "sowlab::out_of_range",
                "6:3",
                "min seeds: 0",
                "min seeds must be between 1 and 48, not 0",
            ),
            at(
                "sowlab::condition::contradiction",
                "7:3",
                "first move: own holes 5 to 2",
                "this condition can never hold: no hole lies between 5 and 2",
            ),
            at(
                "sowlab::condition::contradiction",
                "8:23",
                "7 to 3",
                "this condition can never hold: no count lies between 7 and 3",
            ),
            at(
                "sowlab::out_of_range",
                "9:3",
                "bear off: when no hole holds more than 0",
                "the most seeds a hole holds for bearing off must be between 1 and 48, not 0",
            ),
        ],
    ),
    (
        "contradiction-counts",
        &[at(
            "sowlab::condition::contradiction",
            "6:21",
            "count is 4",
            "this condition can never hold: no count meets `was empty` and `count is 4` at once",
        )],
    ),
    (
        "contradiction-sides",
        &[at(
            "sowlab::condition::contradiction",
            "6:20",
            "opponent side",
            "this condition can never hold: `own side` and `opponent side`",
        )],
    ),
    (
        "duplicate",
        &[at(
            "sowlab::duplicate",
            "7:3",
            "holes: 7 per row",
            "`holes` is given twice",
        )
        .related("holes: 6 per row")
        .help(DUPLICATE_HELP)],
    ),
    (
        "ends-mid-lap",
        &[at(
            "sowlab::capture::ends_mid_lap",
            "10:3",
            "then: sowing ends",
            "a capture on a passing drop cannot end the sowing: seeds are still in hand",
        )
        .help("use `on: last drop of a lap` for a capture that ends the sowing")],
    ),
    (
        "extends-cycle",
        // Only the files in the cycle, not `extends-cycle.sow` that leads into it.
        &[at(
            "sowlab::extends::cycle",
            "2:9",
            "\"a.sow\"",
            "`a.sow` extends itself through `tests/bad/cycle/a.sow` → `tests/bad/cycle/b.sow` → \
             `tests/bad/cycle/a.sow`",
        )
        .in_file("tests/bad/cycle/b.sow")],
    ),
    (
        "extends-not-a-file",
        // A directory: refused before it is opened, as a FIFO or a device would be.
        &[at(
            "sowlab::unreadable",
            "2:9",
            "\"cycle\"",
            "cannot read `tests/bad/cycle`: not a `.sow` file; `extends` names rule files only",
        )],
    ),
    (
        "extends-too-deep",
        // Reported where the chain goes one file too deep, not where it starts.
        &[at(
            "sowlab::extends::too_deep",
            "2:9",
            "\"d17.sow\"",
            "`extends` goes more than 16 files deep",
        )
        .in_file("tests/bad/deep/d16.sow")],
    ),
    (
        "extends-unreadable",
        &[at(
            "sowlab::unreadable",
            "2:9",
            "\"no-such-parent.sow\"",
            "cannot read `tests/bad/no-such-parent.sow`: No such file or directory (os error 2)",
        )],
    ),
    (
        "impossible-count",
        // Only this: no second, spurious contradiction for the same test.
        &[at(
            "sowlab::condition::impossible_count",
            "8:7",
            "count is 99",
            "a hole can never hold 99: the game has 48 seeds",
        )],
    ),
    (
        "layout-length",
        &[at(
            "sowlab::board::layout",
            "6:3",
            "layout: 4 4 4",
            "the layout gives 3 holes but the board has 12",
        )],
    ),
    (
        "end-order",
        &[
            at(
                "sowlab::end::order",
                "7:3",
                "order: singletons, majority, majority, no move",
                "`order` names `singletons`, a rule the game does not have: give it in the `end` block, or leave it out of the order",
            ),
            at(
                "sowlab::end::order",
                "7:3",
                "order: singletons, majority, majority, no move",
                "`order` names `majority`, twice: each rule has one place in the order",
            ),
            at(
                "sowlab::end::order",
                "7:3",
                "order: singletons, majority, majority, no move",
                "`order` names `no move`, but a player who cannot move passes (`no move: pass`): the game does not end then, so there is nothing to order",
            ),
        ],
    ),
    (
        "needs-sown-stores",
        &[at(
            "sowlab::needs",
            "7:3",
            "extra turn: in own store",
            "`extra turn: in own store` needs `stores: sown`",
        )],
    ),
    (
        "no-such-capture",
        &[at(
            "sowlab::capture::no_such",
            "10:1",
            "no capture \"x\"",
            "there is no capture `x` to remove",
        )],
    ),
    (
        "no-game",
        &[at(
            "sowlab::game::missing",
            "2:1",
            "board",
            "no `game` block: a variant needs one, in its file or a file it extends",
        )
        .help("start the file with `game \"name\" { source: \"...\" }`, or `extends` a variant")],
    ),
    (
        "number-too-large",
        &[at(
            "sowlab::too_large",
            "5:10",
            "99999999999",
            "`99999999999` is too large here: at most 65535",
        )],
    ),
    (
        "out-of-range-holes",
        &[at(
            "sowlab::out_of_range",
            "5:3",
            "holes: 40 per row",
            "holes per row must be between 1 and 16, not 40",
        )],
    ),
    (
        "several-errors",
        &[
            at(
                "sowlab::game::unknown_field",
                "3:3",
                "sorce: \"tests/bad\"",
                "unknown provenance field `sorce`",
            )
            .help("did you mean `source`?"),
            at(
                "sowlab::out_of_range",
                "7:3",
                "holes: 0 per row",
                "holes per row must be between 1 and 16, not 0",
            ),
            at(
                "sowlab::duplicate",
                "9:3",
                "seeds: 5 per hole",
                "`seeds` is given twice",
            )
            .related("seeds: 4 per hole")
            .help(DUPLICATE_HELP),
            at(
                "sowlab::capture::missing",
                "12:1",
                "capture \"nowhere\" {",
                "capture `nowhere` needs `on:`",
            ),
            // The capture lacks `on:`, yet its condition is checked.
            at(
                "sowlab::condition::contradiction",
                "13:20",
                "opponent side",
                "this condition can never hold: `own side` and `opponent side`",
            ),
            at(
                "sowlab::capture::no_such",
                "16:1",
                "no capture \"ghost\"",
                "there is no capture `ghost` to remove",
            ),
            at(
                "sowlab::reading",
                "19:41",
                "R99",
                "there is no reading R99; the shipped readings are R1 to R16 (docs/readings.md)",
            )
            .help(READING_HELP),
        ],
    ),
    (
        "syntax-garbage-at-end",
        &[at(
            SYNTAX,
            "5:1",
            "}",
            "unexpected `}`; expected `alternative`, `board`, `capture`, `end`, `feeding`, `game`, `house`, \
             `match`, `no`, `readings`, `sowing` or end of file",
        )],
    ),
    (
        "syntax-missing-colon",
        // Under `6`, where the `:` was due, not under `holes`.
        &[at(SYNTAX, "5:9", "6", "unexpected `6`; expected `:`")],
    ),
    (
        "syntax-misspelt-keyword",
        &[at(
            SYNTAX,
            "6:3",
            "rellay",
            "unexpected `rellay`; expected `after`, `bear`, `direction`, `drop`, `extra`, `first`, \
             `laps`, `locked`, `min`, `opening`, `play`, `reading`, `relay`, `ring`, `skip` or `}`",
        )
        .help("did you mean `relay`?")],
    ),
    (
        "syntax-several",
        // Every one, each where it is, though pest stops at the first.
        &[
            at(SYNTAX, "5:9", "6", "unexpected `6`; expected `:`"),
            at(
                SYNTAX,
                "10:3",
                "rellay",
                "unexpected `rellay`; expected `after`, `bear`, `direction`, `drop`, `extra`, \
                 `first`, `laps`, `locked`, `min`, `opening`, `play`, `relay`, `ring`, `skip` or `}`",
            )
            .help("did you mean `relay`?"),
            at(
                SYNTAX,
                "13:1",
                "players",
                "unexpected `players`; expected `alternative`, `board`, `capture`, `end`, `feeding`, `game`, \
                 `house`, `match`, `no`, `readings`, `sowing` or end of file",
            ),
            at(SYNTAX, "18:17", "to", "unexpected `to`; expected `,`"),
        ],
    ),
    (
        "syntax-unknown-block",
        &[at(
            SYNTAX,
            "6:1",
            "players",
            "unexpected `players`; expected `alternative`, `board`, `capture`, `end`, `feeding`, `game`, \
             `house`, `match`, `no`, `readings`, `sowing` or end of file",
        )],
    ),
    (
        "syntax-unterminated-string",
        // On the opening quote, saying the text is never closed.
        &[at(
            "sowlab::syntax::unclosed_text",
            "3:11",
            "\"",
            "this text is never closed: a closing `\"` is missing",
        )],
    ),
    (
        "unknown-field",
        &[at(
            "sowlab::game::unknown_field",
            "3:3",
            "sorce: \"tests/bad\"",
            "unknown provenance field `sorce`",
        )
        .help("did you mean `source`?")],
    ),
    (
        "unknown-reading",
        // Under `R17` itself, not the whole rule.
        &[at(
            "sowlab::reading",
            "5:33",
            "R17",
            "there is no reading R17; the shipped readings are R1 to R16 (docs/readings.md)",
        )
        .help(READING_HELP)],
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

fn known_bug(setting: &str) -> Option<&'static str> {
    KNOWN_SRC_BUGS
        .iter()
        .find(|(s, _)| *s == setting)
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
/// to the repository root: file names, `extends` targets, and the paths of an `extends` cycle.
/// Done before rendering, so line wrapping does not depend on where the repository is checked
/// out.
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

/// `kalah.sow` with one or more `--set` values, which must fail.
fn compile_with_settings(settings: &[&str]) -> CompileErrors {
    let settings: Vec<(String, String)> = settings
        .iter()
        .map(|s| {
            let (k, v) = s.split_once('=').expect("KEY=VALUE");
            (k.to_string(), v.to_string())
        })
        .collect();
    compile_path(&util::path("variants/kalah.sow"), &settings)
        .expect_err("the settings must be refused")
}

fn render_one(error: &CompileError) -> String {
    CompileErrors(vec![error.clone()]).render(false)
}

fn help_of(error: &CompileError) -> Option<String> {
    Diagnostic::help(error).map(|h| h.to_string())
}

/// The source text under `span`.
fn text_under(error: &CompileError, span: sowlab::source::Span) -> &str {
    let text = &error.file.text;
    &text[span.start.min(text.len())..span.end.min(text.len())]
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

/// What every report must be, whatever its kind: it names `file:line:column`, draws a one-line
/// caret under a spot with no blanks or comment at its ends, the errors come by file and
/// position, and a syntax error lists no blanks or comment tokens as expected.
fn generic_problems(errors: &CompileErrors) -> Vec<String> {
    let mut problems = Vec::new();
    let mut previous: Option<(String, usize)> = None;
    for error in &errors.0 {
        let (line, column) = error.line_column();
        let rendered = render_one(error);
        let place = format!("{}:{line}:{column}", error.file.name);
        let key = (error.file.name.clone(), error.span.start);
        if previous.as_ref().is_some_and(|p| *p > key) {
            problems.push(format!(
                "{place}: the errors are not sorted by file and position"
            ));
        }
        previous = Some(key);
        if !rendered.contains(&format!("[{place}]")) {
            problems.push(format!("the report does not name [{place}]:\n{rendered}"));
        }
        let message = error.kind.to_string();
        if message.chars().any(|c| c.is_control() || c == '\u{feff}') || message.contains("``") {
            problems.push(format!(
                "{place}: the message has raw control characters or empty quotes: {message:?}"
            ));
        }
        if let CompileErrorKind::Syntax { expected, .. } = &error.kind {
            for token in [
                "` `",
                "`\\t`",
                "`\\r`",
                "`\\n`",
                "`#`",
                "feff",
                "WHITESPACE",
                "COMMENT",
            ] {
                if expected.contains(token) {
                    problems.push(format!(
                        "{place}: the expected list names {token}: {expected}"
                    ));
                }
            }
        }
        let spans = std::iter::once(error.span).chain(error.related.map(|(span, _)| span));
        for span in spans {
            let under = text_under(error, span);
            if under.contains('\n') || under.trim() != under || under.contains('#') {
                problems.push(format!(
                    "{place}: a label is not under one spot of one line: {under:?}"
                ));
            }
        }
        if rendered.contains("╭─▶") {
            problems.push(format!("{place}: a label spans lines:\n{rendered}"));
        }
    }
    problems
}

/// Checks `errors` (of `tests/bad/<stem>.sow`) against [`EXPECTED`]; returns every problem.
fn problems(stem: &str, errors: &CompileErrors) -> Vec<String> {
    let Some((_, expected)) = EXPECTED.iter().find(|(s, _)| *s == stem) else {
        return vec![format!("tests/bad/{stem}.sow is not described in EXPECTED")];
    };
    let mut problems = generic_problems(errors);
    let own = format!("tests/bad/{stem}.sow");
    for (i, want) in expected.iter().enumerate() {
        let file = want.file.unwrap_or(&own);
        let place = format!("{file}:{}", want.at);
        let Some(error) = errors.0.get(i) else {
            problems.push(format!("no error #{} (`{}` at {place})", i + 1, want.code));
            continue;
        };
        let (line, column) = error.line_column();
        let got_place = format!("{}:{line}:{column}", error.file.name);
        if error.kind.code() != want.code || got_place != place {
            problems.push(format!(
                "error #{}: `{}` at {got_place}, expected `{}` at {place}",
                i + 1,
                error.kind.code(),
                want.code
            ));
            continue;
        }
        let under = text_under(error, error.span);
        if under != want.under {
            problems.push(format!(
                "{place}: the label is under {under:?}, expected {:?}",
                want.under
            ));
        }
        let message = error.kind.to_string();
        if message != want.message {
            problems.push(format!(
                "{place}: the message is\n  {message:?}\nexpected\n  {:?}",
                want.message
            ));
        }
        let help = help_of(error);
        if help.as_deref() != want.help {
            problems.push(format!(
                "{place}: the help is {help:?}, expected {:?}",
                want.help
            ));
        }
        let related = error.related.map(|(span, _)| text_under(error, span));
        if related != want.related {
            problems.push(format!(
                "{place}: the related label is under {related:?}, expected {:?}",
                want.related
            ));
        }
        if let Some((_, label)) = error.related {
            if label != "first given here" {
                problems.push(format!("{place}: the related label says {label:?}"));
            }
        }
    }
    for extra in errors.0.iter().skip(expected.len()) {
        problems.push(format!("an unexpected error: {extra}"));
    }
    problems
}

/// Every [`CompileErrorKind`] variant by name. The match has no wildcard, so a new kind does
/// not compile until it is named here, and then [`every_error_kind_is_exercised`] asks for a
/// test that gives it.
fn kind_name(kind: &CompileErrorKind) -> &'static str {
    match kind {
        CompileErrorKind::Syntax { .. } => "Syntax",
        CompileErrorKind::UnclosedText => "UnclosedText",
        CompileErrorKind::TooManySyntaxErrors { .. } => "TooManySyntaxErrors",
        CompileErrorKind::Unreadable { .. } => "Unreadable",
        CompileErrorKind::ExtendsCycle { .. } => "ExtendsCycle",
        CompileErrorKind::ExtendsTooDeep { .. } => "ExtendsTooDeep",
        CompileErrorKind::NoGame => "NoGame",
        CompileErrorKind::Duplicate { .. } => "Duplicate",
        CompileErrorKind::UnknownField { .. } => "UnknownField",
        CompileErrorKind::OutOfRange { .. } => "OutOfRange",
        CompileErrorKind::TooLarge { .. } => "TooLarge",
        CompileErrorKind::BadSetting { .. } => "BadSetting",
        CompileErrorKind::LayoutLength { .. } => "LayoutLength",
        CompileErrorKind::ImpossibleCount { .. } => "ImpossibleCount",
        CompileErrorKind::Contradiction { .. } => "Contradiction",
        CompileErrorKind::MissingRule { .. } => "MissingRule",
        CompileErrorKind::EndsMidLap { .. } => "EndsMidLap",
        CompileErrorKind::Needs { .. } => "Needs",
        CompileErrorKind::NoSuchCapture { .. } => "NoSuchCapture",
        CompileErrorKind::UnknownReading { .. } => "UnknownReading",
        CompileErrorKind::UnknownSetting { .. } => "UnknownSetting",
        CompileErrorKind::ShippedReading { .. } => "ShippedReading",
        CompileErrorKind::NoSuchHouse { .. } => "NoSuchHouse",
        CompileErrorKind::OpeningHole { .. } => "OpeningHole",
        CompileErrorKind::Clash { .. } => "Clash",
        CompileErrorKind::Order { .. } => "Order",
        CompileErrorKind::DefaultAlternative { .. } => "DefaultAlternative",
    }
}

const ALL_KINDS: &[&str] = &[
    "DefaultAlternative",
    "Syntax",
    "UnclosedText",
    "TooManySyntaxErrors",
    "Unreadable",
    "ExtendsCycle",
    "ExtendsTooDeep",
    "NoGame",
    "Duplicate",
    "UnknownField",
    "OutOfRange",
    "TooLarge",
    "BadSetting",
    "LayoutLength",
    "ImpossibleCount",
    "Contradiction",
    "MissingRule",
    "EndsMidLap",
    "Needs",
    "NoSuchCapture",
    "UnknownReading",
    "UnknownSetting",
    "ShippedReading",
    "NoSuchHouse",
    "OpeningHole",
    "Clash",
    "Order",
];

// ------------------------------------------------------------------------------ bad files

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
    for (stem, expected) in EXPECTED {
        assert!(
            files.iter().any(|f| f == stem),
            "{stem} is described but tests/bad/{stem}.sow does not exist"
        );
        assert!(!expected.is_empty(), "{stem}: no error expected");
    }
    // Every `.stderr` belongs to a bad file.
    for entry in std::fs::read_dir(util::path("tests/bad")).expect("tests/bad exists") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "stderr") {
            let stem = path
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            assert!(files.contains(&stem), "{} has no .sow", path.display());
        }
    }
}

/// Every error kind is given by a bad file or, for those no file can cause, by `--set` or a
/// missing top-level file.
#[test]
fn every_error_kind_is_exercised() {
    let mut given: Vec<&str> = Vec::new();
    for stem in bad_files() {
        given.extend(compile_bad(&stem).0.iter().map(|e| kind_name(&e.kind)));
    }
    for settings in [&["holes=abc"][..], &["width=3"], &["holes=0"]] {
        given.extend(
            compile_with_settings(settings)
                .0
                .iter()
                .map(|e| kind_name(&e.kind)),
        );
    }
    let missing = compile_path(&util::path("no-such-variant.sow"), &[]).expect_err("missing");
    given.extend(missing.0.iter().map(|e| kind_name(&e.kind)));
    given.extend(many_syntax_errors().0.iter().map(|e| kind_name(&e.kind)));
    for kind in ALL_KINDS {
        assert!(given.contains(kind), "no test gives a {kind} error");
    }
    // The codes in EXPECTED are real ones.
    for (stem, expected) in EXPECTED {
        for want in expected.iter() {
            assert!(want.code.starts_with("sowlab::"), "{stem}: {}", want.code);
        }
    }
}

/// A file of 60 rules without their colons: more syntax errors than are reported.
fn many_syntax_errors() -> CompileErrors {
    let text = format!(
        "game \"Many\" {{ source: \"s\" }}\nboard {{\n{}}}\n",
        "  holes 6\n".repeat(60)
    );
    compile_text("many.sow", &text, &util::path("tests/bad")).expect_err("60 syntax errors")
}

/// Regression (issue 29): `check` stopped at 50 syntax errors without saying so. The 50 are
/// followed by one that says the rest of the file was not checked, where it stopped.
#[test]
fn r29_a_file_with_more_syntax_errors_than_are_shown_says_so() {
    let errors = many_syntax_errors();
    assert_eq!(errors.0.len(), 51);
    assert!(errors.0[..50]
        .iter()
        .all(|e| matches!(e.kind, CompileErrorKind::Syntax { .. })));
    let last = &errors.0[50];
    assert_eq!(
        last.kind.to_string(),
        "stopped after 50 syntax errors; more may follow from here: fix these and check again"
    );
    assert_eq!(last.span.start, errors.0[49].span.start);
}

/// The golden test: each bad file's report, byte for byte. `SOWLAB_BLESS=1` rewrites them.
#[test]
fn bad_files_render_as_their_stderr_files() {
    let bless = std::env::var_os("SOWLAB_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for stem in bad_files() {
        let got = compile_bad(&stem).render(false);
        let path = stderr_path(&stem);
        if bless {
            std::fs::write(&path, &got)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == got => {}
            Ok(expected) => failures.push(format!(
                "tests/bad/{stem}.sow: the report differs from its .stderr\n{}",
                diff(&expected, &got)
            )),
            Err(e) => failures.push(format!(
                "tests/bad/{stem}.stderr: {e}; run `SOWLAB_BLESS=1 cargo test --test integration diagnostics` and read it. It would be:\n{got}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Each file gives the errors it is meant to, in order, at the right spot, saying the right
/// thing.
#[test]
fn bad_files_point_at_the_right_spot() {
    let mut failures = Vec::new();
    for stem in bad_files() {
        let errors = compile_bad(&stem);
        let problems = problems(&stem, &errors);
        if !problems.is_empty() {
            failures.push(format!(
                "tests/bad/{stem}.sow:\n  {}\n{}",
                problems.join("\n  "),
                errors.render(false)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ------------------------------------------------------------------------------ numbers

/// A `game` block, which every variant needs, for the fragments compiled here.
const GAME: &str = "game \"t\" { source: \"a test\" }\n";

/// One error from `text` (after a `game` block), compiled as `t.sow`.
fn one_error(text: &str) -> CompileError {
    let errors = compile_text("t.sow", &format!("{GAME}{text}"), Path::new("."))
        .expect_err("must not compile");
    assert_eq!(errors.0.len(), 1, "{text}:\n{}", errors.render(false));
    errors.0.into_iter().next().expect("one error")
}

/// A place out of the row is one error, whether written alone or in a set.
#[test]
fn a_first_move_place_out_of_the_row_is_one_error() {
    for places in ["7", "1 or 7", "7, 1"] {
        let board = "board { holes: 6 per row  seeds: 4 per hole }";
        let error = one_error(&format!(
            "{board} sowing {{ first move: own holes {places} }}"
        ));
        assert!(error.to_string().contains("not 7"), "{places}: {error}");
    }
}

/// Numbers too large for where they stand name the number as written and the largest allowed
/// there; a reading that fits its place but does not exist is an unknown reading, labelled
/// under the `R..` written.
#[test]
fn too_large_numbers_and_readings_name_what_was_written() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "board { holes: 6 per row reading R999 }",
            "sowlab::reading",
            "R999",
            "there is no reading R999; the shipped readings are R1 to R16 (docs/readings.md)",
        ),
        (
            "board { holes: 6 per row reading R0 }",
            "sowlab::reading",
            "R0",
            "there is no reading R0; the shipped readings are R1 to R16 (docs/readings.md)",
        ),
        (
            "board { holes: 999999999999999999999999999999 per row }",
            "sowlab::too_large",
            "999999999999999999999999999999",
            "`999999999999999999999999999999` is too large here: at most 65535",
        ),
        (
            "board { holes: 65536 per row }",
            "sowlab::too_large",
            "65536",
            "`65536` is too large here: at most 65535",
        ),
        (
            // Fits a u16, so it is only out of range.
            "board { holes: 65535 per row }",
            "sowlab::out_of_range",
            "holes: 65535 per row",
            "holes per row must be between 1 and 16, not 65535",
        ),
        (
            "sowing { drop cap: 99999999999 }",
            "sowlab::too_large",
            "99999999999",
            "`99999999999` is too large here: at most 4294967295",
        ),
        (
            "end { move cap: 4294967296, to owners }",
            "sowlab::too_large",
            "4294967296",
            "`4294967296` is too large here: at most 4294967295",
        ),
    ];
    let mut failures = Vec::new();
    for (text, code, under, message) in cases {
        let error = one_error(text);
        let got = (
            error.kind.code(),
            text_under(&error, error.span),
            error.kind.to_string(),
        );
        if got != (*code, *under, message.to_string()) {
            failures.push(format!(
                "{text}\n  expected {code} under {under:?}: {message}\n  got {} under {:?}: {}",
                got.0, got.1, got.2
            ));
        }
        failures.extend(generic_problems(&CompileErrors(vec![error])));
    }
    // A reading too large for a u16: an error under what was written, never a panic.
    let error = one_error("board { holes: 6 per row reading R70000 }");
    assert_eq!(text_under(&error, error.span), "R70000", "{error}");
    assert!(error.to_string().contains("R70000"), "{error}");
    // `drop cap` takes a u32: its largest value compiles.
    compile_text(
        "t.sow",
        &format!("{GAME}sowing {{ drop cap: 4294967295 }}"),
        Path::new("."),
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ------------------------------------------------------------------------------ settings

/// `--set` values that are refused: the setting, the code and the exact message. Each is
/// reported at `--set:1:1` with the label under the whole `KEY=VALUE`.
const BAD_SETTINGS: &[(&str, &str, &str)] = &[
    (
        "holes=99",
        "sowlab::out_of_range",
        "holes per row must be between 1 and 16, not 99",
    ),
    (
        "holes=0",
        "sowlab::out_of_range",
        "holes per row must be between 1 and 16, not 0",
    ),
    (
        "holes=17",
        "sowlab::out_of_range",
        "holes per row must be between 1 and 16, not 17",
    ),
    (
        "holes=70000",
        "sowlab::set",
        "`--set holes=70000`: at most 16",
    ),
    (
        "holes=99999999999999999999",
        "sowlab::set",
        "`--set holes=99999999999999999999`: at most 16",
    ),
    (
        "holes=-3",
        "sowlab::set",
        "`--set holes=-3`: not a whole number",
    ),
    (
        "holes=abc",
        "sowlab::set",
        "`--set holes=abc`: not a whole number",
    ),
    (
        "holes=",
        "sowlab::set",
        "`--set holes=`: not a whole number",
    ),
    (
        "seeds=0",
        "sowlab::out_of_range",
        "seeds per hole must be between 1 and 1000, not 0",
    ),
    (
        "seeds=1001",
        "sowlab::out_of_range",
        "seeds per hole must be between 1 and 1000, not 1001",
    ),
    (
        "seeds=70000",
        "sowlab::set",
        "`--set seeds=70000`: at most 1000",
    ),
    (
        "seeds=4.5",
        "sowlab::set",
        "`--set seeds=4.5`: not a whole number",
    ),
    (
        "cap=0",
        "sowlab::out_of_range",
        "the move cap must be between 1 and 10000000, not 0",
    ),
    (
        "cap=10000001",
        "sowlab::out_of_range",
        "the move cap must be between 1 and 10000000, not 10000001",
    ),
    (
        "cap=99999999999",
        "sowlab::set",
        "`--set cap=99999999999`: at most 10000000",
    ),
    (
        "width=3",
        "sowlab::set",
        "unknown setting `width`; settings are holes, seeds, starter, cap, R<n>",
    ),
    (
        "starter=east",
        "sowlab::set",
        "`--set starter=east`: the starter is `south` or `north`",
    ),
];

/// In process: each refused setting gives exactly its error, where it was given.
#[test]
fn bad_settings_give_their_error() {
    let mut failures = Vec::new();
    let mut fixed = Vec::new();
    for (set, code, message) in BAD_SETTINGS {
        let errors = compile_with_settings(&[set]);
        failures.extend(
            generic_problems(&errors)
                .into_iter()
                .map(|p| format!("--set {set}: {p}")),
        );
        let [error] = &errors.0[..] else {
            failures.push(format!(
                "--set {set}: not one error:\n{}",
                errors.render(false)
            ));
            continue;
        };
        if error.file.name != "--set"
            || error.line_column() != (1, 1)
            || text_under(error, error.span) != *set
        {
            failures.push(format!(
                "--set {set}: at {}:{:?} under {:?}",
                error.file.name,
                error.line_column(),
                text_under(error, error.span)
            ));
        }
        if error.kind.code() != *code {
            failures.push(format!(
                "--set {set}: code {}, expected {code}",
                error.kind.code()
            ));
        }
        let got = error.kind.to_string();
        match (got == *message, known_bug(set)) {
            (true, None) => {}
            (true, Some(_)) => fixed.push(*set),
            (false, Some(why)) => {
                eprintln!("--set {set}: known bug in src/ ({why}): {got}");
                if !got.contains(&format!("`--set {set}`")) {
                    failures.push(format!("--set {set}: the message does not name it: {got}"));
                }
            }
            (false, None) => failures.push(format!("--set {set}: {got:?}, expected {message:?}")),
        }
    }
    assert!(
        fixed.is_empty(),
        "fixed, take these off KNOWN_SRC_BUGS: {fixed:?}"
    );
    for (set, _) in KNOWN_SRC_BUGS {
        assert!(
            BAD_SETTINGS.iter().any(|(s, _, _)| s == set),
            "{set} is in KNOWN_SRC_BUGS but not in BAD_SETTINGS"
        );
    }
    // The second of two settings is reported on the second line, under itself.
    let errors = compile_with_settings(&["holes=6", "seeds=abc"]);
    let [error] = &errors.0[..] else {
        panic!("not one error:\n{}", errors.render(false));
    };
    assert_eq!(error.line_column(), (2, 1), "{error}");
    assert_eq!(text_under(error, error.span), "seeds=abc", "{error}");
    assert_eq!(
        error.to_string(),
        "--set:2:1: `--set seeds=abc`: not a whole number"
    );
    assert!(errors.render(false).contains("[--set:2:1]"));
    failures.extend(generic_problems(&errors));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Through the binary: exit 1 and the report from `check`, exit 2 and one line from `trace`,
/// never a panic.
#[test]
fn bad_settings_are_errors_not_panics() {
    for (set, code, message) in BAD_SETTINGS {
        // Today's text, for a setting with a known bug; the right one otherwise.
        let message = if known_bug(set).is_some() {
            compile_with_settings(&[set]).0[0].kind.to_string()
        } else {
            message.to_string()
        };
        let output = util::sowlab()
            .args(["check", "variants/kalah.sow", "--set", set])
            .output()
            .expect("sowlab runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "--set {set}: {stderr}");
        assert!(output.stdout.is_empty(), "--set {set}");
        assert!(
            stderr.starts_with(&format!("{code}\n")),
            "--set {set}: expected {code} in\n{stderr}"
        );
        assert!(
            stderr.contains(&format!("  × {message}\n")),
            "--set {set}: expected {message:?} in\n{stderr}"
        );
        assert!(stderr.contains("[--set:1:1]"), "--set {set}: {stderr}");
        assert!(
            stderr.contains(&format!(" 1 │ {set}\n")),
            "--set {set}: {stderr}"
        );
        assert!(
            stderr.ends_with("1 of 1 file(s) have errors\n"),
            "--set {set}: {stderr}"
        );
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
        assert_eq!(
            stderr,
            format!("error: --set:1:1: {message}\n"),
            "trace --set {set}"
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
        stderr.lines().next(),
        Some(
            "error: invalid value 'holes' for '--set <KEY=VALUE>': should be KEY=VALUE; keys are \
             holes, seeds, starter, cap, R<n>"
        )
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
            "--set",
            "starter=north",
            "--set",
            "cap=10000000",
        ])
        .assert()
        .success();
}

// ------------------------------------------------------------------------------ the binary

/// `sowlab check` prints exactly the blessed report, then a summary line, and exits 1.
#[test]
fn check_prints_the_report_and_exits_1() {
    let mut failures = Vec::new();
    for stem in bad_files() {
        let path = stderr_path(&stem);
        let Ok(expected) = std::fs::read_to_string(&path) else {
            failures.push(format!("{} is missing", path.display()));
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
        let want = format!("{expected}1 of 1 file(s) have errors\n");
        if stderr != want {
            failures.push(format!("{file}:\n{}", diff(&want, &stderr)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
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
    let blessed = std::fs::read_to_string(stderr_path("layout-length")).expect("blessed");
    assert_eq!(
        stderr,
        format!("{blessed}1 of 3 file(s) have errors\n"),
        "{stderr}"
    );
}

/// Why `path` (relative to the repository root) cannot be read: a device is not a regular
/// file, and for a missing file the system says why.
fn reason(path: &str) -> String {
    let path = util::path(path);
    if path.starts_with("/dev") {
        return "not a regular file".into();
    }
    std::fs::read_to_string(path)
        .expect_err("must not be readable")
        .to_string()
}

/// A file that cannot be read is an input error, not an error in its rules: exit 2 and one
/// line, with no made-up location.
#[test]
fn check_of_a_missing_file_exits_2_with_one_line() {
    for path in ["no-such-variant.sow", "/dev/null"] {
        let output = util::sowlab()
            .args(["check", path])
            .output()
            .expect("sowlab runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(output.stdout.is_empty());
        assert_eq!(
            stderr,
            format!("error: cannot read `{path}`: {}\n", reason(path))
        );
    }
    // With a good and a bad file: every verdict, and still exit 2.
    let output = util::sowlab()
        .args([
            "check",
            "variants/kalah.sow",
            "no-such-variant.sow",
            "tests/bad/layout-length.sow",
        ])
        .output()
        .expect("sowlab runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("ok  variants/kalah.sow"));
    assert!(
        stderr.starts_with("error: cannot read `no-such-variant.sow`"),
        "{stderr}"
    );
    assert!(stderr.ends_with("1 of 3 file(s) have errors\n"), "{stderr}");

    // Other commands: one line, exit 2.
    let output = util::sowlab()
        .args(["trace", "no-such-variant.sow", "--random", "3"])
        .output()
        .expect("sowlab runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "error: cannot read `no-such-variant.sow`: {}\n",
            reason("no-such-variant.sow")
        )
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
    for stem in [
        "layout-length",
        "extends-unreadable",
        "extends-cycle",
        "unknown-field",
    ] {
        let direct =
            compile_path(Path::new(&format!("tests/bad/{stem}.sow")), &[]).expect_err("a bad file");
        assert_eq!(
            direct.render(false),
            compile_bad(stem).render(false),
            "{stem}"
        );
    }
}

/// A count no hole can hold is an error on the board of the rule's own file
/// (`impossible-count` above), but not on a board made smaller by `--set`: there the rule never
/// fires, and every board can be played. Oware's capture of 2 or 3 on one hole a row of one
/// seed: 2 seeds in the game.
#[test]
fn a_count_beyond_a_board_made_smaller_by_set_is_no_error() {
    let settings = [("holes", 1), ("seeds", 1)].map(|(k, v)| (k.to_string(), v.to_string()));
    let rules = compile_path(&util::path("variants/oware.sow"), &settings)
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(rules.total_seeds(), 2);
}
