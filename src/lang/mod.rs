//! The front end: `.sow` text → syntax tree → checked [`Rules`], with diagnostics.
//!
//! `compile_path` reads a file and everything it `extends`, applies `--set` overrides, and
//! returns the rules or every error found. Only this module knows about pest.

pub mod ast;
mod diagnostic;
mod format;
mod lower;
mod parser;
mod read;
mod recover;

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

pub use diagnostic::{report_handler, CompileError, CompileErrorKind, CompileErrors};
pub use lower::ABOUT_KEYS;
pub use parser::award_text;
pub use read::{variant_files, ReadError, ReadFailure, MAX_FILE_BYTES};

use crate::rules::{self, Award, Rules, Side, MAX_HOLES_PER_ROW};
use crate::source::{SourceFile, Span};
use ast::{Block, BlockKind, BoardRule, EndRule, Item, Seeds};
use lower::Layer;
use parser::Rule;

/// What the command line may set with `--set key=value`: board parameters, and for a reading
/// the file offers alternatives for, which of them to play.
pub const SETTINGS: &str = "holes, seeds, starter, cap, R<n>";

/// `KEY=VALUE` of `--set`; the value is checked when the variant is compiled, where a bad
/// one can be shown in place. Written as given in `run.json`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Setting {
    /// `holes`, `seeds`, `starter` or `cap`.
    pub key: String,
    /// The value, as given.
    pub value: String,
    /// `KEY=VALUE` as given, for the command line that results record.
    written: String,
}

impl FromStr for Setting {
    type Err = String;

    fn from_str(s: &str) -> Result<Setting, String> {
        match s.split_once('=') {
            Some((k, v)) => Ok(Setting {
                key: k.trim().to_string(),
                value: v.trim().to_string(),
                written: s.to_string(),
            }),
            None => Err(format!("should be KEY=VALUE; keys are {}", SETTINGS)),
        }
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.written)
    }
}

impl TryFrom<String> for Setting {
    type Error = String;

    fn try_from(text: String) -> Result<Setting, String> {
        text.parse()
    }
}

impl From<Setting> for String {
    fn from(setting: Setting) -> String {
        setting.written
    }
}

/// The largest `--set seeds=`, as `lower` checks `seeds: N per hole` (a test keeps the two in
/// step); named here for the message about a number too large to hold.
const MAX_SEEDS_SETTING: u32 = 1000;

/// The largest `--set cap=`, as `lower` checks `move cap: N` (a test keeps the two in step).
const MAX_CAP_SETTING: u32 = 10_000_000;

/// How many files deep `extends` may go: far more than any real variant needs (the shipped
/// ones go two deep), few enough that a runaway chain is stopped early.
pub const MAX_EXTENDS_DEPTH: usize = 16;

/// Syntax errors reported for one file at most; a file with more is mostly not rule text.
const MAX_SYNTAX_ERRORS: usize = 50;

/// The shipped variant `variants/{name}.sow`, compiled as it stands: for unit tests.
#[cfg(test)]
pub(crate) fn shipped(name: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("variants/{name}.sow"));
    compile_path(&path, &[]).expect("shipped variants compile")
}

/// Variant file `text`, compiled as if it stood in `variants/` (so it may extend a shipped
/// variant): for unit tests.
#[cfg(test)]
pub(crate) fn beside_shipped(text: &str) -> Rules {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    compile_text("test.sow", text, &dir).expect("the test's variant compiles")
}

/// Reads, parses and compiles a variant file and the files it extends, then applies `settings`
/// (`("holes", "9")`, ...) over it.
///
/// # Errors
/// Every problem found: unreadable files, syntax errors, semantic errors, bad settings.
pub fn compile_path(path: &Path, settings: &[(String, String)]) -> Result<Rules, CompileErrors> {
    match read_variant(path) {
        Ok(file) => compile_file(file, path, settings),
        Err(e) => {
            let kind = CompileErrorKind::Unreadable {
                path: e.path.clone(),
                reason: e.reason.to_string(),
            };
            Err(CompileErrors(vec![CompileError {
                file: SourceFile::new(e.path, ""),
                span: Span::default(),
                kind,
                related: None,
            }]))
        }
    }
}

/// Reads a variant file for [`compile_file`]: a file that cannot be read is an input error,
/// not a problem in the rules, and has no line to point at.
///
/// # Errors
/// A missing, unreadable, oversized or non-UTF-8 file, or one that is not a regular file.
pub fn read_variant(path: &Path) -> Result<SourceFile, ReadError> {
    let text = read::read(path)?;
    Ok(SourceFile::new(path.display().to_string(), text))
}

/// Compiles a variant file read with [`read_variant`] from `path`, the files it extends and
/// `settings` over it.
///
/// # Errors
/// As [`compile_path`].
pub fn compile_file(
    file: SourceFile,
    path: &Path,
    settings: &[(String, String)],
) -> Result<Rules, CompileErrors> {
    let mut loader = Loader::default();
    loader.load(file, path);
    loader.finish(settings)
}

/// Compiles a variant given as text; `extends` is resolved relative to `dir`.
///
/// # Errors
/// As [`compile_path`].
pub fn compile_text(name: &str, text: &str, dir: &Path) -> Result<Rules, CompileErrors> {
    compile_file(SourceFile::new(name, text), &dir.join(name), &[])
}

/// The file in the language's one canonical layout (`sowlab fmt`), comments kept.
///
/// # Errors
/// The syntax errors that stop the file being parsed; its rules are not checked.
pub fn format_source(file: &SourceFile) -> Result<String, CompileErrors> {
    format::format(&file.text).map_err(|e| {
        // Every syntax error, as `check` reports them.
        let errors = parse(file).err().unwrap_or_default();
        if errors.is_empty() {
            CompileErrors(vec![syntax_error(file.clone(), &file.text, &e)])
        } else {
            CompileErrors(errors)
        }
    })
}

/// One compilation's files: each is read and parsed once, however many paths of `extends`
/// lead to it.
#[derive(Default)]
struct Loader {
    /// Files being loaded, innermost last: (canonical path, path as shown), to find cycles.
    stack: Vec<(PathBuf, String)>,
    /// Files loaded already (canonical paths).
    done: HashSet<PathBuf>,
    /// Parsed files, parents before children, each once, where it was first reached.
    layers: Vec<Layer>,
    errors: Vec<CompileError>,
}

impl Loader {
    /// Parses `file` (read from `path`) and, first, every file it extends, depth first, so
    /// parents come first.
    fn load(&mut self, file: SourceFile, path: &Path) {
        let key = canonical(path);
        self.stack.push((key.clone(), file.name.clone()));
        let tree = parse(&file);
        self.done.insert(key);
        match tree {
            Ok(tree) => {
                for parent in &tree.extends {
                    self.load_parent(&file, path, parent);
                }
                self.layers.push(Layer { file, tree });
            }
            Err(errors) => self.errors.extend(errors),
        }
        self.stack.pop();
    }

    fn load_parent(&mut self, file: &SourceFile, path: &Path, parent: &ast::Spanned<String>) {
        let parent_path = path.parent().unwrap_or(Path::new(".")).join(&parent.value);
        let shown = parent_path.display().to_string();
        let key = canonical(&parent_path);
        let error = |kind| CompileError {
            file: file.clone(),
            span: parent.span,
            kind,
            related: None,
        };
        if let Some(first) = self.stack.iter().position(|(p, _)| *p == key) {
            let mut chain: Vec<String> = self.stack[first..]
                .iter()
                .map(|(_, s)| format!("`{s}`"))
                .collect();
            chain.push(format!("`{shown}`"));
            let kind = CompileErrorKind::ExtendsCycle {
                path: parent.value.clone(),
                chain: chain.join(" → "),
            };
            self.errors.push(error(kind));
            return;
        }
        if self.done.contains(&key) {
            return;
        }
        if self.stack.len() > MAX_EXTENDS_DEPTH {
            let kind = CompileErrorKind::ExtendsTooDeep {
                max: MAX_EXTENDS_DEPTH,
            };
            self.errors.push(error(kind));
            return;
        }
        // Only a rule file is read: a file of any other kind would have its lines shown in
        // the syntax errors it is bound to have (`extends "/etc/shadow"`).
        if parent_path.extension().is_none_or(|e| e != "sow") {
            self.errors.push(error(CompileErrorKind::Unreadable {
                path: shown,
                reason: "not a `.sow` file; `extends` names rule files only".into(),
            }));
            return;
        }
        match read::read(&parent_path) {
            Ok(text) => self.load(SourceFile::new(shown, text), &parent_path),
            Err(e) => self.errors.push(error(CompileErrorKind::Unreadable {
                path: shown,
                reason: e.reason.to_string(),
            })),
        }
    }

    /// Lowers the files, each alternative they offer (so that every one is checked), and the
    /// alternatives `settings` choose, with the other settings over them all.
    fn finish(self, settings: &[(String, String)]) -> Result<Rules, CompileErrors> {
        let mut errors = self.errors;
        // Errors that do not stop the rules being lowered (and checked), but fail the compile.
        let mut late: Vec<CompileError> = Vec::new();
        if errors.is_empty() {
            late.extend(no_game(&self.layers));
        }
        let offered = offered(&self.layers, &mut late);
        let mut set = None;
        let mut picked = Vec::new();
        if !settings.is_empty() {
            match settings_layer(settings) {
                Ok((layer, choices)) => {
                    for choice in &choices {
                        match offered
                            .iter()
                            .position(|a| a.reading == choice.reading && a.name == choice.name)
                        {
                            Some(i) => picked.push(i),
                            None if choice.name == "default" => {}
                            None => errors.push(choice.unknown(&offered, &layer.file)),
                        }
                    }
                    set = Some(layer);
                }
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(failed(errors, late));
        }
        let board_set = set.as_ref().is_some_and(|l| !l.tree.blocks.is_empty());
        let with = |chosen: &[usize]| {
            let mut layers = self.layers.clone();
            layers.extend(chosen.iter().map(|&i| offered[i].layer(&self.layers)));
            layers.extend(set.clone());
            lower::lower(&layers)
        };
        let default = match with(&[]) {
            Ok(default) => default,
            Err(found) => return Err(failed(found, late)),
        };
        let mut alternatives = Vec::new();
        let mut chosen_alone = None;
        for (i, alternative) in offered.iter().enumerate() {
            match with(&[i]) {
                Ok(rules) => {
                    alternatives.push(rules::Alternative {
                        reading: alternative.reading,
                        name: alternative.name.clone(),
                        file: self.layers[alternative.layer].file.name.clone(),
                        chosen: picked.contains(&i),
                        changes: rules::diff::differences(&default, &rules),
                    });
                    if picked == [i] {
                        chosen_alone = Some(rules);
                    }
                }
                // On a board the command line changed, an alternative not chosen that does not
                // fit it is left out, not an error: the file's own board is where it is checked.
                Err(_) if board_set && !picked.contains(&i) => {}
                Err(found) => errors.extend(found),
            }
        }
        let chosen = match (picked.len(), chosen_alone) {
            (0, _) => Ok(default),
            (_, Some(rules)) => Ok(rules),
            _ => with(&picked),
        };
        match chosen {
            Ok(mut rules) if errors.is_empty() && late.is_empty() => {
                rules.alternatives = alternatives;
                Ok(rules)
            }
            Ok(_) => Err(failed(errors, late)),
            Err(found) => Err(failed([errors, found].concat(), late)),
        }
    }
}

/// Every error found, in file order, each once: an error in the files is found again by every
/// alternative's lowering.
fn failed(mut errors: Vec<CompileError>, late: Vec<CompileError>) -> CompileErrors {
    errors.extend(late);
    errors.sort_by(|a, b| (&a.file.name, a.span.start).cmp(&(&b.file.name, b.span.start)));
    errors.dedup_by(|a, b| a.file.name == b.file.name && a.span == b.span && a.kind == b.kind);
    CompileErrors(errors)
}

/// An alternative a file offers: where, and what it says.
struct Offered<'a> {
    /// The layer of the file that offers it.
    layer: usize,
    reading: u16,
    /// Where `R2` is written, for the marks its rules get.
    reading_span: Span,
    name: String,
    blocks: &'a [Block],
}

impl Offered<'_> {
    /// Its rules as one more layer of the file that offers it, each marked with its reading.
    fn layer(&self, layers: &[Layer]) -> Layer {
        let mark = ast::Spanned {
            value: self.reading,
            span: self.reading_span,
        };
        let mut blocks = self.blocks.to_vec();
        for block in &mut blocks {
            block.kind.mark(&mark);
        }
        Layer {
            file: layers[self.layer].file.clone(),
            tree: ast::File {
                extends: Vec::new(),
                blocks,
            },
        }
    }
}

/// The alternatives the files offer, a child's replacing its parent's of the same reading and
/// name; an alternative named `default` is an error.
fn offered<'a>(layers: &'a [Layer], errors: &mut Vec<CompileError>) -> Vec<Offered<'a>> {
    let mut offered: Vec<Offered<'a>> = Vec::new();
    for (i, layer) in layers.iter().enumerate() {
        for block in &layer.tree.blocks {
            let BlockKind::Alternative {
                reading,
                name,
                blocks,
            } = &block.kind
            else {
                continue;
            };
            if name == "default" {
                errors.push(CompileError {
                    file: layer.file.clone(),
                    span: block.span,
                    kind: CompileErrorKind::DefaultAlternative {
                        reading: reading.value,
                    },
                    related: None,
                });
                continue;
            }
            offered.retain(|a| !(a.reading == reading.value && a.name == *name));
            offered.push(Offered {
                layer: i,
                reading: reading.value,
                reading_span: reading.span,
                name: name.clone(),
                blocks,
            });
        }
    }
    offered
}

/// `--set R2=NAME`: an alternative to play, and where the setting is written.
struct Choice {
    reading: u16,
    name: String,
    span: Span,
}

impl Choice {
    /// The error for a choice no file offers, listing those it could have been; `set` is the
    /// `--set` file it is written in.
    fn unknown(&self, offered: &[Offered<'_>], set: &SourceFile) -> CompileError {
        let names: Vec<String> = offered
            .iter()
            .filter(|a| a.reading == self.reading)
            .map(|a| format!("`{}`", a.name))
            .collect();
        let why = if names.is_empty() {
            format!("the file offers no alternative for R{}", self.reading)
        } else {
            format!(
                "R{} has no alternative of that name; it has {} (or `default`)",
                self.reading,
                names.join(", ")
            )
        };
        CompileError {
            file: set.clone(),
            span: self.span,
            kind: CompileErrorKind::BadSetting {
                setting: format!("R{}={}", self.reading, self.name),
                why,
            },
            related: None,
        }
    }
}

/// `R2` as a setting's key: the reading's number.
fn reading_key(key: &str) -> Option<u16> {
    let digits = key.strip_prefix('R')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// An error when no file of the variant has a `game` block (an empty file, say), pointing at
/// the variant's first block, or its start.
fn no_game(layers: &[Layer]) -> Option<CompileError> {
    let has_game = |layer: &Layer| {
        layer
            .tree
            .blocks
            .iter()
            .any(|b| matches!(b.kind, BlockKind::Game { .. }))
    };
    if layers.iter().any(has_game) {
        return None;
    }
    let top = layers.last()?;
    let span = top.tree.blocks.first().map_or(Span::default(), |b| {
        let header = &top.file.text[b.span.start..b.span.end];
        let word = header
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(header.len());
        Span {
            start: b.span.start,
            end: b.span.start + word,
        }
    });
    Some(CompileError {
        file: top.file.clone(),
        span,
        kind: CompileErrorKind::NoGame,
        related: None,
    })
}

/// Parses a file into its syntax tree, or finds every syntax error in it: after each error
/// the rule at fault is blanked out ([`recover`]) and the text parsed again, until it parses,
/// an error does not come after the one before, or there are [`MAX_SYNTAX_ERRORS`].
fn parse(file: &SourceFile) -> Result<ast::File, Vec<CompileError>> {
    let mut text = file.text.to_string();
    let mut errors: Vec<CompileError> = Vec::new();
    loop {
        let error = match parser::parse(&text) {
            Ok(Ok(tree)) if errors.is_empty() => return Ok(tree),
            Ok(Ok(_)) => return Err(errors),
            Ok(Err(too_large)) => {
                let span = too_large.span;
                let kind = CompileErrorKind::TooLarge {
                    written: file.text[span.start..span.end].to_string(),
                    max: too_large.max,
                };
                CompileError {
                    file: file.clone(),
                    span,
                    kind,
                    related: None,
                }
            }
            Err(e) => syntax_error(file.clone(), &text, &e),
        };
        let position = error.span.start;
        if errors
            .last()
            .is_some_and(|last| position <= last.span.start)
        {
            return Err(errors);
        }
        let unclosed = error.kind == CompileErrorKind::UnclosedText;
        errors.push(error);
        if errors.len() == MAX_SYNTAX_ERRORS {
            errors.push(CompileError {
                file: file.clone(),
                span: Span {
                    start: position,
                    end: position,
                },
                kind: CompileErrorKind::TooManySyntaxErrors {
                    max: MAX_SYNTAX_ERRORS,
                },
                related: None,
            });
            return Err(errors);
        }
        if unclosed {
            return Err(errors);
        }
        let mut bytes = std::mem::take(&mut text).into_bytes();
        recover::blank_rule(&mut bytes, position);
        text = String::from_utf8(bytes).expect("blanking replaces whole characters");
    }
}

/// `--set` overrides become one more layer, in a file of their own named `--set`.
// A compile error carries its source text for the report; it is built once per bad command
// line, so its size costs nothing worth boxing for.
#[allow(clippy::result_large_err)]
fn settings_layer(settings: &[(String, String)]) -> Result<(Layer, Vec<Choice>), CompileError> {
    let text: String = settings.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    let file = SourceFile::new("--set", text);
    let mut offset = 0;
    let mut blocks = Vec::new();
    let mut choices = Vec::new();
    for (key, value) in settings {
        let span = Span {
            start: offset,
            end: offset + key.len() + 1 + value.len(),
        };
        offset = span.end + 1;
        if let Some(reading) = reading_key(key) {
            choices.push(Choice {
                reading,
                name: value.trim().to_string(),
                span,
            });
            continue;
        }
        let bad = |why: String| {
            let kind = CompileErrorKind::BadSetting {
                setting: format!("{key}={value}"),
                why,
            };
            CompileError {
                file: file.clone(),
                span,
                kind,
                related: None,
            }
        };
        // A number that fits its type goes on to `lower`, which says what its range is; one
        // too large to hold is refused here, with the same limit.
        let number = |limit: u32, fits: u32| -> Result<u32, CompileError> {
            let digits = value.trim();
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad("not a whole number".into()));
            }
            match digits.parse::<u32>() {
                Ok(n) if n <= fits => Ok(n),
                _ => Err(bad(format!("at most {limit}"))),
            }
        };
        let small = |limit: u32| number(limit, u16::MAX.into()).map(|n| n as u16);
        let board = |rule| {
            BlockKind::Board(vec![Item {
                rule,
                readings: Vec::new(),
                span,
            }])
        };
        let kind = match key.as_str() {
            "holes" => board(BoardRule::Holes(small(MAX_HOLES_PER_ROW as u32)?)),
            "seeds" => board(BoardRule::Seeds(Seeds::PerHole(small(MAX_SEEDS_SETTING)?))),
            "starter" => match value.as_str() {
                "south" => board(BoardRule::Starter(Side::South)),
                "north" => board(BoardRule::Starter(Side::North)),
                _ => return Err(bad("the starter is `south` or `north`".into())),
            },
            // The board goes to the side owners at the cap, as docs/readings.md R10 has it.
            "cap" => BlockKind::End(vec![Item {
                rule: EndRule::MoveCap(number(MAX_CAP_SETTING, u32::MAX)?, Award::Owners),
                readings: Vec::new(),
                span,
            }]),
            _ => {
                let kind = CompileErrorKind::UnknownSetting {
                    key: key.clone(),
                    known: SETTINGS,
                };
                return Err(CompileError {
                    file: file.clone(),
                    span,
                    kind,
                    related: None,
                });
            }
        };
        blocks.push(Block { kind, span });
    }
    let layer = Layer {
        file,
        tree: ast::File {
            extends: Vec::new(),
            blocks,
        },
    };
    Ok((layer, choices))
}

/// A pest error in `text` (the file's text, perhaps with rules blanked out) as a diagnostic:
/// what stands at the spot, what would fit, and a keyword the word there is probably a
/// misspelling of.
fn syntax_error(file: SourceFile, text: &str, error: &pest::error::Error<Rule>) -> CompileError {
    if let Some(open) = unclosed_text(text) {
        let span = Span {
            start: open,
            end: open + 1,
        };
        return CompileError {
            file,
            span,
            kind: CompileErrorKind::UnclosedText,
            related: None,
        };
    }
    let position = match error.location {
        pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p,
    };
    let attempts = error.parse_attempts();
    // The furthest point pest reached is where the tokens it lists were expected.
    let position = attempts
        .as_ref()
        .map_or(position, |a| a.max_position.max(position));
    let mut expected: Vec<String> = Vec::new();
    for token in attempts
        .iter()
        .flat_map(|a| a.expected_tokens())
        .map(|t| t.to_string())
    {
        // Keywords print as themselves; blanks, comments, ranges and built-ins do not help.
        let blank = token
            .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .is_empty();
        if !blank && token != "#" && !token.contains("..") && token != "BUILTIN_RULE" {
            expected.push(format!("`{token}`"));
        }
    }
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &error.variant {
        expected.extend(
            positives
                .iter()
                .filter_map(|r| describe(*r))
                .map(String::from),
        );
    }
    expected.sort();
    expected.dedup();
    let rest = &text[position.min(text.len())..];
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let (found, length) = match rest.chars().next() {
        None => ("end of file".to_string(), 0),
        Some(c) if word.is_empty() => (format!("`{}`", c.escape_debug()), c.len_utf8()),
        Some(_) => (format!("`{word}`"), word.len()),
    };
    let keywords = expected
        .iter()
        .map(|e| e.trim_matches('`'))
        .filter(|k| k.starts_with(char::is_alphabetic));
    let suggestion = if word.starts_with(char::is_alphabetic) {
        diagnostic::suggest(&word, keywords)
    } else {
        None
    };
    let expected = match expected.len() {
        0 => "something else".to_string(),
        1 => expected[0].clone(),
        n => format!("{} or {}", expected[..n - 1].join(", "), expected[n - 1]),
    };
    let span = Span {
        start: position,
        end: position + length,
    };
    CompileError {
        file,
        span,
        kind: CompileErrorKind::Syntax {
            found,
            expected,
            suggestion,
        },
        related: None,
    }
}

/// The byte offset of a `"` whose text runs to the end of the file, if there is one.
fn unclosed_text(text: &str) -> Option<usize> {
    let mut open = None;
    let mut comment = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match (open, c) {
            (_, '\n') if comment => comment = false,
            _ if comment => {}
            _ if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(_), '"') => open = None,
            (None, '"') => open = Some(i),
            (None, '#') => comment = true,
            _ => {}
        }
    }
    open
}

/// Human names for the rules pest reports by name rather than by keyword.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::number => "a number",
        Rule::string => "a quoted text",
        Rule::reading_id => "a reading such as `R7`",
        Rule::about_key => "a provenance field",
        Rule::EOI => "end of file",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits named for numbers too large to hold are the ones `lower` checks.
    #[test]
    fn setting_limits_are_the_limits_lower_checks() {
        for (rule, limit) in [
            ("board { seeds: {} per hole }", MAX_SEEDS_SETTING),
            ("end { move cap: {}, to owners }", MAX_CAP_SETTING),
            ("board { holes: {} per row }", MAX_HOLES_PER_ROW as u32),
        ] {
            let text = |n: u32| {
                format!(
                    "game \"t\" {{ source: \"t\" }}\n{}",
                    rule.replace("{}", &n.to_string())
                )
            };
            assert!(
                compile_text("t.sow", &text(limit), Path::new(".")).is_ok(),
                "{rule}"
            );
            let errors = compile_text("t.sow", &text(limit + 1), Path::new("."))
                .expect_err("one over the limit");
            assert!(
                matches!(errors.0[..], [CompileError { kind: CompileErrorKind::OutOfRange { max, .. }, .. }] if max == u64::from(limit)),
                "{rule}: {errors}"
            );
        }
    }
}
