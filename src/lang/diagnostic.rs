//! Compile errors: what went wrong, where (file, line, column, a caret under the spot), and
//! what would be right. Rendered with miette.

use std::fmt;
use std::sync::Arc;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, NamedSource, SourceCode, SourceSpan,
    SpanContents,
};

use crate::source::{SourceFile, Span};

/// Everything that can be wrong with a variant file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileErrorKind {
    /// `holes 6` (no colon): the text does not follow the grammar.
    #[error("unexpected {found}; expected {expected}")]
    Syntax {
        /// What stands there, quoted, or `end of file`.
        found: String,
        /// What would fit, as a list.
        expected: String,
        /// A keyword the found word is probably a misspelling of.
        suggestion: Option<String>,
    },
    /// `source: "no end` (the text runs to the end of the file)
    #[error("this text is never closed: a closing `\"` is missing")]
    UnclosedText,
    /// A file with more syntax errors than are reported: the rest of it is not checked.
    #[error(
        "stopped after {max} syntax errors; more may follow from here: fix these and check again"
    )]
    TooManySyntaxErrors {
        /// How many are reported.
        max: usize,
    },
    /// `extends "no-such.sow"`
    #[error("cannot read `{path}`: {reason}")]
    Unreadable {
        /// The path tried.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// `a.sow` extends `b.sow`, which extends `a.sow`.
    #[error("`{path}` extends itself through {chain}")]
    ExtendsCycle {
        /// The file that closes the cycle.
        path: String,
        /// The files in the cycle.
        chain: String,
    },
    /// `extends "d16.sow"` in `d17.sow`, which `d18.sow` extends, ... (17 files deep).
    #[error("`extends` goes more than {max} files deep")]
    ExtendsTooDeep {
        /// The deepest chain allowed.
        max: usize,
    },
    /// An empty file, or `board { holes: 6 per row }` alone.
    #[error("no `game` block: a variant needs one, in its file or a file it extends")]
    NoGame,
    /// `holes: 6` twice in one block.
    #[error("`{key}` is given twice")]
    Duplicate {
        /// The rule's key.
        key: String,
    },
    /// `sorce: "..."` in a game block.
    #[error("unknown provenance field `{key}`")]
    UnknownField {
        /// What was written.
        key: String,
        /// The closest known field.
        suggestion: Option<String>,
    },
    /// `holes: 0 per row`
    #[error("{what} must be between {min} and {max}, not {got}")]
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The smallest allowed.
        min: u64,
        /// The largest allowed.
        max: u64,
        /// What was given.
        got: u64,
    },
    /// `holes: 99999999999 per row`
    #[error("`{written}` is too large here: at most {max}")]
    TooLarge {
        /// The number as written.
        written: String,
        /// The largest allowed.
        max: u64,
    },
    /// `--set holes=abc`
    #[error("`--set {setting}`: {why}")]
    BadSetting {
        /// The setting as given.
        setting: String,
        /// What is wrong.
        why: String,
    },
    /// `layout: 4 4 4` on a 2×6 board.
    #[error("the layout gives {got} holes but the board has {holes}")]
    LayoutLength {
        /// Holes on the board.
        holes: usize,
        /// Counts given.
        got: usize,
    },
    /// `if: count is 99` with 48 seeds in the game.
    #[error("a hole can never hold {count}: the game has {total} seeds")]
    ImpossibleCount {
        /// The count asked for.
        count: u32,
        /// Seeds in the game.
        total: u32,
    },
    /// `if: was empty and count is 4`
    #[error("this condition can never hold: {why}")]
    Contradiction {
        /// The clash.
        why: String,
    },
    /// `capture "x" { if: count is 4 }` with no `on:`.
    #[error("{block} `{name}` needs `{key}:`")]
    MissingRule {
        /// `capture` or `house`.
        block: &'static str,
        /// The capture's or house's name.
        name: String,
        /// The missing key.
        key: &'static str,
    },
    /// `on: every drop but the last of a lap` with `then: sowing ends`.
    #[error("a capture on {trigger} cannot end the sowing: seeds are still in hand")]
    EndsMidLap {
        /// The trigger, as written.
        trigger: &'static str,
    },
    /// `order: singletons` in an `end` block without `singletons:`.
    #[error("`order` names `{rule}`, {why}")]
    Order {
        /// The rule named.
        rule: &'static str,
        /// What is wrong with naming it.
        why: &'static str,
    },
    /// `extra turn: in own store` with `stores: none`.
    #[error("`{rule}` needs {needs}")]
    Needs {
        /// The rule.
        rule: &'static str,
        /// What it needs.
        needs: &'static str,
    },
    /// `no capture "x"` when no capture `x` is inherited.
    #[error("there is no capture `{name}` to remove")]
    NoSuchCapture {
        /// The name.
        name: String,
    },
    /// `reading R17` with no `readings { R17: "..." }` declaring it.
    #[error(
        "there is no reading R{number}; the shipped readings are R1 to R16 (docs/readings.md)"
    )]
    UnknownReading {
        /// The number given.
        number: u32,
    },
    /// `readings { R7: "..." }`
    #[error("R{number} is a shipped reading (docs/readings.md); number the file's own readings from R17")]
    ShippedReading {
        /// The number given.
        number: u16,
    },
    /// `no house "x"` when no house `x` is inherited.
    #[error("there is no house `{name}` to remove")]
    NoSuchHouse {
        /// The name.
        name: String,
    },
    /// `opening: 8` when South starts on a 2×6 board.
    #[error("hole {hole} is not {side}'s, whose move it is in the opening")]
    OpeningHole {
        /// The hole given.
        hole: u16,
        /// Whose move it is.
        side: &'static str,
    },
    /// `skip origin: always` with `laps start: lifted hole`.
    #[error("`{rule}` cannot hold here: {other}")]
    Clash {
        /// The rule.
        rule: &'static str,
        /// Why it cannot hold together with another.
        other: &'static str,
    },
    /// `alternative R2 "default" { ... }`
    #[error("an alternative cannot be named `default`: `--set R{reading}=default` chooses the file's own rules")]
    DefaultAlternative {
        /// The reading it varies.
        reading: u16,
    },
    /// `--set width=3`
    #[error("unknown setting `{key}`; settings are {known}")]
    UnknownSetting {
        /// What was given.
        key: String,
        /// What is accepted.
        known: &'static str,
    },
}

impl CompileErrorKind {
    /// A stable code for the kind, as shown by the diagnostic.
    pub fn code(&self) -> &'static str {
        match self {
            CompileErrorKind::Syntax { .. } => "sowlab::syntax",
            CompileErrorKind::UnclosedText => "sowlab::syntax::unclosed_text",
            CompileErrorKind::TooManySyntaxErrors { .. } => "sowlab::syntax::too_many",
            CompileErrorKind::Unreadable { .. } => "sowlab::unreadable",
            CompileErrorKind::ExtendsCycle { .. } => "sowlab::extends::cycle",
            CompileErrorKind::ExtendsTooDeep { .. } => "sowlab::extends::too_deep",
            CompileErrorKind::NoGame => "sowlab::game::missing",
            CompileErrorKind::Duplicate { .. } => "sowlab::duplicate",
            CompileErrorKind::UnknownField { .. } => "sowlab::game::unknown_field",
            CompileErrorKind::OutOfRange { .. } => "sowlab::out_of_range",
            CompileErrorKind::TooLarge { .. } => "sowlab::too_large",
            CompileErrorKind::BadSetting { .. } => "sowlab::set",
            CompileErrorKind::LayoutLength { .. } => "sowlab::board::layout",
            CompileErrorKind::ImpossibleCount { .. } => "sowlab::condition::impossible_count",
            CompileErrorKind::Contradiction { .. } => "sowlab::condition::contradiction",
            CompileErrorKind::MissingRule { .. } => "sowlab::capture::missing",
            CompileErrorKind::EndsMidLap { .. } => "sowlab::capture::ends_mid_lap",
            CompileErrorKind::Needs { .. } => "sowlab::needs",
            CompileErrorKind::Order { .. } => "sowlab::end::order",
            CompileErrorKind::NoSuchCapture { .. } => "sowlab::capture::no_such",
            CompileErrorKind::UnknownReading { .. } | CompileErrorKind::ShippedReading { .. } => {
                "sowlab::reading"
            }
            CompileErrorKind::NoSuchHouse { .. } => "sowlab::house::no_such",
            CompileErrorKind::OpeningHole { .. } => "sowlab::sowing::opening",
            CompileErrorKind::Clash { .. } => "sowlab::clash",
            CompileErrorKind::UnknownSetting { .. } => "sowlab::set",
            CompileErrorKind::DefaultAlternative { .. } => "sowlab::alternative",
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            CompileErrorKind::Syntax { suggestion: Some(word), .. }
            | CompileErrorKind::UnknownField { suggestion: Some(word), .. } => Some(format!("did you mean `{word}`?")),
            CompileErrorKind::UnknownField { .. } => {
                Some("fields are aliases, region, people, recorded, source, reconstruction, contrast, note".into())
            }
            CompileErrorKind::EndsMidLap { .. } => Some("use `on: last drop of a lap` for a capture that ends the sowing".into()),
            CompileErrorKind::Duplicate { .. } => Some("a file may override an inherited rule, but give each rule once".into()),
            CompileErrorKind::UnknownReading { .. } => Some("declare a reading of the file's own, from R17, in a `readings` block: `readings { R17: \"...\" }`".into()),
            CompileErrorKind::NoGame => Some("start the file with `game \"name\" { source: \"...\" }`, or `extends` a variant".into()),
            _ => None,
        }
    }
}

/// One error, in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// The file it is in.
    pub file: SourceFile,
    /// Where.
    pub span: Span,
    /// What.
    pub kind: CompileErrorKind,
    /// A second place that explains the first ("first given here").
    pub related: Option<(Span, &'static str)>,
}

impl CompileError {
    /// 1-based line and column of the error.
    pub fn line_column(&self) -> (usize, usize) {
        self.file.line_column(self.span.start)
    }

    /// Whether the error points into its file's text. A file that could not be read has no
    /// text to point into, and a location made up for it would mislead.
    pub fn has_location(&self) -> bool {
        !(self.file.text.is_empty() && matches!(self.kind, CompileErrorKind::Unreadable { .. }))
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.has_location() {
            return write!(f, "{}", self.kind);
        }
        let (line, column) = self.line_column();
        write!(f, "{}:{line}:{column}: {}", self.file.name, self.kind)
    }
}

impl std::error::Error for CompileError {}

impl Diagnostic for CompileError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.kind
            .help()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.file as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if !self.has_location() {
            return None;
        }
        let label = match &self.kind {
            CompileErrorKind::Syntax { expected, .. } => format!("expected {expected}"),
            _ => "here".to_string(),
        };
        let mut labels = vec![LabeledSpan::new_primary_with_span(
            Some(label),
            to_miette(self.span),
        )];
        if let Some((span, text)) = self.related {
            labels.push(LabeledSpan::new_with_span(
                Some(text.to_string()),
                to_miette(span),
            ));
        }
        Some(Box::new(labels.into_iter()))
    }
}

fn to_miette(span: Span) -> miette::SourceSpan {
    (span.start, span.end.saturating_sub(span.start)).into()
}

/// All the errors found in one compilation, by file and position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileErrors(pub Vec<CompileError>);

impl fmt::Display for CompileErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileErrors {}

impl CompileErrors {
    /// Renders every error as a report with the file name, line and column, the source line
    /// and a caret under the spot. `color` adds terminal colours.
    pub fn render(&self, color: bool) -> String {
        let handler = report_handler(color);
        let mut out = String::new();
        // Each file made printable once, however many errors it has.
        let mut shown: Vec<(Arc<str>, SourceFile)> = Vec::new();
        for error in &self.0 {
            let original = &error.file;
            let known = shown
                .iter()
                .find(|(text, _)| Arc::ptr_eq(text, &original.text));
            let file = match known {
                Some((_, file)) => file.clone(),
                None => {
                    let file = match (printable(&original.name), printable(&original.text)) {
                        (None, None) => original.clone(),
                        (name, text) => SourceFile::new(
                            name.unwrap_or_else(|| original.name.clone()),
                            text.map_or_else(|| original.text.clone(), Arc::from),
                        ),
                    };
                    shown.push((original.text.clone(), file.clone()));
                    file
                }
            };
            let named = NamedSource::new(&file.name, file.clone());
            let report = Located {
                error,
                source: named,
            };
            // Writing to a String cannot fail.
            let _ = handler.render_report(&mut out, &report);
        }
        out
    }
}

/// How `check` draws its reports, errors and warnings alike: unicode, 100 columns; `color`
/// adds terminal colours.
pub fn report_handler(color: bool) -> miette::GraphicalReportHandler {
    let theme = if color {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    miette::GraphicalReportHandler::new_themed(theme).with_width(100)
}

/// `text` with each control character but tab and line ends replaced, byte for byte, by `?`
/// (spans still fit), so that a terminal shows the file rather than acting on escape
/// sequences in it; `None` if there is none.
fn printable(text: &str) -> Option<String> {
    let acts = |c: char| c.is_control() && !matches!(c, '\n' | '\r' | '\t');
    if !text.contains(acts) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if acts(c) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// A [`CompileError`] with a named source, so the report header shows `file:line:column`.
struct Located<'a> {
    error: &'a CompileError,
    source: NamedSource<SourceFile>,
}

impl fmt::Debug for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.error, f)
    }
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error.kind, f)
    }
}

impl std::error::Error for Located<'_> {}

impl Diagnostic for Located<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.error.code()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.error.help()
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.error
            .has_location()
            .then_some(&self.source as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.error.labels()
    }
}

/// The source text as miette reads it, through the file's line index. miette's own reading of
/// a `str` scans from the start of the text for every report, which made a file with
/// thousands of errors take time quadratic in its length; here the scan starts at the first
/// line of the snippet. The result is what miette's scan gives: the same snippet, and line
/// numbers counted from the start of the file.
impl SourceCode for SourceFile {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        // miette takes a span to end on its last byte, which for an empty span is the byte
        // before it (on the line above, at a line start).
        let anchor = (span.offset() + span.len())
            .saturating_sub(1)
            .min(span.offset());
        let (line, _) = self.line_of(anchor);
        let first = line.saturating_sub(context_lines_before);
        let start = self.line_start(first);
        let within = SourceSpan::new((span.offset() - start).into(), span.len());
        let contents = <[u8] as SourceCode>::read_span(
            &self.text.as_bytes()[start..],
            &within,
            context_lines_before,
            context_lines_after,
        )?;
        let found = contents.span();
        Ok(Box::new(MietteSpanContents::new(
            contents.data(),
            SourceSpan::new((found.offset() + start).into(), found.len()),
            contents.line() + first,
            contents.column(),
            contents.line_count() + first,
        )))
    }
}

/// The closest of `candidates` to `word`, if it is close enough to be a misspelling.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (levenshtein(word, c), c))
        .filter(|&(d, c)| d <= limit && d > 0 && !c.is_empty())
        .min()
        .map(|(_, c)| c.to_string())
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_keyword_for_a_misspelling() {
        assert_eq!(
            suggest("rellay", ["relay", "direction", "drop"]),
            Some("relay".to_string())
        );
        assert_eq!(suggest("xyz", ["relay", "direction"]), None);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
    }

    #[test]
    fn the_indexed_source_reads_every_span_as_miette_reads_a_str() {
        let text = "a\nbc\r\n\r\ndéf\rg\n\nxyz";
        let file = SourceFile::new("t", text);
        for offset in 0..=text.len() {
            for len in 0..=(text.len() - offset).min(4) {
                for (before, after) in [(0, 0), (1, 1), (2, 3), (9, 9)] {
                    let span = SourceSpan::new(offset.into(), len);
                    let ours = file.read_span(&span, before, after);
                    let theirs = text.read_span(&span, before, after);
                    let view = |c: Result<Box<dyn SpanContents<'_> + '_>, MietteError>| {
                        c.map(|c| {
                            (
                                c.data().to_vec(),
                                *c.span(),
                                c.line(),
                                c.column(),
                                c.line_count(),
                            )
                        })
                        .map_err(|e| e.to_string())
                    };
                    assert_eq!(
                        view(ours),
                        view(theirs),
                        "{offset}+{len} ({before}, {after})"
                    );
                }
            }
        }
    }
}
