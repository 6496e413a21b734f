//! Several processes under `mpirun` (the `mpi` feature), on localhost:
//! two ranks train as one process with the same batch, two ranks of
//! datagen play the same games as one, and a rank that dies fails the run,
//! which `--resume` continues. Needs Open MPI's `mpirun` on the path
//! (`make test` installs it).

#![cfg(feature = "mpi")]

#[path = "common/learnable.rs"]
mod learnable;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use deepchess_core::FloatNetwork;

const BIN: &str = env!("CARGO_BIN_EXE_deepchess");

/// `deepchess args…` on `ranks` local ranks.
fn mpirun<S: AsRef<std::ffi::OsStr>>(ranks: usize, args: &[S]) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["--oversubscribe", "-np", &ranks.to_string(), BIN])
        .args(args)
        // Containers and CI run as root, which Open MPI refuses unless told.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    command
}

/// `deepchess args…` in one process, without a launcher.
fn alone<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Command {
    let mut command = Command::new(BIN);
    command.args(args);
    command
}

fn succeed(mut command: Command) -> Output {
    let output = command.output().expect("mpirun and deepchess start");
    assert!(output.status.success(), "{command:?}: {}", String::from_utf8_lossy(&output.stderr));
    output
}

/// A small dataset of learnable games in `dir/data`.
fn dataset(dir: &Path) -> String {
    let pgn = dir.join("games.pgn");
    learnable::learnable_pgn(&pgn, 300);
    let data = dir.join("data");
    succeed(alone(&["data", "build", "--pgn", pgn.to_str().unwrap(), "--out", data.to_str().unwrap(), "--quiet"]));
    data.to_str().unwrap().to_string()
}

/// Every weight and bias of a run's float network, in order.
fn weights(run: &Path) -> Vec<f32> {
    let net = FloatNetwork::from_float_bytes(&std::fs::read(run.join("model.dcnf")).unwrap()).unwrap();
    net.tower()
        .iter()
        .chain(net.head())
        .chain(net.utility_layer())
        .flat_map(|layer| layer.weights().iter().chain(layer.bias()).copied())
        .collect()
}

/// The largest difference between two runs' weights.
fn largest_difference(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// The float tolerance between one process and two ranks after the same
/// steps: the ranks add the batch's gradient in two halves, so the sums
/// differ in their last bits, and Adam's steps carry that on.
const TOLERANCE: f32 = 1e-4;

#[test]
fn two_ranks_train_as_one_process_with_the_same_batch() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    for (learner, extra) in [
        ("siamese", &["--preset", "smoke", "--per-epoch", "1024", "--batch-size", "64"][..]),
        ("value", &["--preset", "smoke", "--per-epoch", "2048", "--batch-size", "128"][..]),
    ] {
        let one = dir.path().join(format!("{learner}-1"));
        let two = dir.path().join(format!("{learner}-2"));
        let args = |out: &Path, extra: &[&str]| -> Vec<String> {
            let out = out.to_str().unwrap();
            let common = ["train", learner, "--data", &data, "--device", "flex", "--epochs", "2", "--out", out];
            common.iter().chain(extra).map(|s| s.to_string()).collect()
        };
        succeed(alone(&args(&one, extra)));
        let output = succeed(mpirun(2, &args(&two, extra)));
        let log = String::from_utf8_lossy(&output.stderr);
        assert!(log.contains("(2 ranks; all-reduce"), "{learner}: the run was not split: {log}");
        let (a, b) = (weights(&one), weights(&two));
        let difference = largest_difference(&a, &b);
        assert!(difference < TOLERANCE, "{learner}: weights differ by {difference}");
        // Not two copies of an untrained network: training moved the weights.
        let fresh = dir.path().join(format!("{learner}-0"));
        succeed(alone(&args(
            &fresh,
            &["--preset", "smoke", "--per-epoch", "1", "--batch-size", "1", "--learning-rate", "0"],
        )));
        assert!(largest_difference(&a, &weights(&fresh)) > 100.0 * TOLERANCE, "{learner}: training did not move");
        let metrics = |run: &Path| std::fs::read_to_string(run.join("metrics.csv")).unwrap();
        let losses = |text: String| -> Vec<f64> {
            text.lines().skip(1).map(|l| l.split(',').nth(3).unwrap().parse().unwrap()).collect()
        };
        for (x, y) in losses(metrics(&one)).iter().zip(losses(metrics(&two))) {
            assert!((x - y).abs() < 1e-4, "{learner}: training losses {x} and {y}");
        }
    }
}

/// The games of a datagen file, each as its text, sorted.
fn games(path: &Path) -> Vec<String> {
    let text = String::from_utf8(zstd::decode_all(std::fs::File::open(path).unwrap()).unwrap()).unwrap();
    let mut games: Vec<String> = text.split("[Event ").skip(1).map(str::to_string).collect();
    games.sort();
    games
}

#[test]
fn two_ranks_of_datagen_play_the_same_games_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!("{BIN} uci");
    let run = |ranks: usize, name: &str| {
        let out = dir.path().join(name);
        let args = [
            "datagen",
            "--engine",
            &engine,
            "--nodes",
            "150",
            "--games",
            "6",
            "--random-plies",
            "4",
            "--max-plies",
            "40",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        succeed(if ranks == 1 { alone(&args) } else { mpirun(ranks, &args) });
        games(&out)
    };
    let one = run(1, "one.pgn.zst");
    assert_eq!(one.len(), 6);
    let rounds: std::collections::BTreeSet<&str> =
        one.iter().map(|g| g.lines().find(|l| l.starts_with("[Round ")).unwrap()).collect();
    assert_eq!(rounds.len(), 6, "a game number twice");
    // Random plies make the games differ: the comparison below is not of six copies.
    assert!(one.iter().collect::<std::collections::BTreeSet<_>>().len() == 6);
    assert_eq!(run(2, "two.pgn.zst"), one);
    assert_eq!(run(2, "again.pgn.zst"), one);
}

/// The process of `rank` among those whose command line names `marker`.
fn rank_process(marker: &str, rank: usize) -> Option<u32> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let named = String::from_utf8_lossy(&cmdline).contains(marker);
        let ranked = environ.split(|&b| b == 0).any(|v| v == format!("OMPI_COMM_WORLD_RANK={rank}").as_bytes());
        if named && ranked && !String::from_utf8_lossy(&cmdline).starts_with("mpirun") {
            return Some(pid);
        }
    }
    None
}

#[test]
fn a_dead_rank_fails_the_run_and_resume_continues() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    let out = dir.path().join("killed-run");
    let out_text = out.to_str().unwrap();
    let args = [
        "train",
        "siamese",
        "--data",
        &data,
        "--out",
        out_text,
        "--device",
        "flex",
        "--preset",
        "smoke",
        "--epochs",
        "1000",
        "--per-epoch",
        "2048",
        "--batch-size",
        "64",
        "--quiet",
    ];
    let child = mpirun(2, &args).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let state = out.join("state.json");
    let start = Instant::now();
    while !state.exists() {
        assert!(start.elapsed() < Duration::from_secs(300), "no epoch finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = rank_process(out_text, 1).expect("rank 1 runs");
    Command::new("kill").args(["-9", &pid.to_string()]).status().unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success());
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(log.contains("rank 1") && log.contains("signal 9"), "{log}");

    let done = |text: String| -> usize {
        let state: serde_json::Value = serde_json::from_str(&text).unwrap();
        state["epochs_done"].as_u64().unwrap() as usize
    };
    let before = done(std::fs::read_to_string(&state).unwrap());
    assert!(before >= 1);
    let mut resume: Vec<&str> = args.to_vec();
    resume.extend(["--resume", "--max-epochs", "2"]);
    succeed(mpirun(2, &resume));
    assert_eq!(done(std::fs::read_to_string(&state).unwrap()), before + 2);
    let rows = std::fs::read_to_string(out.join("metrics.csv")).unwrap().lines().count() - 1;
    assert_eq!(rows, before + 2);
}
