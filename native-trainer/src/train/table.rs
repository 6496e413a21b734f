//! Per-epoch metrics of the pretraining and distillation runs: a CSV table
//! with named columns, and an SVG plot of chosen columns against the row.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

/// Rows of figures under a header; the first column counts epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Column names.
    pub header: Vec<&'static str>,
    /// One row per epoch.
    pub rows: Vec<Vec<f64>>,
}

impl Table {
    /// An empty table.
    pub fn new(header: &[&'static str]) -> Table {
        Table { header: header.to_vec(), rows: Vec::new() }
    }

    /// Reads the first `rows` rows of `path` (for `--resume`); the header
    /// must match.
    pub fn read(path: &Path, header: &[&'static str], rows: usize) -> anyhow::Result<Table> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut lines = text.lines();
        anyhow::ensure!(lines.next() == Some(header.join(",").as_str()), "{} has another header", path.display());
        let rows = lines
            .take(rows)
            .map(|l| l.split(',').map(|v| v.parse::<f64>()).collect::<Result<Vec<_>, _>>())
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("bad number in {}", path.display()))?;
        Ok(Table { header: header.to_vec(), rows })
    }

    /// The CSV text. Figures are rounded to 6 significant decimals, so that
    /// a resumed run writes the same file as an uninterrupted one.
    pub fn csv(&self) -> String {
        let mut out = self.header.join(",");
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(|v| format!("{}", (v * 1e6).round() / 1e6)).collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    /// Writes `<name>.csv` and `<name>.svg`, the plot of `columns` (with
    /// `y_label`) against the row number.
    pub fn write(&self, dir: &Path, name: &str, columns: &[&str], y_label: &str) -> anyhow::Result<()> {
        std::fs::write(dir.join(format!("{name}.csv")), self.csv())?;
        let path = dir.join(format!("{name}.svg"));
        let root = SVGBackend::new(&path, (700, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
        let index: Vec<usize> = columns.iter().filter_map(|c| self.header.iter().position(|h| h == c)).collect();
        let max = self.rows.iter().flat_map(|r| index.iter().map(|&i| r[i])).fold(1e-6, f64::max);
        let mut chart = ChartBuilder::on(&root)
            .caption(name, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(55)
            .build_cartesian_2d(0.0..self.rows.len().max(1) as f64, 0.0..max * 1.05)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        chart.configure_mesh().x_desc("epoch").y_desc(y_label).draw().map_err(|e| anyhow::anyhow!("{e}"))?;
        for (k, &i) in index.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            chart
                .draw_series(LineSeries::new(self.rows.iter().enumerate().map(|(n, r)| ((n + 1) as f64, r[i])), color))
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .label(self.header[i])
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        }
        chart.configure_series_labels().border_style(BLACK).draw().map_err(|e| anyhow::anyhow!("{e}"))?;
        root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(())
    }
}
