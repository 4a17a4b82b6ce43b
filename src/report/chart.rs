//! Charts with plotters, each written as both SVG and PNG with a bundled font (DejaVu Sans),
//! so they look the same everywhere and need no system font library.

use std::path::Path;
use std::sync::Once;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::error::ReportError;
use crate::outdir::OutDir;

/// The coordinates of every chart here: f64 on both axes.
type Area = Cartesian2d<RangedCoordf64, RangedCoordf64>;

/// One bar series of a bar chart: a value per category with its interval.
pub struct Bars {
    /// Legend name.
    pub name: String,
    /// `(value, low, high)` per category.
    pub values: Vec<(f64, f64, f64)>,
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

/// A chart: a title that says what was simulated, a y label, and the plot.
pub struct Chart {
    /// Title.
    pub title: String,
    /// y axis label.
    pub y_label: String,
    /// Content.
    pub plot: Plot,
}

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 620;
const FONT: &str = "sans-serif";

/// Distinct, colour-blind-friendly colours (Okabe–Ito).
const COLORS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

/// The colour of series `i`.
fn color(i: usize) -> RGBColor {
    COLORS[i % COLORS.len()]
}

fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font is valid, so registration cannot fail; if it ever did, text would be
        // missing from the charts and the chart tests would say so.
        let _ = register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// Writes `chart` into `dir` as `stem.svg` and `stem.png`, recording both in its manifest
/// first.
///
/// # Errors
/// A drawing or file error.
pub fn save(chart: &Chart, dir: &mut OutDir, stem: &str) -> Result<(), ReportError> {
    fonts();
    let (svg, png) = (format!("{stem}.svg"), format!("{stem}.png"));
    dir.claim(&[&svg, &png])?;
    let (svg, png) = (dir.path().join(svg), dir.path().join(png));
    let failed = |path: &Path| {
        let path = path.to_path_buf();
        move |message| ReportError::Chart { path, message }
    };
    {
        let root = SVGBackend::new(&svg, (WIDTH, HEIGHT)).into_drawing_area();
        draw(chart, &root).map_err(failed(&svg))?;
        root.present().map_err(|e| failed(&svg)(e.to_string()))?;
    }
    {
        let root = BitMapBackend::new(&png, (WIDTH, HEIGHT)).into_drawing_area();
        draw(chart, &root).map_err(failed(&png))?;
        root.present().map_err(|e| failed(&png)(e.to_string()))?;
    }
    Ok(())
}

fn draw<DB: DrawingBackend>(chart: &Chart, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    match &chart.plot {
        Plot::Bars { categories, series } => bars(chart, root, categories, series).map_err(err),
        Plot::Stacked { categories, layers } => {
            stacked(chart, root, categories, layers).map_err(err)
        }
        Plot::Boxes { categories, boxes } => box_plot(chart, root, categories, boxes).map_err(err),
        Plot::Lines { x_label, lines } => line_chart(chart, root, x_label, lines).map_err(err),
    }
}

/// A tick label: whole numbers without decimals.
fn tick(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round())
    } else {
        format!("{x:.2}")
    }
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A chart area over categories `0..n` on x and `0..y_max` on y, with category names below.
fn category_chart<'a, DB: DrawingBackend>(
    chart: &Chart,
    root: &'a DrawingArea<DB, Shift>,
    categories: &[String],
    y_max: f64,
) -> Result<ChartContext<'a, DB, Area>, DrawingAreaErrorKind<DB::ErrorType>> {
    let n = categories.len().max(1) as f64;
    let mut ctx = ChartBuilder::on(root)
        .caption(&chart.title, (FONT, 22).into_font().style(FontStyle::Bold))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..y_max)?;
    ctx.configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(&chart.y_label)
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 16))
        .draw()?;
    let style = TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, name) in categories.iter().enumerate() {
        let (x, y) = ctx.backend_coord(&(i as f64, 0.0));
        root.draw(&Text::new(name.clone(), (x, y + 10), style.clone()))?;
    }
    Ok(ctx)
}

fn legend<'a, DB: DrawingBackend + 'a>(ctx: &mut ChartContext<'a, DB, Area>) -> Drawn<DB> {
    ctx.configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 15))
        .draw()
}

fn bars<DB: DrawingBackend>(
    chart: &Chart,
    root: &DrawingArea<DB, Shift>,
    categories: &[String],
    series: &[Bars],
) -> Drawn<DB> {
    let top = series
        .iter()
        .flat_map(|s| s.values.iter().map(|v| v.2))
        .fold(0.0f64, f64::max);
    let mut ctx = category_chart(chart, root, categories, (top * 1.25).clamp(0.05, 1.0))?;
    let width = 0.8 / series.len().max(1) as f64;
    for (k, s) in series.iter().enumerate() {
        let c = color(k);
        let offset = -0.4 + width * (k as f64 + 0.5);
        ctx.draw_series(s.values.iter().enumerate().map(|(i, &(v, _, _))| {
            let x = i as f64 + offset;
            Rectangle::new([(x - width * 0.45, 0.0), (x + width * 0.45, v)], c.filled())
        }))?
        .label(&s.name)
        .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
        ctx.draw_series(s.values.iter().enumerate().map(|(i, &(v, lo, hi))| {
            ErrorBar::new_vertical(i as f64 + offset, lo, v, hi, BLACK.stroke_width(2), 8)
        }))?;
    }
    legend(&mut ctx)
}

fn stacked<DB: DrawingBackend>(
    chart: &Chart,
    root: &DrawingArea<DB, Shift>,
    categories: &[String],
    layers: &[(String, Vec<f64>)],
) -> Drawn<DB> {
    let mut ctx = category_chart(chart, root, categories, 1.2)?;
    let mut base = vec![0.0; categories.len()];
    for (k, (name, shares)) in layers.iter().enumerate() {
        let c = color(k);
        let bottoms = base.clone();
        ctx.draw_series(shares.iter().enumerate().map(|(i, &s)| {
            Rectangle::new(
                [
                    (i as f64 - 0.3, bottoms[i]),
                    (i as f64 + 0.3, bottoms[i] + s),
                ],
                c.filled(),
            )
        }))?
        .label(name)
        .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
        for (b, s) in base.iter_mut().zip(shares) {
            *b += s;
        }
    }
    legend(&mut ctx)
}

fn box_plot<DB: DrawingBackend>(
    chart: &Chart,
    root: &DrawingArea<DB, Shift>,
    categories: &[String],
    boxes: &[Quartiles],
) -> Drawn<DB> {
    let top = boxes.iter().map(|b| b[4]).fold(1.0f64, f64::max);
    let mut ctx = category_chart(chart, root, categories, top * 1.1)?;
    for (i, b) in boxes.iter().enumerate() {
        let x = i as f64;
        let c = color(i);
        let line = |x0: f64, y0: f64, x1: f64, y1: f64| {
            PathElement::new(vec![(x0, y0), (x1, y1)], BLACK.stroke_width(2))
        };
        ctx.draw_series([Rectangle::new(
            [(x - 0.25, b[1]), (x + 0.25, b[3])],
            c.mix(0.6).filled(),
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
    root: &DrawingArea<DB, Shift>,
    x_label: &str,
    lines: &[Line],
) -> Drawn<DB> {
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
    let pad = ((y_max - y_min) * 0.1).max(0.01);
    // Shares and counts never go below zero: keep the axis there.
    let floor = if y_min >= 0.0 { 0.0 } else { f64::MIN };
    let (y_min, y_max) = if y_min <= y_max {
        ((y_min - pad).max(floor), y_max + pad * 2.0)
    } else {
        (0.0, 1.0)
    };
    let mut ctx = ChartBuilder::on(root)
        .caption(&chart.title, (FONT, 22).into_font().style(FontStyle::Bold))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(x_min..x_max, y_min..y_max)?;
    ctx.configure_mesh()
        .x_desc(x_label)
        .x_label_formatter(&|x| tick(*x))
        .y_desc(&chart.y_label)
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 16))
        .draw()?;
    for (k, line) in lines.iter().enumerate() {
        let c = color(k);
        if !line.band.is_empty() {
            let mut outline: Vec<(f64, f64)> = line.band.iter().map(|b| (b.0, b.2)).collect();
            outline.extend(line.band.iter().rev().map(|b| (b.0, b.1)));
            ctx.draw_series([Polygon::new(outline, c.mix(0.18).filled())])?;
        }
        ctx.draw_series(LineSeries::new(
            line.points.iter().copied(),
            c.stroke_width(3),
        ))?
        .label(&line.name)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(3)));
        if line.points.len() <= 20 {
            ctx.draw_series(line.points.iter().map(|&p| Circle::new(p, 4, c.filled())))?;
        }
    }
    legend(&mut ctx)
}
