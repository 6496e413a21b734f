//! `deepchess export`: a float checkpoint to a quantized, content-named
//! weights file, with float and quantized accuracy side by side; or a
//! learner's `.dcsn` network or the AlphaZero reimplementation's `.dcaz` (already `f32`,
//! as core runs them), checked and named by its content.

use std::path::{Path, PathBuf};

use anyhow::Context;
use deepchess_core::deepchess::format;
use deepchess_core::{FloatNetwork, Network, Weights};

use crate::data::Dataset;
use crate::eval::accuracy;

/// Arguments of `deepchess export`.
#[derive(clap::Args)]
pub struct Args {
    /// The float network (`model.dcnf` in a training run's directory), a
    /// learner's network (`best.dcsn`) or the AlphaZero reimplementation's (`best.dcaz`).
    #[arg(long)]
    checkpoint: PathBuf,
    /// Directory that receives `deepchess-<hash>.dcnn` (`.dcsn`, `.dcaz`).
    #[arg(long, default_value = "weights")]
    out: PathBuf,
    /// A dataset directory: report accuracy on its validation split.
    #[arg(long)]
    data: Option<PathBuf>,
    /// Validation pairs to score.
    #[arg(long, default_value_t = 100_000)]
    pairs: usize,
}

/// Quantizes, writes and reports.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let bytes =
        std::fs::read(&args.checkpoint).with_context(|| format!("cannot read {}", args.checkpoint.display()))?;
    if !bytes.starts_with(&format::FLOAT_MAGIC) {
        // A network core runs as it is: checked and named by its content.
        let weights = crate::network::load_weights(&args.checkpoint)?;
        let path = crate::network::write_named(&weights, &args.out)?;
        println!("wrote {} ({})", path.display(), weights.summary());
        return Ok(());
    }
    let path = export(&args.checkpoint, &args.out)?;
    println!("wrote {}", path.display());
    if let Some(data) = &args.data {
        let float = load_float(&args.checkpoint)?;
        let net = Network::from_bytes(&std::fs::read(&path)?)?;
        let val = Dataset::open(&data.join("val.bin"))?;
        let pairs = accuracy::pairs(val.records(), args.pairs, 1);
        println!("validation pairs    : {}", pairs.len());
        if float.shape().has_comparison() {
            let (float_accuracy, _) = accuracy::float_accuracy(&float, val.records(), &pairs);
            let quantized_accuracy = accuracy::quantized_accuracy(&net, val.records(), &pairs);
            println!("float accuracy      : {:.2}%", 100.0 * float_accuracy);
            println!("quantized accuracy  : {:.2}%", 100.0 * quantized_accuracy);
            let (mean_error, same_order) = accuracy::agreement(&float, &net, val.records(), &pairs);
            println!("mean |p_float - p_quantized| : {mean_error:.4}");
            println!("same order as float : {:.2}%", 100.0 * same_order);
        } else {
            // A value network: the pairs ordered by the symmetrized utility.
            let records = val.records();
            let float_accuracy =
                accuracy::value_accuracy(&pairs, |i| accuracy::float_value(&float, &records[i as usize].features()));
            let quantized_accuracy = accuracy::quantized_value_accuracy(&net, records, &pairs);
            println!("float accuracy (value)     : {:.2}%", 100.0 * float_accuracy);
            println!("quantized accuracy (value) : {:.2}%", 100.0 * quantized_accuracy);
        }
    }
    Ok(())
}

/// Reads a `.dcnf` float network.
pub fn load_float(path: &Path) -> anyhow::Result<FloatNetwork> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    FloatNetwork::from_float_bytes(&bytes).with_context(|| format!("cannot load {}", path.display()))
}

/// Quantizes `checkpoint` into `dir/deepchess-<hash>.dcnn`; returns the path.
pub fn export(checkpoint: &Path, dir: &Path) -> anyhow::Result<PathBuf> {
    let bytes = load_float(checkpoint)?.to_bytes();
    let net = Network::from_bytes(&bytes).context("the exported network does not load")?;
    crate::network::write_named(&Weights::DeepChess(net), dir)
}
