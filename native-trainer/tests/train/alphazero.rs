//! The AlphaZero reimplementation's learners: export, supervision, self-play.

use super::*;

/// Random positions: a few random plies from the start, for the AlphaZero
/// network's tests.
fn random_positions(count: u64) -> Vec<shakmaty::Chess> {
    (0..count).map(|seed| seeded::playout(8 + 3 * seed as usize, seed).pop().expect("a position").0).collect()
}

#[test]
fn alphazero_export_folds_batch_norm_and_equals_burn() {
    use deepchess_core::alphazero::{AzScratch, Planes};
    use deepchess_trainer::train::alphazero::model::AzModel;
    let device = Device::flex().autodiff();
    device.seed(7);
    let model = AzModel::new(2, 8, &device);
    let planes: Vec<Planes> = random_positions(16).iter().map(|p| Planes::new(p, 1)).collect();
    // Training-mode passes move the norms' running statistics off 0 and 1.
    for _ in 0..4 {
        let _ = model.forward(AzModel::input(planes.iter(), &device));
    }
    let valid = model.valid();
    let out = valid.forward(AzModel::input(planes.iter(), &device.clone().inner()));
    let (logits, values) = (tensor_values(out.logits), tensor_values(out.value));
    let net = valid.to_az("test".into()).unwrap();
    let net = deepchess_core::alphazero::AzNet::from_bytes(&net.to_bytes()).unwrap();
    let (mut worst_logit, mut worst_value) = (0f32, 0f32);
    for (i, p) in planes.iter().enumerate() {
        let core = net.evaluate(p, &mut AzScratch::default());
        let row = &logits[i * core.logits.len()..(i + 1) * core.logits.len()];
        worst_logit = core.logits.iter().zip(row).map(|(a, b)| (a - b).abs()).fold(worst_logit, f32::max);
        worst_value = worst_value.max((core.value - values[i]).abs());
    }
    println!("folded export against burn: logits within {worst_logit}, values within {worst_value}");
    // Folding is exact in real numbers; f32 rounding stays far below 1e-3.
    assert!(worst_logit < 1e-3 && worst_value < 1e-4, "{worst_logit} {worst_value}");
}

#[test]
fn alphazero_learns_moves_and_results_by_supervision_and_mcts_plays_it() {
    use deepchess_core::alphazero::AzNet;
    use deepchess_trainer::train::runner::run_dir::BEST_AZ_NETWORK;
    let Fixture { _turn, dir, data } = fixture(Some((greedy_pgn, 600)), every_position());

    let out = dir.path().join("az");
    let rows = train(AzConfig::preset(Preset::Smoke, false), &data, &out, &FRESH, AzLearner::new);
    assert_eq!(rows.len(), 3);
    assert!(rows[2].train_loss < rows[0].train_loss, "{rows:?}");
    // Chance: a uniform pick among the legal moves, averaged over the
    // validation positions.
    let val = Dataset::open(&data.join("val.bin")).unwrap();
    let chance: f64 = val.records().iter().map(|r| 1.0 / r.position().unwrap().legal_moves().len() as f64).sum::<f64>()
        / val.records().len() as f64;
    let top1 = rows[2].val_accuracy.unwrap();
    println!("held-out policy top-1 {top1} against chance {chance}: {rows:?}");
    // 1,000 validation positions: one standard error of a chance-level
    // top-1 (about 0.07) is near 0.008, so 1.5 × chance is clearly above it
    // (the smoke run reaches about 2.2 ×).
    assert!(top1 > 1.5 * chance, "held-out policy top-1 {top1}, chance {chance}");

    // The exported network loads in core and the UCI engine plays it by MCTS.
    let bytes = std::fs::read(out.join(BEST_AZ_NETWORK)).unwrap();
    let net = AzNet::from_bytes(&bytes).unwrap();
    assert!(net.description.starts_with("AlphaZero (1 residual blocks × 8 filters)"), "{}", net.description);
    // `eval az` (core's inference) scores the run's validation positions as
    // burn's validation did the best epoch: ties between logits aside, the
    // same top-1.
    let config = AzConfig::preset(Preset::Smoke, false);
    let samples =
        deepchess_trainer::train::alphazero::supervised::samples(val.records(), config.data.val, config.data.seed ^ 1);
    let score = deepchess_trainer::eval::az::score(&net, &samples);
    let best = rows.iter().filter_map(|r| r.val_accuracy).fold(0.0, f64::max);
    assert_eq!(score.positions, samples.len());
    assert!((score.top1 - best).abs() <= 0.005, "core's top-1 {} against burn's {best}", score.top1);
    assert!(score.value_mse.is_finite() && score.value_mse < 1.5, "{score:?}");
    engine_plays(&bytes);
}

#[test]
fn alphazero_self_play_generations_gate_log_resume_and_export() {
    use deepchess_core::alphazero::AzNet;
    use deepchess_trainer::train::runner::run_dir::{AZ_NETWORK, BEST_AZ_NETWORK};
    let Fixture { _turn, dir, data } = fixture(Some((greedy_pgn, 200)), every_position());
    let mut config = AzConfig::preset(Preset::Smoke, true);
    config.optim.epochs = 2;
    config.data.per_epoch = 1_024;

    // One generation, then the run is killed and resumed for the second.
    let out = dir.path().join("self-play");
    let learner = |out: &Path| {
        let out = out.to_owned();
        move |config, data: &Path, device, quiet| AzSelfPlayLearner::new(config, data, &out, device, quiet)
    };
    let first = RunOptions { max_epochs: Some(1), ..FRESH };
    let rows = train(config.clone(), &data, &out, &first, learner(&out));
    assert_eq!(rows.len(), 1);
    let rows = train(config.clone(), &data, &out, &RESUME, learner(&out));
    assert_eq!(rows.len(), 2);
    // The resumed run kept its replay buffer and its accepted network: both
    // generations' games and gates are those of a run that never stopped.
    let straight = dir.path().join("straight");
    train(config, &data, &straight, &FRESH, learner(&straight));
    for log in ["self-play.csv", "gates.csv"] {
        let read = |run: &Path| std::fs::read_to_string(run.join(log)).unwrap();
        assert_eq!(read(&out), read(&straight), "{log}");
    }
    assert!(rows.iter().all(|r| r.train_loss.is_finite() && r.val_accuracy.is_some()), "{rows:?}");

    // A line per generation in each log; every gate played its two games.
    let gates = std::fs::read_to_string(out.join("gates.csv")).unwrap();
    let lines: Vec<&str> = gates.lines().collect();
    assert_eq!(lines[0], "generation,wins,draws,losses,elo_difference,accepted,elo");
    assert_eq!(lines.len(), 3, "{gates}");
    for (i, line) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[0], (i + 1).to_string());
        let games: u32 = cells[1..4].iter().map(|c| c.parse::<u32>().unwrap()).sum();
        assert_eq!(games, 2, "{line}");
    }
    let games = std::fs::read_to_string(out.join("self-play.csv")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
    assert!(games.lines().nth(1).unwrap().starts_with("1,4,"), "{games}");
    assert!(std::fs::read_to_string(out.join("gates.svg")).unwrap().contains("Elo"));

    // The networks load, and the engine plays the accepted one by MCTS.
    let trained = std::fs::read(out.join(AZ_NETWORK)).unwrap();
    assert!(AzNet::from_bytes(&trained).unwrap().description.contains("self-play: 2 epochs"));
    engine_plays(&std::fs::read(out.join(BEST_AZ_NETWORK)).unwrap_or(trained));
}

#[test]
fn alphazero_self_play_targets_are_distributions_and_training_on_them_lowers_the_loss() {
    use burn::optim::GradientsParams;
    use deepchess_trainer::train::runner::tensors::fresh;
    let Fixture { _turn, dir, data } = fixture(Some((greedy_pgn, 200)), every_position());
    let config = AzConfig::preset(Preset::Smoke, true);
    let learner =
        AzSelfPlayLearner::new(config.clone(), &data, dir.path(), DeviceChoice::Flex, true).unwrap().with_jobs(3);
    let mut model = learner.init(false).unwrap();
    let samples = learner.epoch(&model, 0, 0).unwrap();
    assert_eq!(samples.len(), config.data.per_epoch);

    // Each target is a distribution over the legal moves (the root's
    // visits), and each result a game's: a win, a draw or a loss.
    for sample in &samples {
        let sum: f32 = sample.policy().iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-4, "π sums to {sum}");
        assert!(sample.policy().iter().all(|(i, p)| *p >= 0.0 && sample.legal().contains(i)), "{:?}", sample.policy());
        assert!([-1.0, 0.0, 1.0].contains(&sample.z()), "z {}", sample.z());
    }

    // One game at a time plays the same games: the same targets.
    let single =
        AzSelfPlayLearner::new(config.clone(), &data, dir.path(), DeviceChoice::Flex, true).unwrap().with_jobs(1);
    let again = single.epoch(&single.init(false).unwrap(), 0, 0).unwrap();
    let targets = |s: &[deepchess_trainer::train::alphazero::supervised::Sample]| -> Vec<(Vec<(u16, f32)>, f32)> {
        s.iter().map(|s| (s.policy().to_vec(), s.z())).collect()
    };
    assert!(targets(&samples) == targets(&again), "--jobs changed the games");

    // A few optimizer steps on one batch of them lower its loss.
    let batch = &samples[..256];
    let phase = &learner.phases()[0];
    let mut optim = phase.optim.init();
    let loss_of = |model: &_| learner.loss(model, 0, batch, 0).loss.into_scalar::<f32>();
    let before = loss_of(&model);
    for _ in 0..30 {
        let loss = learner.loss(&model, 0, batch, 0).loss;
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = fresh(learner.constrain(optim.step(phase.optim.learning_rate, model, grads)));
    }
    let after = loss_of(&model);
    println!("self-play batch loss {before} -> {after} after 30 steps");
    assert!(after < 0.85 * before, "the loss went from {before} to {after}");
}
