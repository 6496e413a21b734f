//! `deepchess train utility`: a utility head fitted on a network's frozen tower.

use std::path::PathBuf;

use anyhow::Context;
use deepchess_core::Network;
use deepchess_core::deepchess::format;

use crate::data::Dataset;
use crate::train::deepchess::utility::{self, Target, UtilityOptions};

/// Arguments of `train utility`.
#[derive(clap::Args)]
pub struct UtilityArgs {
    /// The network whose tower (and comparison head) the new file keeps.
    #[arg(long)]
    weights: PathBuf,
    /// Dataset directory (`train.bin`, `val.bin`); its evaluations fit the centipawn scale.
    #[arg(long)]
    data: PathBuf,
    /// `results`: the (W, L) pairs' game results; `teacher`: the comparison head's soft outputs;
    /// `evals`: the engine evaluations recorded in the games.
    #[arg(long, value_enum, default_value = "results")]
    target: Target,
    /// Training pairs (positions, for `evals`).
    #[arg(long, default_value_t = 400_000)]
    pairs: usize,
    /// Validation pairs.
    #[arg(long, default_value_t = 100_000)]
    val_pairs: usize,
    /// Seed of the pairs.
    #[arg(long, default_value_t = 2016)]
    seed: u64,
    /// Directory that receives `deepchess-<hash>.dcnn`.
    #[arg(long, default_value = "weights")]
    out: PathBuf,
}

pub(super) fn run(args: &UtilityArgs) -> anyhow::Result<()> {
    let net = crate::network::load(&args.weights)?;
    let train = Dataset::open(&args.data.join("train.bin"))?;
    let val = Dataset::open(&args.data.join("val.bin"))?;
    let options = UtilityOptions {
        target: args.target,
        pairs: args.pairs,
        val_pairs: args.val_pairs,
        seed: args.seed,
        ..UtilityOptions::default()
    };
    let (mut fitted, report) = utility::fit(&net, train.records(), val.records(), &options)?;
    let target = match args.target {
        Target::Results => "game results",
        Target::Teacher => "the comparison head's outputs",
        Target::Evals => "recorded engine evaluations",
    };
    fitted.set_description(format!(
        "{}\nUtility head: fitted on the frozen tower to {target} ({} pairs, {}); validation accuracy {:.2}%; {:.2} cp per unit, fitted on {} evaluated positions",
        net.description(),
        args.pairs,
        args.data.display(),
        100.0 * report.quantized_accuracy,
        report.cp_scale,
        report.calibration_positions
    ));
    let bytes = fitted.to_bytes();
    Network::from_bytes(&bytes).context("the new network does not load")?;
    std::fs::create_dir_all(&args.out)?;
    let path = args.out.join(format::file_name(&bytes));
    std::fs::write(&path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
    println!(
        "loss by Newton step       : {}",
        report.losses.iter().map(|l| format!("{l:.4}")).collect::<Vec<_>>().join(" ")
    );
    println!("validation pairs          : {}", args.val_pairs);
    println!("utility accuracy, float   : {:.2}%", 100.0 * report.float_accuracy);
    println!("utility accuracy, integer : {:.2}%", 100.0 * report.quantized_accuracy);
    println!("one-sided u(x), float     : {:.2}%", 100.0 * report.one_sided_accuracy);
    if let Some(accuracy) = report.comparison_accuracy {
        println!("comparison head, integer  : {:.2}%", 100.0 * accuracy);
    }
    println!(
        "centipawns per unit       : {:.2} (correlation {:.3} over {} evaluated positions)",
        report.cp_scale, report.correlation, report.calibration_positions
    );
    println!("wrote {}", path.display());
    Ok(())
}
