//! Source files and byte spans, shared by every diagnostic.

use std::fmt;
use std::sync::Arc;

/// A rule file's name (as given, for messages) and text.
#[derive(Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The path as the user wrote it, or a label such as `<set>`.
    pub name: String,
    /// The whole text.
    pub text: Arc<str>,
    /// Byte offset of the start of every line, computed once: a file with thousands of errors
    /// must not be scanned from its start for each one.
    lines: Arc<[usize]>,
}

impl SourceFile {
    /// A file from a name and its text.
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceFile {
        let text = text.into();
        let lines = line_starts(&text).into();
        SourceFile {
            name: name.into(),
            text,
            lines,
        }
    }

    /// 0-based index of the line holding a byte offset, and the offset where that line starts.
    pub fn line_of(&self, offset: usize) -> (usize, usize) {
        let line = self.lines.partition_point(|&start| start <= offset) - 1;
        (line, self.lines[line])
    }

    /// Byte offset where a 0-based line starts (the end of the text past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.lines.get(line).copied().unwrap_or(self.text.len())
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let (line, start) = self.line_of(offset);
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().count());
        (line + 1, column + 1)
    }
}

impl fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SourceFile")
            .field("name", &self.name)
            .field("text", &self.text)
            .finish()
    }
}

/// Where lines start. Line ends are `\n`, `\r\n` and a lone `\r`, as the diagnostic renderer
/// (miette) counts them, so that locations agree with the report header.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, &b) in bytes.iter().enumerate() {
        let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends {
            starts.push(i + 1);
        }
    }
    starts
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_every_kind_of_line_end() {
        let file = SourceFile::new("t", "ab\ncd\r\né\rx");
        assert_eq!(file.line_column(0), (1, 1));
        assert_eq!(file.line_column(2), (1, 3));
        assert_eq!(file.line_column(3), (2, 1));
        assert_eq!(file.line_column(7), (3, 1));
        assert_eq!(file.line_column(9), (3, 2));
        assert_eq!(file.line_column(10), (4, 1));
        assert_eq!(file.line_column(99), (4, 2));
        assert_eq!(SourceFile::new("e", "").line_column(0), (1, 1));
    }
}
