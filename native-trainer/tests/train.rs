//! Training on burn's flex backend: smoke run, exact resume, the sparse
//! first layer against a dense product, and the exported network against
//! burn's.
#![cfg(feature = "flex")]

use std::io::Write;
use std::path::Path;

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Int, Tensor, TensorData};
use deepchess_core::shakmaty::san::San;
use deepchess_core::shakmaty::{Color, Position, Role};
use deepchess_core::{Features, Network, seeded};
use deepchess_trainer::data::{self, BuildOptions, Dataset, LabelOptions, Labels, Sampling};
use deepchess_trainer::eval::accuracy;
use deepchess_trainer::train::alphazero::self_play::AzSelfPlayLearner;
use deepchess_trainer::train::alphazero::supervised::AzLearner;
use deepchess_trainer::train::deepchess::distill::DistillLearner;
use deepchess_trainer::train::deepchess::model::Siamese;
use deepchess_trainer::train::deepchess::pos2vec::Pos2VecLearner;
use deepchess_trainer::train::deepchess::siamese::{SiameseConfig, SiameseLearner};
use deepchess_trainer::train::runner::batch::Encoded;
use deepchess_trainer::train::runner::device::DeviceChoice;
use deepchess_trainer::train::runner::epochs::RunOptions;
use deepchess_trainer::train::runner::epochs::run_learner;
use deepchess_trainer::train::runner::preset::{self, Preset};
use deepchess_trainer::train::runner::tensors::{crelu, tensor_values};
use deepchess_trainer::train::scalar::dbn::DbnLearner;
use deepchess_trainer::train::scalar::deep_pink::DeepPinkLearner;
use deepchess_trainer::train::scalar::neurochess::NeuroChessLearner;

/// Material, White's minus Black's, in pawns (labels for the fixture only).
fn balance(pos: &deepchess_core::shakmaty::Chess) -> i32 {
    let value = |color: Color| -> i32 {
        [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)]
            .iter()
            .map(|&(role, v)| v * (pos.board().by_role(role) & pos.board().by_color(color)).count() as i32)
            .sum()
    };
    value(Color::White) - value(Color::Black)
}

/// Random games whose result follows the material balance at their end:
/// a learnable fixture for the tests (labels only; the engine never counts
/// material). Every move carries the balance after it as a TCEC-style
/// evaluation comment, `{ +2.00/1 }`, White's view.
fn learnable_pgn(path: &Path, games: u64) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for seed in 0..games {
        let game = seeded::playout(40, seed);
        let end = &game.last().unwrap().0;
        let result = match balance(end) {
            d if d > 0 => "1-0",
            d if d < 0 => "0-1",
            _ => "1/2-1/2",
        };
        write!(out, "[Event \"Fixture {seed}\"]\n[Result \"{result}\"]\n\n").unwrap();
        for (i, (pos, m)) in game.iter().enumerate() {
            let Some(m) = m else { break };
            if i % 2 == 0 {
                write!(out, "{}. ", i / 2 + 1).unwrap();
            }
            let mut after = pos.clone();
            after.play_unchecked(*m);
            write!(out, "{} {{ {:+.2}/1 }} ", San::from_move(pos, *m), f64::from(balance(&after))).unwrap();
        }
        write!(out, "{result}\n\n").unwrap();
    }
}

/// The dataset `dir/data` of the games in `pgn`, sampled as `sampling`
/// says, 15% of the games held out.
fn build(dir: &Path, pgn: std::path::PathBuf, sampling: Sampling) -> std::path::PathBuf {
    let out = dir.join("data");
    let filter = data::GameFilter::default();
    data::build(&BuildOptions { pgn: vec![pgn], out: out.clone(), filter, sampling, val_permille: 150 }, true).unwrap();
    out
}

fn dataset(dir: &Path) -> std::path::PathBuf {
    let pgn = dir.join("fixture.pgn");
    learnable_pgn(&pgn, 1500);
    build(dir, pgn, Sampling { all_positions: true, ..Sampling::default() })
}

/// Training seeds the flex device's random generator, which every test in
/// this process shares: tests that train take turns, so runs are reproducible.
static TRAINING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn smoke_config(epochs: usize) -> SiameseConfig {
    let mut config = preset::siamese(Preset::Smoke);
    config.optim.epochs = epochs;
    config
}

/// A run from its start, without progress bars.
const FRESH: RunOptions = RunOptions { resume: false, quiet: true, max_epochs: None };
/// A resumed run.
const RESUME: RunOptions = RunOptions { resume: true, quiet: true, max_epochs: None };

#[test]
fn smoke_run_learns_and_resumes_exactly() {
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());

    let full = dir.path().join("full");
    let rows = run_learner(smoke_config(3), &data, &full, DeviceChoice::Flex, &FRESH, SiameseLearner::new).unwrap();
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
    run_learner(smoke_config(1), &data, &resumed, DeviceChoice::Flex, &FRESH, SiameseLearner::new).unwrap();
    // The saved config (3 epochs in the original) governs a resumed run; here
    // the run was started with 1, so extend it the way a user would.
    let config =
        std::fs::read_to_string(resumed.join("config.json")).unwrap().replace("\"epochs\": 1", "\"epochs\": 3");
    std::fs::write(resumed.join("config.json"), config).unwrap();
    let rows_resumed =
        run_learner(smoke_config(3), &data, &resumed, DeviceChoice::Flex, &RESUME, SiameseLearner::new).unwrap();
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
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    // The fixture's evaluations are the material balance, which its results follow.
    for labels in [Labels::Evals, Labels::Blend] {
        let mut config = smoke_config(2);
        config.data.labels = LabelOptions { labels, eval_margin_cp: 150.0, ..LabelOptions::default() };
        let out = dir.path().join(format!("{labels:?}"));
        let rows = run_learner(config, &data, &out, DeviceChoice::Flex, &FRESH, SiameseLearner::new).unwrap();
        // Validation is on (W, L) pairs whatever the labels: chance is 0.5.
        assert!(rows[1].val_accuracy.unwrap() > 0.6, "{labels:?}: {rows:?}");
        let saved = SiameseConfig::load(out.join("config.json")).unwrap();
        let saved = saved.data.labels;
        assert_eq!((saved.labels, saved.eval_margin_cp), (labels, 150.0));
    }
}

#[test]
fn exported_network_matches_burn() {
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    let run = dir.path().join("run");
    run_learner(smoke_config(2), &data, &run, DeviceChoice::Flex, &FRESH, SiameseLearner::new).unwrap();
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

/// Asserts that two metrics files have the same header and rows, every
/// figure but the last (speed, which depends on the machine's load) within
/// 1e-4: a resumed run reloads its weights from disk, and the flex backend's
/// sums may round differently in the last bits.
fn assert_same_metrics(a: &Path, b: &Path) {
    let (a, b) = (std::fs::read_to_string(a).unwrap(), std::fs::read_to_string(b).unwrap());
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    assert_eq!(a.len(), b.len(), "{a:?}\n{b:?}");
    assert_eq!(a[0], b[0]);
    for (x, y) in a[1..].iter().zip(&b[1..]) {
        // An empty cell is a figure the learner does not have.
        let parse = |l: &str| -> Vec<Option<f64>> { l.split(',').map(|v| v.parse().ok()).collect() };
        let (x, y) = (parse(x), parse(y));
        let n = x.len() - 1;
        let close = |p: &Option<f64>, q: &Option<f64>| match (p, q) {
            (Some(p), Some(q)) => (p - q).abs() <= 1e-4,
            (p, q) => p == q,
        };
        assert!(x[..n].iter().zip(&y[..n]).all(|(p, q)| close(p, q)), "{x:?}\n{y:?}");
    }
}

#[test]
fn pos2vec_pretrains_layer_by_layer_resumes_and_starts_a_siamese_run() {
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    let config = || {
        let mut config = preset::pos2vec(Preset::Smoke);
        config.optim.epochs = 2;
        config
    };

    let full = dir.path().join("pos2vec");
    let rows = run_learner(config(), &data, &full, DeviceChoice::Flex, &FRESH, Pos2VecLearner::new).unwrap();
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
    let part = run_learner(
        config(),
        &data,
        &resumed,
        DeviceChoice::Flex,
        &RunOptions { max_epochs: Some(2), ..FRESH },
        Pos2VecLearner::new,
    )
    .unwrap();
    assert_eq!(part.len(), 2);
    let part = run_learner(
        config(),
        &data,
        &resumed,
        DeviceChoice::Flex,
        &RunOptions { max_epochs: Some(1), ..RESUME },
        Pos2VecLearner::new,
    )
    .unwrap();
    assert_eq!(part.len(), 3);
    let rest = run_learner(config(), &data, &resumed, DeviceChoice::Flex, &RESUME, Pos2VecLearner::new).unwrap();
    assert_eq!(rest.len(), 6);
    assert_same_metrics(&full.join("metrics.csv"), &resumed.join("metrics.csv"));

    // A Siamese run starts from the pretrained tower.
    let mut siamese_config = smoke_config(2);
    siamese_config.init = Some(full.display().to_string());
    let run = dir.path().join("siamese");
    let rows = run_learner(siamese_config, &data, &run, DeviceChoice::Flex, &FRESH, SiameseLearner::new).unwrap();
    assert!(rows[1].val_accuracy.unwrap() > 0.6, "{rows:?}");
    let float = deepchess_trainer::commands::export::load_float(&run.join("model.dcnf")).unwrap();
    assert!(float.description.contains("pretrained by Pos2Vec"), "{}", float.description);

    // A tower of another shape is refused.
    let mut wrong = preset::siamese(Preset::Quick);
    wrong.model = deepchess_trainer::train::runner::config::ModelConfig::of(&deepchess_core::Shape::full());
    wrong.init = Some(full.display().to_string());
    let err = run_learner(wrong, &data, &dir.path().join("wrong"), DeviceChoice::Flex, &FRESH, SiameseLearner::new)
        .unwrap_err();
    assert!(err.to_string().contains("has the shape"), "{err}");
}

#[test]
fn distillation_learns_from_the_teacher_and_resumes() {
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    let teacher = dir.path().join("teacher");
    let rows = run_learner(smoke_config(3), &data, &teacher, DeviceChoice::Flex, &FRESH, SiameseLearner::new).unwrap();
    let teacher_accuracy = rows[2].val_accuracy.unwrap();

    let config = || {
        let mut config = preset::distill(Preset::Smoke, &teacher);
        config.features.epochs = 2;
        config
    };
    let full = dir.path().join("student");
    let rows = run_learner(config(), &data, &full, DeviceChoice::Flex, &FRESH, DistillLearner::new).unwrap();
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
    run_learner(
        config(),
        &data,
        &resumed,
        DeviceChoice::Flex,
        &RunOptions { max_epochs: Some(3), ..FRESH },
        DistillLearner::new,
    )
    .unwrap();
    run_learner(config(), &data, &resumed, DeviceChoice::Flex, &RESUME, DistillLearner::new).unwrap();
    assert_same_metrics(&full.join("metrics.csv"), &resumed.join("metrics.csv"));
}

#[test]
fn utility_head_fits_on_the_frozen_tower() {
    use deepchess_trainer::train::deepchess::utility::{self, Target, UtilityOptions};
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    let run = dir.path().join("run");
    run_learner(smoke_config(2), &data, &run, DeviceChoice::Flex, &FRESH, SiameseLearner::new).unwrap();
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

/// The UCI engine loads a learner's network from `bytes` (as `EvalFile`
/// does) and plays a legal move with it at depth 2.
fn engine_plays(bytes: &[u8]) {
    use deepchess_core::shakmaty::Chess;
    use deepchess_core::uci::{UciEngine, uci_move};
    let mut engine = UciEngine::new(None);
    let mut lines = Vec::new();
    engine.load_network(Ok(bytes), "best.dcsn", &mut |l| lines.push(l.to_string()));
    for line in ["position startpos", "go depth 2"] {
        engine.handle(line, 0, &mut |l| lines.push(l.to_string()));
        while engine.is_thinking() {
            engine.think(1000, &|| 0, &mut |l| lines.push(l.to_string()));
        }
    }
    let best = lines.iter().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
    assert!(Chess::default().legal_moves().iter().any(|m| uci_move(*m).to_string() == best), "{lines:?}");
}

/// Games in which every move captures the most valuable piece it can (a
/// random move when none can), each result following the material at the
/// end: the played moves beat random ones, which Deep Pink's triplets learn.
fn greedy_pgn(path: &Path, games: u64) {
    use deepchess_core::shakmaty::Chess;
    use rand::{Rng, SeedableRng};
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let value = |role: Role| match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    };
    for seed in 0..games {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut pos = Chess::default();
        let mut sans = Vec::new();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let best = moves.iter().filter_map(|m| m.capture().map(value)).max();
            let pool: Vec<_> = match best {
                Some(v) => moves.iter().filter(|m| m.capture().map(value) == Some(v)).collect(),
                None => moves.iter().collect(),
            };
            let m = *pool[rng.random_range(0..pool.len())];
            sans.push(San::from_move(&pos, m).to_string());
            pos.play_unchecked(m);
        }
        let result = match balance(&pos) {
            d if d > 0 => "1-0",
            d if d < 0 => "0-1",
            _ => "1/2-1/2",
        };
        write!(out, "[Event \"Greedy {seed}\"]\n[Result \"{result}\"]\n\n").unwrap();
        for (i, san) in sans.iter().enumerate() {
            if i % 2 == 0 {
                write!(out, "{}. ", i / 2 + 1).unwrap();
            }
            write!(out, "{san} ").unwrap();
        }
        write!(out, "{result}\n\n").unwrap();
    }
}

#[test]
fn deep_pink_learns_triplets_and_exports_a_network_the_engine_plays() {
    use deepchess_core::learned::LearnedNet;
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("greedy.pgn");
    greedy_pgn(&pgn, 1000);
    let data = build(dir.path(), pgn, Sampling { all_positions: true, include_captures: true, ..Sampling::default() });

    let out = dir.path().join("deep-pink");
    let rows =
        run_learner(preset::deep_pink(Preset::Smoke), &data, &out, DeviceChoice::Flex, &FRESH, DeepPinkLearner::new)
            .unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows[2].train_loss < rows[0].train_loss, "{rows:?}");
    // Chance is 0.5 (2,000 validation triplets: one standard error near 0.011).
    let accuracy = rows[2].val_accuracy.unwrap();
    assert!(accuracy > 0.6, "held-out triplet accuracy {accuracy}: {rows:?}");

    // The exported network loads in core and the UCI engine plays it.
    let bytes = std::fs::read(out.join(deepchess_trainer::train::runner::run_dir::BEST_LEARNED_NETWORK)).unwrap();
    let net = LearnedNet::from_bytes(&bytes).unwrap();
    assert!(net.description.starts_with("Deep Pink"), "{}", net.description);
    engine_plays(&bytes);
}

/// The exported network's value against the fixture's evaluations (the
/// material balance) on the validation split: their correlation.
fn correlation_with_evals(net: &deepchess_core::learned::LearnedNet, data: &Path) -> f64 {
    let val = Dataset::open(&data.join("val.bin")).unwrap();
    let pairs: Vec<(f64, f64)> = val
        .records()
        .iter()
        .filter_map(|r| Some((f64::from(net.white_value(&r.position()?)), data::eval_cp(r)?)))
        .collect();
    let n = pairs.len() as f64;
    let (mx, my) = (pairs.iter().map(|p| p.0).sum::<f64>() / n, pairs.iter().map(|p| p.1).sum::<f64>() / n);
    let cov: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let (vx, vy): (f64, f64) =
        (pairs.iter().map(|p| (p.0 - mx).powi(2)).sum(), pairs.iter().map(|p| (p.1 - my).powi(2)).sum());
    cov / (vx * vy).sqrt()
}

#[test]
fn each_dbn_approach_pretrains_fine_tunes_and_exports_a_network_the_engine_plays() {
    use deepchess_core::learned::LearnedNet;
    use deepchess_trainer::train::runner::run_dir::BEST_LEARNED_NETWORK;
    use deepchess_trainer::train::scalar::dbn::Approach;
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    for approach in [Approach::Wdl, Approach::Regression, Approach::Classes7] {
        let mut config = preset::dbn(Preset::Smoke, approach);
        config.pretrain.optim.epochs = 2;
        config.optim.epochs = 4;
        let out = dir.path().join(format!("{approach:?}"));
        let rows = run_learner(config, &data, &out, DeviceChoice::Flex, &FRESH, DbnLearner::new).unwrap();
        // Two RBMs of two epochs each, then four fine-tuning epochs.
        assert_eq!(rows.iter().map(|r| r.phase).collect::<Vec<_>>(), [1, 1, 2, 2, 3, 3, 3, 3]);
        // The first RBM reconstructs the bits better than their frequencies
        // would: about 36 of 772 bits are on, so predicting each bit's mean
        // leaves a squared error near 36/772 · (1 − 36/772) ≈ 0.044.
        assert!(rows[1].val_loss < 0.035, "{approach:?}: reconstruction error {}: {rows:?}", rows[1].val_loss);
        assert!(rows[..4].iter().all(|r| r.val_loss.is_finite() && r.train_loss.is_finite()));
        assert!(rows[7].train_loss < rows[4].train_loss, "{approach:?}: {rows:?}");
        let bytes = std::fs::read(out.join(BEST_LEARNED_NETWORK)).unwrap();
        let net = LearnedNet::from_bytes(&bytes).unwrap();
        // Chance is no correlation (one standard error near 0.013 on the
        // fixture's ~6,000 validation positions). The evaluations are the
        // material, which the results follow only loosely (they are the
        // material at the game's end), and four small epochs with dropout
        // 0.5 are a short training: at least 0.1, eight standard errors.
        let r = correlation_with_evals(&net, &data);
        println!("{approach:?}: correlation {r:.3} with the evaluations");
        assert!(r > 0.1, "{approach:?}: correlation {r} with the evaluations");
        engine_plays(&bytes);
    }
}

#[test]
fn neurochess_learns_by_td_from_self_play_and_expert_games_with_and_without_ebnn() {
    use deepchess_core::learned::LearnedNet;
    use deepchess_trainer::train::runner::run_dir::BEST_LEARNED_NETWORK;
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("fixture.pgn");
    learnable_pgn(&pgn, 1500);
    // TD needs every position of each game.
    let sampling = Sampling { all_positions: true, include_captures: true, include_draws: true, ..Sampling::default() };
    let data = build(dir.path(), pgn, sampling);

    for ebnn in [false, true] {
        let mut config = preset::neurochess(Preset::Smoke);
        config.ebnn.enabled = ebnn;
        config.optim.epochs = 8;
        config.data.per_epoch = 32_768;
        config.ebnn.per_epoch = 32_768;
        let out = dir.path().join(format!("neurochess-{ebnn}"));
        let rows = run_learner(config, &data, &out, DeviceChoice::Flex, &FRESH, NeuroChessLearner::new).unwrap();
        let phases: Vec<usize> = rows.iter().map(|r| r.phase).collect();
        if ebnn {
            assert_eq!(phases, [1, 1, 2, 2, 2, 2, 2, 2, 2, 2]);
            // The chess model predicts the bits two plies ahead far better
            // than their frequencies (about 30 of 768 on: a cross-entropy
            // near 0.165 per bit for a model that knows only that).
            assert!(rows[1].val_loss < 0.12, "chess model's cross-entropy {}: {rows:?}", rows[1].val_loss);
        } else {
            assert_eq!(phases, [1; 8]);
        }
        let td = &rows[rows.len() - 8..];
        assert!(td.iter().all(|r| r.train_loss.is_finite() && r.val_loss.is_finite()), "{rows:?}");
        // The fixture's results follow the material at the end of random
        // games: the value's sign predicts them on held-out decisive games
        // better than a coin (one standard error near 0.012 on the ~1,860
        // decisive positions of 2,000; 0.56 is five).
        let accuracy = td[7].val_accuracy.unwrap();
        assert!(accuracy > 0.56, "ebnn {ebnn}: held-out result-sign accuracy {accuracy}: {rows:?}");
        let bytes = std::fs::read(out.join(BEST_LEARNED_NETWORK)).unwrap();
        let net = LearnedNet::from_bytes(&bytes).unwrap();
        assert!(net.description.starts_with("NeuroChess TD(0)"), "{}", net.description);
        let r = correlation_with_evals(&net, &data);
        println!("ebnn {ebnn}: accuracy {accuracy:.3}, correlation {r:.3} with the evaluations: {rows:?}");
        assert!(r > 0.1, "ebnn {ebnn}: correlation {r} with the evaluations");
        engine_plays(&bytes);
    }
}

/// Random positions: a few random plies from the start, for the AlphaZero
/// network's tests.
fn random_positions(count: u64) -> Vec<deepchess_core::shakmaty::Chess> {
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
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("greedy.pgn");
    greedy_pgn(&pgn, 600);
    let sampling = Sampling { all_positions: true, include_captures: true, include_draws: true, ..Sampling::default() };
    let data = build(dir.path(), pgn, sampling);

    let out = dir.path().join("az");
    let rows = run_learner(preset::az(Preset::Smoke), &data, &out, DeviceChoice::Flex, &FRESH, AzLearner::new).unwrap();
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
    let config = preset::az(Preset::Smoke);
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
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("greedy.pgn");
    greedy_pgn(&pgn, 200);
    let sampling = Sampling { all_positions: true, include_captures: true, include_draws: true, ..Sampling::default() };
    let data = build(dir.path(), pgn, sampling);
    let mut config = preset::az(Preset::Smoke);
    config.optim.epochs = 2;
    config.data.per_epoch = 1_024;

    // One generation, then the run is killed and resumed for the second.
    let out = dir.path().join("self-play");
    let first = RunOptions { max_epochs: Some(1), ..FRESH };
    let rows = run_learner(config.clone(), &data, &out, DeviceChoice::Flex, &first, AzSelfPlayLearner::new).unwrap();
    assert_eq!(rows.len(), 1);
    let rows = run_learner(config, &data, &out, DeviceChoice::Flex, &RESUME, AzSelfPlayLearner::new).unwrap();
    assert_eq!(rows.len(), 2);
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
