//! The rule differences between two compiled variants, in the sentences `explain` prints.

use std::fmt::Write;
use std::ops::Range;

use serde_json::Value;

use super::explain::{ordinal, statements, Section, Statement};
use super::Rules;

/// A rule on which two variants differ: a sentence of `explain` that is not the same in both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The section of `explain` it belongs to.
    pub section: Section,
    /// What the rule is about: a topic (`direction`), or a capture or house rule's name,
    /// quoted, with both names when the files name it differently.
    pub topic: String,
    /// A's sentence, or `None` if A has no such rule.
    pub a: Option<String>,
    /// B's sentence, or `None` if B has no such rule.
    pub b: Option<String>,
}

/// The rules on which `a` and `b` differ, section by section; none if their rules hash the
/// same. Rules with fixed topics pair by topic. Capture and house rules pair by content, then
/// by name, then by place in their list, in order (the engine tries them in file order), so
/// renaming a rule is no difference and moving it is one.
pub fn differences(a: &Rules, b: &Rules) -> Vec<Difference> {
    if a.hash() == b.hash() {
        return Vec::new();
    }
    let (a, b) = (statements(a), statements(b));
    let same_rule: Test = |x, y| x.text == y.text && (x.named || x.topic == y.topic);
    let same_topic: Test = |x, y| x.topic == y.topic;
    let mut out = Vec::new();
    for section in Section::ALL {
        fn of(all: &[Statement], section: Section) -> Vec<&Statement> {
            all.iter().filter(|s| s.section == section).collect()
        }
        let (x, y) = (of(&a, section), of(&b, section));
        for pair in align(&x, &y, &[same_rule, same_topic]) {
            let (a, b) = (pair.0.map(|i| &x[i].text), pair.1.map(|j| &y[j].text));
            if a != b {
                out.push(Difference {
                    section,
                    topic: topic(&x, &y, pair),
                    a: a.cloned(),
                    b: b.cloned(),
                });
            }
        }
    }
    out
}

/// A plain-text account of how `b`'s rules differ from `a`'s: a header naming both files,
/// then either that the rules are the same, or each rule that differs, by section, with A's
/// and B's sentence on lines of their own; a closing note lists the reading marks only one
/// rests on.
pub fn diff(a: &Rules, b: &Rules) -> String {
    let mut o = String::new();
    for (label, rules) in [("A", a), ("B", b)] {
        let file = rules.provenance.files.first().map_or("", String::as_str);
        let _ = writeln!(
            o,
            "{label}  {file}  \"{}\"  rules {}",
            rules.provenance.name,
            rules.hash()
        );
    }
    let differences = differences(a, b);
    if a.hash() == b.hash() {
        let _ = writeln!(o, "\nThe rules are the same (rules {}).", a.hash());
    } else if differences.is_empty() {
        // Every sentence reads the same: name the compiled fields, so a difference is never
        // reported without saying where it is.
        let _ = writeln!(
            o,
            "\nNo rule reads differently, but the compiled rules differ in these fields:"
        );
        let program = |r: &Rules| serde_json::to_value(&r.program).unwrap_or(Value::Null);
        let mut fields = Vec::new();
        field_differences("", &program(a), &program(b), &mut fields);
        for field in fields {
            let _ = writeln!(o, "  {field}");
        }
    } else {
        let n = differences.len();
        let verb = if n == 1 {
            "rule differs"
        } else {
            "rules differ"
        };
        let _ = writeln!(o, "\n{n} {verb}:");
    }
    let mut section = None;
    for d in &differences {
        if section != Some(d.section) {
            section = Some(d.section);
            let section = d.section;
            let _ = writeln!(o, "\n{section}");
        }
        write_difference(&mut o, d);
    }
    // A reading is the same in both only with the same number and the same text: each file
    // numbers its own from R17.
    let readings = |r: &Rules| -> Vec<(String, String)> {
        r.reading_numbers()
            .into_iter()
            .map(|n| (r.reading_id(n), r.reading_text(n).to_string()))
            .collect()
    };
    let (ra, rb) = (readings(a), readings(b));
    let only = |x: &[(String, String)], y: &[(String, String)], label: &str| -> Vec<String> {
        x.iter()
            .filter(|(id, text)| !y.iter().any(|(i, t)| t == text && number(i) == number(id)))
            .map(|(id, text)| format!("  only {label} rests on {id}: {text}"))
            .collect()
    };
    let notes: Vec<String> = [only(&ra, &rb, "A"), only(&rb, &ra, "B")].concat();
    if !notes.is_empty() {
        let _ = writeln!(
            o,
            "\nReading marks (editorial readings, not rules):\n{}",
            notes.join("\n")
        );
    }
    o
}

/// `R17` of `R17 (kara.sow)`: a reading's number, whatever file declares it.
fn number(id: &str) -> &str {
    id.split(' ').next().unwrap_or(id)
}

/// One difference: its topic, A's and B's sentence, and the passages where they differ.
fn write_difference(o: &mut String, d: &Difference) {
    write_labelled(o, d, ["A", "B"], "  ");
}

/// One difference with its two sides called `labels`, indented by `indent`.
pub(crate) fn write_labelled(o: &mut String, d: &Difference, labels: [&str; 2], indent: &str) {
    let _ = writeln!(o, "{indent}{}", d.topic);
    let [la, lb] = labels;
    let width = la.len().max(lb.len());
    for (label, text) in [(la, &d.a), (lb, &d.b)] {
        let text = text.as_deref().unwrap_or("(no such rule)");
        // Continuation lines (a capture's grand-slam clause) go under the sentence.
        let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
        let under = format!("\n{indent}{:width$}    ", "");
        let _ = writeln!(o, "{indent}  {label:width$}: {}", lines.join(&under));
    }
    let (Some(a), Some(b)) = (&d.a, &d.b) else {
        return;
    };
    // A passage may span such a line break.
    let quote = |s: &str| format!("\"{}\"", s.split_whitespace().collect::<Vec<_>>().join(" "));
    for (x, y) in changes(a, b) {
        let _ = match (x.is_empty(), y.is_empty()) {
            (false, true) => writeln!(o, "{indent}  only {la} says {}", quote(x)),
            (true, false) => writeln!(o, "{indent}  only {lb} says {}", quote(y)),
            _ => writeln!(
                o,
                "{indent}  {la} says {}, {lb} says {}",
                quote(x),
                quote(y)
            ),
        };
    }
}

/// Whether two statements count as the same for one step of [`align`].
type Test = fn(&Statement, &Statement) -> bool;

/// A statement's place in A's list, B's, or both.
type Pair = (Option<usize>, Option<usize>);

/// The statements of one section, as places in `a` and `b`, in pairs, in order: first a
/// longest run of pairs that pass `tests[0]`, then, in each gap between those, pairs that pass
/// `tests[1]`, and so on; what is left pairs by place in its gap if both are named rules, and
/// stands alone otherwise.
fn align(a: &[&Statement], b: &[&Statement], tests: &[Test]) -> Vec<Pair> {
    let Some((same, rest)) = tests.split_first() else {
        let mut out = Vec::new();
        for i in 0..a.len().max(b.len()) {
            match (a.get(i), b.get(i)) {
                (Some(x), Some(y)) if x.named && y.named => out.push((Some(i), Some(i))),
                (x, y) => {
                    out.extend(x.map(|_| (Some(i), None)));
                    out.extend(y.map(|_| (None, Some(i))));
                }
            }
        }
        return out;
    };
    let mut out = Vec::new();
    let mut from = (0, 0);
    let ends = [(a.len(), b.len())];
    for (i, j) in common(a, b, |x, y| same(x, y)).into_iter().chain(ends) {
        let gap = align(&a[from.0..i], &b[from.1..j], rest);
        out.extend(
            gap.into_iter()
                .map(|(x, y)| (x.map(|x| x + from.0), y.map(|y| y + from.1))),
        );
        if i < a.len() {
            out.push((Some(i), Some(j)));
        }
        from = (i + 1, j + 1);
    }
    out
}

/// The index pairs of a longest common subsequence of `a` and `b`, in order.
fn common<T>(a: &[T], b: &[T], same: impl Fn(&T, &T) -> bool) -> Vec<(usize, usize)> {
    // run[i][j]: the length of the longest in a[i..] and b[j..].
    let mut run = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            run[i][j] = if same(&a[i], &b[j]) {
                run[i + 1][j + 1] + 1
            } else {
                run[i + 1][j].max(run[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        if same(&a[i], &b[j]) {
            pairs.push((i, j));
            (i, j) = (i + 1, j + 1);
        } else if run[i + 1][j] >= run[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

/// How a difference is headed: the topic, or the rule's name(s); a rule only one file has
/// is given its place, since the engine tries them in order.
fn topic(a: &[&Statement], b: &[&Statement], (i, j): Pair) -> String {
    let place = |s: &Statement, n: usize, file: &str| {
        if s.named {
            format!("\"{}\" ({} in {file})", s.topic, ordinal(n as u16 + 1))
        } else {
            s.topic.clone()
        }
    };
    match (i, j) {
        (Some(i), Some(j)) if a[i].named && a[i].topic != b[j].topic => {
            format!("\"{}\" in A, \"{}\" in B", a[i].topic, b[j].topic)
        }
        (Some(i), Some(_)) if a[i].named => format!("\"{}\"", a[i].topic),
        (Some(i), Some(_)) => a[i].topic.clone(),
        (Some(i), None) => place(a[i], i, "A"),
        (None, Some(j)) => place(b[j], j, "B"),
        (None, None) => String::new(),
    }
}

/// The passages where two sentences differ, A's and B's (either may be empty), when the
/// sentences have at least half their words in common and differ in at most three places;
/// otherwise none, as the sentences are best read whole.
fn changes<'t>(a: &'t str, b: &'t str) -> Vec<(&'t str, &'t str)> {
    let (ta, tb) = (tokens(a), tokens(b));
    let mut hunks: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let mut from = (0, 0);
    let ends = [(ta.len(), tb.len())];
    for (i, j) in common(&ta, &tb, |x, y| a[x.clone()] == b[y.clone()])
        .into_iter()
        .chain(ends)
    {
        if (i, j) != from {
            match hunks.last_mut() {
                // Two passages a word or two apart read better as one.
                Some((x, y)) if from.0 - x.end < 3 => (x.end, y.end) = (i, j),
                _ => hunks.push((from.0..i, from.1..j)),
            }
        }
        from = (i + 1, j + 1);
    }
    let changed: usize = hunks.iter().map(|(x, y)| x.len() + y.len()).sum();
    if hunks.len() > 3 || 2 * changed > ta.len() + tb.len() {
        return Vec::new();
    }
    let text = |s: &'t str, t: &[Range<usize>], r: &Range<usize>| {
        if r.is_empty() {
            ""
        } else {
            &s[t[r.start].start..t[r.end - 1].end]
        }
    };
    hunks
        .iter()
        .map(|(x, y)| (text(a, &ta, x), text(b, &tb, y)))
        .collect()
}

/// The words (letters, digits and apostrophes) and marks of a sentence, as byte ranges.
fn tokens(s: &str) -> Vec<Range<usize>> {
    let word = |c: char| c.is_alphanumeric() || c == '\'';
    let mut out: Vec<Range<usize>> = Vec::new();
    for (i, c) in s.char_indices() {
        let end = i + c.len_utf8();
        match out.last_mut() {
            Some(last) if word(c) && last.end == i && s[..i].ends_with(word) => last.end = end,
            _ if !c.is_whitespace() => out.push(i..end),
            _ => {}
        }
    }
    out
}

/// Every leaf of two compiled programs' JSON that differs, as `path: A value, B value`.
fn field_differences(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    let at = |key: &dyn std::fmt::Display| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                field_differences(&at(key), value, y.get(key).unwrap_or(&Value::Null), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (x, y)) in x.iter().zip(y).enumerate() {
                field_differences(&at(&i), x, y, out);
            }
        }
        _ if a != b => out.push(format!("{path}: A {a}, B {b}")),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_whole_words_and_only_for_sentences_mostly_alike() {
        assert_eq!(
            changes("the hole, and the run; it ends", "the hole; it ends"),
            [(", and the run", "")]
        );
        assert_eq!(
            changes(
                "clockwise (decreasing hole numbers), each lap",
                "counterclockwise (increasing hole numbers), each lap"
            ),
            [("clockwise (decreasing", "counterclockwise (increasing")]
        );
        assert!(changes("single laps: the move ends", "relay: when it lands").is_empty());
    }

    #[test]
    fn named_rules_pair_by_content_then_name_then_place() {
        let rule = |name: &str, text: &str| Statement {
            section: Section::Captures,
            topic: name.into(),
            named: true,
            text: text.into(),
        };
        let a = [rule("p", "one"), rule("f", "two"), rule("x", "three")];
        let b = [rule("renamed", "one"), rule("y", "four"), rule("f", "five")];
        let (a, b): (Vec<_>, Vec<_>) = (a.iter().collect(), b.iter().collect());
        let same_rule: Test = |x, y| x.text == y.text;
        let same_topic: Test = |x, y| x.topic == y.topic;
        assert_eq!(
            align(&a, &b, &[same_rule, same_topic]),
            [
                (Some(0), Some(0)),
                (None, Some(1)),
                (Some(1), Some(2)),
                (Some(2), None)
            ]
        );
    }
}
