//! Every learner's per-epoch metrics: one typed row per epoch, written as
//! `metrics.csv` (named columns, an empty cell for a figure the learner does
//! not have) and plotted as `metrics.svg` (loss, and accuracy when there is
//! one).

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

/// One epoch's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochRow {
    /// 1-based epoch of the whole run.
    pub epoch: usize,
    /// 1-based phase (a pretraining layer, a distillation phase; 1 for one-phase learners).
    pub phase: usize,
    /// Learning rate used.
    pub lr: f64,
    /// Mean training loss.
    pub train_loss: f64,
    /// Training accuracy, for learners that classify.
    pub train_accuracy: Option<f64>,
    /// Validation loss.
    pub val_loss: f64,
    /// Validation accuracy (pair accuracy of the float network for DeepChess).
    pub val_accuracy: Option<f64>,
    /// Training items (pairs or positions) per second.
    pub items_per_second: f64,
}

/// The CSV header.
pub const HEADER: &str = "epoch,phase,lr,train_loss,train_accuracy,val_loss,val_accuracy,items_per_second";

/// A figure as written: rounded to 6 decimals, so that a resumed run (which
/// reads its earlier rows back) writes the same file as an uninterrupted one.
fn cell(value: f64) -> String {
    format!("{}", (value * 1e6).round() / 1e6)
}

impl EpochRow {
    /// The CSV row.
    pub fn csv_row(&self) -> String {
        let optional = |v: Option<f64>| v.map_or_else(String::new, cell);
        format!(
            "{},{},{},{},{},{},{},{}",
            self.epoch,
            self.phase,
            cell(self.lr),
            cell(self.train_loss),
            optional(self.train_accuracy),
            cell(self.val_loss),
            optional(self.val_accuracy),
            self.items_per_second.round()
        )
    }

    fn parse(row: &str) -> Option<EpochRow> {
        let cells: Vec<&str> = row.split(',').collect();
        let [epoch, phase, lr, train_loss, train_accuracy, val_loss, val_accuracy, speed] = cells[..] else {
            return None;
        };
        let optional = |c: &str| if c.is_empty() { Some(None) } else { c.parse().ok().map(Some) };
        Some(EpochRow {
            epoch: epoch.parse().ok()?,
            phase: phase.parse().ok()?,
            lr: lr.parse().ok()?,
            train_loss: train_loss.parse().ok()?,
            train_accuracy: optional(train_accuracy)?,
            val_loss: val_loss.parse().ok()?,
            val_accuracy: optional(val_accuracy)?,
            items_per_second: speed.parse().ok()?,
        })
    }
}

/// Whether the last row is the best of the rows that `figure` scores
/// (higher is better; a row it scores `None` does not count, and a last row
/// that does not count is not the best): which epoch a run keeps as its
/// best network.
pub fn last_is_best(rows: &[EpochRow], figure: impl Fn(&EpochRow) -> Option<f64>) -> bool {
    let best = rows.iter().filter_map(&figure).fold(f64::MIN, f64::max);
    rows.last().and_then(&figure).is_some_and(|last| last >= best)
}

/// Reads the first `epochs` rows of `metrics.csv` (for `--resume`).
pub fn read(path: &Path, epochs: usize) -> anyhow::Result<Vec<EpochRow>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = text.lines();
    anyhow::ensure!(lines.next() == Some(HEADER), "{} has another header", path.display());
    let rows = lines
        .take(epochs)
        .map(|l| EpochRow::parse(l).with_context(|| format!("bad row in {}: {l}", path.display())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    anyhow::ensure!(rows.len() == epochs, "{} has {} epochs, state.json {epochs}", path.display(), rows.len());
    Ok(rows)
}

/// Writes `metrics.csv` and `metrics.svg`; `loss` names the loss on the plot.
pub fn write(dir: &Path, rows: &[EpochRow], loss: &str) -> anyhow::Result<()> {
    let mut csv = String::from(HEADER);
    csv.push('\n');
    for row in rows {
        csv.push_str(&row.csv_row());
        csv.push('\n');
    }
    std::fs::write(dir.join("metrics.csv"), csv)?;
    plot(&dir.join("metrics.svg"), rows, loss)
}

/// A plotted line: its legend, colour, and the figure it draws.
type Line = (&'static str, RGBColor, fn(&EpochRow) -> Option<f64>);

fn plot(path: &Path, rows: &[EpochRow], loss: &str) -> anyhow::Result<()> {
    let accuracy = rows.iter().any(|r| r.val_accuracy.is_some() || r.train_accuracy.is_some());
    let root = SVGBackend::new(path, (if accuracy { 900 } else { 450 }, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let epochs = rows.len().max(1) as f64;
    let max_loss = rows.iter().map(|r| r.train_loss.max(r.val_loss)).fold(1e-6, f64::max);
    let series = |area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
                  title: &str,
                  range: std::ops::Range<f64>,
                  lines: [Line; 2]|
     -> anyhow::Result<()> {
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(55)
            .build_cartesian_2d(0.0..epochs, range)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        chart.configure_mesh().x_desc("epoch").draw().map_err(|e| anyhow::anyhow!("{e}"))?;
        for (name, color, value) in lines {
            let points = rows.iter().filter_map(|r| value(r).map(|v| (r.epoch as f64, v)));
            chart
                .draw_series(LineSeries::new(points, color))
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        }
        chart.configure_series_labels().border_style(BLACK).draw().map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(())
    };
    let losses: [Line; 2] = [("train", BLUE, |r| Some(r.train_loss)), ("validation", RED, |r| Some(r.val_loss))];
    if accuracy {
        let (left, right) = root.split_horizontally(450);
        series(&left, loss, 0.0..max_loss * 1.05, losses)?;
        // From 0.4, or lower for a learner whose accuracy is below it (a
        // policy's top-1 among thirty-odd moves).
        let lowest = rows.iter().flat_map(|r| [r.train_accuracy, r.val_accuracy]).flatten().fold(0.4, f64::min);
        series(
            &right,
            "accuracy",
            (lowest - 0.05).max(0.0)..1.0,
            [("train", BLUE, |r| r.train_accuracy), ("validation", RED, |r| r.val_accuracy)],
        )?;
    } else {
        series(&root, loss, 0.0..max_loss * 1.05, losses)?;
    }
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_with_and_without_accuracy() {
        let dir = tempfile::tempdir().unwrap();
        let rows = vec![
            EpochRow {
                epoch: 1,
                phase: 1,
                lr: 0.002,
                train_loss: 0.5,
                train_accuracy: None,
                val_loss: 0.25,
                val_accuracy: None,
                items_per_second: 1000.0,
            },
            EpochRow {
                epoch: 2,
                phase: 2,
                lr: 0.0019,
                train_loss: 0.4,
                train_accuracy: Some(0.75),
                val_loss: 0.35,
                val_accuracy: Some(0.7),
                items_per_second: 900.0,
            },
        ];
        write(dir.path(), &rows, "loss").unwrap();
        assert_eq!(read(&dir.path().join("metrics.csv"), 2).unwrap(), rows);
        assert!(read(&dir.path().join("metrics.csv"), 3).is_err(), "fewer rows than the state says");
        let svg = std::fs::read_to_string(dir.path().join("metrics.svg")).unwrap();
        assert!(svg.contains("accuracy"));
    }
}
