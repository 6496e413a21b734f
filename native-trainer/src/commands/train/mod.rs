//! `deepchess train …` (features `flex` or `wgpu`).
//!
//! Every learner's arguments flatten what they share ([`LearnerArgs`]:
//! where and how the run goes; epochs, batch, learning rate, optimizer,
//! items per epoch, seed, a perceptron's widths), which applies itself to
//! the preset's configuration (`apply`), so that a common flag is written
//! once; what is left per learner is its own.

use std::path::{Path, PathBuf};

use anyhow::Context;
use deepchess_core::{Network, Shape, format};

mod args;

use args::set;
pub use args::{LearnerArgs, OverrideArgs, RunArgs, ShapeArgs};

use crate::data::{Dataset, LabelOptions, Labels, SourceWeight};
use crate::train::alphazero::self_play::AzSelfPlayLearner;
use crate::train::alphazero::supervised::AzLearner;
use crate::train::deepchess::distill::DistillLearner;
use crate::train::deepchess::pos2vec::Pos2VecLearner;
use crate::train::deepchess::siamese::SiameseLearner;
use crate::train::deepchess::speed::{self, BenchLearner, SpeedOptions};
use crate::train::deepchess::utility::{self, Target, UtilityOptions};
use crate::train::deepchess::value::ValueLearner;
use crate::train::runner::config::ModelConfig;
use crate::train::runner::device::{self, DeviceChoice};
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::preset::{self, Preset};
use crate::train::runner::run_dir::{BEST_AZ_NETWORK, BEST_FLOAT_NETWORK, BEST_LEARNED_NETWORK};
use crate::train::scalar::dbn::{Approach, DbnLearner, Units};
use crate::train::scalar::deep_pink::DeepPinkLearner;
use crate::train::scalar::neurochess::NeuroChessLearner;

/// `deepchess train …`
#[derive(clap::Subcommand)]
pub enum Command {
    /// Pos2Vec: pretrain the tower as a stacked autoencoder, layer by layer.
    Pos2vec(Pos2VecArgs),
    /// The Siamese comparison network on (W, L) pairs, end to end.
    Siamese(SiameseArgs),
    /// Distill a trained Siamese run into the small shape.
    Distill(DistillArgs),
    /// Herud–Mueller's deep belief network: RBM pre-training, then one of three approaches.
    Dbn(DbnArgs),
    /// Deep Pink (Bernhardsson 2015): a scalar evaluation from (position, played move, random move) triplets.
    DeepPink(DeepPinkArgs),
    /// NeuroChess (Thrun 1995): TD(0) over self-play and expert games, optionally with EBNN's slopes.
    Neurochess(NeuroChessArgs),
    /// An AlphaZero reimplementation's policy-and-value network, by supervision or by self-play.
    Az(AzArgs),
    /// Fit a utility head (scalar evaluation) on a network's frozen tower.
    Utility(UtilityArgs),
    /// A value network for the scalar search (a wide first layer, a narrow one, a utility head),
    /// trained position by position on the blend of game result and engine evaluation.
    Value(ValueArgs),
    /// Training speed: pairs or positions per second of a learner's steps on generated positions.
    Bench(BenchArgs),
    /// The devices `--device` can name: the wgpu adapters (without opening them) and what `auto` takes.
    Devices,
}

/// Arguments of `train bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    #[arg(long, default_value = "auto", help = device::HELP)]
    device: DeviceChoice,
    /// Whose steps to time: `siamese` (pairs; any shape), `value` (positions; the tower of
    /// `--tower`, 773,256,32 by default) or `az` (positions; `--blocks` × `--filters`).
    #[arg(long, value_enum, default_value = "siamese")]
    learner: BenchLearner,
    #[command(flatten)]
    shape: ShapeArgs,
    /// The AlphaZero network's residual blocks (`--learner az`).
    #[arg(long, default_value_t = 6)]
    blocks: usize,
    /// The AlphaZero network's filters (`--learner az`).
    #[arg(long, default_value_t = 64)]
    filters: usize,
    /// Items (pairs or positions) per step.
    #[arg(long, default_value_t = 1024)]
    batch_size: usize,
    /// Timed steps.
    #[arg(long, default_value_t = 40)]
    steps: usize,
    /// Untimed steps before them.
    #[arg(long, default_value_t = 5)]
    warmup: usize,
    /// Seed of the positions, pairs and weights.
    #[arg(long, default_value_t = 2016)]
    seed: u64,
}

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

/// Arguments of `train value`.
#[derive(clap::Args)]
pub struct ValueArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `smoke` for tests; `quick`: 773-256-32 + utility, 20 epochs of 4 × 10⁶ positions.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Tower widths, from 773 (for example 773,512,16); a utility head follows.
    #[arg(long, value_delimiter = ',')]
    tower: Option<Vec<usize>>,
    /// λ, the weight of the game result where the position has an engine evaluation.
    #[arg(long)]
    lambda: Option<f64>,
    /// Centipawn scale s of P(eval) = 1 / (1 + 10^(−cp/s)).
    #[arg(long)]
    eval_scale: Option<f64>,
    /// Weight an input of the dataset against the others, NAME=WEIGHT per
    /// position (the inputs whose file name contains NAME; 1 leaves it as
    /// built, 0 leaves it out; repeat for more), for example
    /// `--source-weight selfplay=8` for the engine's own games.
    #[arg(long = "source-weight", value_name = "NAME=WEIGHT")]
    source_weights: Vec<SourceWeight>,
}

/// Arguments of `train pos2vec`.
#[derive(clap::Args)]
pub struct Pos2VecArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `paper` and `quick`: the full tower 773-600-400-200-100; `smoke`: the distilled one, tiny epochs.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
}

/// Arguments of `train distill`.
#[derive(clap::Args)]
pub struct DistillArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// The teacher: a `train siamese` run directory.
    #[arg(long)]
    teacher: PathBuf,
    /// `smoke` for tests; otherwise the paper's schedule scaled to this machine.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override the features phase's epochs.
    #[arg(long)]
    feature_epochs: Option<usize>,
    /// Override the positions per features epoch.
    #[arg(long)]
    feature_positions_per_epoch: Option<usize>,
}

/// Arguments of `train dbn`.
#[derive(clap::Args)]
pub struct DbnArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// What the network predicts: (a) wdl, the game's result; (b) regression, the engine evaluation
    /// through tanh; (c) classes7, the evaluation in seven classes.
    #[arg(long, value_enum)]
    approach: Approach,
    /// `smoke` for tests, `quick` (sigmoid units) for this machine, `paper` (alias `seed`: the
    /// paper's ReLU units and schedule).
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override the RBM epochs per layer.
    #[arg(long)]
    pretrain_epochs: Option<usize>,
    /// Override the dropout.
    #[arg(long)]
    dropout: Option<f64>,
    /// Override the preset's hidden units (the paper's: relu).
    #[arg(long, value_enum)]
    units: Option<Units>,
}

/// Arguments of `train deep-pink`.
#[derive(clap::Args)]
pub struct DeepPinkArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `smoke` for tests, `quick` (256 wide) for this machine, `paper` (alias `seed`: 2,048 wide,
    /// SGD-Nesterov at 0.03 · e^(−days)).
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override κ, the weight of f(p) = −f(q).
    #[arg(long)]
    kappa: Option<f64>,
}

/// Arguments of `train az`.
#[derive(clap::Args)]
pub struct AzArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// Train by supervision on the dataset's games: the move played and the result.
    #[arg(long, conflicts_with = "self_play", required_unless_present = "self_play")]
    supervised: bool,
    /// Train by self-play through MCTS, one generation per epoch, with gate
    /// matches (the dataset's held-out games serve validation).
    #[arg(long)]
    self_play: bool,
    /// Override the preset's self-play games per generation.
    #[arg(long)]
    games: Option<usize>,
    /// Override the preset's MCTS playouts per move in self-play and gates.
    #[arg(long)]
    playouts: Option<u32>,
    /// Override the preset's gate games (0: accept every generation).
    #[arg(long)]
    gate_games: Option<usize>,
    /// Self-play and gate games played at once, one thread each (default: the
    /// machine's cores). Any count plays the same games.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// `smoke` for tests, `quick` (6 × 64, AlphaZero's SGD) for this machine, `paper` (alias
    /// `seed`: 19 × 256 with the reimplementation's optimizers).
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override the preset's residual blocks.
    #[arg(long)]
    blocks: Option<usize>,
    /// Override the preset's filters.
    #[arg(long)]
    filters: Option<usize>,
}

/// Arguments of `train neurochess`.
#[derive(clap::Args)]
pub struct NeuroChessArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `smoke` for tests, `quick` (256-32) for this machine, `paper` (alias `seed`: Thrun's 80
    /// hidden units, quiescent positions only, final values × 20).
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override the preset's self-play games per epoch (0: expert games only).
    #[arg(long)]
    self_play_games: Option<usize>,
    /// Override the preset's search nodes per self-play move.
    #[arg(long)]
    self_play_nodes: Option<u64>,
    /// Override γ, the discount per two plies.
    #[arg(long)]
    gamma: Option<f64>,
    /// Explanation-based learning: train the chess model first, then fit the slopes it explains.
    #[arg(long)]
    ebnn: bool,
    /// Override the weight of EBNN's slope error.
    #[arg(long)]
    slope_weight: Option<f64>,
    /// Override the weight of a final value (a step whose target is the game's outcome) against
    /// 1 for the others (Thrun's: 20).
    #[arg(long)]
    final_rate: Option<f64>,
    /// Fit quiescent positions only (no check, no promotion, nothing hanging), as Thrun did.
    #[arg(long)]
    quiescent_only: bool,
}

/// Arguments of `train siamese`.
#[derive(clap::Args)]
pub struct SiameseArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// Starting configuration.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Start from this `train pos2vec` run's pretrained tower (the shapes must match).
    #[arg(long)]
    init: Option<PathBuf>,
    #[command(flatten)]
    shape: ShapeArgs,
    /// Override the preset's share of mirrored pairs (0 to 1).
    #[arg(long)]
    mirror: Option<f64>,
    /// Training labels: results (the paper's W/L pairs), evals (pairs
    /// ordered by engine evaluation) or blend (W/L pairs, label
    /// λ + (1 − λ)·P(eval)).
    #[arg(long, value_enum, default_value = "results")]
    labels: Labels,
    /// Evals: least evaluation difference of a pair, centipawns.
    #[arg(long, default_value_t = 50.0)]
    eval_margin: f64,
    /// Evals: share of pairs drawn within one game.
    #[arg(long, default_value_t = 0.5)]
    within_game: f64,
    /// Blend: weight λ of the game result.
    #[arg(long, default_value_t = 0.5)]
    blend_lambda: f64,
    /// Blend: centipawn scale of P(eval) = 1 / (1 + 10^(−Δ/scale)).
    #[arg(long, default_value_t = 400.0)]
    eval_scale: f64,
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
        Command::Pos2vec(args) => run_pos2vec(args),
        Command::Siamese(args) => run_siamese(args),
        Command::Distill(args) => run_distill(args),
        Command::Dbn(args) => run_dbn(args),
        Command::DeepPink(args) => run_deep_pink(args),
        Command::Neurochess(args) => run_neurochess(args),
        Command::Az(args) => run_az(args),
        Command::Utility(args) => run_utility(args),
        Command::Value(args) => run_value(args),
        Command::Bench(args) => run_bench(args),
        Command::Devices => {
            println!("{}", device::report());
            Ok(())
        }
    }
}

fn run_bench(args: &BenchArgs) -> anyhow::Result<()> {
    let shape = match (args.shape.shape()?, args.learner) {
        (Some(shape), _) => shape,
        (None, BenchLearner::Value) => preset::value(Preset::Quick).shape()?,
        (None, _) => Shape::distilled(),
    };
    let (device, device_name) = device::select(args.device)?;
    let options = SpeedOptions {
        learner: args.learner,
        shape: shape.clone(),
        az_size: (args.blocks, args.filters),
        batch_size: args.batch_size,
        steps: args.steps,
        warmup: args.warmup,
        positions: 20_000,
        seed: args.seed,
    };
    let speed = speed::measure(&options, &device);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let unit = args.learner.unit();
    println!("device            : {device_name}");
    println!("cpu threads       : {threads}");
    match args.learner {
        BenchLearner::Siamese => println!("network           : siamese {:?} + {:?}", shape.tower(), shape.head()),
        BenchLearner::Value => println!("network           : value {:?} + utility", shape.tower()),
        BenchLearner::Az => println!("network           : az {} blocks × {} filters", args.blocks, args.filters),
    }
    println!("batch             : {} {unit}", args.batch_size);
    println!("steps             : {} timed, {} warm-up", args.steps, args.warmup);
    println!("time              : {:.2} s (last loss {:.4})", speed.seconds, speed.loss);
    if let Some(host) = speed.host_seconds {
        let steps = args.steps.max(1) as f64;
        println!(
            "per step          : {:.2} ms building the batch on the host, {:.2} ms the rest",
            1000.0 * host / steps,
            1000.0 * (speed.seconds - host) / steps
        );
    }
    println!("{:<18}: {:.0}", format!("{unit}/s"), speed.items_per_second());
    Ok(())
}

fn run_utility(args: &UtilityArgs) -> anyhow::Result<()> {
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

fn run_value(args: &ValueArgs) -> anyhow::Result<()> {
    let mut config = preset::value(args.preset);
    args.common.apply(&mut config.optim, &mut config.data);
    set(&mut config.tower, args.tower.clone());
    set(&mut config.target.lambda, args.lambda.map(|l| l.clamp(0.0, 1.0)));
    set(&mut config.target.eval_scale_cp, args.eval_scale);
    if !args.source_weights.is_empty() {
        config.source_weights = args.source_weights.clone();
    }
    let rows = args.common.run.train(config, ValueLearner::new)?;
    let figure = |last: &EpochRow| {
        let accuracy = 100.0 * last.val_accuracy.unwrap_or(0.0);
        format!("held-out pair accuracy {accuracy:.2}%, squared error {:.5}", last.val_loss)
    };
    finished("value", &rows, figure, &args.common.run.out.join(BEST_FLOAT_NETWORK));
    Ok(())
}

fn run_pos2vec(args: &Pos2VecArgs) -> anyhow::Result<()> {
    let mut config = preset::pos2vec(args.preset);
    args.common.apply(&mut config.optim, &mut config.data);
    let rows = args.common.run.train(config, Pos2VecLearner::new)?;
    if let Some(last) = rows.last() {
        println!(
            "pos2vec: {} epochs, last layer's validation loss {:.5}; start a Siamese run from it with --init {}",
            rows.len(),
            last.val_loss,
            args.common.run.out.display()
        );
    }
    Ok(())
}

fn run_distill(args: &DistillArgs) -> anyhow::Result<()> {
    let mut config = preset::distill(args.preset, &args.teacher);
    args.common.apply(&mut config.optim, &mut config.data);
    set(&mut config.features.epochs, args.feature_epochs);
    set(&mut config.features.positions_per_epoch, args.feature_positions_per_epoch);
    let rows = args.common.run.train(config, DistillLearner::new)?;
    if let Some(last) = rows.last() {
        println!(
            "distill: {} epochs, validation accuracy {:.2}% (float); checkpoint {}",
            rows.len(),
            100.0 * last.val_accuracy.unwrap_or(0.0),
            args.common.run.out.join(BEST_FLOAT_NETWORK).display()
        );
    }
    Ok(())
}

fn run_siamese(args: &SiameseArgs) -> anyhow::Result<()> {
    let mut config = preset::siamese(args.preset);
    if let Some(shape) = args.shape.shape()? {
        config.model = ModelConfig::of(&shape);
    }
    config.init = args.init.as_ref().map(|p| p.display().to_string());
    args.common.apply(&mut config.optim, &mut config.data);
    set(&mut config.data.mirror, args.mirror);
    config.data.labels = LabelOptions {
        labels: args.labels,
        eval_margin_cp: args.eval_margin,
        within_game: args.within_game.clamp(0.0, 1.0),
        blend_lambda: args.blend_lambda.clamp(0.0, 1.0),
        eval_scale_cp: args.eval_scale,
    };
    let rows = args.common.run.train(config, SiameseLearner::new)?;
    if let Some(last) = rows.last() {
        println!(
            "epochs {}: train accuracy {:.2}%, validation accuracy {:.2}% (float); checkpoint {}",
            last.epoch,
            100.0 * last.train_accuracy.unwrap_or(0.0),
            100.0 * last.val_accuracy.unwrap_or(0.0),
            args.common.run.out.join("model.dcnf").display()
        );
    }
    Ok(())
}

fn run_deep_pink(args: &DeepPinkArgs) -> anyhow::Result<()> {
    let mut config = preset::deep_pink(args.preset);
    args.common.apply(&mut config.optim, &mut config.data);
    args.common.apply_hidden(&mut config.model);
    set(&mut config.kappa, args.kappa);
    let rows = args.common.run.train(config, DeepPinkLearner::new)?;
    let figure =
        |last: &EpochRow| format!("held-out triplet accuracy {:.2}%", 100.0 * last.val_accuracy.unwrap_or(0.0));
    finished("deep-pink", &rows, figure, &args.common.run.out.join(BEST_LEARNED_NETWORK));
    Ok(())
}

fn run_az(args: &AzArgs) -> anyhow::Result<()> {
    let mut config = preset::az(args.preset, args.self_play);
    args.common.apply(&mut config.optim, &mut config.data);
    set(&mut config.play.games, args.games);
    set(&mut config.play.playouts, args.playouts);
    set(&mut config.play.gate_games, args.gate_games);
    set(&mut config.model.blocks, args.blocks);
    set(&mut config.model.filters, args.filters);
    let rows = if args.self_play {
        let jobs = args.jobs.map(|j| j as usize);
        args.common.run.train(config, |config, data, device, quiet| {
            let learner = AzSelfPlayLearner::new(config, data, device, quiet)?;
            Ok(match jobs {
                Some(jobs) => learner.with_jobs(jobs),
                None => learner,
            })
        })?
    } else {
        args.common.run.train(config, AzLearner::new)?
    };
    let figure = |last: &EpochRow| {
        format!("held-out policy top-1 {:.2}%, loss {:.4}", 100.0 * last.val_accuracy.unwrap_or(0.0), last.val_loss)
    };
    finished("az", &rows, figure, &args.common.run.out.join(BEST_AZ_NETWORK));
    Ok(())
}

fn run_neurochess(args: &NeuroChessArgs) -> anyhow::Result<()> {
    let mut config = preset::neurochess(args.preset);
    args.common.apply(&mut config.optim, &mut config.data);
    args.common.apply_hidden(&mut config.model);
    set(&mut config.self_play.games, args.self_play_games);
    set(&mut config.self_play.nodes, args.self_play_nodes);
    set(&mut config.gamma, args.gamma);
    config.ebnn.enabled |= args.ebnn;
    set(&mut config.ebnn.slope_weight, args.slope_weight);
    set(&mut config.final_rate, args.final_rate.map(|r| r.max(0.0)));
    config.quiescent_only |= args.quiescent_only;
    let rows = args.common.run.train(config, NeuroChessLearner::new)?;
    let figure = |last: &EpochRow| {
        let accuracy = 100.0 * last.val_accuracy.unwrap_or(0.0);
        format!("held-out result-sign accuracy {accuracy:.2}%, TD loss {:.4}", last.val_loss)
    };
    finished("neurochess", &rows, figure, &args.common.run.out.join(BEST_LEARNED_NETWORK));
    Ok(())
}

fn run_dbn(args: &DbnArgs) -> anyhow::Result<()> {
    let mut config = preset::dbn(args.preset, args.approach);
    args.common.apply(&mut config.optim, &mut config.data);
    args.common.apply_hidden(&mut config.model);
    set(&mut config.pretrain.optim.epochs, args.pretrain_epochs);
    set(&mut config.dropout, args.dropout.map(|d| d.clamp(0.0, 0.9)));
    set(&mut config.units, args.units);
    let rows = args.common.run.train(config, DbnLearner::new)?;
    let figure = |last: &EpochRow| {
        last.val_accuracy
            .map_or_else(|| format!("Huber loss {:.4}", last.val_loss), |a| format!("class accuracy {:.2}%", 100.0 * a))
    };
    finished(
        "dbn",
        &rows,
        |last| format!("held-out {}", figure(last)),
        &args.common.run.out.join(BEST_LEARNED_NETWORK),
    );
    Ok(())
}

/// After a learner's run: `name: N epochs, <figure of the last epoch>;
/// network <path>`.
fn finished(name: &str, rows: &[EpochRow], figure: impl Fn(&EpochRow) -> String, network: &Path) {
    if let Some(last) = rows.last() {
        println!("{name}: {} epochs, {}; network {}", rows.len(), figure(last), network.display());
    }
}
