//! `sowlab fmt`: one canonical layout for a `.sow` file, every comment kept.
//!
//! The layout: blocks at the left margin with a blank line after each; one rule per line,
//! indented two spaces, `key: value` with single spaces; line breaks the author put between
//! the words of a rule are kept, the continuation aligned under the value; `reading` marks,
//! and after them trailing comments, aligned in a column over each run of rules (a blank line
//! or a comment line ends a run). Only whitespace changes: the formatted text has the same
//! words and comments in the same order, which [`format`] checks before returning it.

use pest::iterators::Pair;
use pest::Parser;

use super::parser::{Rule, SowParser};

/// The formatted text of `text`, or the syntax error that stops it being parsed.
///
/// # Panics
/// Never on parsed input: the check that only whitespace changed is an internal invariant.
pub(super) fn format(text: &str) -> Result<String, Box<pest::error::Error<Rule>>> {
    let file = SowParser::parse(Rule::file, text)?
        .next()
        .expect("the file rule always yields one pair");
    let tokens = lex(text);
    let mut writer = Writer {
        text,
        tokens: &tokens,
        next: 0,
        last_end: 0,
        lines: Vec::new(),
        after_block: false,
    };
    for child in file.into_inner() {
        match child.as_rule() {
            Rule::EOI => {}
            Rule::extends => writer.top_level(&child, false),
            _ => writer.top_level(&child, true),
        }
    }
    writer.own_line_comments(text.len(), 0);
    let mut out = writer.lines.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    assert!(
        same_words(text, &out),
        "the formatter changed more than whitespace:\n{out}"
    );
    Ok(out)
}

/// Whether two texts have the same words in the same order, and the same comments in the
/// same order (a comment inside a rule moves above it).
fn same_words(a: &str, b: &str) -> bool {
    let words = |text: &str, comments: bool| -> Vec<String> {
        lex(text)
            .iter()
            .filter(|t| (t.kind == Kind::Comment) == comments)
            .map(|t| t.text(text).to_string())
            .collect()
    };
    words(a, false) == words(b, false) && words(a, true) == words(b, true)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A keyword, number or reading id.
    Word,
    /// A quoted text, escapes and all.
    Text,
    /// `{`, `}`, `:` or `,`.
    Punct,
    /// `# ...` to the end of the line.
    Comment,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

impl Token {
    fn text<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }
}

fn is_blank(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// Splits text into the grammar's tokens; whitespace separates and is dropped.
fn lex(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let kind = match c {
            c if is_blank(c) => continue,
            '#' => {
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
                Kind::Comment
            }
            '"' => {
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                Kind::Text
            }
            '{' | '}' | ':' | ',' => Kind::Punct,
            _ => {
                while chars
                    .next_if(|&(_, c)| !is_blank(c) && !"{}:,\"#".contains(c))
                    .is_some()
                {}
                Kind::Word
            }
        };
        let end = chars.peek().map_or(text.len(), |&(i, _)| i);
        let end = if kind == Kind::Comment {
            start + text[start..end].trim_end().len()
        } else {
            end
        };
        tokens.push(Token { kind, start, end });
    }
    tokens
}

/// One rule laid out: its lines (continuations already indented), reading mark and
/// trailing comment, waiting for its run's columns.
struct Laid {
    lines: Vec<String>,
    reading: Option<String>,
    comment: Option<String>,
}

struct Writer<'t> {
    text: &'t str,
    tokens: &'t [Token],
    /// The first token not yet written.
    next: usize,
    /// Where the last written token ends, to see blank lines in the source.
    last_end: usize,
    lines: Vec<String>,
    /// A block was just closed: a blank line follows, whatever the source had.
    after_block: bool,
}

impl Writer<'_> {
    fn peek(&self) -> Option<Token> {
        self.tokens.get(self.next).copied()
    }

    fn take(&mut self) -> Token {
        let token = self.tokens[self.next];
        self.next += 1;
        self.last_end = token.end;
        token
    }

    /// Whether the source has an empty line between the last written token and `start`.
    fn blank_before(&self, start: usize) -> bool {
        self.text[self.last_end..start].matches('\n').count() >= 2
    }

    /// A blank line before the next element, if the source had one or a block just ended.
    fn separate(&mut self, start: usize, at_start: bool) {
        if !at_start && !self.lines.is_empty() && (self.after_block || self.blank_before(start)) {
            self.lines.push(String::new());
        }
        self.after_block = false;
    }

    /// Writes the comments before `end` on lines of their own, at `indent`.
    fn own_line_comments(&mut self, end: usize, indent: usize) {
        self.own_line_comments_from(end, indent, false);
    }

    /// As [`Self::own_line_comments`]; `at_start` (just after a brace) allows no blank line
    /// before the first. Returns whether `at_start` still holds.
    fn own_line_comments_from(&mut self, end: usize, indent: usize, mut at_start: bool) -> bool {
        while let Some(token) = self.peek().filter(|t| t.start < end) {
            debug_assert_eq!(token.kind, Kind::Comment);
            self.separate(token.start, at_start);
            at_start = false;
            let comment = self.take();
            let line = format!("{:indent$}{}", "", comment.text(self.text));
            self.lines.push(line);
        }
        at_start
    }

    /// The comment on the same source line as the last written token, if any.
    fn trailing_comment(&mut self) -> Option<String> {
        let token = self.peek()?;
        let same_line = !self.text[self.last_end..token.start].contains('\n');
        (token.kind == Kind::Comment && same_line).then(|| self.take().text(self.text).to_string())
    }

    /// Joins the words before `end`: no space before `:` or `,`, one space elsewhere, and
    /// the author's line breaks kept, continuing at `continuation` columns. Comments met on
    /// the way are set aside in `comments`.
    fn words(
        &mut self,
        end: usize,
        continuation: usize,
        comments: &mut Vec<String>,
    ) -> Vec<String> {
        let mut lines = vec![String::new()];
        let mut first = true;
        // Line ends in the source since the last word, less those that end comments.
        let mut breaks: isize = 0;
        while let Some(token) = self.peek().filter(|t| t.start < end) {
            breaks += self.text[self.last_end..token.start].matches('\n').count() as isize;
            let token = self.take();
            let word = token.text(self.text);
            if token.kind == Kind::Comment {
                comments.push(word.to_string());
                breaks -= 1;
                continue;
            }
            let broken = breaks > 0;
            breaks = 0;
            let line = lines.last_mut().expect("never empty");
            if first || word == ":" || word == "," {
                // No space.
            } else if broken {
                lines.push(" ".repeat(continuation));
            } else {
                line.push(' ');
            }
            lines.last_mut().expect("never empty").push_str(word);
            first = false;
        }
        lines
    }

    /// An `extends` line or a block, with the comments before it.
    fn top_level(&mut self, pair: &Pair<'_, Rule>, is_block: bool) {
        let span = pair.as_span();
        self.own_line_comments(span.start(), 0);
        self.separate(span.start(), false);
        if pair.as_rule() == Rule::alternative {
            self.alternative(pair);
        } else if is_block {
            self.block(pair);
        } else {
            let mut comments = Vec::new();
            let lines = self.words(span.end(), 4, &mut comments);
            self.write_rule_lines(comments, lines, 0);
        }
    }

    fn write_rule_lines(&mut self, comments: Vec<String>, mut lines: Vec<String>, indent: usize) {
        for comment in comments {
            self.lines.push(format!("{:indent$}{comment}", ""));
        }
        if let Some(comment) = self.trailing_comment() {
            let last = lines.last_mut().expect("never empty");
            last.push_str("  ");
            last.push_str(&comment);
        }
        self.lines
            .extend(lines.into_iter().map(|l| format!("{:indent$}{l}", "")));
    }

    fn block(&mut self, pair: &Pair<'_, Rule>) {
        let span = pair.as_span();
        let rules: Vec<Pair<'_, Rule>> = pair
            .clone()
            .into_inner()
            .filter(|p| p.as_rule() != Rule::string)
            .collect();
        // The header runs to the opening brace; `no feeding` and the like are all header.
        let brace = self.tokens[self.next..]
            .iter()
            .find(|t| t.start < span.end() && t.kind == Kind::Punct && t.text(self.text) == "{")
            .map(|t| t.end);
        let Some(brace) = brace else {
            let mut comments = Vec::new();
            let lines = self.words(span.end(), 4, &mut comments);
            self.write_rule_lines(comments, lines, 0);
            self.after_block = true;
            return;
        };
        let mut comments = Vec::new();
        // A header is written on one line, whatever breaks the source had in it.
        let header = self.words(brace, 0, &mut comments);
        let mut header = header.join(" ");
        for comment in comments {
            self.lines.push(comment);
        }
        if rules.is_empty() && self.peek().is_some_and(|t| t.text(self.text) == "}") {
            self.take();
            header.push('}');
            self.write_rule_lines(Vec::new(), vec![header], 0);
            self.after_block = true;
            return;
        }
        if let Some(comment) = self.trailing_comment() {
            header.push_str("  ");
            header.push_str(&comment);
        }
        self.lines.push(header);
        let mut run: Vec<Laid> = Vec::new();
        let mut at_start = true;
        for rule in &rules {
            let start = rule.as_span().start();
            let breaks_run =
                self.peek().is_some_and(|t| t.start < start) || self.blank_before(start);
            if breaks_run {
                self.flush(&mut run);
            }
            at_start = self.own_line_comments_from(start, 2, at_start);
            self.separate(start, at_start);
            at_start = false;
            let mut comments = Vec::new();
            let laid = self.rule(rule, &mut comments);
            if !comments.is_empty() {
                self.flush(&mut run);
                for comment in comments {
                    self.lines.push(format!("  {comment}"));
                }
            }
            run.push(laid);
        }
        self.flush(&mut run);
        let close = span.end() - 1;
        self.own_line_comments_from(close, 2, at_start);
        self.close_block();
    }

    /// A block's closing brace, with a comment on its line.
    fn close_block(&mut self) {
        let brace = self.take();
        debug_assert_eq!(brace.text(self.text), "}");
        let mut close = String::from("}");
        if let Some(comment) = self.trailing_comment() {
            close.push_str("  ");
            close.push_str(&comment);
        }
        self.lines.push(close);
        self.after_block = true;
    }

    /// `alternative R2 "name" { blocks }`: the header on one line, then its blocks laid out
    /// as at the top level, indented two spaces.
    fn alternative(&mut self, pair: &Pair<'_, Rule>) {
        let span = pair.as_span();
        let blocks: Vec<Pair<'_, Rule>> = pair
            .clone()
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::reading_id | Rule::string))
            .collect();
        let brace = self.tokens[self.next..]
            .iter()
            .find(|t| t.kind == Kind::Punct && t.text(self.text) == "{")
            .map_or(span.end(), |t| t.end);
        let mut comments = Vec::new();
        let mut header = self.words(brace, 0, &mut comments).join(" ");
        self.lines.append(&mut comments);
        if let Some(comment) = self.trailing_comment() {
            header.push_str("  ");
            header.push_str(&comment);
        }
        self.lines.push(header);
        let outer = std::mem::take(&mut self.lines);
        let mut at_start = true;
        for block in &blocks {
            let start = block.as_span().start();
            at_start = self.own_line_comments_from(start, 0, at_start);
            self.separate(start, at_start);
            at_start = false;
            self.block(block);
        }
        self.own_line_comments_from(span.end() - 1, 0, at_start);
        let inner = std::mem::replace(&mut self.lines, outer);
        let indented = inner
            .into_iter()
            .map(|l| if l.is_empty() { l } else { format!("  {l}") });
        self.lines.extend(indented);
        self.close_block();
    }

    /// One rule: its words, then its reading mark, then a comment on its last line.
    fn rule(&mut self, pair: &Pair<'_, Rule>, comments: &mut Vec<String>) -> Laid {
        // pest's span of a rule that ends in an optional part takes in the blanks and
        // comments after it: the rule ends at its last word.
        let end = self.tokens[self.next..]
            .iter()
            .take_while(|t| t.start < pair.as_span().end())
            .filter(|t| t.kind != Kind::Comment)
            .last()
            .map_or(pair.as_span().end(), |t| t.end);
        let reading = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::reading)
            .map(|p| p.as_span().start());
        let body_end = reading.unwrap_or(end);
        // Continuations align under the value: after `key: ` as it is written out (the key's
        // words one space apart), not as the source spaced it.
        let key: Vec<&str> = self.tokens[self.next..]
            .iter()
            .take_while(|t| t.start < body_end)
            .take_while(|t| !(t.kind == Kind::Punct && t.text(self.text) == ":"))
            .filter(|t| t.kind != Kind::Comment)
            .map(|t| t.text(self.text))
            .collect();
        let has_colon = self.tokens[self.next..]
            .iter()
            .take_while(|t| t.start < body_end)
            .any(|t| t.kind == Kind::Punct && t.text(self.text) == ":");
        let colon = if has_colon {
            key.join(" ").chars().count() + 2
        } else {
            2
        };
        let lines = self
            .words(body_end, colon, comments)
            .into_iter()
            .map(|l| format!("  {l}"))
            .collect();
        let reading = reading.map(|_| self.words(end, 0, comments).join(" "));
        let comment = self.trailing_comment();
        Laid {
            lines,
            reading,
            comment,
        }
    }

    /// Writes a run of rules with their reading marks and comments in columns.
    fn flush(&mut self, run: &mut Vec<Laid>) {
        let width = |s: &str| s.chars().count();
        let last = |laid: &Laid| width(laid.lines.last().expect("never empty"));
        let reading_column = run
            .iter()
            .filter(|l| l.reading.is_some())
            .map(last)
            .max()
            .unwrap_or(0)
            + 2;
        let before_comment = |laid: &Laid| match &laid.reading {
            Some(reading) => reading_column + width(reading),
            None => last(laid),
        };
        let comment_column = run
            .iter()
            .filter(|l| l.comment.is_some())
            .map(before_comment)
            .max()
            .unwrap_or(0)
            + 2;
        for mut laid in run.drain(..) {
            let end = laid.lines.last_mut().expect("never empty");
            if let Some(reading) = &laid.reading {
                let pad = reading_column - width(end);
                end.push_str(&" ".repeat(pad));
                end.push_str(reading);
            }
            if let Some(comment) = &laid.comment {
                let pad = comment_column - width(end);
                end.push_str(&" ".repeat(pad));
                end.push_str(comment);
            }
            self.lines.append(&mut laid.lines);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::format;

    fn formatted(text: &str) -> String {
        format(text).expect("parses")
    }

    #[test]
    fn rules_get_one_per_line_and_single_spaces() {
        let text = "board{holes :6   per row seeds: 4 per hole}sowing { relay : when occupied }";
        assert_eq!(
            formatted(text),
            "board {\n  holes: 6 per row\n  seeds: 4 per hole\n}\n\nsowing {\n  relay: when occupied\n}\n"
        );
    }

    #[test]
    fn reading_marks_and_comments_align_over_a_run() {
        let text = "\
end {
  no move: pass reading R3 # one
  move cap: 2000, to owners reading R10
  winner: most captured # two

  repetition: 3, to owners  reading R10
}
";
        let expected = "\
end {
  no move: pass              reading R3  # one
  move cap: 2000, to owners  reading R10
  winner: most captured                  # two

  repetition: 3, to owners  reading R10
}
";
        assert_eq!(formatted(text), expected);
    }

    #[test]
    fn comments_stay_where_they_are() {
        let text = "\
# header

# about the board
board { # on the brace
  # first
  holes: 6   # trailing

  # after a blank
  seeds: 4
  # last
}   # after the block
# before sowing
sowing {}
# the end
";
        let expected = "\
# header

# about the board
board {  # on the brace
  # first
  holes: 6  # trailing

  # after a blank
  seeds: 4
  # last
}  # after the block

# before sowing
sowing {}

# the end
";
        assert_eq!(formatted(text), expected);
    }

    #[test]
    fn broken_values_continue_under_the_value() {
        let text = "game \"X\" {\n region: \"a\",\n    \"b\", \"c\"\n aliases: \"d\", \"e\"\n}\n";
        let expected =
            "game \"X\" {\n  region: \"a\",\n          \"b\", \"c\"\n  aliases: \"d\", \"e\"\n}\n";
        assert_eq!(formatted(text), expected);
    }

    #[test]
    fn a_comment_inside_a_rule_moves_above_it() {
        let text = "board {\n  holes: # why\n 6\n}\n";
        assert_eq!(formatted(text), "board {\n  # why\n  holes: 6\n}\n");
    }

    #[test]
    fn one_line_blocks_and_extends() {
        let text = "extends   \"a.sow\"\nno  feeding\nno capture   \"casa\"";
        assert_eq!(
            formatted(text),
            "extends \"a.sow\"\nno feeding\n\nno capture \"casa\"\n"
        );
    }

    #[test]
    fn texts_keep_their_escapes_and_hashes() {
        let text = "game \"A # not a comment \\\" still\" {\n note: \"x\"   # yes\n}\n";
        assert_eq!(
            formatted(text),
            "game \"A # not a comment \\\" still\" {\n  note: \"x\"  # yes\n}\n"
        );
    }

    #[test]
    fn formatting_is_idempotent_and_keeps_every_word() {
        for text in [
            "board{holes:6 seeds :4}\n\n\n# c\n\nsowing{relay:when occupied reading R4#x\n}",
            "# only a comment",
            "",
        ] {
            let once = formatted(text);
            assert_eq!(formatted(&once), once, "{text:?}");
        }
    }
}
