//! Text fitted into charts: category names wrapped to their column, or numbered with a key
//! where no size fits them in a few lines; legend entries wrapped to the legend's column.
//! Measured with the bundled font, so that a test can check that no two labels overlap.

use plotters::style::IntoFont;

use super::chart::{fonts, FONT};

/// The most lines a category's name may take under its column before names are numbered.
pub const MOST_LINES: usize = 3;
/// Sizes tried for category names, largest first.
const SIZES: [u32; 2] = [18, 15];
/// Pixels between a line of text and the next, beyond the text's size.
const LEADING: i32 = 4;

/// The width of `text` in pixels at `size`, in the bundled font.
pub fn width(text: &str, size: u32) -> i32 {
    fonts();
    (FONT, size)
        .into_font()
        .box_size(text)
        .map_or(text.chars().count() as i32 * size as i32, |(w, _)| w as i32)
}

/// `text` in lines no wider than `room` pixels at `size`: broken between words, and inside a
/// word only where the word alone is wider.
pub fn wrap(text: &str, room: i32, size: u32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let joined = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&joined, size) <= room {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // A word wider than the room on its own is cut where it must be.
        for c in word.chars() {
            let longer = format!("{line}{c}");
            if width(&longer, size) > room && !line.is_empty() {
                lines.push(std::mem::replace(&mut line, c.to_string()));
            } else {
                line = longer;
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// How the names under a category chart are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Names {
    /// Each name wrapped to its column, at one size for all.
    Wrapped {
        /// Text size in pixels.
        size: u32,
        /// Each name's lines.
        lines: Vec<Vec<String>>,
    },
    /// Too long to wrap: each category numbered from 1 under its column, the names in a key.
    Numbered(Vec<String>),
}

impl Names {
    /// The names of `categories`, fitted to columns `column` pixels wide.
    pub fn fit(categories: &[String], column: i32) -> Names {
        // A little room between one column's name and the next.
        let room = column - 12;
        for size in SIZES {
            let lines: Vec<Vec<String>> = categories.iter().map(|c| wrap(c, room, size)).collect();
            let fits = lines.iter().flatten().all(|l| width(l, size) <= room);
            if fits && lines.iter().all(|l| l.len() <= MOST_LINES) {
                return Names::Wrapped { size, lines };
            }
        }
        Names::Numbered(categories.to_vec())
    }

    /// The height the names take below the axis, in pixels.
    pub fn height(&self) -> i32 {
        match self {
            Names::Wrapped { size, lines } => {
                let most = lines.iter().map(Vec::len).max().unwrap_or(1) as i32;
                16 + most * (*size as i32 + LEADING)
            }
            Names::Numbered(_) => 16 + SIZES[0] as i32 + LEADING,
        }
    }

    /// Each line under category `i`'s column: its text, size, and box (left, top, right,
    /// bottom) for a column centred at `x`, the axis at `top`.
    pub fn laid_out(&self, i: usize, x: i32, top: i32) -> Vec<(String, u32, [i32; 4])> {
        let (lines, size) = match self {
            Names::Wrapped { size, lines } => (lines[i].clone(), *size),
            Names::Numbered(_) => (vec![(i + 1).to_string()], SIZES[0]),
        };
        let step = size as i32 + LEADING;
        lines
            .into_iter()
            .enumerate()
            .map(|(k, line)| {
                let w = width(&line, size);
                let y = top + 10 + k as i32 * step;
                let bounds = [x - w / 2, y, x + w - w / 2, y + size as i32];
                (line, size, bounds)
            })
            .collect()
    }

    /// The key of numbered names (`1 = Hoyito I`), empty where names are written out.
    pub fn key(&self) -> Vec<String> {
        match self {
            Names::Wrapped { .. } => Vec::new(),
            Names::Numbered(names) => names
                .iter()
                .enumerate()
                .map(|(i, n)| format!("{} = {n}", i + 1))
                .collect(),
        }
    }
}

/// Legend or key entries laid out down a column `room` pixels wide from `top`: each entry's
/// lines at `size`, with the y of each line's middle; entries `gap` pixels apart.
pub fn column(
    entries: &[String],
    room: i32,
    size: u32,
    top: i32,
    gap: i32,
) -> Vec<Vec<(String, i32)>> {
    let step = size as i32 + LEADING;
    let mut y = top;
    entries
        .iter()
        .map(|entry| {
            let lines: Vec<(String, i32)> = wrap(entry, room, size)
                .into_iter()
                .enumerate()
                .map(|(k, line)| (line, y + k as i32 * step))
                .collect();
            y += lines.len() as i32 * step + gap;
            lines
        })
        .collect()
}
