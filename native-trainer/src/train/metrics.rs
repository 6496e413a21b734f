//! Per-epoch metrics: a CSV file and a loss and accuracy plot (SVG).

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

/// One epoch's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochMetrics {
    /// 1-based epoch.
    pub epoch: usize,
    /// Learning rate used.
    pub lr: f64,
    /// Mean training loss.
    pub train_loss: f64,
    /// Training pair accuracy.
    pub train_accuracy: f64,
    /// Validation loss.
    pub val_loss: f64,
    /// Validation pair accuracy (float network).
    pub val_accuracy: f64,
    /// Training pairs per second.
    pub pairs_per_second: f64,
}

/// The CSV header.
pub const HEADER: &str = "epoch,lr,train_loss,train_accuracy,val_loss,val_accuracy,pairs_per_second";

impl EpochMetrics {
    /// One CSV row. Figures are rounded so that a resumed run writes the
    /// same file as an uninterrupted one.
    pub fn csv_row(&self) -> String {
        format!(
            "{},{:.6},{:.4},{:.4},{:.4},{:.4},{:.0}",
            self.epoch,
            self.lr,
            self.train_loss,
            self.train_accuracy,
            self.val_loss,
            self.val_accuracy,
            self.pairs_per_second
        )
    }

    fn parse(row: &str) -> Option<EpochMetrics> {
        let f: Vec<f64> = row.split(',').map(|v| v.parse().ok()).collect::<Option<_>>()?;
        (f.len() == 7).then(|| EpochMetrics {
            epoch: f[0] as usize,
            lr: f[1],
            train_loss: f[2],
            train_accuracy: f[3],
            val_loss: f[4],
            val_accuracy: f[5],
            pairs_per_second: f[6],
        })
    }
}

/// Reads `metrics.csv`, keeping at most the first `epochs` rows.
pub fn read(path: &Path, epochs: usize) -> anyhow::Result<Vec<EpochMetrics>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(text.lines().skip(1).filter_map(EpochMetrics::parse).take(epochs).collect())
}

/// Writes `metrics.csv` and `metrics.svg`.
pub fn write(dir: &Path, rows: &[EpochMetrics]) -> anyhow::Result<()> {
    let mut csv = String::from(HEADER);
    csv.push('\n');
    for row in rows {
        csv.push_str(&row.csv_row());
        csv.push('\n');
    }
    std::fs::write(dir.join("metrics.csv"), csv)?;
    plot(&dir.join("metrics.svg"), rows)
}

/// A plotted line: its legend, colour, and the figure it draws.
type Line = (&'static str, RGBColor, fn(&EpochMetrics) -> f64);

fn plot(path: &Path, rows: &[EpochMetrics]) -> anyhow::Result<()> {
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let (left, right) = root.split_horizontally(450);
    let epochs = rows.len().max(1) as f64;
    let max_loss = rows.iter().map(|r| r.train_loss.max(r.val_loss)).fold(0.1, f64::max);
    let series = |area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
                  title: &str,
                  range: std::ops::Range<f64>,
                  lines: [Line; 2]|
     -> anyhow::Result<()> {
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(45)
            .build_cartesian_2d(0.0..epochs, range)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        chart.configure_mesh().x_desc("epoch").draw().map_err(|e| anyhow::anyhow!("{e}"))?;
        for (name, color, value) in lines {
            chart
                .draw_series(LineSeries::new(rows.iter().map(|r| (r.epoch as f64, value(r))), color))
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        }
        chart.configure_series_labels().border_style(BLACK).draw().map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(())
    };
    series(
        &left,
        "loss",
        0.0..max_loss * 1.05,
        [("train", BLUE, |r| r.train_loss), ("validation", RED, |r| r.val_loss)],
    )?;
    series(
        &right,
        "pair accuracy",
        0.4..1.0,
        [("train", BLUE, |r| r.train_accuracy), ("validation", RED, |r| r.val_accuracy)],
    )?;
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}
