//! Charts with plotters, each written as both SVG and PNG with a bundled font (DejaVu Sans),
//! so they look the same everywhere and need no system font library. Drawn for print: the
//! legend in its own column beside the plot, shares on a 0–1 axis, series that stay apart in
//! greyscale.

use std::sync::Once;

use image::codecs::png::PngEncoder;
use image::{ColorType, ImageEncoder};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::error::ReportError;
use super::labels::{self, Names};
use crate::outdir::OutDir;

/// The coordinates of every chart here: f64 on both axes.
type Area = Cartesian2d<RangedCoordf64, RangedCoordf64>;

/// One bar series of a bar chart: a value per category with its interval.
pub struct Bars {
    /// Legend name.
    pub name: String,
    /// `(value, low, high)` per category; `None` where there is no value (a rate over no
    /// finished game), drawn as `n/a` instead of a bar.
    pub values: Vec<Option<(f64, f64, f64)>>,
}

/// One line of a line chart, with an optional interval band.
pub struct Line {
    /// Legend name.
    pub name: String,
    /// `(x, y)` points.
    pub points: Vec<(f64, f64)>,
    /// `(x, low, high)` band, drawn lightly behind the line.
    pub band: Vec<(f64, f64, f64)>,
}

/// A box plot's five numbers: whisker low, first quartile, median, third quartile, whisker high.
pub type Quartiles = [f64; 5];

/// A chart's content.
pub enum Plot {
    /// Grouped bars with 95% interval bars, one group per category.
    Bars {
        /// Category labels along x.
        categories: Vec<String>,
        /// Series, one bar each per category.
        series: Vec<Bars>,
    },
    /// Stacked shares per category.
    Stacked {
        /// Category labels along x.
        categories: Vec<String>,
        /// Layers bottom to top: name and share per category.
        layers: Vec<(String, Vec<f64>)>,
    },
    /// A box per category.
    Boxes {
        /// Category labels along x.
        categories: Vec<String>,
        /// The boxes.
        boxes: Vec<Quartiles>,
    },
    /// Lines over a numeric x axis.
    Lines {
        /// The x axis label.
        x_label: String,
        /// The lines.
        lines: Vec<Line>,
    },
}

/// The y axis of a chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Shares: always from 0 to 1, so charts compare at a glance.
    Share,
    /// Counts and means: from the data (from 0 when nothing is negative).
    Linear,
    /// Shares spanning orders of magnitude: a log axis; zero shares are not drawn.
    Log,
}

/// A chart: a title that says what was simulated, a y label and scale, and the plot.
pub struct Chart {
    /// Title.
    pub title: String,
    /// y axis label.
    pub y_label: String,
    /// y axis scale.
    pub y: Scale,
    /// Content.
    pub plot: Plot,
}

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 620;
/// The legend's column, right of the plot: a legend never covers data.
const LEGEND: u32 = 300;
/// The plot's margin, and the room for the y axis's labels, in pixels.
const MARGIN: i32 = 20;
const Y_LABELS: i32 = 70;
pub(super) const FONT: &str = "sans-serif";
/// Text sizes in pixels, large enough to read when a chart is printed a column wide.
const TEXT: u32 = 18;
const AXIS_TEXT: u32 = 20;

/// Colour-blind-friendly colours (Okabe–Ito), ordered so that the first five differ in grey
/// level too (luminance about 59, 162, 106, 0 and 213 of 255, then 151, 158 and 119): series
/// stay apart in a greyscale print. Lines also differ in dash and marker; bars have black
/// outlines, and interval bars a white edge so they show on a black bar.
const COLORS: [RGBColor; 8] = [
    RGBColor(0, 73, 140),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
];

/// The colour of series `i`.
pub(super) fn color(i: usize) -> RGBColor {
    COLORS[i % COLORS.len()]
}

/// The colours, as CSS writes them (`#00498c`), for pages that draw in the browser.
pub(super) fn css_colours() -> Vec<String> {
    COLORS
        .iter()
        .map(|c| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2))
        .collect()
}

/// The dashes of lines `0..4`, as SVG's `stroke-dasharray` writes them (`""` for solid).
pub(super) fn svg_dashes() -> Vec<String> {
    (0..4)
        .map(|i| dash(i).map_or(String::new(), |(on, off)| format!("{on} {off}")))
        .collect()
}

/// The dash of line `i` (dash and gap in pixels): solid, dashed, dotted, long-dashed.
pub(super) fn dash(i: usize) -> Option<(u32, u32)> {
    [None, Some((12, 6)), Some((3, 5)), Some((22, 8))][i % 4]
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Key {
    /// A filled, outlined box: bars and stacked layers.
    Box,
    /// A short line with its dash and marker.
    Line,
}

pub(super) fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font is valid, so registration cannot fail; if it ever did, text would be
        // missing from the charts and the chart tests would say so.
        let _ = register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// A picture drawn with plotters (a chart, a board diagram), so that one drawing gives both
/// the SVG and the PNG.
pub trait Picture {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);

    /// Draws the picture on `root`.
    ///
    /// # Errors
    /// The backend's error, in words.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String>;
}

impl Picture for Chart {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        draw(self, root)
    }
}

/// `picture` drawn in memory as SVG text, with the bundled font.
///
/// # Errors
/// A drawing error, in words.
pub fn render_svg(picture: &impl Picture) -> Result<String, String> {
    fonts();
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, picture.size()).into_drawing_area();
        picture.draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// `picture` drawn in memory and encoded as PNG, with the bundled font.
///
/// # Errors
/// A drawing or encoding error, in words.
pub fn render_png(picture: &impl Picture) -> Result<Vec<u8>, String> {
    fonts();
    let (width, height) = picture.size();
    let mut pixels = vec![0; (width * height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (width, height)).into_drawing_area();
        picture.draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    let mut encoded = Vec::new();
    PngEncoder::new(&mut encoded)
        .write_image(&pixels, width, height, ColorType::Rgb8)
        .map_err(|e| e.to_string())?;
    Ok(encoded)
}

/// Writes `picture` into `dir` as `stem.svg` and `stem.png`. Both are drawn in memory and
/// written whole ([`OutDir::write_file`]), so no picture is ever half written, and an error is
/// the file's, in words.
///
/// # Errors
/// A drawing or file error.
pub fn save(picture: &impl Picture, dir: &mut OutDir, stem: &str) -> Result<(), ReportError> {
    let (svg, png) = (format!("{stem}.svg"), format!("{stem}.png"));
    let failed = |name: &str| {
        let path = dir.path().join(name);
        move |message| ReportError::Chart { path, message }
    };
    let text = render_svg(picture).map_err(failed(&svg))?;
    let encoded = render_png(picture).map_err(failed(&png))?;
    dir.write_file(&svg, text.as_bytes())?;
    dir.write_file(&png, &encoded)?;
    Ok(())
}

fn draw<DB: DrawingBackend>(chart: &Chart, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    root.titled(&chart.title, (FONT, 22).into_font().style(FontStyle::Bold))
        .map_err(err)?;
    let boxes = matches!(chart.plot, Plot::Boxes { .. });
    // Names fitted to their columns; a box plot, which has no legend, takes the side column
    // only for the key of names too long to write out.
    let names = chart.plot.categories().map(|c| {
        let plot = if boxes { WIDTH } else { WIDTH - LEGEND };
        Names::fit(c, column_width(plot, c.len()))
    });
    let keyed = matches!(names, Some(Names::Numbered(_)));
    let area = root.margin(40, 0, 0, 0);
    let (plot, side) = if boxes && !keyed {
        (area.clone(), None)
    } else {
        let (plot, side) = area.split_horizontally(WIDTH - LEGEND);
        (plot, Some(side))
    };
    let names = names.unwrap_or(Names::Wrapped {
        size: TEXT,
        lines: Vec::new(),
    });
    let keys = match &chart.plot {
        Plot::Bars { categories, series } => {
            bars(chart, &plot, categories, series, &names).map_err(err)?;
            series.iter().map(|s| (s.name.as_str(), Key::Box)).collect()
        }
        Plot::Stacked { categories, layers } => {
            stacked(chart, &plot, categories, layers, &names).map_err(err)?;
            // Top layer first, as the stack reads.
            layers
                .iter()
                .rev()
                .map(|l| (l.0.as_str(), Key::Box))
                .collect()
        }
        Plot::Lines { x_label, lines } => {
            line_chart(chart, &plot, x_label, lines).map_err(err)?;
            lines.iter().map(|l| (l.name.as_str(), Key::Line)).collect()
        }
        Plot::Boxes { categories, boxes } => {
            box_plot(chart, &plot, categories, boxes, &names).map_err(err)?;
            Vec::new()
        }
    };
    let stacked = matches!(chart.plot, Plot::Stacked { .. });
    match side {
        Some(side) => legend(&side, &keys, stacked, &names.key()).map_err(err),
        None => Ok(()),
    }
}

/// The width of each category's column in a plot `plot` pixels wide: the plot less its
/// margins and y labels, shared out.
fn column_width(plot: u32, categories: usize) -> i32 {
    (plot as i32 - 2 * MARGIN - Y_LABELS) / categories.max(1) as i32
}

impl Plot {
    /// The categories along x, for the plots that have them.
    fn categories(&self) -> Option<&[String]> {
        match self {
            Plot::Bars { categories, .. }
            | Plot::Stacked { categories, .. }
            | Plot::Boxes { categories, .. } => Some(categories),
            Plot::Lines { .. } => None,
        }
    }
}

/// A tick label: at most two decimals, without trailing zeros (`1`, `0.9`, `0.25`).
fn tick(x: f64) -> String {
    let text = format!("{x:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// A log axis tick at `10^e`: `1`, `0.01`, `1e-5`.
fn log_tick(e: f64) -> String {
    let e = e.round() as i32;
    match e {
        -3..=0 => format!("{}", 10f64.powi(e)),
        _ => format!("1e{e}"),
    }
}

/// What drawing gives: nothing, or the backend's error.
pub(super) type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The legend column: one entry per series, in the order given, from the top, each name
/// wrapped to the column; below them the key of numbered category names, if any.
fn legend<DB: DrawingBackend>(
    side: &DrawingArea<DB, Shift>,
    keys: &[(&str, Key)],
    stacked: bool,
    key: &[String],
) -> Drawn<DB> {
    let style = TextStyle::from((FONT, TEXT).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let count = keys.len();
    let names: Vec<String> = keys.iter().map(|(name, _)| name.to_string()).collect();
    let laid = labels::column(&names, LEGEND as i32 - 52, TEXT, 40, 12);
    for (row, (&(_, kind), lines)) in keys.iter().zip(&laid).enumerate() {
        // A stacked chart lists its layers top first; their colours count from the bottom.
        let k = if stacked { count - 1 - row } else { row };
        let y = lines[0].1;
        let c = color(k);
        match kind {
            Key::Box => {
                side.draw(&Rectangle::new([(8, y - 8), (28, y + 8)], c.filled()))?;
                side.draw(&Rectangle::new(
                    [(8, y - 8), (28, y + 8)],
                    BLACK.stroke_width(1),
                ))?;
            }
            Key::Line => {
                let ends = vec![(4, y), (36, y)];
                match dash(k) {
                    None => side.draw(&PathElement::new(ends, c.stroke_width(3)))?,
                    Some((on, off)) => {
                        side.draw(&DashedPathElement::new(ends, on, off, c.stroke_width(3)))?
                    }
                }
                draw_marker(side, k, (20, y))?;
            }
        }
        for (line, y) in lines {
            side.draw(&Text::new(line.clone(), (44, *y), style.clone()))?;
        }
    }
    if !key.is_empty() {
        let below = laid
            .last()
            .and_then(|l| l.last())
            .map_or(40, |(_, y)| y + 40);
        let small = TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        for (line, y) in labels::column(key, LEGEND as i32 - 16, 15, below, 4)
            .iter()
            .flatten()
        {
            side.draw(&Text::new(line.clone(), (8, *y), small.clone()))?;
        }
    }
    Ok(())
}

/// Marker `k` (circle, triangle, square, cross) at a point, in line `k`'s colour.
fn draw_marker<DB: DrawingBackend, C: Clone + 'static>(
    area: &DrawingArea<DB, impl CoordTranslate<From = C>>,
    k: usize,
    at: C,
) -> Drawn<DB> {
    let style = if k % 4 == 3 {
        color(k).stroke_width(3)
    } else {
        color(k).filled()
    };
    marker(area, k, 5, style, at)
}

/// Marker shape `shape` (circle, triangle, square, cross, in turn) at a point, `size` pixels
/// from its middle to its side, in `style` (a triangle is always filled).
pub(super) fn marker<DB: DrawingBackend, C: Clone + 'static>(
    area: &DrawingArea<DB, impl CoordTranslate<From = C>>,
    shape: usize,
    size: i32,
    style: ShapeStyle,
    at: C,
) -> Drawn<DB> {
    match shape % 4 {
        0 => area.draw(&Circle::new(at, size, style)),
        1 => area.draw(&TriangleMarker::new(at, size + 2, style)),
        2 => area
            .draw(&(EmptyElement::at(at) + Rectangle::new([(-size, -size), (size, size)], style))),
        _ => area.draw(&Cross::new(at, size + 1, style)),
    }
}

/// The y range of a chart: shares 0–1; otherwise from the data, kept at 0 when nothing is
/// negative, with room above; on a log axis, whole powers of ten around the data.
fn y_range(scale: Scale, low: f64, high: f64) -> (f64, f64) {
    match scale {
        Scale::Share => (0.0, 1.0),
        Scale::Log => {
            if low > high {
                return (-3.0, 0.0);
            }
            (
                low.floor().min(high - 1.0),
                high.ceil().max(low.floor() + 1.0),
            )
        }
        Scale::Linear => {
            if low > high {
                return (0.0, 1.0);
            }
            let pad = ((high - low) * 0.1).max(0.01);
            let floor = if low >= 0.0 { 0.0 } else { f64::MIN };
            ((low - pad).max(floor), high + pad * 2.0)
        }
    }
}

/// A chart area over categories `0..n` on x and `y` on y, with category names below (as
/// `names` fits them to their columns).
fn category_chart<'a, DB: DrawingBackend>(
    chart: &Chart,
    area: &'a DrawingArea<DB, Shift>,
    categories: &[String],
    y: (f64, f64),
    names: &Names,
) -> Result<ChartContext<'a, DB, Area>, DrawingAreaErrorKind<DB::ErrorType>> {
    let n = categories.len().max(1) as f64;
    let mut ctx = ChartBuilder::on(area)
        .margin(MARGIN)
        .x_label_area_size(names.height())
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(-0.5..n - 0.5, y.0..y.1)?;
    ctx.configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_label_formatter(&|y| tick(*y))
        .y_desc(&chart.y_label)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, AXIS_TEXT))
        .draw()?;
    // The chart gives backend pixels; the area draws from its own corner.
    let (base_x, base_y) = area.get_base_pixel();
    for i in 0..categories.len() {
        let (x, top) = ctx.backend_coord(&(i as f64, y.0));
        for (line, size, [left, y, ..]) in names.laid_out(i, x - base_x, top - base_y) {
            let style =
                TextStyle::from((FONT, size).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
            area.draw(&Text::new(line, (left, y), style))?;
        }
    }
    Ok(ctx)
}

fn bars<DB: DrawingBackend>(
    chart: &Chart,
    area: &DrawingArea<DB, Shift>,
    categories: &[String],
    series: &[Bars],
    names: &Names,
) -> Drawn<DB> {
    let top = series
        .iter()
        .flat_map(|s| s.values.iter().flatten().map(|v| v.2))
        .fold(0.0f64, f64::max);
    let y = y_range(chart.y, 0.0, top);
    let mut ctx = category_chart(chart, area, categories, y, names)?;
    let width = 0.8 / series.len().max(1) as f64;
    let na = TextStyle::from((FONT, TEXT).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
    for (k, s) in series.iter().enumerate() {
        let c = color(k);
        let offset = -0.4 + width * (k as f64 + 0.5);
        let present = || {
            s.values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.map(|v| (i as f64 + offset, v)))
        };
        let corners = |x: f64, v: f64| [(x - width * 0.45, 0.0), (x + width * 0.45, v)];
        ctx.draw_series(present().map(|(x, (v, _, _))| Rectangle::new(corners(x, v), c.filled())))?;
        ctx.draw_series(
            present().map(|(x, (v, _, _))| Rectangle::new(corners(x, v), BLACK.stroke_width(1))),
        )?;
        for style in [WHITE.stroke_width(5), BLACK.stroke_width(2)] {
            ctx.draw_series(
                present().map(|(x, (v, lo, hi))| ErrorBar::new_vertical(x, lo, v, hi, style, 8)),
            )?;
        }
        // No bar where there is no value: said, so that it is not read as zero.
        for (i, _) in s.values.iter().enumerate().filter(|(_, v)| v.is_none()) {
            let (x, base) = ctx.backend_coord(&(i as f64 + offset, y.0));
            let (base_x, base_y) = area.get_base_pixel();
            area.draw(&Text::new(
                "n/a",
                (x - base_x, base - base_y - 4),
                na.clone(),
            ))?;
        }
    }
    Ok(())
}

fn stacked<DB: DrawingBackend>(
    chart: &Chart,
    area: &DrawingArea<DB, Shift>,
    categories: &[String],
    layers: &[(String, Vec<f64>)],
    names: &Names,
) -> Drawn<DB> {
    let mut ctx = category_chart(chart, area, categories, y_range(chart.y, 0.0, 1.0), names)?;
    let mut base = vec![0.0; categories.len()];
    for (k, (_, shares)) in layers.iter().enumerate() {
        let c = color(k);
        for (i, &s) in shares.iter().enumerate() {
            let corners = [(i as f64 - 0.3, base[i]), (i as f64 + 0.3, base[i] + s)];
            ctx.draw_series([
                Rectangle::new(corners, c.filled()),
                Rectangle::new(corners, BLACK.stroke_width(1)),
            ])?;
            base[i] += s;
        }
    }
    Ok(())
}

fn box_plot<DB: DrawingBackend>(
    chart: &Chart,
    area: &DrawingArea<DB, Shift>,
    categories: &[String],
    boxes: &[Quartiles],
    names: &Names,
) -> Drawn<DB> {
    let top = boxes.iter().map(|b| b[4]).fold(1.0f64, f64::max);
    let mut ctx = category_chart(chart, area, categories, y_range(chart.y, 0.0, top), names)?;
    for (i, b) in boxes.iter().enumerate() {
        let x = i as f64;
        let line = |x0: f64, y0: f64, x1: f64, y1: f64| {
            PathElement::new(vec![(x0, y0), (x1, y1)], BLACK.stroke_width(2))
        };
        ctx.draw_series([Rectangle::new(
            [(x - 0.25, b[1]), (x + 0.25, b[3])],
            color(0).mix(0.35).filled(),
        )])?;
        ctx.draw_series([Rectangle::new(
            [(x - 0.25, b[1]), (x + 0.25, b[3])],
            BLACK.stroke_width(1),
        )])?;
        ctx.draw_series([
            line(x - 0.25, b[2], x + 0.25, b[2]),
            line(x, b[0], x, b[1]),
            line(x, b[3], x, b[4]),
            line(x - 0.1, b[0], x + 0.1, b[0]),
            line(x - 0.1, b[4], x + 0.1, b[4]),
        ])?;
    }
    Ok(())
}

fn line_chart<DB: DrawingBackend>(
    chart: &Chart,
    area: &DrawingArea<DB, Shift>,
    x_label: &str,
    lines: &[Line],
) -> Drawn<DB> {
    // On a log axis the data are drawn as their logarithms; a zero share has none.
    let log = chart.y == Scale::Log;
    let shown = |y: f64| {
        if log {
            (y > 0.0).then(|| y.log10())
        } else {
            Some(y)
        }
    };
    let lines: Vec<Line> = lines
        .iter()
        .map(|l| Line {
            name: l.name.clone(),
            points: l
                .points
                .iter()
                .filter_map(|&(x, y)| Some((x, shown(y)?)))
                .collect(),
            band: l
                .band
                .iter()
                .filter_map(|&(x, lo, hi)| Some((x, shown(lo)?, shown(hi)?)))
                .collect(),
        })
        .collect();
    let xs = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0));
    let (x_min, x_max) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let ys = lines.iter().flat_map(|l| {
        l.points
            .iter()
            .map(|p| p.1)
            .chain(l.band.iter().flat_map(|b| [b.1, b.2]))
    });
    let (y_min, y_max) = ys.fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let (x_min, x_max) = if x_min < x_max {
        (x_min, x_max)
    } else {
        (x_min - 1.0, x_min + 1.0)
    };
    let (y_min, y_max) = y_range(chart.y, y_min, y_max);
    let mut ctx = ChartBuilder::on(area)
        .margin(MARGIN)
        .x_label_area_size(50)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(x_min..x_max, y_min..y_max)?;
    let y_format = |y: &f64| if log { log_tick(*y) } else { tick(*y) };
    let mut mesh = ctx.configure_mesh();
    mesh.x_desc(x_label)
        .x_label_formatter(&|x| tick(*x))
        .y_desc(&chart.y_label)
        .y_label_formatter(&y_format)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, AXIS_TEXT));
    if log {
        // One tick per power of ten.
        mesh.y_labels((y_max - y_min) as usize + 1);
    }
    mesh.draw()?;
    for (k, line) in lines.iter().enumerate() {
        let c = color(k);
        if !line.band.is_empty() {
            let mut outline: Vec<(f64, f64)> = line.band.iter().map(|b| (b.0, b.2)).collect();
            outline.extend(line.band.iter().rev().map(|b| (b.0, b.1)));
            ctx.draw_series([Polygon::new(outline, c.mix(0.15).filled())])?;
        }
        let points = line.points.iter().copied();
        match dash(k) {
            None => ctx.draw_series(LineSeries::new(points, c.stroke_width(3)))?,
            Some((on, off)) => {
                ctx.draw_series(DashedLineSeries::new(points, on, off, c.stroke_width(3)))?
            }
        };
        // Markers tell the lines apart in greyscale: at every point of a short line, at
        // about a dozen of a long one.
        let every = line.points.len().div_ceil(12).max(1);
        for &p in line.points.iter().step_by(every) {
            draw_marker(ctx.plotting_area(), k, p)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of every shipped and catalogue variant, longest first.
    fn longest_names() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
        let mut names: Vec<String> = crate::lang::variant_files(&[root])
            .expect("variants")
            .files
            .iter()
            .map(|f| {
                crate::lang::compile_path(f, &[])
                    .expect("compiles")
                    .provenance
                    .name
            })
            .collect();
        names.sort_by_key(|n| std::cmp::Reverse(labels::width(n, TEXT)));
        names
    }

    /// Under a category chart of the longest names of the catalogue, two to twenty at once,
    /// no name's lines touch another's, and all stand under the plot; numbered names' key,
    /// and every legend entry, stay inside the legend's column.
    #[test]
    fn no_label_overlaps_another_even_for_the_longest_names() {
        let names = longest_names();
        assert!(labels::width(&names[0], TEXT) > 300, "{}", names[0]);
        for n in [2, 3, 4, 6, 8, 12, 20] {
            let categories = &names[..n];
            let column = column_width(WIDTH - LEGEND, n);
            let fitted = Names::fit(categories, column);
            let mut boxes: Vec<(usize, [i32; 4])> = Vec::new();
            for i in 0..n {
                let x = MARGIN + Y_LABELS + column * i as i32 + column / 2;
                for (line, _, b) in fitted.laid_out(i, x, 0) {
                    assert!(
                        b[0] >= 0 && b[2] <= (WIDTH - LEGEND) as i32,
                        "{line} leaves the plot"
                    );
                    assert!(b[3] <= fitted.height(), "{line} below its area");
                    boxes.push((i, b));
                }
            }
            for (k, (i, a)) in boxes.iter().enumerate() {
                for (j, b) in &boxes[k + 1..] {
                    let apart = a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1];
                    assert!(
                        i == j || apart,
                        "{n} names: {} and {} overlap",
                        names[*i],
                        names[*j]
                    );
                }
            }
            for line in labels::column(&fitted.key(), LEGEND as i32 - 16, 15, 0, 4)
                .iter()
                .flatten()
            {
                assert!(
                    8 + labels::width(&line.0, 15) <= LEGEND as i32,
                    "{}",
                    line.0
                );
            }
            if n <= 4 {
                assert!(
                    matches!(fitted, Names::Wrapped { .. }),
                    "{n} names are written out"
                );
            }
        }
        for entry in labels::column(&names[..8], LEGEND as i32 - 52, TEXT, 40, 12)
            .iter()
            .flatten()
        {
            assert!(
                44 + labels::width(&entry.0, TEXT) <= LEGEND as i32,
                "{}",
                entry.0
            );
        }
    }

    /// A word too long for its column is cut; words are kept whole otherwise.
    #[test]
    fn names_wrap_between_words() {
        assert_eq!(
            labels::wrap("greedy over random", labels::width("greedy over", 18), 18),
            ["greedy over", "random"]
        );
        let cut = labels::wrap("Kiswahili", labels::width("Kisw", 18), 18);
        assert!(cut.len() > 1 && cut.concat() == "Kiswahili", "{cut:?}");
    }

    /// Grey level (ITU-R BT.601 luma) of a colour, 0–255.
    fn luma(c: RGBColor) -> f64 {
        0.299 * f64::from(c.0) + 0.587 * f64::from(c.1) + 0.114 * f64::from(c.2)
    }

    #[test]
    fn the_first_five_colours_stay_apart_in_greyscale() {
        for i in 0..5 {
            for j in 0..i {
                let gap = (luma(color(i)) - luma(color(j))).abs();
                assert!(
                    gap >= 40.0,
                    "colours {j} and {i} differ by {gap:.0} in grey"
                );
            }
        }
        // Lines also differ in dash: four patterns, all different.
        let dashes: Vec<_> = (0..4).map(dash).collect();
        for i in 0..4 {
            assert!(!dashes[..i].contains(&dashes[i]), "{dashes:?}");
        }
    }

    #[test]
    fn ticks_drop_trailing_zeros() {
        assert_eq!(
            [1.0, 0.9, 0.25, 0.0, -0.001, 250.0, -2.5].map(tick),
            ["1", "0.9", "0.25", "0", "0", "250", "-2.5"]
        );
    }

    #[test]
    fn log_ticks_read_as_numbers() {
        assert_eq!(
            [0.0, -1.0, -3.0, -4.0, 1.0].map(log_tick),
            ["1", "0.1", "0.001", "1e-4", "1e1"]
        );
    }
}
