//! The relate report's tree: a midpoint-rooted phylogram, its leaves coloured by broad region.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{color, marker, Drawn, Picture, FONT};
use super::labels::{self, width};
use crate::relate::{Taxon, Tree};

/// Where a game is played, broadly: the leaves' colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Broad {
    /// From Senegal and Mauritania to Nigeria, with Cape Verde.
    WestAfrica,
    /// Kenya, Tanzania, Uganda, South Sudan and their neighbours.
    EastAfrica,
    /// Egypt to Morocco, Sudan, and the Horn: Ethiopia, Eritrea, Djibouti, Somalia.
    NorthAfricaAndHorn,
    /// Cameroon and Gabon to the Cape.
    CentralAndSouthernAfrica,
    /// India, Sri Lanka, the Maldives, Bangladesh.
    SouthAsia,
    /// From Myanmar to the Philippines, with Pacific islands, and China.
    SouthEastAsia,
    /// Turkey and Mesopotamia to Central Asia and Mongolia.
    WestAndCentralAsia,
    /// The Caribbean islands.
    Caribbean,
    /// North, Central and South America.
    Americas,
    /// Europe.
    Europe,
    /// No place word of the table in the region's text.
    Unknown,
}

impl Broad {
    /// Every broad region, in the legend's order.
    pub const ALL: [Broad; 11] = [
        Broad::WestAfrica,
        Broad::EastAfrica,
        Broad::NorthAfricaAndHorn,
        Broad::CentralAndSouthernAfrica,
        Broad::SouthAsia,
        Broad::SouthEastAsia,
        Broad::WestAndCentralAsia,
        Broad::Caribbean,
        Broad::Americas,
        Broad::Europe,
        Broad::Unknown,
    ];

    /// Its name, as the legend and the report give it.
    pub fn name(self) -> &'static str {
        match self {
            Broad::WestAfrica => "West Africa",
            Broad::EastAfrica => "East Africa",
            Broad::NorthAfricaAndHorn => "North Africa and the Horn",
            Broad::CentralAndSouthernAfrica => "Central and Southern Africa",
            Broad::SouthAsia => "South Asia",
            Broad::SouthEastAsia => "South-East and East Asia",
            Broad::WestAndCentralAsia => "West and Central Asia",
            Broad::Caribbean => "Caribbean",
            Broad::Americas => "Americas",
            Broad::Europe => "Europe",
            Broad::Unknown => "unknown",
        }
    }

    /// Its mark: a marker shape a continent (Africa circles, Asia triangles, the Americas
    /// squares, Europe and the unknown crosses), and within a continent the charts' colours,
    /// each used once; the unknown grey.
    fn mark(self) -> (RGBColor, usize) {
        match self {
            Broad::WestAfrica => (color(0), 0),
            Broad::EastAfrica => (color(1), 0),
            Broad::NorthAfricaAndHorn => (color(2), 0),
            Broad::CentralAndSouthernAfrica => (color(5), 0),
            Broad::SouthAsia => (color(7), 1),
            Broad::SouthEastAsia => (color(6), 1),
            Broad::WestAndCentralAsia => (color(4), 1),
            Broad::Caribbean => (color(3), 2),
            Broad::Americas => (color(0), 2),
            Broad::Europe => (color(5), 3),
            Broad::Unknown => (GREY, 3),
        }
    }
}

/// Place words, lower case, and the broad region each names: countries, and the regions,
/// islands and peoples the variant files name instead. A region's text is read by its first
/// place word (see [`broad`]), so that `Ghana; the Ijaw of the Niger Delta, Nigeria` is West
/// Africa by Ghana and `Cape Verde; Cape Verdean communities in Portugal, Angola and the USA`
/// by Cape Verde. The Mariana Islands, in the Pacific, are counted with South-East Asia, the
/// nearest region here.
const PLACES: &[(&str, Broad)] = &[
    ("west africa", Broad::WestAfrica),
    ("senegal", Broad::WestAfrica),
    ("gambia", Broad::WestAfrica),
    ("mauritania", Broad::WestAfrica),
    ("mali", Broad::WestAfrica),
    ("guinea", Broad::WestAfrica),
    ("guinea-bissau", Broad::WestAfrica),
    ("sierra leone", Broad::WestAfrica),
    ("liberia", Broad::WestAfrica),
    ("côte d'ivoire", Broad::WestAfrica),
    ("ivory coast", Broad::WestAfrica),
    ("burkina faso", Broad::WestAfrica),
    ("ghana", Broad::WestAfrica),
    ("togo", Broad::WestAfrica),
    ("benin", Broad::WestAfrica),
    ("dahomey", Broad::WestAfrica),
    ("nigeria", Broad::WestAfrica),
    ("niger", Broad::WestAfrica),
    ("cape verde", Broad::WestAfrica),
    ("cabo verde", Broad::WestAfrica),
    ("east africa", Broad::EastAfrica),
    ("kenya", Broad::EastAfrica),
    ("tanzania", Broad::EastAfrica),
    ("zanzibar", Broad::EastAfrica),
    ("uganda", Broad::EastAfrica),
    ("rwanda", Broad::EastAfrica),
    ("burundi", Broad::EastAfrica),
    ("south sudan", Broad::EastAfrica),
    ("madagascar", Broad::EastAfrica),
    ("comoros", Broad::EastAfrica),
    ("north africa", Broad::NorthAfricaAndHorn),
    ("horn of africa", Broad::NorthAfricaAndHorn),
    ("egypt", Broad::NorthAfricaAndHorn),
    ("libya", Broad::NorthAfricaAndHorn),
    ("tunisia", Broad::NorthAfricaAndHorn),
    ("algeria", Broad::NorthAfricaAndHorn),
    ("morocco", Broad::NorthAfricaAndHorn),
    ("sudan", Broad::NorthAfricaAndHorn),
    ("ethiopia", Broad::NorthAfricaAndHorn),
    ("eritrea", Broad::NorthAfricaAndHorn),
    ("tigray", Broad::NorthAfricaAndHorn),
    ("afar", Broad::NorthAfricaAndHorn),
    ("djibouti", Broad::NorthAfricaAndHorn),
    ("somalia", Broad::NorthAfricaAndHorn),
    ("somaliland", Broad::NorthAfricaAndHorn),
    ("central africa", Broad::CentralAndSouthernAfrica),
    ("southern africa", Broad::CentralAndSouthernAfrica),
    ("cameroon", Broad::CentralAndSouthernAfrica),
    ("gabon", Broad::CentralAndSouthernAfrica),
    ("equatorial guinea", Broad::CentralAndSouthernAfrica),
    ("chad", Broad::CentralAndSouthernAfrica),
    ("congo", Broad::CentralAndSouthernAfrica),
    ("angola", Broad::CentralAndSouthernAfrica),
    ("zambia", Broad::CentralAndSouthernAfrica),
    ("malawi", Broad::CentralAndSouthernAfrica),
    ("mozambique", Broad::CentralAndSouthernAfrica),
    ("zimbabwe", Broad::CentralAndSouthernAfrica),
    ("botswana", Broad::CentralAndSouthernAfrica),
    ("namibia", Broad::CentralAndSouthernAfrica),
    ("south africa", Broad::CentralAndSouthernAfrica),
    ("lesotho", Broad::CentralAndSouthernAfrica),
    ("south asia", Broad::SouthAsia),
    ("india", Broad::SouthAsia),
    ("sri lanka", Broad::SouthAsia),
    ("ceylon", Broad::SouthAsia),
    ("maldives", Broad::SouthAsia),
    ("bangladesh", Broad::SouthAsia),
    ("pakistan", Broad::SouthAsia),
    ("nepal", Broad::SouthAsia),
    ("south-east asia", Broad::SouthEastAsia),
    ("southeast asia", Broad::SouthEastAsia),
    ("myanmar", Broad::SouthEastAsia),
    ("burma", Broad::SouthEastAsia),
    ("thailand", Broad::SouthEastAsia),
    ("laos", Broad::SouthEastAsia),
    ("cambodia", Broad::SouthEastAsia),
    ("vietnam", Broad::SouthEastAsia),
    ("malaysia", Broad::SouthEastAsia),
    ("singapore", Broad::SouthEastAsia),
    ("brunei", Broad::SouthEastAsia),
    ("indonesia", Broad::SouthEastAsia),
    ("sumatra", Broad::SouthEastAsia),
    ("java", Broad::SouthEastAsia),
    ("sulawesi", Broad::SouthEastAsia),
    ("borneo", Broad::SouthEastAsia),
    ("philippines", Broad::SouthEastAsia),
    ("mariana islands", Broad::SouthEastAsia),
    ("guam", Broad::SouthEastAsia),
    ("china", Broad::SouthEastAsia),
    ("central asia", Broad::WestAndCentralAsia),
    ("turkey", Broad::WestAndCentralAsia),
    ("mesopotamia", Broad::WestAndCentralAsia),
    ("iraq", Broad::WestAndCentralAsia),
    ("syria", Broad::WestAndCentralAsia),
    ("lebanon", Broad::WestAndCentralAsia),
    ("jordan", Broad::WestAndCentralAsia),
    ("palestine", Broad::WestAndCentralAsia),
    ("arabia", Broad::WestAndCentralAsia),
    ("yemen", Broad::WestAndCentralAsia),
    ("oman", Broad::WestAndCentralAsia),
    ("iran", Broad::WestAndCentralAsia),
    ("afghanistan", Broad::WestAndCentralAsia),
    ("kazakhstan", Broad::WestAndCentralAsia),
    ("kyrgyzstan", Broad::WestAndCentralAsia),
    ("uzbekistan", Broad::WestAndCentralAsia),
    ("turkmenistan", Broad::WestAndCentralAsia),
    ("tajikistan", Broad::WestAndCentralAsia),
    ("mongolia", Broad::WestAndCentralAsia),
    ("caribbean", Broad::Caribbean),
    ("cayman", Broad::Caribbean),
    ("cuba", Broad::Caribbean),
    ("haiti", Broad::Caribbean),
    ("dominican republic", Broad::Caribbean),
    ("jamaica", Broad::Caribbean),
    ("puerto rico", Broad::Caribbean),
    ("barbados", Broad::Caribbean),
    ("antigua", Broad::Caribbean),
    ("grenada", Broad::Caribbean),
    ("trinidad", Broad::Caribbean),
    ("martinique", Broad::Caribbean),
    ("guadeloupe", Broad::Caribbean),
    ("saint lucia", Broad::Caribbean),
    ("united states", Broad::Americas),
    ("usa", Broad::Americas),
    ("canada", Broad::Americas),
    ("mexico", Broad::Americas),
    ("brazil", Broad::Americas),
    ("suriname", Broad::Americas),
    ("guyana", Broad::Americas),
    ("colombia", Broad::Americas),
    ("europe", Broad::Europe),
    ("germany", Broad::Europe),
    ("estonia", Broad::Europe),
    ("latvia", Broad::Europe),
    ("lithuania", Broad::Europe),
    ("france", Broad::Europe),
    ("portugal", Broad::Europe),
    ("netherlands", Broad::Europe),
    ("england", Broad::Europe),
    ("britain", Broad::Europe),
];

/// The broad region of a region's text: that of the place word of [`PLACES`] it names first,
/// as a whole word in any case (of two starting at one place, the longer: `South Sudan`, not
/// `Sudan`); unknown where it names none.
pub fn broad(region: &str) -> Broad {
    let text = region.to_lowercase();
    let whole = |start: usize, end: usize| {
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    };
    PLACES
        .iter()
        .filter_map(|&(word, broad)| {
            text.match_indices(word)
                .map(|(start, _)| start)
                .find(|&start| whole(start, start + word.len()))
                .map(|start| (start, std::cmp::Reverse(word.len()), broad))
        })
        .min()
        .map_or(Broad::Unknown, |(_, _, broad)| broad)
}

/// A leaf's row: from one leaf's middle to the next, in pixels.
const ROW: i32 = 22;
/// Text sizes: games' names, their regions, the title, the legend.
const NAME: u32 = 15;
const REGION: u32 = 13;
const TITLE: u32 = 20;
const LEGEND_TEXT: u32 = 15;
/// The width the branch lengths are drawn to scale in, from the root to the farthest leaf.
const TREE: i32 = 620;
/// The left margin, and the space above the first leaf (for the title).
const LEFT: i32 = 20;
const TOP: i32 = 64;
/// Below the last leaf: the scale bar.
const BOTTOM: i32 = 70;
/// The labels' column starts this far right of the farthest leaf.
const GAP: i32 = 30;
/// The most a region's words take beside a name; longer ones are cut.
const REGION_ROOM: i32 = 330;
/// The legend's column, right of the labels.
const LEGEND: i32 = 290;
/// Ink for text and branches; grey for leader lines, regions and the unknown.
const INK: RGBColor = RGBColor(40, 40, 40);
const SOFT: RGBColor = RGBColor(95, 95, 95);
const GREY: RGBColor = RGBColor(150, 150, 150);

/// One leaf as drawn: where its branch ends, its row, its words and its broad region.
#[derive(Clone, Debug, PartialEq)]
struct Leaf {
    tip: i32,
    y: i32,
    name: String,
    region: String,
    broad: Broad,
}

/// A tree drawn as a rectangular phylogram: rooted at its midpoint, branch lengths to scale
/// along x with a scale bar, leaves evenly spaced down the page with the smaller clade of
/// each node above the larger, their labels in columns (a dotted line from each leaf to its
/// marker; names, then regions, each column starting at one x, so that a viewer's font of
/// other widths moves no label onto another), marked and tinted by broad region, with a
/// legend. Its height grows with the leaves.
#[derive(Clone, Debug, PartialEq)]
pub struct Phylogram {
    title: String,
    size: (u32, u32),
    /// Branches as pixel segments.
    lines: Vec<[(i32, i32); 2]>,
    leaves: Vec<Leaf>,
    /// Where the labels' columns start: the markers, the names, the regions; and where
    /// their tint ends.
    column: i32,
    names: i32,
    regions: i32,
    right: i32,
    /// Where the legend's column starts.
    legend: i32,
    /// The scale bar: its length in words and in pixels.
    scale: (String, i32),
}

impl Phylogram {
    /// `tree` of `taxa` (its leaves naming them by index), midpoint-rooted and laid out.
    pub fn of(tree: &Tree, taxa: &[Taxon], title: String) -> Phylogram {
        let tree = tree.midpoint_rooted();
        let mut placed = Placed {
            tree: &tree,
            depth: vec![0.0; tree.nodes.len()],
            y: vec![0; tree.nodes.len()],
            order: Vec::new(),
        };
        if let Some(root) = tree.root {
            let sizes = clade_sizes(&tree);
            placed.place(root, 0.0, &sizes);
        }
        let deepest = placed.depth.iter().copied().fold(0.0, f64::max);
        let per_unit = if deepest > 0.0 {
            f64::from(TREE) / deepest
        } else {
            0.0
        };
        let x = |depth: f64| LEFT + (depth * per_unit).round() as i32;
        let mut lines = Vec::new();
        for (n, node) in tree.nodes.iter().enumerate() {
            let rows = node.children.iter().map(|&(c, _)| placed.y[c]);
            let (Some(top), Some(bottom)) = (rows.clone().min(), rows.max()) else {
                continue;
            };
            let at = x(placed.depth[n]);
            lines.push([(at, top), (at, bottom)]);
            for &(child, _) in &node.children {
                lines.push([
                    (at, placed.y[child]),
                    (x(placed.depth[child]), placed.y[child]),
                ]);
            }
        }
        // A root with no children is a lone leaf: no branch, only its label.
        let leaves: Vec<Leaf> = placed
            .order
            .iter()
            .map(|&n| {
                let taxon = &taxa[tree.nodes[n].taxon.unwrap_or_default()];
                Leaf {
                    tip: x(placed.depth[n]),
                    y: placed.y[n],
                    name: taxon.name.clone(),
                    region: short_region(&taxon.region),
                    broad: broad(&taxon.region),
                }
            })
            .collect();
        let widest = |words: &dyn Fn(&Leaf) -> i32| leaves.iter().map(words).max().unwrap_or(0);
        let column = LEFT + TREE + GAP;
        let names = column + 20;
        let regions = names + widest(&|l| width(&l.name, NAME)) + 14;
        let right = regions + widest(&|l| width(&l.region, REGION)) + 8;
        let legend = right + GAP;
        let rows = TOP + leaves.len() as i32 * ROW;
        let kinds = Broad::ALL
            .iter()
            .filter(|&&b| leaves.iter().any(|l| l.broad == b))
            .count();
        let key_height = TOP + (kinds as i32 + 2) * ROW;
        let height = rows.max(key_height) + BOTTOM;
        Phylogram {
            title,
            size: ((legend + LEGEND) as u32, height as u32),
            lines,
            leaves,
            column,
            names,
            regions,
            right,
            legend,
            scale: scale_bar(deepest, per_unit),
        }
    }
}

/// The number of leaves under each node.
fn clade_sizes(tree: &Tree) -> Vec<usize> {
    // Neighbour joining and midpoint rooting put every child before its parent.
    let mut sizes = vec![0; tree.nodes.len()];
    for (n, node) in tree.nodes.iter().enumerate() {
        sizes[n] = if node.taxon.is_some() {
            1
        } else {
            node.children.iter().map(|&(c, _)| sizes[c]).sum()
        };
    }
    sizes
}

/// The nodes' places as they are found: depth from the root, row, and the leaves in order.
struct Placed<'a> {
    tree: &'a Tree,
    depth: Vec<f64>,
    y: Vec<i32>,
    order: Vec<usize>,
}

impl Placed<'_> {
    /// Places `node`, at `depth`, and all below it; an inner node halfway between its first
    /// and last child's rows.
    fn place(&mut self, node: usize, depth: f64, sizes: &[usize]) {
        self.depth[node] = depth;
        let n = &self.tree.nodes[node];
        if n.children.is_empty() {
            self.y[node] = TOP + self.order.len() as i32 * ROW + ROW / 2;
            self.order.push(node);
            return;
        }
        let mut children = n.children.clone();
        children.sort_by_key(|&(c, _)| sizes[c]);
        for &(child, length) in &children {
            self.place(child, depth + length, sizes);
        }
        let (first, last) = (children[0].0, children[children.len() - 1].0);
        self.y[node] = (self.y[first] + self.y[last]) / 2;
    }
}

/// A region's words beside a name: its first part (up to `;`), without bracketed asides,
/// cut with `…` where wider than [`REGION_ROOM`]. characters.csv keeps it whole.
fn short_region(region: &str) -> String {
    let first = region.split(';').next().unwrap_or_default();
    let mut plain = String::new();
    let mut depth = 0;
    for c in first.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = plain.split_whitespace().collect();
    let whole = words.join(" ").replace(" ,", ",");
    if width(&whole, REGION) <= REGION_ROOM {
        return whole;
    }
    let mut cut = String::new();
    for word in words {
        let longer = if cut.is_empty() {
            word.to_string()
        } else {
            format!("{cut} {word}")
        };
        if width(&format!("{longer} …"), REGION) > REGION_ROOM {
            break;
        }
        cut = longer;
    }
    format!("{} …", cut.trim_end_matches(','))
}

/// A scale bar of a round length (1, 2 or 5 times a power of ten) near a fifth of the
/// deepest leaf's distance from the root: the length as written, and in pixels.
fn scale_bar(deepest: f64, per_unit: f64) -> (String, i32) {
    if deepest <= 0.0 {
        return (String::new(), 0);
    }
    let aim = deepest / 5.0;
    let power = aim.log10().floor();
    let unit = 10f64.powf(power);
    let times = [5.0, 2.0, 1.0]
        .into_iter()
        .find(|m| m * unit <= aim * (1.0 + 1e-9))
        .unwrap_or(1.0);
    let decimals = (-power).max(0.0) as usize;
    let length = times * unit;
    (
        format!("{length:.decimals$}"),
        (length * per_unit).round() as i32,
    )
}

impl Picture for Phylogram {
    fn size(&self) -> (u32, u32) {
        self.size
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        self.draw_all(root).map_err(|e| e.to_string())
    }
}

/// Text at `size` in `colour`, anchored at its left middle.
fn text(size: u32, colour: &'static RGBColor) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font())
        .color(colour)
        .pos(Pos::new(HPos::Left, VPos::Center))
}

impl Phylogram {
    fn draw_all<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn<DB> {
        root.fill(&WHITE)?;
        let bold = TextStyle::from((FONT, TITLE).into_font().style(FontStyle::Bold))
            .color(&INK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        root.draw(&Text::new(self.title.clone(), (LEFT, 26), bold))?;
        for line in &self.lines {
            root.draw(&PathElement::new(line.to_vec(), INK.stroke_width(2)))?;
        }
        let half = ROW / 2 - 1;
        for leaf in &self.leaves {
            let (colour, shape) = leaf.broad.mark();
            root.draw(&DashedPathElement::new(
                vec![(leaf.tip + 4, leaf.y), (self.column - 4, leaf.y)],
                2,
                4,
                GREY.stroke_width(1),
            ))?;
            root.draw(&Rectangle::new(
                [(self.column, leaf.y - half), (self.right, leaf.y + half)],
                colour.mix(0.2).filled(),
            ))?;
            self.mark(root, (self.column + 9, leaf.y), colour, shape)?;
            let name = Text::new(leaf.name.clone(), (self.names, leaf.y), text(NAME, &INK));
            root.draw(&name)?;
            let region = (self.regions, leaf.y);
            root.draw(&Text::new(leaf.region.clone(), region, text(REGION, &SOFT)))?;
        }
        self.draw_scale(root)?;
        self.draw_legend(root)
    }

    /// A leaf's marker: filled in its colour on a larger one in ink, so that light colours
    /// show; a cross in its colour alone.
    fn mark<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        at: (i32, i32),
        colour: RGBColor,
        shape: usize,
    ) -> Drawn<DB> {
        if shape == 3 {
            return marker(root, shape, 6, colour.stroke_width(3), at);
        }
        marker(root, shape, 6, INK.filled(), at)?;
        marker(root, shape, 5, colour.filled(), at)
    }

    fn draw_scale<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn<DB> {
        let (length, pixels) = (&self.scale.0, self.scale.1);
        if pixels == 0 {
            return Ok(());
        }
        let y = self.size.1 as i32 - BOTTOM / 2;
        let ends = [(LEFT, y), (LEFT + pixels, y)];
        root.draw(&PathElement::new(ends.to_vec(), INK.stroke_width(2)))?;
        for (x, _) in ends {
            root.draw(&PathElement::new(
                vec![(x, y - 5), (x, y + 5)],
                INK.stroke_width(2),
            ))?;
        }
        let words =
            format!("{length}: distance (the share of characters in which two games differ)");
        root.draw(&Text::new(words, (LEFT + pixels + 12, y), text(NAME, &INK)))
    }

    fn draw_legend<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn<DB> {
        let x = self.legend;
        let heading = TextStyle::from((FONT, LEGEND_TEXT).into_font().style(FontStyle::Bold))
            .color(&INK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        root.draw(&Text::new("Broad region", (x, TOP), heading))?;
        let present: Vec<(Broad, usize)> = Broad::ALL
            .iter()
            .map(|&b| (b, self.leaves.iter().filter(|l| l.broad == b).count()))
            .filter(|&(_, count)| count > 0)
            .collect();
        let entries: Vec<String> = present
            .iter()
            .map(|(b, count)| format!("{} ({count})", b.name()))
            .collect();
        let laid = labels::column(&entries, LEGEND - 40, LEGEND_TEXT, TOP + ROW + 8, 8);
        for ((b, _), lines) in present.iter().zip(&laid) {
            let (colour, shape) = b.mark();
            self.mark(root, (x + 9, lines[0].1), colour, shape)?;
            for (line, y) in lines {
                root.draw(&Text::new(
                    line.clone(),
                    (x + 24, *y),
                    text(LEGEND_TEXT, &INK),
                ))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_read_by_their_first_place_word() {
        assert_eq!(broad("Matanzas, Cuba"), Broad::Caribbean);
        assert_eq!(broad("Karnataka, South India"), Broad::SouthAsia);
        assert_eq!(
            broad("Gambela, western Ethiopia; Akobo, Pochalla and Jokau, South Sudan"),
            Broad::NorthAfricaAndHorn
        );
        assert_eq!(broad("South Sudan"), Broad::EastAfrica);
        assert_eq!(broad("Sudan"), Broad::NorthAfricaAndHorn);
        assert_eq!(broad("Nigeria"), Broad::WestAfrica);
        assert_eq!(broad("the Niger Delta"), Broad::WestAfrica);
        assert_eq!(
            broad("Cape Verde; Cape Verdean communities in Portugal"),
            Broad::WestAfrica
        );
        assert_eq!(broad("CÔTE D'IVOIRE"), Broad::WestAfrica);
        // Words inside other words are not place words.
        assert_eq!(broad("Indonesia"), Broad::SouthEastAsia);
        assert_eq!(broad("Romania"), Broad::Unknown);
        assert_eq!(broad(""), Broad::Unknown);
    }

    #[test]
    fn regions_beside_names_are_short() {
        assert_eq!(
            short_region("Côte d'Ivoire (Baoulé, Agni and neighbouring peoples); the standard"),
            "Côte d'Ivoire"
        );
        assert_eq!(
            short_region("Afar country: Asaita (Ethiopia), Djibouti"),
            "Afar country: Asaita, Djibouti"
        );
        let long = short_region(&"Somewhere far away, ".repeat(10));
        assert!(
            long.ends_with(" …") && width(&long, REGION) <= REGION_ROOM,
            "{long}"
        );
    }

    /// Leaves of the longest names and regions, every broad region among them: each label
    /// ends before the legend, each legend entry inside the picture, each leaf on a row of
    /// its own below the title and above the scale bar.
    #[test]
    fn labels_and_legend_keep_to_their_columns() {
        let regions = [
            "Côte d'Ivoire (Baoulé, Agni and neighbouring peoples); the French-language standard",
            "South-western Dominican Republic: Barahona, Bahoruco, Independencia",
            "Southern Cameroon, northern Gabon and Equatorial Guinea",
            "Northern Tanzania",
            "Sudan",
            "Karnataka, South India",
            "Java, Indonesia",
            "Mongolia",
            "United States",
            "Germany",
            "",
        ];
        let taxa: Vec<Taxon> = regions
            .iter()
            .enumerate()
            .map(|(i, region)| Taxon {
                label: format!("t{i}"),
                name: format!("Mangala (Turkey, traditional — And 1979) {i}"),
                region: region.to_string(),
                states: Vec::new(),
                quantities: [6.0, 4.0],
            })
            .collect();
        let labels: Vec<String> = taxa.iter().map(|t| t.label.clone()).collect();
        let n = taxa.len();
        let d: Vec<Vec<f64>> = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| (a as f64 - b as f64).abs() / n as f64)
                    .collect()
            })
            .collect();
        let tree = Tree::neighbour_joining(&labels, &d);
        let p = Phylogram::of(&tree, &taxa, "title".into());
        let present: Vec<Broad> = p.leaves.iter().map(|l| l.broad).collect();
        assert!(
            Broad::ALL.iter().all(|b| present.contains(b)),
            "{present:?}"
        );
        let (wide, high) = (p.size.0 as i32, p.size.1 as i32);
        for leaf in &p.leaves {
            assert!(leaf.tip < p.column, "{leaf:?}");
            assert!(p.names + width(&leaf.name, NAME) < p.regions, "{leaf:?}");
            assert!(
                p.regions + width(&leaf.region, REGION) < p.right,
                "{leaf:?}"
            );
            assert!(p.right < p.legend, "{leaf:?}");
            assert!(leaf.y > TOP && leaf.y < high - BOTTOM, "{leaf:?}");
        }
        let mut rows: Vec<i32> = p.leaves.iter().map(|l| l.y).collect();
        rows.sort_unstable();
        assert!(rows.windows(2).all(|r| r[1] - r[0] == ROW), "{rows:?}");
        for b in Broad::ALL {
            let entry = format!("{} ({n})", b.name());
            assert!(
                p.legend + 24 + width(&entry, LEGEND_TEXT) <= wide,
                "{entry}"
            );
        }
    }

    #[test]
    fn scale_bars_are_round() {
        assert_eq!(scale_bar(0.43, 1000.0), ("0.05".into(), 50));
        assert_eq!(scale_bar(1.0, 100.0), ("0.2".into(), 20));
        assert_eq!(scale_bar(60.0, 1.0), ("10".into(), 10));
        assert_eq!(scale_bar(0.0, 0.0), (String::new(), 0));
    }
}
