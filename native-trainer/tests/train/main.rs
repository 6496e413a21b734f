//! Training on burn's flex backend: smoke runs, exact resume, the sparse
//! first layer against a dense product, and each exported network against
//! burn's, for DeepChess's learners ([`deepchess`]), the other learners
//! ([`learned`]), the AlphaZero reimplementation's ([`alphazero`]) and the value network
//! ([`value`]); a panic in a step ([`crash`], with the fail points); built
//! with wgpu too, every learner on wgpu against flex (`wgpu.rs`, part of
//! `make test`). One test binary: the tests that train take turns
//! ([`TRAINING`]).

#![cfg(feature = "flex")]

mod alphazero;
#[cfg(feature = "failpoints")]
mod crash;
mod deepchess;
#[path = "../common/learnable.rs"]
mod learnable;
mod learned;
mod value;
#[cfg(feature = "wgpu")]
mod wgpu;

use learnable::{balance, learnable_pgn};

use std::io::Write;
use std::path::Path;

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Int, Tensor, TensorData};
use deepchess_core::shakmaty::san::San;
use deepchess_core::shakmaty::{Position, Role};
use deepchess_core::{Features, Network, seeded};
use deepchess_trainer::data::{self, BuildOptions, Dataset, HeldOut, LabelOptions, Labels, Sampling};
use deepchess_trainer::eval::accuracy;
use deepchess_trainer::train::alphazero::self_play::AzSelfPlayLearner;
use deepchess_trainer::train::alphazero::supervised::{AzConfig, AzLearner};
use deepchess_trainer::train::deepchess::distill::{DistillConfig, DistillLearner};
use deepchess_trainer::train::deepchess::model::Siamese;
use deepchess_trainer::train::deepchess::pos2vec::{Pos2VecConfig, Pos2VecLearner};
use deepchess_trainer::train::deepchess::siamese::{SiameseConfig, SiameseLearner};
use deepchess_trainer::train::learned::dbn::{DbnConfig, DbnLearner};
use deepchess_trainer::train::learned::deep_pink::{DeepPinkConfig, DeepPinkLearner};
use deepchess_trainer::train::learned::neurochess::{NeuroChessConfig, NeuroChessLearner};
use deepchess_trainer::train::runner::batch::Encoded;
use deepchess_trainer::train::runner::device::DeviceChoice;
use deepchess_trainer::train::runner::epochs::RunOptions;
use deepchess_trainer::train::runner::epochs::run_learner;
use deepchess_trainer::train::runner::learner::Learner;
use deepchess_trainer::train::runner::metrics::EpochRow;
use deepchess_trainer::train::runner::preset::Preset;
use deepchess_trainer::train::runner::tensors::{crelu, tensor_values};

/// The dataset `dir/data` of the games in `pgn`, sampled as `sampling`
/// says, 15% of the games held out.
/// Builds `dir/data` from the games of `pgn`, 15% of them held out (by game).
fn build(dir: &Path, pgn: &[std::path::PathBuf], sampling: Sampling) -> std::path::PathBuf {
    let out = dir.join("data");
    let filter = data::GameFilter::default();
    data::build(
        &BuildOptions { pgn: pgn.to_vec(), out: out.clone(), filter, sampling, held_out: HeldOut::Permille(150) },
        true,
    )
    .unwrap();
    out
}

fn dataset(dir: &Path) -> std::path::PathBuf {
    let pgn = dir.join("fixture.pgn");
    learnable_pgn(&pgn, 1500);
    build(dir, &[pgn], Sampling { all_positions: true, ..Sampling::default() })
}

/// A training test's turn ([`TRAINING`]), its directory, and a dataset in it.
struct Fixture {
    _turn: std::sync::MutexGuard<'static, ()>,
    dir: tempfile::TempDir,
    data: std::path::PathBuf,
}

/// Writes a PGN file of so many games.
type WritePgn = fn(&Path, u64);

/// Takes the training turn and builds, in a fresh directory, the dataset of
/// `games` games that `pgn` writes, sampled as `sampling` says; without
/// `pgn`, the default fixture, [`dataset`], whose sampling is its own
/// (`all_positions` only: `sampling` is not read).
fn fixture(pgn: Option<(WritePgn, u64)>, sampling: Sampling) -> Fixture {
    let _turn = TRAINING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let data = match pgn {
        Some((write, games)) => {
            let path = dir.path().join("games.pgn");
            write(&path, games);
            build(dir.path(), &[path], sampling)
        }
        None => dataset(dir.path()),
    };
    Fixture { _turn, dir, data }
}

/// Trains (or resumes) on flex the run in `out` of the learner `new` makes
/// from `config`, on `data`.
fn train<C: Config, L: Learner>(
    config: C,
    data: &Path,
    out: &Path,
    options: &RunOptions,
    new: impl FnOnce(C, &Path, DeviceChoice, bool) -> anyhow::Result<L>,
) -> Vec<EpochRow> {
    run_learner(config, data, out, DeviceChoice::Flex, options, new).unwrap()
}

/// Every position of each game, captures and draws included.
fn every_position() -> Sampling {
    Sampling { all_positions: true, include_captures: true, include_draws: true, ..Sampling::default() }
}

/// Training seeds the flex device's random generator, which every test in
/// this process shares: tests that train take turns, so runs are reproducible.
static TRAINING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A run from its start, without progress bars.
const FRESH: RunOptions = RunOptions { resume: false, quiet: true, max_epochs: None, stop_after: None };
/// A resumed run.
const RESUME: RunOptions = RunOptions { resume: true, quiet: true, max_epochs: None, stop_after: None };

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
