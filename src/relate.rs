//! How variants are related: a character matrix read off the compiled rules (each rule as
//! `explain` states it a character, its sentence the state; board size and seeds quantitative),
//! a distance between variants, a neighbour-joining tree, and the files phylogenetics software
//! reads (NEXUS, Newick).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::rules::explain::{capture_parts, statements, Section};
use crate::rules::Rules;

/// The symbols NEXUS codes a discrete character's states with, in order.
const SYMBOLS: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

/// The state of a variant that has no rule for a character.
pub const ABSENT: &str = "(none)";

/// One variant as the matrix sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Taxon {
    /// A label unique among the taxa, safe in NEXUS and Newick: the file's stem.
    pub label: String,
    /// The variant's name.
    pub name: String,
    /// Its region, from the file's provenance (empty if none).
    pub region: String,
    /// Its state of each discrete character, in [`Matrix::characters`] order.
    pub states: Vec<String>,
    /// Holes a row, and seeds a hole on average.
    pub quantities: [f64; 2],
}

/// The names of the quantitative characters.
pub const QUANTITIES: [&str; 2] = ["holes per row", "seeds per hole"];

/// Variants and their characters.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// The discrete characters: `Section: topic` (`Captures 2` for the second capture rule).
    pub characters: Vec<String>,
    /// The variants.
    pub taxa: Vec<Taxon>,
}

/// A variant's discrete characters and their states: every statement of `explain` but the
/// board's size and seeds (quantities here), keyed by section and topic; named rules (captures,
/// houses) by their place in the file, so that their names do not count. A capture rule is a
/// character a part of its sentence (`Captures 1: taken`): as one sentence, the first capture
/// rule alone took more states than NEXUS has symbols.
fn characters_of(rules: &Rules) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    for s in statements(rules) {
        let key = if s.named {
            let n = counts.entry(s.section.name()).or_default();
            *n += 1;
            if s.section == Section::Captures {
                for (part, text) in capture_parts(rules, *n - 1) {
                    found.insert(format!("Captures {n}: {part}"), text);
                }
                continue;
            }
            format!("{} {n}", s.section.name())
        } else if s.section == Section::Board {
            continue;
        } else {
            format!("{}: {}", s.section.name(), s.topic)
        };
        found.insert(key, s.text);
    }
    let board = &rules.program.board;
    found.insert(
        "Board: stores".into(),
        format!("{:?}", board.stores).to_lowercase(),
    );
    found.insert("Board: starter".into(), board.starter.name().into());
    let uniform = board.layout.iter().all(|&n| n == board.layout[0]);
    found.insert(
        "Board: layout".into(),
        if uniform { "uniform" } else { "varied" }.into(),
    );
    found
}

impl Matrix {
    /// The matrix of `variants`, each with the label it goes by.
    pub fn of(variants: &[(String, &Rules)]) -> Matrix {
        let each: Vec<BTreeMap<String, String>> =
            variants.iter().map(|(_, r)| characters_of(r)).collect();
        let mut characters: Vec<String> = each.iter().flat_map(|c| c.keys().cloned()).collect();
        characters.sort();
        characters.dedup();
        let taxa = variants
            .iter()
            .zip(&each)
            .map(|((label, rules), found)| {
                let board = &rules.program.board;
                let holes = f64::from(board.holes_per_row);
                Taxon {
                    label: label.clone(),
                    name: rules.provenance.name.clone(),
                    region: rules.provenance.get("region").join("; "),
                    states: characters
                        .iter()
                        .map(|c| found.get(c).cloned().unwrap_or_else(|| ABSENT.into()))
                        .collect(),
                    quantities: [holes, f64::from(rules.total) / (2.0 * holes)],
                }
            })
            .collect();
        Matrix { characters, taxa }
    }

    /// The distance between taxa `a` and `b`: the share of characters in which they differ,
    /// a discrete character counting 1 where the states differ, a quantitative one the
    /// difference over its range among the taxa (docs/measures.md).
    pub fn distance(&self, a: usize, b: usize) -> f64 {
        let (ta, tb) = (&self.taxa[a], &self.taxa[b]);
        let discrete = ta
            .states
            .iter()
            .zip(&tb.states)
            .filter(|(x, y)| x != y)
            .count() as f64;
        let quantitative: f64 = (0..QUANTITIES.len())
            .map(|q| {
                let range = self.range(q);
                if range > 0.0 {
                    (ta.quantities[q] - tb.quantities[q]).abs() / range
                } else {
                    0.0
                }
            })
            .sum();
        (discrete + quantitative) / (self.characters.len() + QUANTITIES.len()) as f64
    }

    fn range(&self, q: usize) -> f64 {
        let values = self.taxa.iter().map(|t| t.quantities[q]);
        let (low, high) = values.fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(v), h.max(v)));
        high - low
    }

    /// Every pair's distance.
    pub fn distances(&self) -> Vec<Vec<f64>> {
        let n = self.taxa.len();
        (0..n)
            .map(|a| (0..n).map(|b| self.distance(a, b)).collect())
            .collect()
    }

    /// The `k` taxa nearest `a`, nearest first (ties by label).
    pub fn nearest(&self, a: usize, k: usize) -> Vec<(usize, f64)> {
        let mut others: Vec<(usize, f64)> = (0..self.taxa.len())
            .filter(|&b| b != a)
            .map(|b| (b, self.distance(a, b)))
            .collect();
        others.sort_by(|x, y| {
            x.1.total_cmp(&y.1)
                .then_with(|| self.taxa[x.0].label.cmp(&self.taxa[y.0].label))
        });
        others.truncate(k);
        others
    }

    /// Each discrete character's states, in order of first appearance among the taxa.
    fn states(&self) -> Vec<Vec<&str>> {
        (0..self.characters.len())
            .map(|c| {
                let mut seen: Vec<&str> = Vec::new();
                for t in &self.taxa {
                    if !seen.contains(&t.states[c].as_str()) {
                        seen.push(&t.states[c]);
                    }
                }
                seen
            })
            .collect()
    }

    /// The characters with more states than NEXUS has symbols, with their number of states:
    /// `relations.nex` codes their states past the 32nd as missing.
    pub fn crowded(&self) -> Vec<(&str, usize)> {
        self.characters
            .iter()
            .zip(self.states())
            .filter(|(_, states)| states.len() > SYMBOLS.len())
            .map(|(name, states)| (name.as_str(), states.len()))
            .collect()
    }

    /// `characters.csv`: a row a taxon (label, name, region, the quantities), a column a
    /// character, each cell the state in words.
    pub fn csv(&self) -> String {
        let mut header = vec!["label".to_string(), "name".into(), "region".into()];
        header.extend(QUANTITIES.iter().map(ToString::to_string));
        header.extend(self.characters.iter().cloned());
        let rows = self.taxa.iter().map(|t| {
            let mut row = vec![t.label.clone(), t.name.clone(), t.region.clone()];
            row.extend(t.quantities.iter().map(|q| format!("{q}")));
            row.extend(t.states.iter().cloned());
            row
        });
        csv_text(header, rows)
    }

    /// `distances.csv`: a row and a column a variant, by label.
    pub fn distances_csv(&self) -> String {
        let d = self.distances();
        let mut header = vec!["label".to_string()];
        header.extend(self.taxa.iter().map(|t| t.label.clone()));
        let rows = self.taxa.iter().zip(&d).map(|(t, row)| {
            let mut cells = vec![t.label.clone()];
            cells.extend(row.iter().map(|x| format!("{x:.6}")));
            cells
        });
        csv_text(header, rows)
    }

    /// The matrix, distances and tree as one NEXUS file: TAXA; CHARACTERS (discrete, each
    /// state a symbol and its sentence as the state's label; a character's 33rd and later
    /// states, past the 32 symbols, coded missing, `?`: characters.csv keeps them); CHARACTERS
    /// (continuous, the quantities); DISTANCES; TREES (the neighbour-joining tree).
    pub fn nexus(&self, tree: &str) -> String {
        let mut o = String::from("#NEXUS\n\n");
        let labels: Vec<&str> = self.taxa.iter().map(|t| t.label.as_str()).collect();
        let _ = writeln!(
            o,
            "BEGIN TAXA;\n  DIMENSIONS NTAX={};\n  TAXLABELS {};\nEND;\n",
            labels.len(),
            labels.join(" ")
        );
        let states = self.states();
        let _ = writeln!(
            o,
            "BEGIN CHARACTERS;\n  TITLE rules;\n  DIMENSIONS NCHAR={};\n  FORMAT DATATYPE=STANDARD SYMBOLS=\"{}\" MISSING=?;\n  CHARSTATELABELS",
            self.characters.len(),
            SYMBOLS.chars().map(String::from).collect::<Vec<_>>().join(" ")
        );
        for (c, name) in self.characters.iter().enumerate() {
            let labels: Vec<String> = states[c].iter().map(|s| quote(s)).collect();
            let end = if c + 1 == self.characters.len() {
                ";"
            } else {
                ","
            };
            let _ = writeln!(
                o,
                "    {} {} / {}{end}",
                c + 1,
                quote(name),
                labels.join(" ")
            );
        }
        o.push_str("  MATRIX\n");
        for t in &self.taxa {
            // A character of more states than symbols is coded missing beyond the last.
            let row: String = (0..self.characters.len())
                .map(|c| {
                    let i = states[c]
                        .iter()
                        .position(|s| *s == t.states[c])
                        .unwrap_or(0);
                    SYMBOLS.chars().nth(i).unwrap_or('?')
                })
                .collect();
            let _ = writeln!(o, "    {} {row}", t.label);
        }
        o.push_str("  ;\nEND;\n\n");
        let _ = writeln!(
            o,
            "BEGIN CHARACTERS;\n  TITLE board;\n  DIMENSIONS NCHAR={};\n  FORMAT DATATYPE=CONTINUOUS;\n  CHARSTATELABELS {};\n  MATRIX",
            QUANTITIES.len(),
            QUANTITIES
                .iter()
                .enumerate()
                .map(|(i, q)| format!("{} {}", i + 1, quote(q)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for t in &self.taxa {
            let _ = writeln!(o, "    {} {} {}", t.label, t.quantities[0], t.quantities[1]);
        }
        o.push_str("  ;\nEND;\n\n");
        let _ = writeln!(
            o,
            "BEGIN DISTANCES;\n  FORMAT TRIANGLE=LOWER DIAGONAL;\n  MATRIX"
        );
        let d = self.distances();
        for (a, t) in self.taxa.iter().enumerate() {
            let row: Vec<String> = (0..=a).map(|b| format!("{:.6}", d[a][b])).collect();
            let _ = writeln!(o, "    {} {}", t.label, row.join(" "));
        }
        o.push_str("  ;\nEND;\n\n");
        let _ = writeln!(o, "BEGIN TREES;\n  TREE nj = {tree}\nEND;");
        o
    }
}

/// A CSV file in memory: the header, then the rows.
fn csv_text(header: Vec<String>, rows: impl Iterator<Item = Vec<String>>) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&header).expect("a record in memory");
    for row in rows {
        writer.write_record(&row).expect("a record in memory");
    }
    String::from_utf8(writer.into_inner().expect("in memory")).expect("UTF-8")
}

/// Each variant with a label unique among them: its file's stem, numbered where two agree.
pub fn labelled(compiled: &[(std::path::PathBuf, Rules)]) -> Vec<(String, &Rules)> {
    let mut taken: Vec<String> = Vec::new();
    compiled
        .iter()
        .map(|(path, rules)| {
            let stem = path
                .file_stem()
                .map_or("variant".into(), |s| s.to_string_lossy().into_owned());
            let base = label(&stem);
            let mut name = base.clone();
            let mut n = 1;
            while taken.contains(&name) {
                n += 1;
                name = format!("{base}-{n}");
            }
            taken.push(name.clone());
            (name, rules)
        })
        .collect()
}

/// `text` as a NEXUS word on one line: in single quotes, each quote doubled.
fn quote(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("'{}'", one_line.replace('\'', "''"))
}

/// A label safe in NEXUS and Newick: letters, digits, `-` and `_`, other characters as `_`.
pub fn label(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The neighbour-joining tree (Saitou and Nei 1987) of taxa `labels` at `distances`, in
/// Newick with branch lengths (a negative length, which the method can give, as 0).
pub fn neighbour_joining(labels: &[String], distances: &[Vec<f64>]) -> String {
    Tree::neighbour_joining(labels, distances).newick()
}

/// A tree of taxa: each leaf a taxon, each inner node its children at the ends of branches of
/// known length. Neighbour joining gives it unrooted, held at the last join; drawn, it is
/// rooted at its midpoint ([`Tree::midpoint_rooted`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// The taxa's labels, by taxon.
    pub labels: Vec<String>,
    /// The nodes, the root among them.
    pub nodes: Vec<Node>,
    /// The root; none in a tree of no taxa.
    pub root: Option<usize>,
}

/// A node of a [`Tree`].
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The taxon at a leaf; none at an inner node.
    pub taxon: Option<usize>,
    /// The children, each with the length of the branch to it (never negative).
    pub children: Vec<(usize, f64)>,
}

impl Tree {
    /// The neighbour-joining tree of taxa `labels` at `distances`; a negative branch length,
    /// which the method can give, is 0. Leaf `i` is node `i`.
    pub fn neighbour_joining(labels: &[String], distances: &[Vec<f64>]) -> Tree {
        let mut nodes: Vec<Node> = (0..labels.len())
            .map(|t| Node {
                taxon: Some(t),
                children: Vec::new(),
            })
            .collect();
        // The nodes not yet joined, and the distances between them.
        let mut active: Vec<usize> = (0..labels.len()).collect();
        let mut d: Vec<Vec<f64>> = distances.to_vec();
        while active.len() > 2 {
            let n = active.len();
            let sums: Vec<f64> = d.iter().map(|row| row.iter().sum()).collect();
            // The pair that minimises Q(i, j) = (n - 2) d(i, j) - sum(i) - sum(j); the first such.
            let mut best = (0, 1, f64::MAX);
            for i in 0..n {
                for j in i + 1..n {
                    let q = (n as f64 - 2.0) * d[i][j] - sums[i] - sums[j];
                    if q < best.2 - 1e-12 {
                        best = (i, j, q);
                    }
                }
            }
            let (i, j, _) = best;
            let to_i = 0.5 * d[i][j] + (sums[i] - sums[j]) / (2.0 * (n as f64 - 2.0));
            let to_j = d[i][j] - to_i;
            nodes.push(Node {
                taxon: None,
                children: vec![(active[i], to_i.max(0.0)), (active[j], to_j.max(0.0))],
            });
            let mut row: Vec<f64> = (0..n)
                .filter(|&k| k != i && k != j)
                .map(|k| 0.5 * (d[i][k] + d[j][k] - d[i][j]))
                .collect();
            let keep: Vec<usize> = (0..n).filter(|&k| k != i && k != j).collect();
            let mut next: Vec<Vec<f64>> = keep
                .iter()
                .map(|&a| keep.iter().map(|&b| d[a][b]).collect())
                .collect();
            for (r, value) in next.iter_mut().zip(&row) {
                r.push(*value);
            }
            row.push(0.0);
            next.push(row);
            active = keep.iter().map(|&k| active[k]).collect();
            active.push(nodes.len() - 1);
            d = next;
        }
        let root = match *active.as_slice() {
            [a, b] => {
                let half = (d[0][1] / 2.0).max(0.0);
                nodes.push(Node {
                    taxon: None,
                    children: vec![(a, half), (b, half)],
                });
                Some(nodes.len() - 1)
            }
            [a] => Some(a),
            _ => None,
        };
        Tree {
            labels: labels.to_vec(),
            nodes,
            root,
        }
    }

    /// The tree in Newick, with branch lengths to six decimals.
    pub fn newick(&self) -> String {
        match self.root {
            Some(root) => format!("{};", self.newick_of(root)),
            None => ";".into(),
        }
    }

    fn newick_of(&self, node: usize) -> String {
        let n = &self.nodes[node];
        match n.taxon {
            Some(t) => self.labels[t].clone(),
            None => {
                let children: Vec<String> = n
                    .children
                    .iter()
                    .map(|&(c, length)| format!("{}:{length:.6}", self.newick_of(c)))
                    .collect();
                format!("({})", children.join(","))
            }
        }
    }

    /// The same tree rooted halfway along its longest path between two leaves (midpoint
    /// rooting), a node left with one child folded into its branch. A tree whose leaves are
    /// all at distance 0 keeps its root.
    pub fn midpoint_rooted(&self) -> Tree {
        // Every branch both ways.
        let mut near: Vec<Vec<(usize, f64)>> = vec![Vec::new(); self.nodes.len()];
        for (parent, node) in self.nodes.iter().enumerate() {
            for &(child, length) in &node.children {
                near[parent].push((child, length));
                near[child].push((parent, length));
            }
        }
        let leaf = |n: usize| self.nodes[n].taxon.is_some();
        let Some(first) = (0..self.nodes.len()).find(|&n| leaf(n)) else {
            return self.clone();
        };
        // The leaf farthest from any leaf ends a longest path; the leaf farthest from it, the
        // other end.
        let farthest = |from: usize| {
            let (reach, came) = reach(&near, from);
            let end = (0..self.nodes.len())
                .filter(|&n| leaf(n))
                .fold(
                    from,
                    |best, n| if reach[n] > reach[best] { n } else { best },
                );
            (end, reach, came)
        };
        let (a, _, _) = farthest(first);
        let (b, reach, came) = farthest(a);
        let half = reach[b] / 2.0;
        if half <= 0.0 {
            return self.clone();
        }
        // Down the path from `b` towards `a` to the branch that holds the midpoint; the new
        // root splits it.
        let mut at = b;
        while let Some(up) = came[at] {
            if reach[up] <= half {
                let mut nodes = Vec::new();
                let sides = [(up, at, half - reach[up]), (at, up, reach[at] - half)];
                let children = sides
                    .iter()
                    .map(|&(node, away, length)| {
                        let (node, from, length) = folded(&near, node, away, length, &leaf);
                        (self.hang(&near, &mut nodes, node, from), length)
                    })
                    .collect();
                nodes.push(Node {
                    taxon: None,
                    children,
                });
                return Tree {
                    labels: self.labels.clone(),
                    root: Some(nodes.len() - 1),
                    nodes,
                };
            }
            at = up;
        }
        self.clone()
    }

    /// Copies `node`, reached from `from`, into `nodes` with everything beyond it; returns its
    /// index there.
    fn hang(
        &self,
        near: &[Vec<(usize, f64)>],
        nodes: &mut Vec<Node>,
        node: usize,
        from: usize,
    ) -> usize {
        let leaf = |n: usize| self.nodes[n].taxon.is_some();
        let children = near[node]
            .iter()
            .filter(|&&(next, _)| next != from)
            .map(|&(next, length)| {
                let (next, before, length) = folded(near, next, node, length, &leaf);
                (self.hang(near, nodes, next, before), length)
            })
            .collect();
        nodes.push(Node {
            taxon: self.nodes[node].taxon,
            children,
        });
        nodes.len() - 1
    }
}

/// The branch from `from` to `node` of `length`, carried on through every inner node with a
/// single branch beyond it (the old root, once the tree is rooted elsewhere): the node it
/// ends at, the node before that, and its whole length.
fn folded(
    near: &[Vec<(usize, f64)>],
    mut node: usize,
    mut from: usize,
    mut length: f64,
    leaf: &impl Fn(usize) -> bool,
) -> (usize, usize, f64) {
    while !leaf(node) {
        let mut beyond = near[node].iter().filter(|&&(next, _)| next != from);
        match (beyond.next(), beyond.next()) {
            (Some(&(next, more)), None) => {
                length += more;
                from = node;
                node = next;
            }
            _ => break,
        }
    }
    (node, from, length)
}

/// How far every node is from `from` along the tree's branches, and the node before each on
/// the way (none for `from`).
fn reach(near: &[Vec<(usize, f64)>], from: usize) -> (Vec<f64>, Vec<Option<usize>>) {
    let mut distance = vec![f64::NAN; near.len()];
    let mut came = vec![None; near.len()];
    distance[from] = 0.0;
    let mut stack = vec![from];
    while let Some(n) = stack.pop() {
        for &(m, length) in &near[n] {
            if distance[m].is_nan() {
                distance[m] = distance[n] + length;
                came[m] = Some(n);
                stack.push(m);
            }
        }
    }
    (distance, came)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four taxa on an additive tree ((a:1,b:2):1,(c:3,d:1)): neighbour joining finds it.
    #[test]
    fn neighbour_joining_recovers_an_additive_tree() {
        let labels: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let d = vec![
            vec![0.0, 3.0, 5.0, 3.0],
            vec![3.0, 0.0, 6.0, 4.0],
            vec![5.0, 6.0, 0.0, 4.0],
            vec![3.0, 4.0, 4.0, 0.0],
        ];
        let tree = neighbour_joining(&labels, &d);
        assert!(tree.contains("(a:1.000000,b:2.000000)"), "{tree}");
        assert!(
            tree.contains("c:3.000000") && tree.contains("d:1.000000"),
            "{tree}"
        );
    }

    /// The tree held as a type writes the Newick text; rooted at its midpoint, the two
    /// farthest leaves (b and c, 6 apart) stand 3 from the root, and every branch is kept.
    #[test]
    fn a_tree_is_rooted_at_its_midpoint() {
        let labels: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let d = vec![
            vec![0.0, 3.0, 5.0, 3.0],
            vec![3.0, 0.0, 6.0, 4.0],
            vec![5.0, 6.0, 0.0, 4.0],
            vec![3.0, 4.0, 4.0, 0.0],
        ];
        let tree = Tree::neighbour_joining(&labels, &d);
        assert_eq!(tree.newick(), neighbour_joining(&labels, &d));
        let rooted = tree.midpoint_rooted();
        let mut depth = vec![0.0; 4];
        let mut stack = vec![(rooted.root.unwrap(), 0.0)];
        let mut branches = 0;
        while let Some((n, at)) = stack.pop() {
            let node = &rooted.nodes[n];
            if let Some(t) = node.taxon {
                depth[t] = at;
            }
            assert!(node.taxon.is_some() || node.children.len() >= 2);
            for &(c, length) in &node.children {
                branches += 1;
                stack.push((c, at + length));
            }
        }
        assert!(
            (depth[1] - 3.0).abs() < 1e-9 && (depth[2] - 3.0).abs() < 1e-9,
            "{depth:?}"
        );
        assert!(
            (depth[0] - 2.0).abs() < 1e-9 && (depth[3] - 1.0).abs() < 1e-9,
            "{depth:?}"
        );
        // Four leaves, two inner nodes and the root: six branches.
        assert_eq!(branches, 6);
        for n in [0, 1, 2] {
            let near: Vec<Vec<f64>> = d[..n].iter().map(|row| row[..n].to_vec()).collect();
            let few = Tree::neighbour_joining(&labels[..n], &near);
            let rooted = few.midpoint_rooted().newick();
            match n {
                2 => assert!(["(a:1.500000,b:1.500000);", "(b:1.500000,a:1.500000);"]
                    .contains(&rooted.as_str())),
                _ => assert_eq!(rooted, few.newick()),
            }
        }
    }

    #[test]
    fn labels_are_safe_words() {
        assert_eq!(label("hoyito-i"), "hoyito-i");
        assert_eq!(label("Bao la Kiswahili"), "Bao_la_Kiswahili");
    }
}
