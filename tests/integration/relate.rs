//! `sowlab relate`: characters read off the compiled rules, so that a respelled file is at
//! distance 0 and a file with one rule changed is the nearest relative; the NEXUS file reads
//! back as a standard reader reads it (taxa, a matrix row per taxon of NCHAR symbols, a
//! distance triangle, a tree naming every taxon once).

use std::collections::BTreeMap;

use sowlab::relate::{labelled, neighbour_joining, Matrix, Tree};
use sowlab::report::tree::{broad, Broad};

use crate::util::{path, sowlab};

fn stdout_of(args: &[&str]) -> String {
    let out = sowlab().arg("relate").args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn a_respelled_file_is_at_distance_0_and_a_changed_rule_is_nearest() {
    let tmp = tempfile::tempdir().unwrap();
    let kalah = std::fs::read_to_string(path("variants/kalah.sow")).unwrap();
    std::fs::write(tmp.path().join("a.sow"), &kalah).unwrap();
    // The same rules spelled otherwise: another name for the game and its capture rule, no
    // comments.
    let respelled: String = kalah
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| {
            l.replace("capture \"opposite\"", "capture \"across\"")
                .replace("game \"Kalah\"", "game \"Kalaha\"")
                + "\n"
        })
        .collect();
    assert_ne!(respelled, kalah);
    std::fs::write(tmp.path().join("b.sow"), respelled).unwrap();
    std::fs::copy(path("variants/oware.sow"), tmp.path().join("c.sow")).unwrap();
    let dir = tmp.path().to_str().unwrap();
    let text = stdout_of(&[dir, "--like", &format!("{dir}/a.sow"), "--nearest", "2"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].starts_with("  0.0000  Kalaha "), "{text}");
    assert!(!lines[2].starts_with("  0.0000"), "{text}");
    // Kalah under the empty-capture rule differs from Kalah in that rule alone (and its
    // provenance): of every shipped and catalogue game, Kalah is its nearest.
    let text = stdout_of(&[
        "variants",
        "--like",
        "variants/catalogue/kalah-empty-capture.sow",
        "--nearest",
        "1",
    ]);
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .contains("  Kalah  (variants/kalah.sow)"),
        "{text}"
    );
}

/// The words of a NEXUS file, as a reader splits them: quoted words whole, `;` `,` `=` `(`
/// `)` `:` on their own, `[...]` comments dropped.
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '[' => while chars.next().is_some_and(|c| c != ']') {},
            '\'' => {
                let mut word = String::new();
                while let Some(c) = chars.next() {
                    if c == '\'' {
                        if chars.peek() == Some(&'\'') {
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    word.push(c);
                }
                words.push(word);
            }
            ';' | ',' | '=' | '(' | ')' | ':' | '/' => words.push(c.to_string()),
            c => {
                let mut word = c.to_string();
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || ";,=():/[".contains(n) {
                        break;
                    }
                    word.push(n);
                    chars.next();
                }
                words.push(word);
            }
        }
    }
    words
}

#[test]
fn the_nexus_file_reads_back_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("relations");
    sowlab()
        .args(["relate", "variants", "--out"])
        .arg(&out)
        .assert()
        .success();
    let nexus = std::fs::read_to_string(out.join("relations.nex")).unwrap();
    assert!(nexus.starts_with("#NEXUS"));
    let words = words(&nexus["#NEXUS".len()..]);
    // Blocks by name, each its words up to END.
    let mut blocks: Vec<(String, Vec<String>)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        assert_eq!(words[i].to_uppercase(), "BEGIN", "at word {i}");
        let name = words[i + 1].to_uppercase();
        let end = (i..words.len())
            .find(|&k| words[k].eq_ignore_ascii_case("END"))
            .expect("END");
        blocks.push((name, words[i + 3..end].to_vec()));
        i = end + 2;
    }
    let names: Vec<&str> = blocks.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["TAXA", "CHARACTERS", "CHARACTERS", "DISTANCES", "TREES"]
    );
    let after = |block: &[String], key: &str| -> String {
        let k = block
            .iter()
            .position(|w| w.eq_ignore_ascii_case(key))
            .unwrap();
        block[k + 2].clone()
    };
    let taxa = &blocks[0].1;
    let ntax: usize = after(taxa, "NTAX").parse().unwrap();
    let labels_at = taxa.iter().position(|w| w == "TAXLABELS").unwrap() + 1;
    let labels: Vec<String> = taxa[labels_at..taxa.len() - 1].to_vec();
    assert_eq!(labels.len(), ntax);
    let files = sowlab::lang::variant_files(&[path("variants")])
        .unwrap()
        .files;
    assert_eq!(ntax, files.len());
    // The discrete matrix: a row per taxon, in order, NCHAR symbols each.
    let chars = &blocks[1].1;
    let nchar: usize = after(chars, "NCHAR").parse().unwrap();
    let matrix_at = chars.iter().position(|w| w == "MATRIX").unwrap() + 1;
    let rows = &chars[matrix_at..chars.len() - 1];
    assert_eq!(rows.len(), 2 * ntax);
    for (k, pair) in rows.chunks(2).enumerate() {
        assert_eq!(pair[0], labels[k]);
        assert_eq!(pair[1].chars().count(), nchar, "{}", pair[0]);
    }
    // Every column is coded with a symbol: no character of the shipped and catalogue games
    // (capture rules split into their parts) has more states than the 32 symbols.
    let mut used: BTreeMap<usize, usize> = BTreeMap::new();
    for pair in rows.chunks(2) {
        for (c, s) in pair[1].chars().enumerate() {
            let v = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
                .find(s)
                .unwrap_or_else(|| panic!("{s} is not a symbol"));
            let e = used.entry(c).or_default();
            *e = (*e).max(v + 1);
        }
    }
    assert_eq!(used.len(), nchar);
    // The distances: a lower triangle, 0 on the diagonal.
    let dist = &blocks[3].1;
    let at = dist.iter().position(|w| w == "MATRIX").unwrap() + 1;
    let mut k = at;
    for (row, label) in labels.iter().enumerate() {
        assert_eq!(&dist[k], label);
        let values: Vec<f64> = dist[k + 1..k + 2 + row]
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(values[row], 0.0);
        assert!(values.iter().all(|v| (0.0..=1.0).contains(v)));
        k += 2 + row;
    }
    // The tree names every taxon once, its parentheses balanced.
    let tree = &blocks[4].1;
    let leaves: Vec<&String> = tree
        .windows(2)
        .filter(|w| (w[1] == ":") && w[0] != ")")
        .map(|w| &w[0])
        .collect();
    let mut sorted_leaves: Vec<&String> = leaves.clone();
    sorted_leaves.sort();
    let mut sorted_labels: Vec<&String> = labels.iter().collect();
    sorted_labels.sort();
    assert_eq!(sorted_leaves, sorted_labels);
    let depth = tree.iter().fold(0i32, |d, w| match w.as_str() {
        "(" => d + 1,
        ")" => d - 1,
        _ => d,
    });
    assert_eq!(depth, 0);
    for file in ["characters.csv", "distances.csv", "tree.nwk"] {
        assert!(out.join(file).metadata().unwrap().len() > 0, "{file}");
    }
}

/// A capture rule is six characters, the parts of its sentence: Kalah and Kalah with empty
/// capture differ in what the hole must hold alone, and each part has a column.
#[test]
fn capture_rules_are_characters_by_their_parts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("relations");
    sowlab()
        .args([
            "relate",
            "variants/kalah.sow",
            "variants/catalogue/kalah-empty-capture.sow",
            "variants/oware.sow",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let mut reader = csv::Reader::from_path(out.join("characters.csv")).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    for part in ["when", "condition", "taker", "taken", "then", "grand slam"] {
        let column = format!("Captures 1: {part}");
        assert!(header.contains(&column), "{column}: {header:?}");
    }
    assert!(!header.contains(&"Captures 1".to_string()));
    let differ: Vec<&str> = header
        .iter()
        .zip(rows[0].iter().zip(&rows[1]))
        .filter(|(_, (a, b))| a != b)
        .map(|(h, _)| h.as_str())
        .collect();
    assert_eq!(differ, ["label", "name", "Captures 1: condition"]);
}

/// The report of every shipped and catalogue game: `tree.svg` is well-formed and names each
/// game once, in one column of labels a row apart; every region is read as a broad region;
/// `tree.nwk` is the tree the library builds, and the Newick the tree type writes is the
/// text `neighbour_joining` gives; `index.md` says how it was made and gives each game's
/// nearest relative.
#[test]
fn the_report_draws_the_tree_and_names_each_nearest_relative() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("relations");
    sowlab()
        .args(["relate", "variants", "--out"])
        .arg(&out)
        .assert()
        .success();
    let mut reader = csv::Reader::from_path(out.join("characters.csv")).unwrap();
    let taxa: Vec<(String, String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r[1].to_string(), r[2].to_string())
        })
        .collect();
    assert!(taxa.len() > 70);
    for file in ["tree.svg", "tree.png", "index.md", "index.html"] {
        assert!(out.join(file).metadata().unwrap().len() > 0, "{file}");
    }
    let svg = std::fs::read_to_string(out.join("tree.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<(String, f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let at = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            let words: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            (words.trim().to_string(), at("x"), at("y"))
        })
        .collect();
    let mut rows: Vec<f64> = Vec::new();
    let mut columns: Vec<f64> = Vec::new();
    for (_, name, _) in &taxa {
        let found: Vec<&(String, f64, f64)> = texts.iter().filter(|t| &t.0 == name).collect();
        assert_eq!(found.len(), 1, "{name} is written {} times", found.len());
        columns.push(found[0].1);
        rows.push(found[0].2);
    }
    columns.dedup();
    assert_eq!(columns.len(), 1, "the names stand in one column");
    rows.sort_by(f64::total_cmp);
    for pair in rows.windows(2) {
        assert!(pair[1] - pair[0] >= 20.0, "labels at {pair:?} overlap");
    }
    // No region of a shipped or catalogue game is left unread.
    let unknown: Vec<&str> = taxa
        .iter()
        .filter(|(_, _, region)| broad(region) == Broad::Unknown)
        .map(|(label, _, _)| label.as_str())
        .collect();
    assert!(unknown.is_empty(), "no broad region for {unknown:?}");
    // The Newick text: the library's, through the tree type and the function alike.
    let files = sowlab::lang::variant_files(&[path("variants")])
        .unwrap()
        .files;
    let compiled: Vec<(std::path::PathBuf, sowlab::rules::Rules)> = files
        .into_iter()
        .map(|f| {
            let rules = sowlab::lang::compile_path(&f, &[]).unwrap();
            (f, rules)
        })
        .collect();
    let matrix = Matrix::of(&labelled(&compiled));
    let labels: Vec<String> = matrix.taxa.iter().map(|t| t.label.clone()).collect();
    let newick = neighbour_joining(&labels, &matrix.distances());
    assert_eq!(
        Tree::neighbour_joining(&labels, &matrix.distances()).newick(),
        newick
    );
    let written = std::fs::read_to_string(out.join("tree.nwk")).unwrap();
    assert_eq!(written, format!("{newick}\n"));
    let nexus = std::fs::read_to_string(out.join("relations.nex")).unwrap();
    assert!(nexus.contains(&format!("TREE nj = {newick}\n")));
    // The page: the command, the counts, where the distance is defined, a row a game.
    let page = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(page.contains(&format!("sowlab relate variants --out {}", out.display())));
    assert!(page.contains(&format!(
        "{} variants, each described by {} characters",
        taxa.len(),
        matrix.characters.len() + 2
    )));
    assert!(
        page.contains("docs/measures.md") && page.contains("![") && page.contains("(tree.png)")
    );
    for (label, name, _) in &taxa {
        let row = page
            .lines()
            .find(|l| l.starts_with(&format!("| {name} | `{label}` |")))
            .unwrap_or_else(|| panic!("no row for {name}"));
        assert_eq!(row.matches(" | ").count(), 4, "{row}");
    }
    let kalah = page
        .lines()
        .find(|l| l.starts_with("| Kalah with empty capture |"))
        .unwrap();
    assert!(kalah.contains("| Kalah |"), "{kalah}");
}
