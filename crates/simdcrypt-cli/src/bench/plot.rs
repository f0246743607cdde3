//! `bench --plot`: each rung's GB/s against message size, one line per
//! rung, both axes on a log scale (so that a ratio of speeds reads as one
//! distance whatever the speeds), as SVG (plotters' SVG backend only).
//!
//! The bench crate's `examples/plot.rs` draws its plots, the rungs beside
//! the peers, with this file too (by path: the tool is not a library), so
//! it depends on plotters alone.

use plotters::prelude::*;

/// One contender's measurements: (message size in bytes, GB/s).
pub struct Series {
    /// A rung, or a peer.
    pub name: String,
    /// Whether it is a peer's (drawn dashed, with hollow triangles) rather
    /// than a rung's (solid, with dots).
    pub peer: bool,
    /// Its points, by size.
    pub points: Vec<(u64, f64)>,
}

/// The plot's size in pixels, legend included.
const SIZE: (u32, u32) = (1200, 600);

/// The width of the legend, right of the chart, in pixels.
const LEGEND_WIDTH: u32 = 250;

/// The SVG document of `series` under `title`: `None` when drawing fails
/// (it draws into memory, so only on a bug).
pub fn svg(title: &str, series: &[Series]) -> Option<String> {
    let mut text = String::new();
    draw(&mut text, title, series).ok()?;
    Some(text)
}

fn draw<'a>(
    text: &'a mut String,
    title: &str,
    series: &[Series],
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    let root = SVGBackend::with_string(text, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let (plot_area, legend) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    let points = series.iter().flat_map(|s| &s.points);
    let min = points.clone().map(|p| p.0).min().unwrap_or(64).max(1);
    let max = points
        .clone()
        .map(|p| p.0)
        .max()
        .unwrap_or(1 << 20)
        .max(min + 1);
    let speeds = points.map(|p| p.1).filter(|&g| drawable(g));
    let top = speeds.clone().fold(0.0, f64::max).max(0.1) * 1.5;
    let bottom = speeds.fold(top, f64::min) / 1.5;
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d((min..max).log_scale(), (bottom..top).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("message size (bytes, log scale)")
        .y_desc("GB/s (log scale)")
        .x_label_formatter(&|&b| decimal_size(b))
        .y_label_formatter(&|&g| speed_label(g))
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let line = s.points.iter().filter(|p| drawable(p.1)).copied();
        // The legend's line of this series, in the legend's pixels.
        let y = 60 + 22 * i as i32;
        legend.draw(&Text::new(s.name.as_str(), (44, y - 7), ("sans-serif", 14)))?;
        let dashes: &[(i32, i32)] = if s.peer {
            &[(4, 12), (16, 24), (28, 36)]
        } else {
            &[(4, 36)]
        };
        for &(from, to) in dashes {
            legend.draw(&PathElement::new(
                [(from, y), (to, y)],
                colour.stroke_width(2),
            ))?;
        }
        if s.peer {
            chart.draw_series(line.clone().map(|p| TriangleMarker::new(p, 4, colour)))?;
            chart.draw_series(DashedLineSeries::new(line, 6, 4, colour.stroke_width(2)))?;
            legend.draw(&TriangleMarker::new((20, y), 4, colour))?;
        } else {
            chart.draw_series(line.clone().map(|p| Circle::new(p, 3, colour.filled())))?;
            chart.draw_series(LineSeries::new(line, colour.stroke_width(2)))?;
            legend.draw(&Circle::new((20, y), 3, colour.filled()))?;
        }
    }
    root.present()?;
    Ok(())
}

/// Whether a speed has a place on the log axis: an empty timed region
/// (infinite) and nothing (zero) have none.
fn drawable(gb_per_s: f64) -> bool {
    gb_per_s.is_finite() && gb_per_s > 0.0
}

/// A speed on the log axis, to three significant digits at most: 0.0005,
/// 0.6, 20.
fn speed_label(gb_per_s: f64) -> String {
    let decimals = (2 - gb_per_s.log10().floor() as i32).max(0) as usize;
    let text = format!("{gb_per_s:.decimals$}");
    if decimals == 0 {
        return text;
    }
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A size on the log axis, whose marks are powers of ten: 100 B, 1 kB,
/// 10 kB, 1 MB.
fn decimal_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000 => format!("{} MB", b / 1_000_000),
        b if b >= 1_000 => format!("{} kB", b / 1_000),
        b => format!("{b} B"),
    }
}

/// The CPU's model name, for the title (Linux's `/proc/cpuinfo`), or the
/// architecture.
pub fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name")?.split_once(':'))
                .map(|(_, name)| name.trim().to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned())
}
