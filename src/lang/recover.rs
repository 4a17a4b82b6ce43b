//! Recovery after a syntax error. pest stops at the first error, so to report every one the
//! front end blanks out the rule that failed and parses again. Blanking writes spaces over it,
//! so byte offsets, lines and columns of everything after it stay what they were, and keeps
//! the `}` that closes an enclosing block, so the nesting of blocks stays intact.

/// A byte-at-a-time reader of rule text that knows where texts and comments are, and how deep
/// in blocks it is.
#[derive(Clone, Copy, Debug, Default)]
struct Scanner {
    depth: usize,
    in_text: bool,
    escaped: bool,
    in_comment: bool,
}

/// What a byte is, structurally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Byte {
    /// A `{` outside texts and comments.
    Open,
    /// A `}` outside texts and comments; `depth` is the depth it closes.
    Close { depth: usize },
    /// A line end outside texts.
    LineEnd,
    /// Anything else.
    Other,
}

impl Scanner {
    fn step(&mut self, b: u8) -> Byte {
        if self.in_text {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_text = false;
            }
            return Byte::Other;
        }
        match b {
            b'\n' => {
                self.in_comment = false;
                Byte::LineEnd
            }
            _ if self.in_comment => Byte::Other,
            b'#' => {
                self.in_comment = true;
                Byte::Other
            }
            b'"' => {
                self.in_text = true;
                Byte::Other
            }
            b'{' => {
                self.depth += 1;
                Byte::Open
            }
            b'}' => {
                let depth = self.depth;
                self.depth = self.depth.saturating_sub(1);
                Byte::Close { depth }
            }
            _ => Byte::Other,
        }
    }
}

/// Blanks the rule at byte `position`: its whole line and, when that line opens a block (an
/// unknown block at the top level, say), everything through the `}` that closes it. A `}`
/// that closes a block opened before the line is kept and ends the blanking. Line ends are
/// kept, and everything blanked is replaced byte for byte, so `text` stays valid UTF-8.
pub fn blank_rule(text: &mut [u8], position: usize) {
    let position = position.min(text.len());
    let line_start = text[..position]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let mut scanner = Scanner::default();
    for &b in &text[..line_start] {
        scanner.step(b);
    }
    let outer = scanner.depth;
    for b in &mut text[line_start..] {
        match scanner.step(*b) {
            // The line ends, and with it the rule, unless a block it opened is still open.
            Byte::LineEnd if scanner.depth <= outer => return,
            Byte::LineEnd => {}
            Byte::Close { depth } if depth <= outer && depth > 0 => return,
            Byte::Close { depth } if depth == outer + 1 => {
                *b = b' ';
                return;
            }
            // Line ends inside a text are kept too.
            _ if *b == b'\n' || *b == b'\r' => {}
            _ => *b = b' ',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(text: &str, at: &str) -> String {
        let mut bytes = text.as_bytes().to_vec();
        blank_rule(&mut bytes, text.find(at).expect("in the text"));
        String::from_utf8(bytes).expect("UTF-8")
    }

    #[test]
    fn a_rule_inside_a_block_is_blanked_to_the_end_of_its_line() {
        let text = "sowing {\n  rellay: when occupied # a typo\n  direction: clockwise\n}\n";
        assert_eq!(
            blanked(text, "rellay"),
            format!(
                "sowing {{\n{}\n  direction: clockwise\n}}\n",
                " ".repeat(32)
            )
        );
    }

    #[test]
    fn the_brace_closing_an_enclosing_block_is_kept() {
        assert_eq!(
            blanked("board {\n  holes 6 per row }\nend {}", "holes"),
            "board {\n                  }\nend {}"
        );
        // A block on one line is one rule's line: all of it goes.
        assert_eq!(
            blanked("board { holes 6 per row }\nend {}", "holes"),
            format!("{}\nend {{}}", " ".repeat(25))
        );
    }

    #[test]
    fn an_unknown_block_is_blanked_through_its_closing_brace() {
        let text = "players {\n  count: \"{\" # }\n}\nend {}\n";
        assert_eq!(
            blanked(text, "players"),
            format!("{}\n{}\n \nend {{}}\n", " ".repeat(9), " ".repeat(16))
        );
        assert_eq!(blanked("a { b } end {}", "a"), "        end {}");
    }

    #[test]
    fn a_stray_brace_at_the_top_level_is_blanked() {
        assert_eq!(blanked("board {}\n} x\nend", "} x"), "board {}\n   \nend");
    }

    #[test]
    fn a_text_running_over_lines_is_blanked_whole_and_its_line_ends_kept() {
        assert_eq!(blanked("x: \"a\nb\" y\nz", "x"), "     \n    \nz");
    }

    #[test]
    fn non_ascii_text_is_blanked_byte_for_byte() {
        let text = "game \"é\" {\n  régión: \"Barahona\"\n}";
        let out = blanked(text, "régión");
        assert_eq!(out.len(), text.len());
        assert!(out.ends_with('}'));
    }
}
