//! The value network trained position by position (`train value`): it
//! learns, resumes exactly, exports, and its integer evaluation follows the
//! float model within a stated bound.

use deepchess_core::arch::Activation;
use deepchess_trainer::data::{Eval, GameResult, Record};
use deepchess_trainer::train::deepchess::value::{self, TargetConfig, ValueConfig, ValueLearner};
use deepchess_trainer::train::deepchess::value_model::ValueNet;

use super::*;

fn smoke_config(epochs: usize) -> ValueConfig {
    let mut config = ValueConfig::preset(Preset::Smoke);
    config.optim.epochs = epochs;
    config
}

/// The smoke preset read from both perspectives (`--perspective`).
fn perspective_config(epochs: usize) -> ValueConfig {
    let mut config = smoke_config(epochs);
    config.perspective = Some(true);
    config
}

/// The smoke preset with eight output buckets (`--output-buckets 8`).
fn bucketed_config(epochs: usize) -> ValueConfig {
    let mut config = smoke_config(epochs);
    config.output_buckets = Some(8);
    config
}

/// The smoke preset from both perspectives, its first layer squared
/// (`--perspective --screlu`).
fn squared_config(epochs: usize) -> ValueConfig {
    let mut config = perspective_config(epochs);
    config.screlu = Some(true);
    config
}

/// Every position, draws included: what the value network trains on.
fn every_position_with_draws() -> Sampling {
    Sampling { all_positions: true, include_draws: true, ..Sampling::default() }
}

#[test]
fn targets_blend_result_and_evaluation() {
    let pos = shakmaty::Chess::default();
    let m = pos.legal_moves()[0];
    let record = |result, eval| Record::new(&pos, m, 10, result, eval, 0);
    let target = TargetConfig::new();
    let t = |r: &Record| value::target(r, &target).unwrap();
    // No evaluation: the result alone.
    assert_eq!(t(&record(GameResult::WhiteWins, None)), 1.0);
    assert_eq!(t(&record(GameResult::Draw, None)), 0.5);
    assert_eq!(t(&record(GameResult::BlackWins, None)), 0.0);
    // +400 cp is 10 to 1 on the Elo scale: P = 10/11; λ = 0.5 with a loss gives 5/11.
    let blended = t(&record(GameResult::BlackWins, Some(Eval::Cp(400))));
    assert!((blended - 0.5 * 10.0 / 11.0).abs() < 1e-12, "{blended}");
    // A mate for White counts as a clamped large lead: P close to 1.
    let mate = t(&record(GameResult::Draw, Some(Eval::Mate(3))));
    assert!(mate > 0.74 && mate < 0.75, "{mate}");
}

#[test]
fn value_network_learns_resumes_and_exports_within_bound() {
    learns_resumes_and_exports_within_bound(smoke_config);
}

/// The same of a network read from both perspectives: its first dense
/// layer reads twice the first layer's width, and its export is one.
#[test]
fn perspective_network_learns_resumes_and_exports_within_bound() {
    learns_resumes_and_exports_within_bound(perspective_config);
}

/// The same with output buckets: each position's value is read at the
/// bucket of its material in burn, in core's float reference and in the
/// integer network alike.
#[test]
fn bucketed_network_learns_resumes_and_exports_within_bound() {
    learns_resumes_and_exports_within_bound(bucketed_config);
}

/// The same with the first layer's clipped ReLU squared: burn, core's float
/// reference and the integer network square it alike.
#[test]
fn squared_network_learns_resumes_and_exports_within_bound() {
    learns_resumes_and_exports_within_bound(squared_config);
}

fn learns_resumes_and_exports_within_bound(smoke_config: fn(usize) -> ValueConfig) {
    let Fixture { _turn, dir, data } = fixture(None, every_position());
    let full = dir.path().join("full");
    let rows = train(smoke_config(3), &data, &full, &FRESH, ValueLearner::new);
    assert_eq!(rows.len(), 3);
    assert!(rows[2].train_loss < rows[0].train_loss, "{rows:?}");
    // The fixture's results follow the material; chance is 0.5 (about 0.011 a standard error).
    assert!(rows[2].val_accuracy.unwrap() > 0.6, "{rows:?}");

    // Stopped after one epoch and resumed: the same metrics.
    let resumed = dir.path().join("resumed");
    train(smoke_config(3), &data, &resumed, &RunOptions { max_epochs: Some(1), ..FRESH }, ValueLearner::new);
    train(smoke_config(3), &data, &resumed, &RESUME, ValueLearner::new);
    assert_same_metrics(&full.join("metrics.csv"), &resumed.join("metrics.csv"));

    // burn, core's float reference and the integer network agree.
    let config = smoke_config(3);
    let shape = config.shape().unwrap();
    let model = ValueNet::new(&shape, &Device::flex()).load_file(full.join("model.bpk"));
    let float = deepchess_trainer::commands::export::load_float(&full.join("model.dcnf")).unwrap();
    assert_eq!(float.cp_scale(), config.cp_scale());
    let path =
        deepchess_trainer::commands::export::export(&full.join("model.dcnf"), &dir.path().join("weights")).unwrap();
    let net = Network::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    assert!(net.has_utility() && !net.has_comparison());
    assert_eq!(net.shape(), &shape);
    assert_eq!(net.shape().is_perspective(), config.perspective == Some(true));
    assert_eq!(net.shape().buckets(), config.output_buckets.unwrap_or(1));
    assert_eq!(net.shape().activation() == Activation::SquaredClippedRelu, config.screlu == Some(true));

    let val = Dataset::open(&data.join("val.bin")).unwrap();
    let records = &val.records()[..200];
    let encoded = Encoded::new(records);
    let device = Device::flex();
    let own = encoded.batch((0..200).map(|i| (i, false)), &device);
    let mirrored = encoded.batch((0..200).map(|i| (i, true)), &device);
    let burn_values = tensor_values(model.forward(&own, &mirrored));
    let (mut worst_float, mut total_cp, mut worst_cp) = (0f64, 0f64, 0f64);
    for (i, record) in records.iter().enumerate() {
        let s = accuracy::float_value(&float, &record.features());
        worst_float = worst_float.max((s - f64::from(burn_values[i])).abs());
        let float_cp = s * f64::from(float.cp_scale());
        // The engine's evaluation: the same integer code as the search's.
        let cp = f64::from(net.evaluate_position(&record.position().unwrap()).unwrap());
        let exact = accuracy::quantized_value(&net, record) as f64;
        // The rounded centipawns keep the exact integer difference's sign.
        if cp != 0.0 {
            assert_eq!(cp.signum(), exact.signum(), "record {i}");
        }
        total_cp += (cp - float_cp).abs();
        worst_cp = worst_cp.max((cp - float_cp).abs());
    }
    let mean_cp = total_cp / records.len() as f64;
    println!("burn vs float: {worst_float}; integer vs float: mean {mean_cp:.2} cp, worst {worst_cp:.2} cp");
    assert!(worst_float < 1e-4, "{worst_float}");
    // The bound stated for the value network's quantization (docs/training.md):
    // the integer evaluation is within 10 cp of the float model's on average.
    assert!(mean_cp <= 10.0, "mean error {mean_cp} cp");
}

/// The batches a GPU gathers on the device (every position uploaded once,
/// the mirror images by a lookup there) train the network the host's
/// batches train: the same losses and held-out figures each epoch, within
/// the float rounding of summing a position's rows in another order.
#[test]
fn batches_gathered_on_the_device_train_the_hosts_network() {
    batches_on_the_device_train_the_hosts_network(smoke_config);
    batches_on_the_device_train_the_hosts_network(perspective_config);
    batches_on_the_device_train_the_hosts_network(bucketed_config);
    batches_on_the_device_train_the_hosts_network(squared_config);
}

fn batches_on_the_device_train_the_hosts_network(smoke_config: fn(usize) -> ValueConfig) {
    let Fixture { _turn, dir, data } = fixture(None, every_position());
    let (host, device) = (dir.path().join("host"), dir.path().join("device"));
    let host_rows = train(smoke_config(2), &data, &host, &FRESH, ValueLearner::new);
    let on_device = |c, d: &Path, dev, q| Ok(ValueLearner::new(c, d, dev, q)?.with_device_batches(true));
    let device_rows = train(smoke_config(2), &data, &device, &FRESH, on_device);
    println!("host {host_rows:?}\ndevice {device_rows:?}");
    assert_same_metrics(&host.join("metrics.csv"), &device.join("metrics.csv"));
    // The runs trained: a second epoch that repeated the first would pass the above too.
    assert_ne!(host_rows[0].val_loss, host_rows[1].val_loss);
}

#[test]
fn source_weights_set_each_inputs_share_of_the_draws() {
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // One fixture, split at a game boundary into two inputs: 600 games and 300.
    let all = dir.path().join("all.pgn");
    learnable_pgn(&all, 900);
    let text = std::fs::read_to_string(&all).unwrap();
    let cut = text.match_indices("[Event ").nth(600).unwrap().0;
    let (first, second) = (dir.path().join("games.pgn"), dir.path().join("selfplay.pgn"));
    std::fs::write(&first, &text[..cut]).unwrap();
    std::fs::write(&second, &text[cut..]).unwrap();
    let data = build(dir.path(), &[first, second], every_position_with_draws());
    let sources = data::read_sources(&data).unwrap();
    let train = Dataset::open(&data.join("train.bin")).unwrap();
    let from_selfplay = |record: u32| sources[1].contains(u64::from(train.records()[record as usize].game()));
    let selfplay_positions = train.records().iter().filter(|r| sources[1].contains(u64::from(r.game()))).count();
    let n = train.records().len();

    let share = |weights: &[&str]| -> anyhow::Result<f64> {
        let mut config = smoke_config(1);
        config.data.per_epoch = 20_000;
        config.source_weights = weights.iter().map(|w| w.parse().unwrap()).collect();
        let learner = ValueLearner::new(config, &data, DeviceChoice::Flex, true)?;
        let model = learner.init(false)?;
        let items = learner.epoch(&model, 0, 1)?;
        Ok(items.iter().filter(|&&(record, _)| from_selfplay(record)).count() as f64 / items.len() as f64)
    };
    let even = selfplay_positions as f64 / n as f64;
    assert!((share(&[]).unwrap() - even).abs() < 0.02, "unweighted: about {even}");
    // Weight 3: 3·m against n − m.
    let m = selfplay_positions as f64;
    let expected = 3.0 * m / (n as f64 - m + 3.0 * m);
    let weighted = share(&["selfplay=3"]).unwrap();
    assert!((weighted - expected).abs() < 0.02, "{weighted} against {expected}");
    assert_eq!(share(&["selfplay=0"]).unwrap(), 0.0);
    assert_eq!(share(&["games.pgn=0"]).unwrap(), 1.0);
    let unknown = share(&["masters=2"]).unwrap_err().to_string();
    assert!(unknown.contains("masters") && unknown.contains("selfplay.pgn"), "{unknown}");
    assert!(share(&["games=0", "selfplay=0"]).is_err());
}

#[test]
fn without_a_won_and_a_lost_game_held_out_there_is_no_pair_accuracy() {
    let Fixture { _turn, dir, data } = fixture(Some((learnable_pgn, 300)), every_position_with_draws());
    let pgn = dir.path().join("games.pgn");
    // The held-out games' Black wins made draws (the split is by game, so it
    // stays): no (W, L) pair can be drawn from them.
    let held_out: std::collections::HashSet<u32> =
        Dataset::open(&data.join("val.bin")).unwrap().records().iter().map(Record::game).collect();
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<String> = text
        .split("[Event ")
        .skip(1)
        .enumerate()
        .map(|(i, game)| {
            let game = format!("[Event {game}");
            if held_out.contains(&(i as u32)) { game.replace("0-1", "1/2-1/2") } else { game }
        })
        .collect();
    assert!(games.iter().enumerate().any(|(i, g)| !held_out.contains(&(i as u32)) && g.contains("0-1")));
    std::fs::write(&pgn, games.concat()).unwrap();
    build(dir.path(), &[pgn], every_position_with_draws());
    let rows = train(smoke_config(1), &data, &dir.path().join("run"), &FRESH, ValueLearner::new);
    // No accuracy rather than an accuracy of 0; the loss is still measured.
    assert_eq!(rows[0].val_accuracy, None, "{rows:?}");
    assert!(rows[0].val_loss.is_finite() && rows[0].val_loss > 0.0, "{rows:?}");
}
