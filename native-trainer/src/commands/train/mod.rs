//! `deepchess train …` (features `flex` or `wgpu`).
//!
//! Every learner's arguments flatten what they share ([`LearnerArgs`]:
//! where and how the run goes; epochs, batch, learning rate, optimizer,
//! items per epoch, seed, a perceptron's widths), which applies itself to
//! the preset's configuration (`apply`), so that a common flag is written
//! once; what is left per learner is its own.

use std::path::Path;

mod args;
mod az;
mod bench;
mod dbn;
mod deep_pink;
mod distill;
mod neurochess;
pub mod paper_table;
mod pos2vec;
mod siamese;
mod utility;
mod value;

pub use args::{LearnerArgs, OverrideArgs, RunArgs, ShapeArgs};

use crate::train::runner::device;
use crate::train::runner::metrics::EpochRow;

/// `deepchess train …`
#[derive(clap::Subcommand)]
pub enum Command {
    /// Pos2Vec: pretrain the tower as a stacked autoencoder, layer by layer.
    Pos2vec(pos2vec::Pos2VecArgs),
    /// The Siamese comparison network on (W, L) pairs, end to end.
    Siamese(siamese::SiameseArgs),
    /// Distill a trained Siamese run into the small shape.
    Distill(distill::DistillArgs),
    /// Herud–Mueller's deep belief network: RBM pre-training, then one of three approaches.
    Dbn(dbn::DbnArgs),
    /// Deep Pink (Bernhardsson 2015): a scalar evaluation from (position, played move, random move) triplets.
    DeepPink(deep_pink::DeepPinkArgs),
    /// NeuroChess (Thrun 1995): TD(0) over self-play and expert games, optionally with EBNN's slopes.
    Neurochess(neurochess::NeuroChessArgs),
    /// An AlphaZero reimplementation's policy-and-value network, by supervision or by self-play.
    Az(az::AzArgs),
    /// Fit a utility head (scalar evaluation) on a network's frozen tower.
    Utility(utility::UtilityArgs),
    /// A value network for the scalar search (a wide first layer, a narrow one, a utility head),
    /// trained position by position on the blend of game result and engine evaluation.
    Value(value::ValueArgs),
    /// Training speed: pairs or positions per second of a learner's steps on generated positions.
    Bench(bench::BenchArgs),
    /// The devices `--device` can name: the wgpu adapters (without opening them) and what `auto` takes.
    Devices,
    /// Each learner's `paper` preset beside its work, setting by setting (Markdown).
    PaperTable,
}

/// Runs a `train` subcommand.
pub fn run(command: &Command) -> anyhow::Result<()> {
    // The learners split their batches across MPI ranks (the epoch runner);
    // these run in one process.
    match command {
        Command::Utility(_) => crate::cluster::ensure_single("train utility")?,
        Command::Bench(_) => crate::cluster::ensure_single("train bench")?,
        Command::Devices => crate::cluster::ensure_single("train devices")?,
        _ => {}
    }
    match command {
        Command::Pos2vec(args) => pos2vec::run(args),
        Command::Siamese(args) => siamese::run(args),
        Command::Distill(args) => distill::run(args),
        Command::Dbn(args) => dbn::run(args),
        Command::DeepPink(args) => deep_pink::run(args),
        Command::Neurochess(args) => neurochess::run(args),
        Command::Az(args) => az::run(args),
        Command::Utility(args) => utility::run(args),
        Command::Value(args) => value::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Devices => {
            println!("{}", device::report());
            Ok(())
        }
        Command::PaperTable => paper_table::run(),
    }
}

/// After a learner's run: `name: N epochs, <figure of the last epoch>;
/// network <path>`.
fn finished(name: &str, rows: &[EpochRow], figure: impl Fn(&EpochRow) -> String, network: &Path) {
    if let Some(last) = rows.last() {
        println!("{name}: {} epochs, {}; network {}", rows.len(), figure(last), network.display());
    }
}
