//! DeepChess's learners: Siamese, Pos2Vec, distillation, the utility head.

use super::*;

fn smoke_config(epochs: usize) -> SiameseConfig {
    let mut config = SiameseConfig::preset(Preset::Smoke);
    config.optim.epochs = epochs;
    config
}

#[test]
fn smoke_run_learns_and_resumes_exactly() {
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());

    let full = dir.path().join("full");
    let rows = train(smoke_config(3), &data, &full, &FRESH, SiameseLearner::new);
    assert_eq!(rows.len(), 3);
    assert!(rows[2].train_loss < rows[0].train_loss, "{rows:?}");
    // Chance is 0.5; 2,000 validation pairs put one standard error near 0.011.
    assert!(rows[2].val_accuracy.unwrap() > 0.6, "validation accuracy {:?}", rows[2].val_accuracy);
    for file in [
        "config.json",
        "metrics.csv",
        "metrics.svg",
        "model.dcnf",
        "best.dcnf",
        "model.bpk",
        "optimizer.bpk",
        "state.json",
    ] {
        assert!(full.join(file).exists(), "{file}");
    }
    let svg = std::fs::read_to_string(full.join("metrics.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("accuracy"));

    // Interrupted after one epoch, then resumed: the same epochs and metrics.
    let resumed = dir.path().join("resumed");
    train(smoke_config(1), &data, &resumed, &FRESH, SiameseLearner::new);
    // The saved config (3 epochs in the original) governs a resumed run; here
    // the run was started with 1, so extend it the way a user would.
    let config =
        std::fs::read_to_string(resumed.join("config.json")).unwrap().replace("\"epochs\": 1", "\"epochs\": 3");
    std::fs::write(resumed.join("config.json"), config).unwrap();
    let rows_resumed = train(smoke_config(3), &data, &resumed, &RESUME, SiameseLearner::new);
    assert_eq!(rows_resumed.len(), 3);
    let metrics = |dir: &Path| -> Vec<String> {
        // Every column but the speed, which depends on the machine's load.
        std::fs::read_to_string(dir.join("metrics.csv"))
            .unwrap()
            .lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    assert_eq!(metrics(&full), metrics(&resumed));
}

#[test]
fn evaluation_and_blend_labels_train_and_are_saved() {
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    // The fixture's evaluations are the material balance, which its results follow.
    for labels in [Labels::Evals, Labels::Blend] {
        let mut config = smoke_config(2);
        config.data.labels = LabelOptions { labels, eval_margin_cp: 150.0, ..LabelOptions::default() };
        let out = dir.path().join(format!("{labels:?}"));
        let rows = train(config, &data, &out, &FRESH, SiameseLearner::new);
        // Validation is on (W, L) pairs whatever the labels: chance is 0.5.
        assert!(rows[1].val_accuracy.unwrap() > 0.6, "{labels:?}: {rows:?}");
        let saved = SiameseConfig::load(out.join("config.json")).unwrap();
        let saved = saved.data.labels;
        assert_eq!((saved.labels, saved.eval_margin_cp), (labels, 150.0));
    }
}

#[test]
fn exported_network_matches_burn() {
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let run = dir.path().join("run");
    train(smoke_config(2), &data, &run, &FRESH, SiameseLearner::new);
    let model = Siamese::new(&deepchess_core::Shape::distilled(), &Device::flex()).load_file(run.join("model.bpk"));
    let float = deepchess_trainer::commands::export::load_float(&run.join("model.dcnf")).unwrap();
    let path =
        deepchess_trainer::commands::export::export(&run.join("model.dcnf"), &dir.path().join("weights")).unwrap();
    let quantized = Network::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    assert!(path.file_name().unwrap().to_str().unwrap().starts_with("deepchess-"));

    let val = Dataset::open(&data.join("val.bin")).unwrap();
    let records = &val.records()[..200];
    let encoded = Encoded::new(records);
    let device = Device::flex();
    let a = encoded.batch((0..100).map(|i| (i, false)), &device);
    let b = encoded.batch((100..200).map(|i| (i, false)), &device);
    let logits = tensor_values(model.forward(&a, &b));
    let features = accuracy::features(records);
    let (mut worst_float, mut worst_quantized, mut total_quantized, mut agree) = (0f32, 0f32, 0f32, 0);
    for i in 0..100 {
        let (ea, eb) = (float.embed(&features[i]), float.embed(&features[100 + i]));
        let [x, y] = float.logits(&ea, &eb);
        assert!((x - logits[2 * i]).abs() < 1e-3 && (y - logits[2 * i + 1]).abs() < 1e-3, "pair {i}");
        let p_burn = 1.0 / (1.0 + (logits[2 * i + 1] - logits[2 * i]).exp());
        worst_float = worst_float.max((p_burn - float.compare(&ea, &eb)).abs());
        let (qa, qb) = (
            quantized.embed_position(&records[i].position().unwrap()),
            quantized.embed_position(&records[100 + i].position().unwrap()),
        );
        let p_quantized = quantized.compare(&qa, &qb);
        worst_quantized = worst_quantized.max((p_burn - p_quantized).abs());
        total_quantized += (p_burn - p_quantized).abs();
        agree += usize::from((p_burn > 0.5) == (p_quantized > 0.5));
    }
    let mean_quantized = total_quantized / 100.0;
    println!(
        "float {worst_float}; quantized: worst {worst_quantized}, mean {mean_quantized}, order agrees on {agree}/100"
    );
    assert!(worst_float < 1e-3, "{worst_float}");
    // The bound stated for trained networks (README, "Quantization"): the
    // integer path orders at least 95% of pairs as the float model does, and
    // its probabilities are off by at most 0.03 on average.
    assert!(agree >= 95, "order agrees on {agree}/100");
    assert!(mean_quantized <= 0.03, "mean error {mean_quantized}");
}

#[test]
fn sparse_first_layer_equals_dense_product() {
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let device = Device::flex().autodiff();
    let model = Siamese::new(&deepchess_core::Shape::distilled(), &device);
    let positions: Vec<_> = (0..8).flat_map(|s| seeded::playout(30, s)).map(|(p, _)| p).take(64).collect();
    let features: Vec<Features> = positions.iter().map(Features::from_position).collect();
    // Through the embedding bag.
    let mut bits = Vec::new();
    let mut dense = vec![0f32; positions.len() * 774];
    for (row, f) in features.iter().enumerate() {
        for slot in 0..37 {
            let index = f.as_slice().get(slot).copied();
            bits.push(index.map_or(773, i64::from));
            if let Some(i) = index {
                dense[row * 774 + usize::from(i)] = 1.0;
            }
        }
    }
    let n = positions.len();
    let sparse_input = deepchess_trainer::train::runner::tensors::Positions {
        indices: Tensor::<2, Int>::from_data(TensorData::new(bits, [n, 37]), &device),
    };
    let sparse = model.first_sums(&sparse_input);
    // Through a dense product with the 774-wide one-hot matrix (bias added).
    let weight = model.first_weight();
    let x = Tensor::<2>::from_data(TensorData::new(dense, [n, 774]), &device);
    let dense_out = x.matmul(weight.clone()).add(model.first_bias().reshape([1, 100]));
    let (s, d) = (tensor_values(sparse.clone()), tensor_values(dense_out.clone()));
    assert!(s.iter().zip(&d).all(|(a, b)| (a - b).abs() < 1e-5));

    // The same gradients for the weight, from the same downstream loss.
    let upstream = Tensor::<2>::from_data(
        TensorData::new((0..n * 100).map(|i| ((i * 7919) % 13) as f32 / 13.0 - 0.5).collect::<Vec<_>>(), [n, 100]),
        &device,
    );
    let grads_sparse = sparse.mul(upstream.clone()).sum().backward();
    let grads_dense = dense_out.mul(upstream).sum().backward();
    let gs = tensor_values(weight.grad(&grads_sparse).unwrap());
    let gd = tensor_values(weight.grad(&grads_dense).unwrap());
    assert_eq!(gs.len(), 774 * 100);
    let worst = gs.iter().zip(&gd).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
    assert!(worst < 1e-4, "gradient difference {worst}");
    // The padding row gets no gradient.
    assert!(gs[773 * 100..].iter().all(|&g| g == 0.0));
}

#[test]
fn crelu_has_the_values_and_gradient_of_a_clamp() {
    let device = Device::flex().autodiff();
    let xs = [-3.0f32, -0.5, -1e-7, 1e-7, 0.25, 0.5, 0.999_99, 1.000_01, 1.5, 40.0];
    let x = Tensor::<1>::from_data(TensorData::new(xs.to_vec(), [xs.len()]), &device).require_grad();
    let weights =
        Tensor::<1>::from_data(TensorData::new((1..=xs.len()).map(|i| i as f32).collect(), [xs.len()]), &device);
    let y = crelu(x.clone());
    let values = tensor_values(y.clone());
    let grads = y.mul(weights).sum().backward();
    let gradient = tensor_values(x.grad(&grads).unwrap());
    for (i, &v) in xs.iter().enumerate() {
        assert_eq!(values[i], v.clamp(0.0, 1.0), "crelu({v})");
        let inside = v > 0.0 && v < 1.0;
        assert_eq!(gradient[i], if inside { (i + 1) as f32 } else { 0.0 }, "gradient at {v}");
    }
}

#[test]
fn stop_after_ends_a_call_at_an_epoch_and_resumes_exactly() {
    // A time limit of zero ends each call after its first epoch, at a
    // checkpoint; the resumed run ends as the uninterrupted one. An hour
    // runs the whole schedule in one call.
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let whole = dir.path().join("whole");
    let hour = RunOptions { stop_after: Some(std::time::Duration::from_secs(3600)), ..FRESH };
    assert_eq!(train(smoke_config(3), &data, &whole, &hour, SiameseLearner::new).len(), 3);
    let parts = dir.path().join("parts");
    let now = |options: RunOptions| RunOptions { stop_after: Some(std::time::Duration::ZERO), ..options };
    assert_eq!(train(smoke_config(3), &data, &parts, &now(FRESH), SiameseLearner::new).len(), 1);
    // The checkpoint says how far the run is (a script resumes it until done).
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(parts.join("state.json")).unwrap()).unwrap();
    assert_eq!((state["epochs_done"].as_u64(), state["epochs_total"].as_u64()), (Some(1), Some(3)));
    assert_eq!(train(smoke_config(3), &data, &parts, &now(RESUME), SiameseLearner::new).len(), 2);
    assert_eq!(train(smoke_config(3), &data, &parts, &now(RESUME), SiameseLearner::new).len(), 3);
    assert_same_metrics(&whole.join("metrics.csv"), &parts.join("metrics.csv"));
}

/// The pairs a GPU gathers on the device (their positions uploaded once,
/// mirror images by a lookup there) train the network the host's batches
/// train: the same losses, accuracies and held-out figures each epoch,
/// within the rounding of summing a position's rows in another order.
#[test]
fn pairs_gathered_on_the_device_train_the_hosts_network() {
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let mut config = smoke_config(2);
    // Half the pairs mirrored, so both kinds of gather are trained through.
    config.data.mirror = 0.5;
    let (host, device) = (dir.path().join("host"), dir.path().join("device"));
    let host_rows = train(config.clone(), &data, &host, &FRESH, SiameseLearner::new);
    let on_device = |c, d: &Path, dev, q| Ok(SiameseLearner::new(c, d, dev, q)?.with_device_batches(true));
    let device_rows = train(config, &data, &device, &FRESH, on_device);
    println!("host {host_rows:?}\ndevice {device_rows:?}");
    assert_same_metrics(&host.join("metrics.csv"), &device.join("metrics.csv"));
    assert_ne!(host_rows[0].val_loss, host_rows[1].val_loss);
}

#[test]
fn one_output_holds_the_second_logit_at_zero_and_learns() {
    // The ablation of the paper's two outputs: the head's second output
    // stays exactly zero (so its softmax is a logistic output) and the
    // network still learns the pairs.
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let mut config = smoke_config(2);
    config.one_output = true;
    let run = dir.path().join("one-output");
    let rows = train(config, &data, &run, &FRESH, SiameseLearner::new);
    assert!(rows[1].val_accuracy.unwrap() > 0.6, "{rows:?}");
    let float = deepchess_trainer::commands::export::load_float(&run.join("model.dcnf")).unwrap();
    assert!(float.description.contains("one logistic output"), "{}", float.description);
    let last = float.head().last().unwrap();
    let inputs = last.weights().len() / last.outputs();
    assert!(last.weights()[..inputs].iter().any(|&w| w != 0.0));
    assert!(last.weights()[inputs..].iter().all(|&w| w == 0.0) && last.bias()[1] == 0.0);
}

/// Pos2Vec's positions gathered on the device (their rows, and the first
/// layer's 773-bit targets built there) pretrain the tower the host's
/// batches pretrain, layer by layer, within float rounding.
#[test]
fn pos2vec_batches_gathered_on_the_device_pretrain_the_hosts_tower() {
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let config = Pos2VecConfig::preset(Preset::Smoke);
    let (host, device) = (dir.path().join("host"), dir.path().join("device"));
    let host_rows = train(config.clone(), &data, &host, &FRESH, Pos2VecLearner::new);
    let on_device = |c, d: &Path, dev, q| Ok(Pos2VecLearner::new(c, d, dev, q)?.with_device_batches(true));
    train(config, &data, &device, &FRESH, on_device);
    assert_same_metrics(&host.join("metrics.csv"), &device.join("metrics.csv"));
    // Every layer trained (the frozen layers' codes feed the later ones).
    assert!(host_rows.iter().all(|r| r.val_loss > 0.0) && host_rows.len() >= 3, "{host_rows:?}");
}

#[test]
fn pos2vec_pretrains_layer_by_layer_resumes_and_starts_a_siamese_run() {
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let config = || {
        let mut config = Pos2VecConfig::preset(Preset::Smoke);
        config.optim.epochs = 2;
        config
    };

    let full = dir.path().join("pos2vec");
    let rows = train(config(), &data, &full, &FRESH, Pos2VecLearner::new);
    // Three tower layers of the distilled shape, two epochs each.
    assert_eq!(rows.len(), 6);
    for (k, layer) in rows.chunks(2).enumerate() {
        assert!(layer.iter().all(|r| r.phase == k + 1), "{rows:?}");
        assert!(layer[1].train_loss < layer[0].train_loss, "each layer's loss falls: {rows:?}");
    }
    assert!(full.join("metrics.svg").exists() && full.join("model.bpk").exists());

    // Stopped after 2 epochs (at the end of layer 1), resumed for one (mid-way
    // through layer 2), then resumed to the end.
    let resumed = dir.path().join("resumed");
    let part = train(config(), &data, &resumed, &RunOptions { max_epochs: Some(2), ..FRESH }, Pos2VecLearner::new);
    assert_eq!(part.len(), 2);
    let part = train(config(), &data, &resumed, &RunOptions { max_epochs: Some(1), ..RESUME }, Pos2VecLearner::new);
    assert_eq!(part.len(), 3);
    let rest = train(config(), &data, &resumed, &RESUME, Pos2VecLearner::new);
    assert_eq!(rest.len(), 6);
    assert_same_metrics(&full.join("metrics.csv"), &resumed.join("metrics.csv"));

    // A Siamese run starts from the pretrained tower.
    let mut siamese_config = smoke_config(2);
    siamese_config.init = Some(full.display().to_string());
    let run = dir.path().join("siamese");
    let rows = train(siamese_config, &data, &run, &FRESH, SiameseLearner::new);
    assert!(rows[1].val_accuracy.unwrap() > 0.6, "{rows:?}");
    let float = deepchess_trainer::commands::export::load_float(&run.join("model.dcnf")).unwrap();
    assert!(float.description.contains("pretrained by Pos2Vec"), "{}", float.description);

    // A tower of another shape is refused.
    let mut wrong = SiameseConfig::preset(Preset::Quick);
    wrong.model = deepchess_trainer::train::runner::config::ModelConfig::of(&deepchess_core::Shape::full());
    wrong.init = Some(full.display().to_string());
    let err = run_learner(wrong, &data, &dir.path().join("wrong"), DeviceChoice::Flex, &FRESH, SiameseLearner::new)
        .unwrap_err();
    assert!(err.to_string().contains("has the shape"), "{err}");
}

#[test]
fn distillation_learns_from_the_teacher_and_resumes() {
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let teacher = dir.path().join("teacher");
    let rows = train(smoke_config(3), &data, &teacher, &FRESH, SiameseLearner::new);
    let teacher_accuracy = rows[2].val_accuracy.unwrap();

    let config = || {
        let mut config = DistillConfig::preset(Preset::Smoke, &teacher);
        config.features.epochs = 2;
        config
    };
    let full = dir.path().join("student");
    let rows = train(config(), &data, &full, &FRESH, DistillLearner::new);
    assert_eq!(rows.len(), 4);
    // The features phase brings the student's embeddings toward the teacher's.
    assert!(rows[1].train_loss < rows[0].train_loss, "{rows:?}");
    // The outputs phase gives a student close to its teacher.
    let student = rows[3].val_accuracy.unwrap();
    assert!(student > 0.6 && student > teacher_accuracy - 0.1, "student {student}, teacher {teacher_accuracy}");
    assert!(full.join("best.dcnf").exists());
    let float = deepchess_trainer::commands::export::load_float(&full.join("best.dcnf")).unwrap();
    assert_eq!(float.shape(), &deepchess_core::Shape::distilled());

    let resumed = dir.path().join("resumed");
    train(config(), &data, &resumed, &RunOptions { max_epochs: Some(3), ..FRESH }, DistillLearner::new);
    train(config(), &data, &resumed, &RESUME, DistillLearner::new);
    assert_same_metrics(&full.join("metrics.csv"), &resumed.join("metrics.csv"));

    // Both phases' batches gathered on the device train the same student.
    let gathered = dir.path().join("gathered");
    let on_device = |c, d: &Path, dev, q| Ok(DistillLearner::new(c, d, dev, q)?.with_device_batches(true));
    train(config(), &data, &gathered, &FRESH, on_device);
    assert_same_metrics(&full.join("metrics.csv"), &gathered.join("metrics.csv"));
}

#[test]
fn utility_head_fits_on_the_frozen_tower() {
    use deepchess_trainer::train::deepchess::utility::{self, Target, UtilityOptions};
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let run = dir.path().join("run");
    train(smoke_config(2), &data, &run, &FRESH, SiameseLearner::new);
    let path =
        deepchess_trainer::commands::export::export(&run.join("model.dcnf"), &dir.path().join("weights")).unwrap();
    let net = Network::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    let (train, val) = (Dataset::open(&data.join("train.bin")).unwrap(), Dataset::open(&data.join("val.bin")).unwrap());
    for target in [Target::Results, Target::Teacher, Target::Evals] {
        let options = UtilityOptions { target, pairs: 20_000, val_pairs: 5_000, ..UtilityOptions::default() };
        let (fitted, report) = utility::fit(&net, train.records(), val.records(), &options).unwrap();
        println!("{target:?}: {report:?}");
        // Newton's method lowers the loss, and the head orders held-out pairs
        // well above chance, as well as the comparison head within a margin.
        assert!(report.losses.windows(2).all(|w| w[1] <= w[0] + 1e-6), "{target:?}: {:?}", report.losses);
        let comparison = report.comparison_accuracy.unwrap();
        assert!(report.quantized_accuracy > 0.6, "{target:?}: {report:?}");
        assert!(report.quantized_accuracy > comparison - 0.05, "{target:?}: {report:?}");
        // The integer head orders pairs as the float one nearly always does.
        assert!((report.quantized_accuracy - report.float_accuracy).abs() < 0.01, "{target:?}: {report:?}");
        // The scale is fitted on the fixture's evaluations, which follow the material.
        assert!(report.correlation > 0.5 && report.cp_scale > 0.0, "{target:?}: {report:?}");
        // One file with both heads; the tower and comparison head unchanged.
        let bytes = fitted.to_bytes();
        let reread = Network::from_bytes(&bytes).unwrap();
        assert!(reread.has_comparison() && reread.has_utility());
        let pos = val.records()[0].position().unwrap();
        let (a, b) = (net.embed_position(&pos), reread.embed_position(&pos));
        assert_eq!(a, b);
        assert_eq!(net.compare_logit(&a, &a), reread.compare_logit(&b, &b));
    }
}
