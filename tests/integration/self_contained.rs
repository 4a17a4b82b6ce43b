//! The repository is self-contained: someone who clones it gets every document its files send
//! them to.
//!
//! * No tracked text file names a document outside the repository: the old shared notes
//!   beside the checkout, their seed-rules file or their readings file under `rules/` (the
//!   strings are in [`OUTSIDE`]). The project's own restatements are `docs/sources.md` and
//!   `docs/readings.md`.
//! * Every relative Markdown link in a tracked `.md` file, `[text](path)` or
//!   `[text](path#anchor)` (images and reference definitions too), points to a tracked file or
//!   folder; an `#anchor` into a tracked `.md` file names one of its headings (GitHub's slug:
//!   lowercase, spaces to `-`, punctuation other than `-` and `_` dropped, `-1`, `-2` for
//!   repeats) or an explicit `<a id="...">` / `{#...}` anchor.
//! * Every `docs/...` path that a file other than Markdown mentions (diagnostics and help
//!   texts in `src/`, variant comments, golden files, report pages) is a tracked file, and a
//!   `#anchor` written after it names a heading or anchor of that file.
//!
//! The files are the ones `git ls-files` lists; binary files (a NUL byte, or not UTF-8) are
//! skipped. Each failure lists every offending `file:line`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::util::root;

/// What no tracked file may mention. Each is split so that this file does not mention it.
const OUTSIDE: [&str; 4] = [
    concat!("..", "/shared"),
    concat!("/work", "/shared"),
    concat!("seed-rules", ".md"),
    concat!("rules/", "readings.md"),
];

/// The tracked files, as paths relative to the root, with the text of each text file.
struct Tracked {
    files: BTreeSet<String>,
    texts: BTreeMap<String, String>,
}

impl Tracked {
    /// `None` outside a git checkout (a source archive, say): there is nothing to list.
    fn read() -> Option<Tracked> {
        if !root().join(".git").exists() {
            return None;
        }
        let output = Command::new("git")
            .args(["ls-files", "-z"])
            .current_dir(root())
            .output()
            .expect("git runs");
        assert!(
            output.status.success(),
            "git ls-files failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let listing = String::from_utf8(output.stdout).expect("tracked paths are UTF-8");
        let files: BTreeSet<String> = listing
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        let mut texts = BTreeMap::new();
        for file in &files {
            // A tracked file deleted in the working tree is not there to read.
            let Ok(bytes) = std::fs::read(root().join(file)) else {
                continue;
            };
            if bytes.contains(&0) {
                continue;
            }
            if let Ok(text) = String::from_utf8(bytes) {
                texts.insert(file.clone(), text);
            }
        }
        Some(Tracked { files, texts })
    }

    /// The text files.
    fn checked(&self) -> impl Iterator<Item = (&String, &String)> {
        self.texts.iter()
    }

    /// Whether `path` (relative to the root, normalised) is a tracked file or a folder that
    /// holds one.
    fn has(&self, path: &str) -> bool {
        if path.is_empty() {
            return true;
        }
        let folder = format!("{}/", path.trim_end_matches('/'));
        self.files.contains(path)
            || self
                .files
                .range(folder.clone()..)
                .next()
                .is_some_and(|f| f.starts_with(&folder))
    }
}

/// Fails with every offence, one `file:line: what` a line.
fn report(what: &str, offences: &[String]) {
    assert!(
        offences.is_empty(),
        "{} {what}:\n{}",
        offences.len(),
        offences.join("\n")
    );
}

#[test]
fn no_tracked_file_names_a_document_outside_the_repository() {
    let Some(tracked) = Tracked::read() else {
        eprintln!("not a git checkout: nothing to check");
        return;
    };
    let mut offences = Vec::new();
    for (file, text) in tracked.checked() {
        for (i, line) in text.lines().enumerate() {
            for outside in OUTSIDE {
                if line.contains(outside) {
                    offences.push(format!(
                        "{file}:{}: names `{outside}`, which is not in the repository (cite docs/sources.md or docs/readings.md)",
                        i + 1
                    ));
                }
            }
        }
    }
    report("mentions of documents outside the repository", &offences);
}

#[test]
fn every_relative_markdown_link_points_into_the_repository() {
    let Some(tracked) = Tracked::read() else {
        eprintln!("not a git checkout: nothing to check");
        return;
    };
    let anchors = markdown_anchors(&tracked);
    let mut offences = Vec::new();
    for (file, text) in tracked.checked() {
        if !file.ends_with(".md") {
            continue;
        }
        for (line, target) in links(text) {
            let at = format!("{file}:{line}");
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                Some(file.clone())
            } else {
                resolve(file, &percent_decoded(path))
            };
            let Some(resolved) = resolved else {
                offences.push(format!("{at}: `{target}` leaves the repository"));
                continue;
            };
            if !tracked.has(&resolved) {
                offences.push(format!(
                    "{at}: `{target}` points to `{resolved}`, which is not a tracked file"
                ));
                continue;
            }
            let (Some(anchor), Some(known)) = (anchor, anchors.get(resolved.as_str())) else {
                continue;
            };
            if !known.contains(&percent_decoded(anchor)) {
                offences.push(format!(
                    "{at}: `{target}`: `{resolved}` has no heading or anchor `#{anchor}`"
                ));
            }
        }
    }
    report("broken relative links", &offences);
}

#[test]
fn every_docs_path_named_outside_markdown_resolves() {
    let Some(tracked) = Tracked::read() else {
        eprintln!("not a git checkout: nothing to check");
        return;
    };
    let anchors = markdown_anchors(&tracked);
    let mut offences = Vec::new();
    let mut found = 0;
    for (file, text) in tracked.checked() {
        if file.ends_with(".md") {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            for (path, anchor) in docs_paths(line) {
                found += 1;
                let at = format!("{file}:{}", i + 1);
                if !tracked.files.contains(&path) {
                    offences.push(format!("{at}: names `{path}`, which is not a tracked file"));
                } else if let (Some(anchor), Some(known)) = (&anchor, anchors.get(path.as_str())) {
                    if !known.contains(anchor) {
                        offences.push(format!(
                            "{at}: `{path}` has no heading or anchor `#{anchor}`"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        found > 0,
        "no file names a docs/ path: the check finds nothing"
    );
    report(
        "docs/ paths outside Markdown that do not resolve",
        &offences,
    );
}

/// The anchors of every tracked Markdown file, by path.
fn markdown_anchors(tracked: &Tracked) -> BTreeMap<&str, BTreeSet<String>> {
    tracked
        .texts
        .iter()
        .filter(|(file, _)| file.ends_with(".md"))
        .map(|(file, text)| (file.as_str(), anchors_of(text)))
        .collect()
}

/// The `docs/...` paths on a line, each with the `#anchor` after it if any: `docs/` not
/// preceded by a word character, `/` or `.`, then path characters, without a trailing `.`
/// (end of a sentence).
fn docs_paths(line: &str) -> Vec<(String, Option<String>)> {
    let path_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-');
    let mut paths = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find("docs/") {
        let start = from + at;
        from = start + "docs/".len();
        let before = line[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '-')) {
            continue;
        }
        let rest = &line[start..];
        let end = rest.find(|c| !path_char(c)).unwrap_or(rest.len());
        let path = rest[..end].trim_end_matches('.');
        let anchor = rest[end..].strip_prefix('#').map(|a| {
            let a = &a[..a.find(|c| !path_char(c)).unwrap_or(a.len())];
            a.trim_end_matches('.').to_string()
        });
        if path.len() > "docs/".len() {
            paths.push((path.to_string(), anchor.filter(|a| !a.is_empty())));
        }
    }
    paths
}

/// `target` as written in `file` (both relative to the root), as a normalised path from the
/// root; `None` if it climbs out of the repository. A target starting with `/` is taken from
/// the root, as GitHub does.
fn resolve(file: &str, target: &str) -> Option<String> {
    let base = if let Some(from_root) = target.strip_prefix('/') {
        PathBuf::from(from_root)
    } else {
        Path::new(file)
            .parent()
            .unwrap_or(Path::new(""))
            .join(target)
    };
    let mut parts: Vec<String> = Vec::new();
    for component in base.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    Some(parts.join("/"))
}

/// `%20` and the like decoded; other text as it is.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a line opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let trimmed = line.trim_start();
    line.len() - trimmed.len() <= 3 && (trimmed.starts_with("```") || trimmed.starts_with("~~~"))
}

/// A line with its inline code spans (`` `...` ``) blanked out.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else {
            out.push(if in_code { ' ' } else { c });
        }
    }
    out
}

/// The link targets of a Markdown text outside code, with their line numbers:
/// `[text](target)`, `![alt](target)` and reference definitions `[label]: target`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (i, raw) in text.lines().enumerate() {
        if is_fence(raw) {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let line = without_code_spans(raw);
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix('[') {
            if let Some((label, target)) = rest.split_once("]:") {
                let target = clean_target(target);
                if !label.contains(']') && !target.is_empty() {
                    found.push((i + 1, target));
                }
            }
        }
        let mut from = 0;
        while let Some(at) = line[from..].find("](") {
            let open = from + at + 2;
            from = open;
            // The target runs to the matching `)`: parentheses may nest in a path.
            let mut depth = 1;
            let mut end = None;
            for (j, c) in line[open..].char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(open + j);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(end) = end else { continue };
            let target = clean_target(&line[open..end]);
            if !target.is_empty() {
                found.push((i + 1, target));
            }
            from = end;
        }
    }
    found
}

/// A link target without its title (`path "title"`) and angle brackets (`<path>`).
fn clean_target(target: &str) -> String {
    let target = target.trim();
    let target = target
        .strip_prefix('<')
        .and_then(|t| t.split_once('>'))
        .map_or_else(
            || target.split_whitespace().next().unwrap_or(""),
            |(t, _)| t,
        );
    target.to_string()
}

/// The anchors a Markdown text defines: its headings' slugs and its explicit anchors.
fn anchors_of(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut fenced = false;
    for line in text.lines() {
        if is_fence(line) {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (open, close) in [("id=\"", "\""), ("name=\"", "\""), ("{#", "}")] {
            let mut rest = line;
            while let Some(at) = rest.find(open) {
                let after = &rest[at + open.len()..];
                let Some(end) = after.find(close) else { break };
                anchors.insert(after[..end].to_string());
                rest = &after[end..];
            }
        }
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        let is_heading = line.len() - trimmed.len() <= 3
            && (1..=6).contains(&hashes)
            && trimmed[hashes..].starts_with(' ');
        if is_heading {
            let title = trimmed[hashes..].trim().trim_end_matches('#').trim();
            // An explicit `{#id}` names the heading instead of its text.
            let title = title.split(" {#").next().unwrap_or(title);
            let slug = slug(title);
            let n = seen.entry(slug.clone()).or_insert(0);
            anchors.insert(if *n == 0 {
                slug.clone()
            } else {
                format!("{slug}-{n}")
            });
            *n += 1;
        }
    }
    anchors
}

/// GitHub's heading slug, simply: lowercase, spaces to `-`, punctuation other than `-` and
/// `_` dropped.
fn slug(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

#[test]
fn the_link_checker_reads_markdown_as_github_does() {
    assert_eq!(
        slug("R1 — Which drops form a casa"),
        "r1--which-drops-form-a-casa"
    );
    assert_eq!(slug("`sowlab fmt`: the layout"), "sowlab-fmt-the-layout");
    assert_eq!(slug("Files and extending"), "files-and-extending");
    let text = "# A\n## A\n<a id=\"x\"></a>\n## B {#c}\n```\n# not a heading [a](b.md)\n```\n";
    let anchors = anchors_of(text);
    for a in ["a", "a-1", "x", "c", "b"] {
        assert!(anchors.contains(a), "{a} in {anchors:?}");
    }
    assert!(!anchors.contains("not-a-heading"));
    let text = "see [one](a.md#b), ![two](img/c.png \"title\") and `[three](no.md)`\n\
                ```\n[four](no.md)\n```\n[five]: <d e.md>\n[six](f_(g).md)\n";
    let found: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(found, ["a.md#b", "img/c.png", "d e.md", "f_(g).md"]);
    assert_eq!(
        resolve("notes/a.md", "../src/x.rs").as_deref(),
        Some("src/x.rs")
    );
    assert_eq!(resolve("notes/a.md", "b.md").as_deref(), Some("notes/b.md"));
    assert_eq!(
        resolve("a.md", "/notes/b.md").as_deref(),
        Some("notes/b.md")
    );
    assert_eq!(resolve("notes/a.md", "../../x"), None);
    assert_eq!(
        docs_paths("see docs/readings.md#r1. and (docs/sources.md). Not mydocs/x or ../docs/y"),
        [
            ("docs/readings.md".to_string(), Some("r1".to_string())),
            ("docs/sources.md".to_string(), None)
        ]
    );
    assert_eq!(percent_decoded("a%20b"), "a b");
}
