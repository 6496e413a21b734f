//! `deepchess train bench`: training speed of a learner's steps on generated positions.

use deepchess_core::Shape;
use deepchess_core::arch::Activation;

use super::ShapeArgs;

use crate::train::alphazero::board_conv::{ConvWay, choose_conv};
use crate::train::deepchess::speed::{self, BenchLearner, SpeedOptions};
use crate::train::deepchess::value::ValueConfig;
use crate::train::runner::device::{self, DeviceChoice};
use crate::train::runner::device_batches::gather_on_device;
use crate::train::runner::preset::Preset;
use crate::train::runner::tensors::{FirstLayer, choose_first_layer, gpu_backend};

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
    /// With `--learner value`: the first layer read from both perspectives, as `train value
    /// --perspective` trains it.
    #[arg(long)]
    perspective: bool,
    /// With `--learner value`: this many output buckets, as `train value --output-buckets` trains
    /// them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=deepchess_core::arch::MAX_BUCKETS as i64))]
    output_buckets: u32,
    /// With `--learner value`: the first layer's clipped ReLU squared, as `train value --screlu`
    /// trains it.
    #[arg(long)]
    screlu: bool,
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
    /// Where the value and Siamese steps build their batches: `device` (every position
    /// uploaded once, each batch gathered there), `host` (each batch built and uploaded), or
    /// `auto` (as training does on this device: on the device for a GPU backend, on the host
    /// for flex).
    #[arg(long, value_enum, default_value = "auto")]
    gather: Gather,
    /// Time the AlphaZero step's phases apart (building and uploading the batch, the forward
    /// pass, the backward pass and the update), waiting for the device after each: the whole
    /// step is then a little slower.
    #[arg(long)]
    split: bool,
    /// How the value and Siamese networks' first layer sums its weight rows: `auto` (as training
    /// does: the embedding bag's CubeCL kernels on a GPU backend, burn's gather on flex),
    /// `gather` (burn's `select` and a sum), `product` (one-hot inputs times the weight) or `bag`
    /// (the embedding bag operation).
    #[arg(long, value_enum, default_value = "auto")]
    first_layer: FirstLayer,
    /// How the AlphaZero network convolves: `auto` (as training does: the unfolded product on a
    /// GPU backend, burn's convolution on flex), `burn` (burn's `Conv2d`) or `unfold` (the
    /// board's shifted copies times the kernel as one matrix product).
    #[arg(long, value_enum, default_value = "auto")]
    conv: ConvWay,
}

/// Where value batches are built (`--gather`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Gather {
    /// As training does on the device.
    Auto,
    /// Built and uploaded each step.
    Host,
    /// Gathered on the device.
    Device,
}

pub(super) fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let shape = match (args.shape.shape()?, args.learner) {
        (Some(shape), _) => shape,
        (None, BenchLearner::Value) => ValueConfig::preset(Preset::Quick).shape()?,
        (None, _) => Shape::distilled(),
    };
    let shape = match (args.perspective, args.learner) {
        (false, _) => shape,
        (true, BenchLearner::Value) => Shape::perspective(shape.tower())?,
        (true, _) => anyhow::bail!("--perspective is for --learner value"),
    };
    let shape = match args.learner {
        BenchLearner::Value => {
            let activation = if args.screlu { Activation::SquaredClippedRelu } else { Activation::ClippedRelu };
            shape.with_utility(true)?.with_buckets(args.output_buckets as usize)?.with_activation(activation)
        }
        _ if args.screlu || args.output_buckets > 1 => {
            anyhow::bail!("--screlu and --output-buckets are for --learner value")
        }
        _ => shape,
    };
    let (device, device_name) = device::select(args.device)?;
    choose_first_layer(args.first_layer);
    choose_conv(args.conv);
    let options = SpeedOptions {
        learner: args.learner,
        shape: shape.clone(),
        az_size: (args.blocks, args.filters),
        batch_size: args.batch_size,
        steps: args.steps,
        warmup: args.warmup,
        positions: 20_000,
        seed: args.seed,
        gather: match args.gather {
            Gather::Auto => None,
            Gather::Host => Some(false),
            Gather::Device => Some(true),
        },
        split: args.split,
    };
    let speed = speed::measure(&options, &device);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let unit = args.learner.unit();
    println!("device            : {device_name}");
    println!("cpu threads       : {threads}");
    match args.learner {
        BenchLearner::Siamese => println!("network           : siamese {:?} + {:?}", shape.tower(), shape.head()),
        BenchLearner::Value => {
            let reading = if shape.is_perspective() { "from both perspectives" } else { "through the mirror" };
            println!("network           : value {shape}, read {reading}");
        }
        BenchLearner::Az => {
            println!("network           : az {} blocks × {} filters", args.blocks, args.filters);
            let conv = match args.conv.on(&device) {
                ConvWay::Unfold => "the unfolded matrix product",
                ConvWay::Auto | ConvWay::Burn => "burn's Conv2d",
            };
            println!("convolutions      : {conv}");
        }
    }
    if args.learner != BenchLearner::Az {
        let on_device = options.gather.unwrap_or_else(|| gather_on_device(&device));
        println!("batches           : {}", if on_device { "gathered on the device" } else { "built on the host" });
        let first = match args.first_layer.on(&device) {
            FirstLayer::Gather => "burn's gather and a sum",
            FirstLayer::Product => "one-hot inputs times the weight",
            FirstLayer::Auto | FirstLayer::Bag if gpu_backend(&device) => "the embedding bag's kernels",
            FirstLayer::Auto | FirstLayer::Bag => "the embedding bag operation",
        };
        println!("first layer       : {first}");
    }
    println!("batch             : {} {unit}", args.batch_size);
    println!("steps             : {} timed, {} warm-up", args.steps, args.warmup);
    println!("time              : {:.2} s (mean loss {:.4})", speed.seconds, speed.loss);
    let steps = args.steps.max(1) as f64;
    if let Some(host) = speed.host_seconds {
        println!(
            "per step          : {:.2} ms building the batch, {:.2} ms the rest",
            1000.0 * host / steps,
            1000.0 * (speed.seconds - host) / steps
        );
    }
    for (phase, seconds) in &speed.phases {
        println!("{:<18}: {:.2} ms a step", phase, 1000.0 * seconds / steps);
    }
    println!("{:<18}: {:.0}", format!("{unit}/s"), speed.items_per_second());
    Ok(())
}
