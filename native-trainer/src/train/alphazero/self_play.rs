//! `deepchess train az --self-play`: AlphaZero's reinforcement loop, one
//! generation per epoch.
//!
//! Each generation plays `play.games` self-play games with the last
//! accepted network through MCTS ([`crate::train::alphazero::games`]: root noise,
//! the temperature schedule), adds their positions to a replay buffer (the
//! newest `play.buffer`), and trains the network on `data.per_epoch`
//! positions drawn from the buffer with the supervised loss, `π` being the
//! root's visit distribution. After the epoch the trained network plays a
//! gate match of `play.gate_games` against the last accepted one, and
//! replaces it if it scores at least `play.gate_score` (AlphaGo Zero's
//! evaluator; with no gate games every generation is accepted).
//!
//! Each generation appends to `self-play.csv` (games, results, positions,
//! the buffer) and `gates.csv` (the gate's W/D/L, its Elo difference, whether
//! accepted, and the accepted chain's Elo relative to the first network),
//! which `gates.svg` plots. `best.dcaz` is the last accepted network,
//! `model.dcaz` the last trained. Validation is the supervised one, on
//! positions of the dataset's held-out games.
//!
//! Each generation also writes the replay buffer (`buffer.bin.zst`, the
//! samples as they travel between MPI ranks, zstd-compressed). Resuming
//! restarts from the saved network and optimizer, the buffer and
//! `best.dcaz` as the accepted network, so a stopped run goes on as if it
//! had not stopped.

use std::collections::VecDeque;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context as _;
use burn::module::Module;
use deepchess_core::alphazero::AzNet;
use plotters::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::mix;
use crate::train::alphazero::games;
use crate::train::alphazero::model::AzModel;
use crate::train::alphazero::supervised::{self, AzConfig, AzLearner, Sample};
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::run_dir::{BEST_AZ_NETWORK, RunDir};

/// The replay buffer's file in the run directory.
pub const BUFFER_FILE: &str = "buffer.bin.zst";

/// What carries over from one generation to the next.
#[derive(Default)]
struct State {
    buffer: VecDeque<Sample>,
    accepted: Option<AzNet>,
    /// The accepted network's Elo relative to the first.
    elo: f64,
    /// The last generation's games: results (White wins, draws, Black
    /// wins) and plies, for `self-play.csv`.
    games: Option<([usize; 3], usize)>,
    /// Whether the run resumed (its CSV files continue) and whether they
    /// have been opened in this process yet.
    resumed: bool,
    opened: bool,
}

/// The self-play learner: the supervised learner's model, loss and
/// validation, with games instead of a dataset's positions.
pub struct AzSelfPlayLearner {
    base: AzLearner,
    config: AzConfig,
    state: Mutex<State>,
    /// Games played at once (threads), in self-play and gates.
    jobs: usize,
    /// The run directory, where a resumed run finds its buffer and its
    /// accepted network.
    run: PathBuf,
}

/// The Elo difference of a score of `points` in `games` games, the score
/// kept half a point from 0 and from 1 so that a clean sweep stays finite.
pub fn elo_of(points: f64, games: f64) -> f64 {
    crate::play::stats::elo_from_score((points / games).clamp(0.5 / games, 1.0 - 0.5 / games))
}

impl AzSelfPlayLearner {
    /// Opens the dataset directory `data` (for validation) for `config`,
    /// training into the run directory `run`; it plays as many games at
    /// once as the machine has cores.
    pub fn new(config: AzConfig, data: &Path, run: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        let base = AzLearner::new(config.clone(), data, device, quiet)?;
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
        let run = run.to_owned();
        Ok(AzSelfPlayLearner { base, config, state: Mutex::new(State::default()), jobs, run })
    }

    /// Plays `jobs` games at once (at least one). Each game is drawn from
    /// its own number, so any count plays the same games.
    pub fn with_jobs(self, jobs: usize) -> Self {
        AzSelfPlayLearner { jobs: jobs.max(1), ..self }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A resumed run's buffer and accepted network, as the stopped run saved
    /// them: rank 0 reads them and every rank gets them. A run saved before
    /// buffers were kept has neither file and refills from its next games.
    fn restore(&self) -> anyhow::Result<()> {
        let read = |name: &str| -> anyhow::Result<Vec<u8>> {
            if !crate::cluster::is_root() {
                return Ok(Vec::new());
            }
            let path = self.run.join(name);
            match std::fs::read(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
                read => read.with_context(|| format!("cannot read {}", path.display())),
            }
        };
        let best = crate::cluster::broadcast(read(BEST_AZ_NETWORK)?);
        let buffer = crate::cluster::broadcast(read(BUFFER_FILE)?);
        let mut state = self.state();
        if !best.is_empty() {
            state.accepted = Some(AzNet::from_bytes(&best).with_context(|| format!("{BEST_AZ_NETWORK} is damaged"))?);
        }
        if !buffer.is_empty() {
            let raw = zstd::decode_all(&buffer[..]).with_context(|| format!("{BUFFER_FILE} is damaged"))?;
            let mut bytes = &raw[..];
            while !bytes.is_empty() {
                let sample = Sample::read(&mut bytes).ok_or_else(|| anyhow::anyhow!("{BUFFER_FILE} is damaged"))?;
                state.buffer.push_back(sample);
            }
        }
        Ok(())
    }
}

/// Appends `line` to the CSV file `name` in `run`, writing `header` first
/// into a new file.
fn append(run: &RunDir, name: &str, header: &str, line: &str) -> anyhow::Result<()> {
    let path = run.path(name);
    let fresh = !path.exists();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    if fresh {
        writeln!(file, "{header}")?;
    }
    writeln!(file, "{line}")?;
    Ok(())
}

/// Plots the accepted chain's Elo by generation from `gates.csv`.
fn plot_gates(run: &RunDir) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(run.path("gates.csv"))?;
    let points: Vec<(f64, f64)> = text
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            Some((cells.first()?.parse().ok()?, cells.last()?.parse().ok()?))
        })
        .collect();
    let last = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let (low, high) = points.iter().fold((0f64, 0f64), |(l, h), p| (l.min(p.1), h.max(p.1)));
    let path = run.path("gates.svg");
    let root = SVGBackend::new(&path, (450, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Elo of the accepted network", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..last + 1.0, (low - 50.0)..(high + 50.0))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart.configure_mesh().x_desc("generation").draw().map_err(|e| anyhow::anyhow!("{e}"))?;
    chart.draw_series(LineSeries::new(points, BLUE)).map_err(|e| anyhow::anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

impl Learner for AzSelfPlayLearner {
    type Model = AzModel;
    type Item = Sample;

    fn phases(&self) -> Vec<Phase> {
        vec![Phase { name: "self-play".into(), unit: "positions", optim: self.config.optim.clone() }]
    }

    fn loss_name(&self) -> &'static str {
        "(z − v)² − πᵀ log p"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<AzModel> {
        if resumed {
            self.restore()?;
        }
        self.state().resumed = resumed;
        self.base.init(resumed)
    }

    fn epoch(&self, model: &AzModel, _phase: usize, epoch: usize) -> anyhow::Result<Vec<Sample>> {
        let play = &self.config.play;
        let mut state = self.state();
        if state.accepted.is_none() {
            state.accepted = Some(model.valid().to_az(String::from("generation start"))?);
        }
        let mut net = state.accepted.clone().expect("set above");
        if crate::cluster::size() > 1 {
            // Rank 0 gates (in `save`): every rank plays its accepted network.
            net = AzNet::from_bytes(&crate::cluster::broadcast(net.to_bytes()))?;
            state.accepted = Some(net.clone());
        }
        let seed = mix(self.config.data.seed, epoch as u64);
        let games = games::self_play(&net, play.games, play, self.jobs, seed)?;
        let mut results = [0usize; 3];
        let mut plies = 0;
        for game in games {
            results[if game.white_result > 0.0 {
                0
            } else if game.white_result == 0.0 {
                1
            } else {
                2
            }] += 1;
            plies += game.plies;
            state.buffer.extend(game.samples);
        }
        while state.buffer.len() > play.buffer.max(1) {
            state.buffer.pop_front();
        }
        state.games = Some((results, plies));
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5e1f);
        let buffer = &state.buffer;
        anyhow::ensure!(!buffer.is_empty(), "self-play produced no position");
        Ok((0..self.config.data.per_epoch).map(|_| buffer[rng.random_range(0..buffer.len())].clone()).collect())
    }

    fn loss(&self, model: &AzModel, phase: usize, batch: &[Sample], at: usize) -> Loss {
        self.base.loss(model, phase, batch, at)
    }

    fn validate(&self, model: &AzModel, phase: usize, detail: bool) -> anyhow::Result<Validation> {
        self.base.validate(model, phase, detail)
    }

    fn save(&self, run: &RunDir, model: &AzModel, rows: &[EpochRow]) -> anyhow::Result<()> {
        let play = &self.config.play;
        let generation = rows.len();
        let trained = model.valid().to_az(supervised::description(&self.config, "self-play", rows))?;
        let mut state = self.state();
        if !state.opened {
            // A fresh run starts its logs afresh; a resumed one continues
            // them, and its chain's Elo.
            state.opened = true;
            if state.resumed {
                state.elo = std::fs::read_to_string(run.path("gates.csv"))
                    .ok()
                    .and_then(|t| t.lines().last()?.rsplit(',').next()?.parse().ok())
                    .unwrap_or(0.0);
            } else {
                for name in ["gates.csv", "self-play.csv"] {
                    let _ = std::fs::remove_file(run.path(name));
                }
            }
        }
        let accepted = state.accepted.clone().unwrap_or_else(|| trained.clone());
        let [w, d, l] = if play.gate_games > 0 {
            games::gate(
                &trained,
                &accepted,
                play.gate_games,
                play,
                self.jobs,
                mix(self.config.data.seed ^ 0x6a7e, generation as u64),
            )
        } else {
            [0, 0, 0]
        };
        let games = f64::from(w + d + l);
        let points = f64::from(w) + 0.5 * f64::from(d);
        let pass = games == 0.0 || points / games >= play.gate_score;
        let diff = if games > 0.0 { elo_of(points, games) } else { 0.0 };
        if pass {
            state.elo += diff;
            state.accepted = Some(trained.clone());
        }
        if let Some((results, plies)) = state.games.take() {
            let count = results.iter().sum::<usize>().max(1);
            append(
                run,
                "self-play.csv",
                "generation,games,white_wins,draws,black_wins,mean_plies,buffer",
                &format!(
                    "{generation},{count},{},{},{},{:.1},{}",
                    results[0],
                    results[1],
                    results[2],
                    plies as f64 / count as f64,
                    state.buffer.len()
                ),
            )?;
        }
        append(
            run,
            "gates.csv",
            "generation,wins,draws,losses,elo_difference,accepted,elo",
            &format!("{generation},{w},{d},{l},{diff:.1},{pass},{:.1}", state.elo),
        )?;
        plot_gates(run)?;
        // Sample by sample into the encoder: a full buffer's raw bytes (5.6 KB
        // a sample) would be a second copy of the buffer in memory.
        let mut encoder = zstd::Encoder::new(Vec::new(), 3)?;
        let mut raw = Vec::new();
        for sample in &state.buffer {
            raw.clear();
            sample.write(&mut raw);
            encoder.write_all(&raw)?;
        }
        run.replace(BUFFER_FILE, &encoder.finish()?)?;
        let bytes = trained.to_bytes();
        run.save_az(&bytes, pass)
    }
}
