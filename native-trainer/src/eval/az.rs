//! `deepchess eval az`: the AlphaZero reimplementation's network on held-out positions,
//! through core's `f32` inference (the code that plays, not burn's): the
//! policy's top-1 among the legal moves against the move played, and the
//! value's mean squared error against the game's result for the side to
//! move (1, 0, −1). The same figures as a training run's validation, on as
//! many positions as asked.

use std::path::PathBuf;

use deepchess_core::alphazero::{AzNet, AzScratch, POLICY_SIZE};

use crate::data::az::{Sample, samples};
use crate::data::{Dataset, Record, dataset_files};
use crate::network;

/// Arguments of `eval az`.
#[derive(clap::Args)]
pub struct Args {
    /// The network (`.dcaz`).
    #[arg(long)]
    weights: PathBuf,
    /// A dataset: a directory (its validation split) or a `.bin` file.
    #[arg(long)]
    data: PathBuf,
    /// Positions to score, drawn at random from the split.
    #[arg(long, default_value_t = 20_000)]
    positions: usize,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The figures of a network on a set of positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AzScore {
    /// Positions scored.
    pub positions: usize,
    /// Share whose best legal logit is the move played.
    pub top1: f64,
    /// Mean of `(z − v)²`.
    pub value_mse: f64,
}

/// Scores `net` on `samples` (their policy target is the move played).
pub fn score(net: &AzNet, samples: &[Sample]) -> AzScore {
    let mut scratch = AzScratch::default();
    let mut logits = vec![0f32; POLICY_SIZE];
    let (mut top1, mut squared) = (0usize, 0f64);
    for s in samples {
        let value = net.evaluate_into(s.planes(), &mut scratch, &mut logits);
        squared += f64::from(s.z() - value).powi(2);
        let best = s.legal().iter().max_by(|a, b| logits[usize::from(**a)].total_cmp(&logits[usize::from(**b)]));
        top1 += usize::from(best.is_some_and(|&b| usize::from(b) == s.target()));
    }
    let n = samples.len().max(1) as f64;
    AzScore { positions: samples.len(), top1: top1 as f64 / n, value_mse: squared / n }
}

/// Runs `eval az`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let net = network::load_az(&args.weights)?;
    let file = if args.data.is_dir() { args.data.join("val.bin") } else { dataset_files(&args.data)[0].clone() };
    let records: Vec<Record> = Dataset::open(&file)?.records().to_vec();
    let samples = samples(&records, args.positions, args.seed);
    anyhow::ensure!(!samples.is_empty(), "{} has no usable position", file.display());
    let score = score(&net, &samples);
    println!("network   : {} ({} blocks × {} filters)", args.weights.display(), net.blocks(), net.filters());
    println!("positions : {} drawn from {} ({} records)", score.positions, file.display(), records.len());
    println!("policy top-1 among legal moves : {:.2}%", 100.0 * score.top1);
    println!("value MSE against the result   : {:.4}", score.value_mse);
    Ok(())
}
