//! The front end: `.sow` text → syntax tree → checked [`Rules`], with diagnostics.
//!
//! `compile_path` reads a file and everything it `extends`, applies `--set` overrides, and
//! returns the rules or every error found. Only this module knows about pest.

pub mod ast;
mod diagnostic;
mod format;
mod lower;
mod parser;

use std::path::{Path, PathBuf};

pub use diagnostic::{CompileError, CompileErrorKind, CompileErrors};
pub use lower::ABOUT_KEYS;

use crate::rules::{Award, Rules, Side};
use crate::source::{SourceFile, Span};
use ast::{Block, BlockKind, BoardRule, EndRule, Item, Seeds};
use lower::Layer;
use parser::Rule;

/// Board parameters the command line may override with `--set key=value`.
pub const SETTINGS: &str = "holes, seeds, starter, cap";

/// Files being loaded, innermost last: (canonical path, path as shown), to find cycles.
type Stack = Vec<(PathBuf, String)>;

/// Reads, parses and compiles a variant file and the files it extends, then applies `settings`
/// (`("holes", "9")`, ...) over it.
///
/// # Errors
/// Every problem found: unreadable files, syntax errors, semantic errors, bad settings.
pub fn compile_path(path: &Path, settings: &[(String, String)]) -> Result<Rules, CompileErrors> {
    let mut layers = Vec::new();
    let mut errors = Vec::new();
    let shown = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let mut stack = vec![(canonical(path), shown.clone())];
            load(
                SourceFile::new(shown, text),
                path,
                &mut stack,
                &mut layers,
                &mut errors,
            );
        }
        Err(e) => {
            let kind = CompileErrorKind::Unreadable {
                path: shown.clone(),
                reason: e.to_string(),
            };
            let file = SourceFile::new(shown, "");
            errors.push(CompileError {
                file,
                span: Span::default(),
                kind,
                related: None,
            });
        }
    }
    finish(layers, errors, settings)
}

/// Compiles a variant given as text; `extends` is resolved relative to `dir`.
///
/// # Errors
/// As [`compile_path`].
pub fn compile_text(name: &str, text: &str, dir: &Path) -> Result<Rules, CompileErrors> {
    let mut layers = Vec::new();
    let mut errors = Vec::new();
    let path = dir.join(name);
    let mut stack = vec![(canonical(&path), name.to_string())];
    load(
        SourceFile::new(name, text),
        &path,
        &mut stack,
        &mut layers,
        &mut errors,
    );
    finish(layers, errors, &[])
}

/// The file in the language's one canonical layout (`sowlab fmt`), comments kept.
///
/// # Errors
/// The syntax errors that stop the file being parsed; its rules are not checked.
pub fn format_source(file: &SourceFile) -> Result<String, CompileErrors> {
    format::format(&file.text).map_err(|e| CompileErrors(vec![syntax_error(file.clone(), &e)]))
}

fn finish(
    mut layers: Vec<Layer>,
    mut errors: Vec<CompileError>,
    settings: &[(String, String)],
) -> Result<Rules, CompileErrors> {
    if !settings.is_empty() {
        match settings_layer(settings) {
            Ok(layer) => layers.push(layer),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        match lower::lower(&layers) {
            Ok(rules) => return Ok(rules),
            Err(found) => errors = found,
        }
    }
    errors.sort_by(|a, b| (&a.file.name, a.span.start).cmp(&(&b.file.name, b.span.start)));
    Err(CompileErrors(errors))
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Parses `file` and, first, every file it extends (depth first), so parents come first.
fn load(
    file: SourceFile,
    path: &Path,
    stack: &mut Stack,
    layers: &mut Vec<Layer>,
    errors: &mut Vec<CompileError>,
) {
    let tree = match parser::parse(&file.text) {
        Ok(Ok(tree)) => tree,
        Ok(Err(too_large)) => {
            let span = too_large.span;
            let written = file.text[span.start..span.end].to_string();
            let kind = CompileErrorKind::TooLarge {
                written,
                max: too_large.max,
            };
            errors.push(CompileError {
                file,
                span,
                kind,
                related: None,
            });
            return;
        }
        Err(e) => {
            errors.push(syntax_error(file, &e));
            return;
        }
    };
    for parent in &tree.extends {
        let parent_path = path.parent().unwrap_or(Path::new(".")).join(&parent.value);
        let shown = parent_path.display().to_string();
        let key = canonical(&parent_path);
        let error = |kind| CompileError {
            file: file.clone(),
            span: parent.span,
            kind,
            related: None,
        };
        if let Some(first) = stack.iter().position(|(p, _)| *p == key) {
            let mut chain: Vec<String> = stack[first..]
                .iter()
                .map(|(_, s)| format!("`{s}`"))
                .collect();
            chain.push(format!("`{shown}`"));
            let kind = CompileErrorKind::ExtendsCycle {
                path: parent.value.clone(),
                chain: chain.join(" → "),
            };
            errors.push(error(kind));
            continue;
        }
        match std::fs::read_to_string(&parent_path) {
            Ok(text) => {
                stack.push((key, shown.clone()));
                load(
                    SourceFile::new(shown, text),
                    &parent_path,
                    stack,
                    layers,
                    errors,
                );
                stack.pop();
            }
            Err(e) => errors.push(error(CompileErrorKind::Unreadable {
                path: shown,
                reason: e.to_string(),
            })),
        }
    }
    layers.push(Layer { file, tree });
}

/// `--set` overrides become one more layer, in a file of their own named `--set`.
fn settings_layer(settings: &[(String, String)]) -> Result<Layer, CompileError> {
    let text: String = settings.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    let file = SourceFile::new("--set", text);
    let mut offset = 0;
    let mut blocks = Vec::new();
    for (key, value) in settings {
        let span = Span {
            start: offset,
            end: offset + key.len() + 1 + value.len(),
        };
        offset = span.end + 1;
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
        let number = |max: u32| -> Result<u32, CompileError> {
            let digits = value.trim();
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad("not a whole number".into()));
            }
            match digits.parse::<u32>() {
                Ok(n) if n <= max => Ok(n),
                _ => Err(bad(format!("at most {max}"))),
            }
        };
        let small = || number(u32::from(u16::MAX)).map(|n| n as u16);
        let board = |rule| {
            BlockKind::Board(vec![Item {
                rule,
                readings: Vec::new(),
                span,
            }])
        };
        let kind = match key.as_str() {
            "holes" => board(BoardRule::Holes(small()?)),
            "seeds" => board(BoardRule::Seeds(Seeds::PerHole(small()?))),
            "starter" => match value.as_str() {
                "south" => board(BoardRule::Starter(Side::South)),
                "north" => board(BoardRule::Starter(Side::North)),
                _ => return Err(bad("the starter is `south` or `north`".into())),
            },
            // The board goes to the side owners at the cap, as readings.md R10 has it.
            "cap" => BlockKind::End(vec![Item {
                rule: EndRule::MoveCap(number(u32::MAX)?, Award::Owners),
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
    Ok(Layer {
        file,
        tree: ast::File {
            extends: Vec::new(),
            blocks,
        },
    })
}

/// A pest error as a diagnostic: what stands at the spot, what would fit, and a keyword the
/// word there is probably a misspelling of.
fn syntax_error(file: SourceFile, error: &pest::error::Error<Rule>) -> CompileError {
    if let Some(open) = unclosed_text(&file.text) {
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
    let rest = &file.text[position.min(file.text.len())..];
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
