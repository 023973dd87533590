//! A line chart in SVG: axes with a few labelled ticks, the line, and a dot
//! per point that says what it is on hover. Dots carry `data-i` (their index)
//! and the chart a hidden cursor line (`{chart}-cursor`) for scripts to move.

use std::fmt::Write as _;

use super::page::escape;

const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 210.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 30.0;

/// One point of the line.
#[derive(Clone, Debug)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    /// Shown on hover.
    pub tip: String,
    /// CSS class of its dot (`dot` plus this).
    pub class: &'static str,
}

pub struct Chart<'a> {
    pub id: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    /// Fixed y range; by default the points' range (with 0 when `zero_line`).
    pub y_range: Option<(f64, f64)>,
    /// Draw the line y = 0.
    pub zero_line: bool,
    /// Tick labels of the y axis.
    pub y_format: fn(f64) -> String,
}

fn range(values: impl Iterator<Item = f64>, with_zero: bool) -> (f64, f64) {
    let (mut lo, mut hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if with_zero {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        return (lo - 1.0, hi + 1.0);
    }
    (lo, hi)
}

impl Chart<'_> {
    pub fn svg(&self, points: &[Point]) -> String {
        let (x0, x1) = range(points.iter().map(|p| p.x), false);
        let (y0, y1) = self
            .y_range
            .unwrap_or_else(|| range(points.iter().map(|p| p.y), self.zero_line));
        let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT);
        let sy = |y: f64| TOP + (y1 - y.clamp(y0, y1)) / (y1 - y0) * (HEIGHT - TOP - BOTTOM);
        let mut out = format!(
            "<svg class=\"chart\" id=\"{}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
             xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"{}\">\n",
            self.id,
            escape(self.y_label)
        );
        for i in 0..=4 {
            let y = y0 + (y1 - y0) * f64::from(i) / 4.0;
            let _ = writeln!(
                out,
                "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                WIDTH - RIGHT,
                sy(y),
                sy(y),
                LEFT - 4.0,
                sy(y) + 3.0,
                escape(&(self.y_format)(y))
            );
        }
        if self.zero_line && y0 < 0.0 && y1 > 0.0 {
            let _ = writeln!(
                out,
                "<line class=\"axis\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>",
                WIDTH - RIGHT,
                sy(0.0),
                sy(0.0)
            );
        }
        let x_step = ((x1 - x0) / 10.0).ceil().max(1.0);
        let mut x = x0.ceil();
        while x <= x1 {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{x}</text>",
                sx(x),
                HEIGHT - BOTTOM + 13.0
            );
            x += x_step;
        }
        let _ = writeln!(
            out,
            "<line class=\"axis\" x1=\"{LEFT}\" x2=\"{LEFT}\" y1=\"{TOP}\" y2=\"{:.1}\"/>\
             <line class=\"axis\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\
             <text x=\"12\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 12 {:.1})\">{}</text>",
            HEIGHT - BOTTOM,
            WIDTH - RIGHT,
            HEIGHT - BOTTOM,
            HEIGHT - BOTTOM,
            (LEFT + WIDTH - RIGHT) / 2.0,
            HEIGHT - 3.0,
            escape(self.x_label),
            (TOP + HEIGHT - BOTTOM) / 2.0,
            (TOP + HEIGHT - BOTTOM) / 2.0,
            escape(self.y_label)
        );
        let line: Vec<String> = points
            .iter()
            .map(|p| format!("{:.1},{:.1}", sx(p.x), sy(p.y)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"line\" points=\"{}\"/>",
            line.join(" ")
        );
        let _ = writeln!(
            out,
            "<line id=\"{}-cursor\" class=\"cursor\" x1=\"0\" x2=\"0\" y1=\"{TOP}\" y2=\"{:.1}\" visibility=\"hidden\"/>",
            self.id,
            HEIGHT - BOTTOM
        );
        for (i, p) in points.iter().enumerate() {
            let _ = writeln!(
                out,
                "<circle class=\"dot {}\" data-i=\"{i}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\"><title>{}</title></circle>",
                p.class,
                sx(p.x),
                sy(p.y),
                escape(&p.tip)
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_a_dot_per_point_and_survives_one_point() {
        let chart = Chart {
            id: "c",
            x_label: "depth",
            y_label: "score",
            y_range: None,
            zero_line: true,
            y_format: |y| format!("{y:.0}"),
        };
        let points: Vec<Point> = (1..=3)
            .map(|i| Point {
                x: f64::from(i),
                y: f64::from(i * 10),
                tip: format!("d{i}"),
                class: "",
            })
            .collect();
        let svg = chart.svg(&points);
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(!svg.contains("NaN"), "{svg}");
        assert!(!chart.svg(&points[..1]).contains("NaN"));
        assert!(!chart.svg(&[]).contains("NaN"));
    }
}
