//! `deepchess export`: a float checkpoint to a quantized, content-named
//! weights file, with float and quantized accuracy side by side; or a
//! learner's `.dcsn` network or the AlphaZero seed's `.dcaz` (already `f32`,
//! as core runs them), checked and named by its content.

use std::path::{Path, PathBuf};

use anyhow::Context;
use deepchess_core::alphazero::AzNet;
use deepchess_core::learned::LearnedNet;
use deepchess_core::{FloatNetwork, Network, format};

use crate::data::Dataset;
use crate::eval::accuracy;

/// Arguments of `deepchess export`.
#[derive(clap::Args)]
pub struct Args {
    /// The float network (`model.dcnf` in a training run's directory), a
    /// learner's network (`best.dcsn`) or the AlphaZero seed's (`best.dcaz`).
    #[arg(long)]
    checkpoint: PathBuf,
    /// Directory that receives `deepchess-<hash>.dcnn`.
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
    if let Some(net) = crate::network::load_learned(&args.checkpoint)? {
        let path = export_learned(&net, &args.out)?;
        println!("wrote {} ({})", path.display(), net.shape_name());
        return Ok(());
    }
    if let Some(net) = crate::network::load_az(&args.checkpoint)? {
        let path = export_az(&net, &args.out)?;
        println!("wrote {} ({} blocks × {} filters)", path.display(), net.blocks(), net.filters());
        return Ok(());
    }
    let path = export(&args.checkpoint, &args.out)?;
    println!("wrote {}", path.display());
    if let Some(data) = &args.data {
        let float = load_float(&args.checkpoint)?;
        let net = Network::from_bytes(&std::fs::read(&path)?)?;
        let val = Dataset::open(&data.join("val.bin"))?;
        let pairs = accuracy::pairs(val.records(), args.pairs, 1);
        let (float_accuracy, _) = accuracy::float_accuracy(&float, &accuracy::features(val.records()), &pairs);
        let quantized_accuracy = accuracy::quantized_accuracy(&net, val.records(), &pairs);
        println!("validation pairs    : {}", pairs.len());
        println!("float accuracy      : {:.2}%", 100.0 * float_accuracy);
        println!("quantized accuracy  : {:.2}%", 100.0 * quantized_accuracy);
        let (mean_error, same_order) = accuracy::agreement(&float, &net, val.records(), &pairs);
        println!("mean |p_float - p_quantized| : {mean_error:.4}");
        println!("same order as float : {:.2}%", 100.0 * same_order);
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
    // The file must load back before it is written anywhere.
    Network::from_bytes(&bytes).context("the exported network does not load")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format::file_name(&bytes));
    std::fs::write(&path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// Writes a learner's network as `dir/deepchess-<hash>.dcsn`; returns the path.
pub fn export_learned(net: &LearnedNet, dir: &Path) -> anyhow::Result<PathBuf> {
    let bytes = net.to_bytes();
    LearnedNet::from_bytes(&bytes).context("the exported network does not load")?;
    write_named(&bytes, "dcsn", dir)
}

/// Writes the AlphaZero seed's network as `dir/deepchess-<hash>.dcaz`;
/// returns the path.
pub fn export_az(net: &AzNet, dir: &Path) -> anyhow::Result<PathBuf> {
    let bytes = net.to_bytes();
    AzNet::from_bytes(&bytes).context("the exported network does not load")?;
    write_named(&bytes, "dcaz", dir)
}

/// Writes `bytes` as `dir/deepchess-<hash>.<extension>`; returns the path.
fn write_named(bytes: &[u8], extension: &str, dir: &Path) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let name = format::file_name(bytes).replace(".dcnn", &format!(".{extension}"));
    let path = dir.join(name);
    std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}
