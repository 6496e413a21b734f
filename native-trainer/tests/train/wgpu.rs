//! Every learner trains on wgpu as it does on flex: from the same seed, the
//! same batches give the same losses and weights, within a stated tolerance.
//!
//! The wgpu adapter is the best one there is: on a machine without a GPU,
//! Mesa's software Vulkan driver, lavapipe (Debian's `mesa-vulkan-drivers`
//! and `libvulkan1`). A build with the `wgpu` feature and no adapter at all
//! fails here, with what to install. `make test` runs it (`make test-wgpu`
//! alone).

use burn::module::{ModuleVisitor, Param};
use deepchess_trainer::train::deepchess::value::{ValueConfig, ValueLearner};
use deepchess_trainer::train::learned::dbn::Approach;
use deepchess_trainer::train::runner::config::DataConfig;
use deepchess_trainer::train::runner::device::AdapterChoice;
use deepchess_trainer::train::runner::optim::OptimConfig;
use deepchess_trainer::train::runner::run_dir::RunDir;

use super::*;

/// The wgpu device of the test: the best adapter there is.
const WGPU: DeviceChoice = DeviceChoice::Wgpu(AdapterChoice::Best);

/// What a failed wgpu run adds to its error.
const NO_ADAPTER: &str = "\n(with no GPU, wgpu needs lavapipe: apt install mesa-vulkan-drivers libvulkan1)";

/// Losses and accuracies, relative (to `1 + |x|`): the two runs add the same
/// numbers in other orders (a GPU's reductions are trees), so the last digits
/// differ. Measured on lavapipe, the runs below agreed within 5e-8.
const METRIC_TOLERANCE: f64 = 1e-5;
/// Weights after the run: the relative distance `‖a − b‖ / ‖a‖` over every
/// parameter. Measured on lavapipe: 6e-8 to 4.4e-7.
const WEIGHT_TOLERANCE: f64 = 1e-5;

/// Every float parameter of a module, in its order.
struct Values(Vec<f32>);

impl ModuleVisitor for Values {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.extend(tensor_values(param.val()));
    }
}

/// The weights a run saved (`model.bpk`), read back on flex into the module
/// of its last phase.
fn saved_weights<L: Learner>(learner: &L, run: &Path) -> Vec<f32> {
    let last = learner.phases().len() - 1;
    let model = learner.begin_phase(learner.init(true).unwrap(), last);
    let model = RunDir::elsewhere(run).load_module("model", model).unwrap();
    let mut values = Values(Vec::new());
    model.visit(&mut values);
    values.0
}

/// Trains `config` on flex and on wgpu from the same seed, in `dir/name-*`,
/// and asserts that every epoch's metrics and the final weights agree.
fn agree<C: Config + Clone, L: Learner>(
    name: &str,
    config: C,
    data: &Path,
    dir: &Path,
    new: impl Fn(C, &Path, DeviceChoice, bool) -> anyhow::Result<L>,
) {
    let mut runs = Vec::new();
    for (device, label) in [(DeviceChoice::Flex, "flex"), (WGPU, "wgpu")] {
        let out = dir.join(format!("{name}-{label}"));
        let started = std::time::Instant::now();
        let rows = run_learner(config.clone(), data, &out, device, &FRESH, &new)
            .unwrap_or_else(|e| panic!("{name} on {label}: {e:#}{}", if label == "wgpu" { NO_ADAPTER } else { "" }));
        println!("{name} on {label}: {:.1} s, {rows:?}", started.elapsed().as_secs_f64());
        runs.push((rows, out));
    }
    let [(flex, flex_run), (wgpu, wgpu_run)] = <[_; 2]>::try_from(runs).unwrap();
    assert_eq!(flex.len(), wgpu.len(), "{name}");
    let close = |a: f64, b: f64| (a - b).abs() <= METRIC_TOLERANCE * (1.0 + a.abs());
    let close_option = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => close(a, b),
        (a, b) => a.is_none() && b.is_none(),
    };
    for (a, b) in flex.iter().zip(&wgpu) {
        assert_eq!((a.epoch, a.phase), (b.epoch, b.phase), "{name}");
        assert!(
            close(a.train_loss, b.train_loss)
                && close(a.val_loss, b.val_loss)
                && close_option(a.train_accuracy, b.train_accuracy)
                && close_option(a.val_accuracy, b.val_accuracy),
            "{name}: flex and wgpu disagree in epoch {} (phase {}):\n{a:?}\n{b:?}",
            a.epoch,
            a.phase
        );
    }
    // Both runs' weights, read on flex through a learner built on flex.
    let learner = new(config, data, DeviceChoice::Flex, true).unwrap();
    let (a, b) = (saved_weights(&learner, &flex_run), saved_weights(&learner, &wgpu_run));
    assert_eq!(a.len(), b.len(), "{name}");
    let norm = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let distance = a.iter().zip(&b).map(|(x, y)| f64::from(x - y).powi(2)).sum::<f64>().sqrt();
    let largest = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max);
    println!(
        "{name}: {} weights, relative distance {:.2e}, largest difference {largest:.2e}",
        a.len(),
        distance / norm
    );
    assert!(
        distance <= WEIGHT_TOLERANCE * norm,
        "{name}: the weights differ by {:.2e} of their norm (largest difference {largest:.2e})",
        distance / norm
    );
}

/// Makes a smoke preset one small epoch a phase: `items` an epoch (pairs,
/// positions or triplets) and `val` held out.
fn one_small_epoch(optim: &mut OptimConfig, data: &mut DataConfig, items: usize, val: usize) {
    optim.epochs = 1;
    data.per_epoch = items;
    data.val = val;
}

#[test]
fn every_learner_trains_on_wgpu_as_on_flex() {
    // Every position of each game: NeuroChess's TD needs them all.
    let Fixture { _turn, dir, data } = fixture(Some((learnable_pgn, 1500)), every_position());
    let dir = dir.path();

    // Pos2Vec: three layers' autoencoders, one epoch each.
    let mut pos2vec = Pos2VecConfig::preset(Preset::Smoke);
    one_small_epoch(&mut pos2vec.optim, &mut pos2vec.data, 4_096, 500);
    agree("pos2vec", pos2vec, &data, dir, Pos2VecLearner::new);

    // The Siamese network (distilled shape), and a student distilled from it.
    let mut siamese = SiameseConfig::preset(Preset::Smoke);
    one_small_epoch(&mut siamese.optim, &mut siamese.data, 4_096, 500);
    agree("siamese", siamese, &data, dir, SiameseLearner::new);
    let mut distill = DistillConfig::preset(Preset::Smoke, &dir.join("siamese-flex"));
    distill.features.positions_per_epoch = 4_096;
    one_small_epoch(&mut distill.optim, &mut distill.data, 4_096, 500);
    agree("distill", distill, &data, dir, DistillLearner::new);

    // The value network, position by position.
    let mut value = ValueConfig::preset(Preset::Smoke);
    one_small_epoch(&mut value.optim, &mut value.data, 4_096, 500);
    agree("value", value, &data, dir, ValueLearner::new);

    // The DBN: two RBMs, then fine-tuning with dropout (noise drawn in the
    // steps, the same on both devices).
    let mut dbn = DbnConfig::preset(Preset::Smoke, Approach::Wdl);
    dbn.pretrain.positions_per_epoch = 2_048;
    one_small_epoch(&mut dbn.optim, &mut dbn.data, 2_048, 500);
    agree("dbn", dbn, &data, dir, DbnLearner::new);

    // Deep Pink's triplets.
    let mut deep_pink = DeepPinkConfig::preset(Preset::Smoke);
    one_small_epoch(&mut deep_pink.optim, &mut deep_pink.data, 4_096, 500);
    agree("deep-pink", deep_pink, &data, dir, DeepPinkLearner::new);

    // NeuroChess: TD targets, then EBNN's slopes.
    let mut neurochess = NeuroChessConfig::preset(Preset::Smoke);
    one_small_epoch(&mut neurochess.optim, &mut neurochess.data, 2_048, 500);
    neurochess.ebnn.per_epoch = 2_048;
    agree("neurochess", neurochess, &data, dir, NeuroChessLearner::new);

    // AlphaZero, supervised: policy and value heads on a residual tower.
    let mut az = AzConfig::preset(Preset::Smoke, false);
    one_small_epoch(&mut az.optim, &mut az.data, 1_024, 250);
    agree("alphazero", az, &data, dir, AzLearner::new);
}

/// On a GPU backend the training batches are gathered on the device unless
/// the positions' table would pass its memory budget; on flex never.
#[test]
fn a_split_too_large_for_the_device_keeps_its_batches_on_the_host() {
    use deepchess_trainer::train::runner::device_batches::{SLOTS, TABLE_BUDGET, gather_split_on_device};
    let (device, _) = deepchess_trainer::train::runner::device::select(WGPU).expect(NO_ADAPTER);
    let most = TABLE_BUDGET / (SLOTS * 4);
    assert!(gather_split_on_device(&device, most, true));
    assert!(!gather_split_on_device(&device, most + 1, true));
    assert!(!gather_split_on_device(&Device::flex(), 1_000, true));
}
