//! A small document model rendered twice: as Markdown (`index.md`, charts linked as PNG) and
//! as one self-contained HTML page (`index.html`, charts inlined as SVG).

use std::fmt::Write;
use std::path::Path;

use crate::outdir::{OutDir, OutDirError};

/// A piece of a report.
pub enum Block {
    /// A heading, level 1 to 3.
    Heading(u8, String),
    /// A paragraph of plain text.
    Paragraph(String),
    /// A command or other literal text.
    Code(String),
    /// A bulleted list.
    List(Vec<String>),
    /// A table with a header row.
    Table(Vec<String>, Vec<Vec<String>>),
    /// A chart: `stem.png` / `stem.svg` in the report directory, with a caption.
    Chart(String, String),
    /// A link to a file of the report (a page), with its text.
    Link(String, String),
    /// A warning a reader must not miss (few finished games, an order that does not hold),
    /// set apart from the text around it.
    Warning(String),
}

/// Writes `index.md` and `index.html` for `blocks` into `dir` (which holds the charts).
///
/// # Errors
/// An unwritable file.
pub fn write_pages(dir: &mut OutDir, title: &str, blocks: &[Block]) -> Result<(), OutDirError> {
    dir.write_file("index.md", markdown(blocks).as_bytes())?;
    let page = html(title, blocks, dir.path());
    dir.write_file("index.html", page.as_bytes())
}

/// Renders Markdown.
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        let _ = match block {
            Block::Heading(level, text) => {
                writeln!(out, "{} {text}\n", "#".repeat(usize::from(*level)))
            }
            Block::Paragraph(text) => writeln!(out, "{text}\n"),
            Block::Warning(text) => writeln!(out, "> **Warning:** {text}\n"),
            Block::Link(text, href) => writeln!(out, "[{text}]({href})\n"),
            Block::Code(text) => writeln!(out, "```\n{text}\n```\n"),
            Block::List(items) => {
                for item in items {
                    let _ = writeln!(out, "- {item}");
                }
                writeln!(out)
            }
            Block::Table(header, rows) => {
                let cells = |row: &[String]| {
                    format!(
                        "| {} |",
                        row.iter()
                            .map(|c| c.replace('|', "\\|"))
                            .collect::<Vec<_>>()
                            .join(" | ")
                    )
                };
                let _ = writeln!(out, "{}", cells(header));
                let _ = writeln!(out, "|{}", "---|".repeat(header.len()));
                for row in rows {
                    let _ = writeln!(out, "{}", cells(row));
                }
                writeln!(out)
            }
            Block::Chart(stem, caption) => writeln!(
                out,
                "![{caption}]({stem}.png)\n\n*{caption}* ([SVG]({stem}.svg))\n"
            ),
        };
    }
    out
}

/// Renders one HTML page; charts are read from `dir` and inlined.
pub fn html(title: &str, blocks: &[Block], dir: &Path) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n",
        escape(title)
    );
    for block in blocks {
        let _ = match block {
            Block::Heading(level, text) => writeln!(out, "<h{level}>{}</h{level}>", escape(text)),
            Block::Paragraph(text) => writeln!(out, "<p>{}</p>", inline(text)),
            Block::Warning(text) => writeln!(
                out,
                "<p class=\"warning\"><strong>Warning:</strong> {}</p>",
                inline(text)
            ),
            Block::Code(text) => writeln!(out, "<pre><code>{}</code></pre>", escape(text)),
            Block::Link(text, href) => writeln!(
                out,
                "<p><a href=\"{}\">{}</a></p>",
                escape(href),
                escape(text)
            ),
            Block::List(items) => {
                let items: String = items
                    .iter()
                    .map(|i| format!("<li>{}</li>", inline(i)))
                    .collect();
                writeln!(out, "<ul>{items}</ul>")
            }
            Block::Table(header, rows) => {
                let head: String = header
                    .iter()
                    .map(|h| format!("<th>{}</th>", escape(h)))
                    .collect();
                let body: String = rows
                    .iter()
                    .map(|r| {
                        format!(
                            "<tr>{}</tr>",
                            r.iter()
                                .map(|c| format!("<td>{}</td>", inline(c)))
                                .collect::<String>()
                        )
                    })
                    .collect();
                writeln!(
                    out,
                    "<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                )
            }
            Block::Chart(stem, caption) => {
                let svg =
                    std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap_or_default();
                // Drop the XML prolog so the SVG can stand inside HTML.
                let svg = svg.find("<svg").map_or(svg.as_str(), |i| &svg[i..]);
                writeln!(
                    out,
                    "<figure>{svg}<figcaption>{}</figcaption></figure>",
                    escape(caption)
                )
            }
        };
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// `24000` as `24,000`: counts as the pages and closing lines write them.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Text as HTML, with Markdown's code spans (`` `sowlab explain` ``) set as code, as the
/// Markdown page shows them.
fn inline(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    // An odd number of backticks leaves the last one as it is.
    if parts.len().is_multiple_of(2) {
        return escape(text);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part)
            }
        })
        .collect()
}

/// Text as HTML text or attribute value.
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str =
    "body { font-family: 'DejaVu Sans', Verdana, sans-serif; color: #222; background: #fafafa; }
main { max-width: 1150px; margin: 2em auto; padding: 0 1em; }
h1 { border-bottom: 2px solid #0072b2; padding-bottom: .3em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: left; }
th { background: #e8eef4; }
tr:nth-child(even) td { background: #f3f3f3; }
pre { background: #eee; padding: .8em; overflow-x: auto; white-space: pre-wrap; }
figure { margin: 1.5em 0; }
figure svg { width: 100%; height: auto; background: white; border: 1px solid #ddd; }
figcaption { font-style: italic; color: #555; margin-top: .3em; }
.warning { background: #fff4e0; border-left: 4px solid #d55e00; padding: .6em .8em; }
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_are_set_as_code_in_html() {
        assert_eq!(
            inline("run `sowlab explain` <here>"),
            "run <code>sowlab explain</code> &lt;here&gt;"
        );
        assert_eq!(inline("a lone ` stays"), "a lone ` stays");
    }

    #[test]
    fn numbers_have_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(24_000), "24,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
