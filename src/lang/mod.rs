//! The front end: `.sow` text → syntax tree → checked [`Rules`], with diagnostics.
//!
//! `compile_path` reads a file and everything it `extends`, applies `--set` overrides, and
//! returns the rules or every error found. Only this module knows about pest.

pub mod ast;
mod diagnostic;
mod lower;
mod parser;

use std::path::{Path, PathBuf};

pub use diagnostic::{CompileError, CompileErrorKind, CompileErrors};
pub use lower::ABOUT_KEYS;

use crate::rules::{Rules, Side};
use crate::source::{SourceFile, Span};
use ast::{Block, BlockKind, Spanned, Value};
use lower::Layer;
use parser::Rule;

/// Board parameters the command line may override with `--set key=value`.
pub const SETTINGS: &str = "holes, seeds, starter, cap";

/// Reads, parses and compiles a variant file and the files it extends, then applies `settings`
/// (`("holes", "9")`, ...) over it.
///
/// # Errors
/// Every problem found: unreadable files, syntax errors, semantic errors, bad settings.
pub fn compile_path(path: &Path, settings: &[(String, String)]) -> Result<Rules, CompileErrors> {
    let mut layers = Vec::new();
    let mut errors = Vec::new();
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let file = SourceFile::new(path.display().to_string(), text);
            load(
                file,
                path,
                &mut vec![canonical(path)],
                &mut layers,
                &mut errors,
            );
        }
        Err(e) => {
            let file = SourceFile::new(path.display().to_string(), "");
            let kind = CompileErrorKind::Unreadable {
                path: path.display().to_string(),
                reason: e.to_string(),
            };
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
    load(
        SourceFile::new(name, text),
        &path,
        &mut vec![canonical(&path)],
        &mut layers,
        &mut errors,
    );
    finish(layers, errors, &[])
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
    if !errors.is_empty() {
        return Err(CompileErrors(errors));
    }
    lower::lower(&layers).map_err(CompileErrors)
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Parses `file` and, first, every file it extends (depth first), so parents come first.
fn load(
    file: SourceFile,
    path: &Path,
    stack: &mut Vec<PathBuf>,
    layers: &mut Vec<Layer>,
    errors: &mut Vec<CompileError>,
) {
    let tree = match parser::parse(&file.text) {
        Ok(Ok(tree)) => tree,
        Ok(Err(too_large)) => {
            let span = too_large.span;
            let got = file.text[span.start..span.end]
                .parse::<u64>()
                .unwrap_or(u64::MAX);
            let kind = CompileErrorKind::OutOfRange {
                what: "a number",
                min: 0,
                max: u64::from(u16::MAX),
                got,
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
        let key = canonical(&parent_path);
        if stack.contains(&key) {
            let chain = stack
                .iter()
                .map(|p| format!("`{}`", p.display()))
                .collect::<Vec<_>>()
                .join(" → ");
            let kind = CompileErrorKind::ExtendsCycle {
                path: parent.value.clone(),
                chain,
            };
            errors.push(CompileError {
                file: file.clone(),
                span: parent.span,
                kind,
                related: None,
            });
            continue;
        }
        match std::fs::read_to_string(&parent_path) {
            Ok(text) => {
                stack.push(key);
                let parent_file = SourceFile::new(parent_path.display().to_string(), text);
                load(parent_file, &parent_path, stack, layers, errors);
                stack.pop();
            }
            Err(e) => {
                let kind = CompileErrorKind::Unreadable {
                    path: parent_path.display().to_string(),
                    reason: e.to_string(),
                };
                errors.push(CompileError {
                    file: file.clone(),
                    span: parent.span,
                    kind,
                    related: None,
                });
            }
        }
    }
    layers.push(Layer { file, tree });
}

/// `--set` overrides become one more layer, in a file of their own named `--set`.
fn settings_layer(settings: &[(String, String)]) -> Result<Layer, CompileError> {
    let text: String = settings.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    let file = SourceFile::new("--set", text.clone());
    let mut offset = 0;
    let mut blocks = Vec::new();
    for (key, value) in settings {
        let span = Span {
            start: offset,
            end: offset + key.len() + 1 + value.len(),
        };
        offset = span.end + 1;
        let bad = |kind| CompileError {
            file: file.clone(),
            span,
            kind,
            related: None,
        };
        let number = || -> Result<u32, CompileError> {
            value.trim().parse().map_err(|_| {
                bad(CompileErrorKind::OutOfRange {
                    what: "a setting's number",
                    min: 0,
                    max: u64::from(u32::MAX),
                    got: 0,
                })
            })
        };
        let small = || number().and_then(|n| u16::try_from(n).map_err(|_| bad(too_big(n))));
        let (kind, value) = match key.as_str() {
            "holes" => (BlockKind::Board, Value::Holes(small()?)),
            "seeds" => (BlockKind::Board, Value::Seeds(small()?)),
            "starter" => (
                BlockKind::Board,
                Value::Starter(match value.as_str() {
                    "south" => Side::South,
                    "north" => Side::North,
                    _ => {
                        return Err(bad(CompileErrorKind::UnknownSetting {
                            key: format!("starter={value}"),
                            known: "starter=south, starter=north",
                        }))
                    }
                }),
            ),
            "cap" => (
                BlockKind::End,
                Value::MoveCap(number()?, crate::rules::Award::Owners),
            ),
            _ => {
                return Err(bad(CompileErrorKind::UnknownSetting {
                    key: key.clone(),
                    known: SETTINGS,
                }))
            }
        };
        blocks.push(Block {
            kind,
            span,
            rules: vec![ast::Rule {
                value,
                readings: Vec::new(),
                span,
            }],
        });
    }
    Ok(Layer {
        file,
        tree: ast::File {
            extends: Vec::<Spanned<String>>::new(),
            blocks,
        },
    })
}

fn too_big(n: u32) -> CompileErrorKind {
    CompileErrorKind::OutOfRange {
        what: "a setting's number",
        min: 0,
        max: u64::from(u16::MAX),
        got: u64::from(n),
    }
}

/// A pest error as a diagnostic: what stands at the spot, what would fit, and a keyword the
/// word there is probably a misspelling of.
fn syntax_error(file: SourceFile, error: &pest::error::Error<Rule>) -> CompileError {
    let position = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((p, _)) => p,
    };
    let mut expected: Vec<String> = Vec::new();
    let attempts = error.parse_attempts();
    // The furthest point pest reached is where the listed tokens were expected.
    let position = attempts
        .as_ref()
        .map_or(position, |a| a.max_position.max(position));
    if let Some(attempts) = attempts {
        // Literal keywords print as themselves; character ranges and built-ins are left to
        // the rule names below.
        for token in attempts.expected_tokens().iter().map(ToString::to_string) {
            let filler = token
                .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
                .is_empty()
                || token == "#";
            if !token.contains("..") && token != "BUILTIN_RULE" && !filler {
                expected.push(format!("`{token}`"));
            }
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
    let (found, span) = if rest.is_empty() {
        (
            "end of file".to_string(),
            Span {
                start: position,
                end: position,
            },
        )
    } else if word.is_empty() {
        let c = rest.chars().next().unwrap_or(' ');
        (
            format!("`{}`", c.escape_debug()),
            Span {
                start: position,
                end: position + c.len_utf8(),
            },
        )
    } else {
        (
            format!("`{word}`"),
            Span {
                start: position,
                end: position + word.len(),
            },
        )
    };
    let keywords: Vec<&str> = expected
        .iter()
        .map(|e| e.trim_matches('`'))
        .filter(|k| k.starts_with(|c: char| c.is_alphabetic()))
        .collect();
    let is_word = word.starts_with(|c: char| c.is_alphabetic());
    let suggestion = if is_word {
        diagnostic::suggest(&word, keywords.iter().copied())
    } else {
        None
    };
    let expected = match expected.len() {
        0 => "something else".to_string(),
        1 => expected[0].clone(),
        n => format!("{} or {}", expected[..n - 1].join(", "), expected[n - 1]),
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
