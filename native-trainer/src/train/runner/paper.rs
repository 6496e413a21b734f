//! The `paper` presets beside the works they follow, setting by setting.
//! Each learner lists its rows ([`PaperTable`]) next to its presets, with
//! our value read from its `paper` preset, so that the tables of
//! docs/presets.md (printed by `deepchess train paper-table`) cannot part
//! from the code: a test compares them.

use crate::train::runner::optim::{OptimConfig, OptimizerKind};

/// One setting: the work's value, ours, and why they differ.
pub struct PaperRow {
    /// What is set ("learning rate").
    pub setting: &'static str,
    /// The work's value, in its words where it gives one.
    pub theirs: &'static str,
    /// Ours, read from the `paper` preset.
    pub ours: String,
    /// Why ours differs (empty where it does not).
    pub why: &'static str,
}

impl PaperRow {
    /// A row.
    pub fn new(setting: &'static str, theirs: &'static str, ours: impl Into<String>, why: &'static str) -> PaperRow {
        PaperRow { setting, theirs, ours: ours.into(), why }
    }
}

/// One learner's `paper` preset against its work.
pub struct PaperTable {
    /// The command the preset belongs to (`train siamese`).
    pub command: &'static str,
    /// The work, and where in it the settings are given.
    pub work: &'static str,
    /// The settings.
    pub rows: Vec<PaperRow>,
}

impl PaperTable {
    /// The table in Markdown, as docs/presets.md holds it.
    pub fn markdown(&self) -> String {
        let mut text = format!(
            "`{} --preset paper`: {}\n\n| setting | the work | ours | why ours differs |\n|---|---|---|---|\n",
            self.command, self.work
        );
        for row in &self.rows {
            let why = if row.why.is_empty() { "—" } else { row.why };
            text += &format!("| {} | {} | {} | {} |\n", row.setting, row.theirs, row.ours, why);
        }
        text
    }
}

/// An optimizer in words: `SGD, momentum 0.9 (Nesterov), weight decay 1e-4`.
pub fn optimizer(optim: &OptimConfig) -> String {
    let mut text = String::from(match optim.optimizer {
        OptimizerKind::Sgd => "SGD",
        OptimizerKind::Adam => "Adam",
    });
    if optim.momentum > 0.0 {
        text += &format!(", momentum {}", optim.momentum);
        if optim.nesterov {
            text += " (Nesterov)";
        }
    }
    if optim.weight_decay > 0.0 {
        text += &format!(", weight decay {:e}", optim.weight_decay);
    }
    text
}

/// A learning rate and its schedule: `0.01 × 0.99ᵉ` (e the epoch), `0.2`,
/// or `0.03 · e^(−days)`.
pub fn rate(optim: &OptimConfig) -> String {
    if optim.lr_decay_per_day > 0.0 {
        format!("{} · e^(−{}·days)", optim.learning_rate, optim.lr_decay_per_day).replace("−1·days", "−days")
    } else if optim.lr_decay != 1.0 {
        format!("{} × {}ᵉ", optim.learning_rate, optim.lr_decay)
    } else {
        optim.learning_rate.to_string()
    }
}

/// A count with thousands separated: `1,000,000`.
pub fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(c);
    }
    text
}

/// Widths joined by hyphens: `773-600-400-200-100`.
pub fn widths(widths: &[usize]) -> String {
    widths.iter().map(usize::to_string).collect::<Vec<_>>().join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_in_words() {
        assert_eq!(count(1_000_000), "1,000,000");
        assert_eq!(count(128), "128");
        assert_eq!(widths(&[773, 100]), "773-100");
        let sgd = OptimConfig::new().with_optimizer(OptimizerKind::Sgd).with_learning_rate(0.01).with_lr_decay(0.99);
        assert_eq!((optimizer(&sgd), rate(&sgd)), ("SGD".to_string(), "0.01 × 0.99ᵉ".to_string()));
        let nesterov = sgd.with_momentum(0.9).with_nesterov(true).with_lr_decay(1.0).with_lr_decay_per_day(1.0);
        assert_eq!(optimizer(&nesterov), "SGD, momentum 0.9 (Nesterov)");
        assert_eq!(rate(&nesterov), "0.01 · e^(−days)");
        let adam = OptimConfig::new().with_learning_rate(0.1).with_weight_decay(1e-6).with_lr_decay(1.0);
        assert_eq!((optimizer(&adam), rate(&adam)), ("Adam, weight decay 1e-6".to_string(), "0.1".to_string()));
    }
}
