//! Source files and byte spans, shared by every diagnostic.

use std::sync::Arc;

/// A rule file's name (as given, for messages) and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The path as the user wrote it, or a label such as `<set>`.
    pub name: String,
    /// The whole text.
    pub text: Arc<str>,
}

impl SourceFile {
    /// A file from a name and its text.
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }
}

/// A byte range in a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span of a pest token.
    pub fn of(span: pest::Span<'_>) -> Span {
        Span {
            start: span.start(),
            end: span.end(),
        }
    }
}
