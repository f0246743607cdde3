//! `bench --plot`: each rung's GB/s against message size, one line per
//! rung on a log-scale size axis, as SVG (plotters' SVG backend only).
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

/// The plot's size in pixels.
const SIZE: (u32, u32) = (960, 600);

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
    let points = series.iter().flat_map(|s| &s.points);
    let min = points.clone().map(|p| p.0).min().unwrap_or(64).max(1);
    let max = points
        .clone()
        .map(|p| p.0)
        .max()
        .unwrap_or(1 << 20)
        .max(min + 1);
    let top = points
        .map(|p| p.1)
        .filter(|g| g.is_finite())
        .fold(0.0, f64::max)
        * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d((min..max).log_scale(), 0.0..top.max(0.1))?;
    chart
        .configure_mesh()
        .x_desc("message size (bytes, log scale)")
        .y_desc("GB/s (median)")
        .x_label_formatter(&|&b| decimal_size(b))
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let line = s.points.iter().filter(|p| p.1.is_finite()).copied();
        let drawn = if s.peer {
            chart.draw_series(line.clone().map(|p| TriangleMarker::new(p, 4, colour)))?;
            chart.draw_series(DashedLineSeries::new(line, 6, 4, colour.stroke_width(2)))?
        } else {
            chart.draw_series(line.clone().map(|p| Circle::new(p, 3, colour.filled())))?;
            chart.draw_series(LineSeries::new(line, colour.stroke_width(2)))?
        };
        let peer = s.peer;
        drawn.label(&s.name).legend(move |(x, y)| {
            let path = PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2));
            let mark: DynElement<_, _> = if peer {
                TriangleMarker::new((x + 10, y), 4, colour).into_dyn()
            } else {
                Circle::new((x + 10, y), 3, colour.filled()).into_dyn()
            };
            EmptyElement::at((0, 0)) + path + mark
        });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
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
