//! `deepchess train neurochess`: NeuroChess's evaluation (Thrun,
//! *Learning to Play the Game of Chess*, NIPS 1995).
//!
//! An evaluation network `V` (768 inputs from the side to move, hidden ReLU
//! layers, a `tanh` output: +1 a win, −1 a loss) learns by TD(0) with
//! γ = 0.98 and the final outcome as the only reward ([`crate::train::learned::td`]):
//! `V(s_t) ← γ V(s_{t+2})`, the target read from the network and not
//! differentiated (semi-gradient TD). Each epoch's steps interleave:
//!
//! - **self-play**: games of the current network against itself through the
//!   engine's scalar search at a fixed node budget, each from a position of
//!   a training game ([`crate::train::learned::self_play`]);
//! - **expert games**: whole games of the dataset (engine games of TCEC and
//!   CCC, say), every position of each.
//!
//! **EBNN** (`ebnn.enabled`): first a chess model `M` learns to predict the
//! position two plies ahead (its 768 bits, a logistic output per bit) from
//! expert games. Then `V` fits, beside the TD values, the slopes that `M`
//! explains: the derivative of the target `γ V(M(s))` with respect to the
//! inputs, by tangent propagation. Slopes are compared along `k` random
//! Gaussian directions per position (forward mode, [`crate::train::learned::tangent`]):
//! for `d ~ N(0, I/n)`, `E[(gᵀd − hᵀd)²] = ‖g − h‖² / n`, so the mean squared
//! directional error is an unbiased estimate of Thrun's squared slope error
//! (over the `n` = 768 inputs) at `k` passes instead of 768.
//!
//! Thrun's two aids, off in `quick` and on in `paper`: the steps whose
//! target is the game's outcome (the last two plies of each game) weigh
//! `final_rate` times as much as the others (Thrun: a learning rate 20 times
//! larger on final values, without which `V` drifts towards 0), and with
//! `quiescent_only` only quiescent positions ([`crate::train::learned::td::quiescent`])
//! are fitted (their targets still read whatever position comes two plies
//! later).
//!
//! Validation: the TD loss on held-out games (every position, final values
//! weighed 1), and the share of positions of held-out decisive games where
//! the value has the sign of the result.

use std::path::Path;
use std::sync::Mutex;

use burn::module::Module;
use burn::tensor::activation::log_sigmoid;
use burn::tensor::{Device, Distribution, Tensor, TensorData};
use deepchess_core::learned::{Activation, InputKind, LearnedNet, OutputKind};
use deepchess_core::shakmaty::Chess;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::data::{Dataset, mix};
use crate::train::learned::mlp::{Mlp, fit_cp_scale};
use crate::train::learned::self_play;
use crate::train::learned::tangent;
use crate::train::learned::td::{Games, Step, game_steps};
use crate::train::runner::device::{self, DeviceChoice};
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::{self, EpochRow};
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::{Positions, random, seeded, tensor_values};

mod config;

pub use config::{EbnnConfig, NeuroChessConfig, SelfPlayConfig};

/// The input encoding.
pub const INPUT: InputKind = InputKind::SideToMove768;
/// The hidden layers' activation, in `V` and in `M`.
const HIDDEN: Activation = Activation::Relu;
/// Centipawns per unit of value while self-playing (the search's margins
/// need a scale; the export fits its own).
const SELF_PLAY_CP_SCALE: f32 = 400.0;

/// `V` and, with EBNN, `M`.
#[derive(Module, Debug)]
pub struct NeuroChessNet {
    /// The evaluation: one output, `tanh` of it the value.
    pub value: Mlp,
    /// The chess model: 768 logits, the bits two plies ahead.
    pub chess_model: Option<Mlp>,
}

/// What the last epoch's self-play gave.
#[derive(Clone, Copy, Debug, Default)]
struct SelfPlayStats {
    games: usize,
    white: usize,
    draws: usize,
    black: usize,
    plies: usize,
}

/// The NeuroChess learner.
pub struct NeuroChessLearner {
    config: NeuroChessConfig,
    device: Device,
    train: Dataset,
    val: Dataset,
    games: Games,
    val_steps: Vec<Step>,
    stats: Mutex<SelfPlayStats>,
}

impl NeuroChessLearner {
    /// Opens the dataset directory `data` (every position of each game:
    /// `data build --all-positions --include-captures --include-draws`).
    pub fn new(config: NeuroChessConfig, data: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        let (device, message) = device::select(device)?;
        if !quiet {
            eprintln!("{message}");
        }
        let train = Dataset::open(&data.join("train.bin"))?;
        let val = Dataset::open(&data.join("val.bin"))?;
        let games = Games::new(train.records());
        anyhow::ensure!(!games.is_empty(), "the training split has no game");
        anyhow::ensure!(
            games.with_gaps * 100 <= games.len(),
            "{} of {} training games skip plies: TD needs every position of each game \
             (deepchess data build --all-positions --include-captures --include-draws)",
            games.with_gaps,
            games.len()
        );
        let gamma = config.gamma as f32;
        let val_games = Games::new(val.records());
        let mut val_steps = Vec::new();
        for g in 0..val_games.len() {
            if val_steps.len() >= config.data.val {
                break;
            }
            if let Some((positions, result)) = val_games.positions(val.records(), g) {
                val_steps.extend(game_steps(&positions, result, gamma, INPUT));
            }
        }
        val_steps.truncate(config.data.val);
        anyhow::ensure!(!val_steps.is_empty(), "the validation split has no game");
        Ok(NeuroChessLearner { config, device, train, val, games, val_steps, stats: Mutex::default() })
    }

    fn ebnn(&self) -> bool {
        self.config.ebnn.enabled
    }

    /// The index of the TD phase.
    fn td_phase(&self) -> usize {
        usize::from(self.ebnn())
    }

    fn gamma(&self) -> f32 {
        self.config.gamma as f32
    }

    /// Whether the TD phase fits `step` (all, or the quiescent ones).
    fn fits(&self, step: &Step) -> bool {
        !self.config.quiescent_only || step.quiescent
    }

    fn positions<'a>(&self, lists: impl Iterator<Item = &'a [u16]>) -> Positions {
        Positions::from_lists(lists, INPUT.inputs(), &self.device)
    }

    /// A random training game's positions and result (`None`: damaged).
    fn random_game(&self, rng: &mut SmallRng) -> Option<(Vec<Chess>, f32)> {
        self.games.positions(self.train.records(), rng.random_range(0..self.games.len()))
    }

    /// About `count` steps from random whole training games; `transitions`
    /// keeps only steps with a position two plies later.
    fn expert_steps(&self, count: usize, transitions: bool, rng: &mut SmallRng) -> Vec<Step> {
        let mut steps = Vec::with_capacity(count + 400);
        let mut attempts = 0;
        while steps.len() < count && attempts < count.max(64) {
            attempts += 1;
            let Some((positions, result)) = self.random_game(rng) else { continue };
            let game = game_steps(&positions, result, self.gamma(), INPUT);
            // The chess model's transitions are every position's; TD's, as `fits` says.
            let keep = |s: &Step| if transitions { s.later.is_some() } else { self.fits(s) };
            steps.extend(game.into_iter().filter(keep));
        }
        steps.truncate(count);
        steps
    }

    /// `V`'s network as core runs it, the value for the side to move.
    fn to_learned(&self, value: &Mlp, cp_scale: f32, description: String) -> anyhow::Result<LearnedNet> {
        value.to_learned(INPUT, HIDDEN, OutputKind::Tanh, false, cp_scale, description)
    }

    /// This epoch's self-play games by `value`, their steps.
    fn self_play(&self, value: &Mlp, rng: &mut SmallRng) -> anyhow::Result<Vec<Step>> {
        let config = &self.config.self_play;
        if config.games == 0 {
            return Ok(Vec::new());
        }
        let net = self.to_learned(value, SELF_PLAY_CP_SCALE, "NeuroChess self-play".into())?;
        let starts: Vec<Chess> = (0..config.games)
            .filter_map(|_| {
                let (positions, _) = self.random_game(rng)?;
                let within = positions.len().min(config.start_within.max(1));
                Some(positions[rng.random_range(0..within)].clone())
            })
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(starts.len().max(1));
        let games: Vec<self_play::SelfPlayGame> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (net, starts) = (&net, &starts);
                    scope.spawn(move || {
                        starts
                            .iter()
                            .skip(t)
                            .step_by(threads)
                            .map(|s| self_play::play(net, s.clone(), config.nodes, config.max_plies))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().expect("a self-play thread")).collect()
        });
        let mut stats = SelfPlayStats { games: games.len(), ..SelfPlayStats::default() };
        let mut steps = Vec::new();
        for game in &games {
            match game.white_result {
                r if r > 0.0 => stats.white += 1,
                r if r < 0.0 => stats.black += 1,
                _ => stats.draws += 1,
            }
            stats.plies += game.positions.len() - 1;
            let game = game_steps(&game.positions, game.white_result, self.gamma(), INPUT);
            steps.extend(game.into_iter().filter(|s| self.fits(s)));
        }
        *self.stats.lock().expect("stats") = stats;
        Ok(steps)
    }

    /// `tanh(V)` of `batch`'s positions (`[n]`, with its graph) and their
    /// TD targets (`[n]`, held fixed), in one forward pass over the
    /// positions and the later positions the targets read.
    fn td_values(&self, value: &Mlp, batch: &[Step]) -> (Tensor<1>, Tensor<1>) {
        let n = batch.len();
        let pending = batch.iter().filter(|s| s.outcome.is_none());
        let lists = batch.iter().map(|s| s.now.as_slice());
        let lists = lists.chain(pending.map(|s| s.later.as_deref().unwrap_or(&[])));
        let out = value.forward(&self.positions(lists), HIDDEN);
        let total = out.dims()[0];
        let v = burn::tensor::activation::tanh(out).reshape([total]);
        let mut later = tensor_values(v.clone().narrow(0, n, total - n).detach()).into_iter();
        let targets: Vec<f32> =
            batch.iter().map(|s| s.outcome.unwrap_or_else(|| self.gamma() * later.next().unwrap_or(0.0))).collect();
        (v.narrow(0, 0, n), Tensor::<1>::from_data(TensorData::new(targets, [n]), &self.device))
    }

    /// The TD loss of `batch`: the mean squared difference between `V(now)`
    /// and its target, plus the slope error with EBNN.
    fn td_loss(&self, model: &NeuroChessNet, batch: &[Step]) -> Tensor<1> {
        let (now, targets) = self.td_values(&model.value, batch);
        let squared = now.sub(targets).powi_scalar(2);
        let rate = self.config.final_rate as f32;
        let loss = if rate == 1.0 {
            squared.mean()
        } else {
            // A final value's error weighs `rate` times as much (the mean
            // over the batch is kept, so the other steps' rate is unchanged).
            let weights: Vec<f32> = batch.iter().map(|s| if s.outcome.is_some() { rate } else { 1.0 }).collect();
            let weights = Tensor::<1>::from_data(TensorData::new(weights, [batch.len()]), &self.device);
            squared.mul(weights).mean()
        };
        let pending: Vec<&Step> = batch.iter().filter(|s| s.outcome.is_none()).collect();
        match &model.chess_model {
            Some(chess_model) if !pending.is_empty() && self.config.ebnn.slope_weight > 0.0 => {
                let slope = self.slope_loss(&model.value, chess_model, &pending);
                loss.add(slope.mul_scalar(self.config.ebnn.slope_weight))
            }
            _ => loss,
        }
    }

    /// Tangent propagation: `V`'s slopes at `steps`' positions against those
    /// of `γ V(M(s))` (both along the same random directions; the target's
    /// `V` and `M` not differentiated).
    fn slope_loss(&self, value: &Mlp, chess_model: &Mlp, steps: &[&Step]) -> Tensor<1> {
        let k = self.config.ebnn.directions.max(1);
        let positions = self.positions(steps.iter().map(|s| s.now.as_slice()));
        // Unit length on average: the slope error is then ‖g − h‖² / 768.
        let sd = 1.0 / (INPUT.inputs() as f64).sqrt();
        let d = random([k * steps.len(), INPUT.inputs()], Distribution::Normal(0.0, sd), &self.device);
        // V's slopes along d, differentiated.
        let (z, dz) = tangent::first_sparse(value, &positions, d.clone());
        let (out, dout) = tangent::forward(value, z, dz, HIDDEN);
        let (_, slope) = tangent::tanh(out, dout);
        // The explanation's: M's prediction moves along J_M d, and V's value of it.
        let (value, chess_model) = (value.clone().no_grad(), chess_model.clone().no_grad());
        let (z, dz) = tangent::first_sparse(&chess_model, &positions, d);
        let (logits, dlogits) = tangent::forward(&chess_model, z, dz, HIDDEN);
        let (m, dm) = tangent::logistic(logits, dlogits);
        let (z, dz) = tangent::first_dense(&value, m, dm);
        let (out, dout) = tangent::forward(&value, z, dz, HIDDEN);
        let (_, target) = tangent::tanh(out, dout);
        slope.sub(target.mul_scalar(self.gamma()).detach()).powi_scalar(2).mean()
    }

    /// The chess model's loss: binary cross-entropy of its logits against
    /// the bits of the position two plies later, per bit.
    fn model_loss(&self, chess_model: &Mlp, batch: &[Step]) -> Tensor<1> {
        let logits = chess_model.forward(&self.positions(batch.iter().map(|s| s.now.as_slice())), HIDDEN);
        let inputs = INPUT.inputs();
        let mut bits = vec![0f32; batch.len() * inputs];
        for (row, step) in batch.iter().enumerate() {
            for &b in step.later.as_deref().unwrap_or(&[]) {
                bits[row * inputs + usize::from(b)] = 1.0;
            }
        }
        let target = Tensor::<2>::from_data(TensorData::new(bits, [batch.len(), inputs]), &self.device);
        let per_bit = target.clone().mul(log_sigmoid(logits.clone()))
            + target.neg().add_scalar(1.0).mul(log_sigmoid(logits.neg()));
        per_bit.mean().neg()
    }

    /// The exported network: the value for the side to move, its centipawn
    /// scale fitted to the evaluations recorded in the validation games
    /// (400 if they are too few).
    pub fn export(&self, value: &Mlp, description: String) -> anyhow::Result<LearnedNet> {
        let unit = self.to_learned(value, 1.0, description)?;
        let within = |cp: f64| (cp.abs() <= 1000.0).then_some(cp);
        let scale = fit_cp_scale(&unit, self.val.records(), within).unwrap_or(SELF_PLAY_CP_SCALE);
        Ok(unit.with_cp_scale(scale)?)
    }
}

impl Learner for NeuroChessLearner {
    type Model = NeuroChessNet;
    type Item = Step;

    fn phases(&self) -> Vec<Phase> {
        let td = Phase { name: "td".into(), unit: "steps", optim: self.config.optim.clone() };
        if self.ebnn() {
            let model =
                Phase { name: "chess model".into(), unit: "transitions", optim: self.config.ebnn.optim.clone() };
            vec![model, td]
        } else {
            vec![td]
        }
    }

    fn loss_name(&self) -> &'static str {
        "TD loss"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<NeuroChessNet> {
        let widths: Vec<usize> = self.config.model.hidden.iter().copied().chain([1]).collect();
        let chess_widths: Vec<usize> = self.config.ebnn.model.hidden.iter().copied().chain([INPUT.inputs()]).collect();
        let build = |device: &Device| NeuroChessNet {
            value: Mlp::new(INPUT.inputs(), &widths, device),
            chess_model: self.ebnn().then(|| Mlp::new(INPUT.inputs(), &chess_widths, device)),
        };
        Ok(seeded((!resumed).then_some(self.config.data.seed), &self.device, build))
    }

    fn epoch(&self, model: &NeuroChessNet, phase: usize, epoch: usize) -> anyhow::Result<Vec<Step>> {
        let mut rng = SmallRng::seed_from_u64(mix(self.config.data.seed, (phase * 100_000 + epoch) as u64));
        if phase != self.td_phase() {
            return Ok(self.expert_steps(self.config.ebnn.per_epoch, true, &mut rng));
        }
        let mut steps = self.self_play(&model.value, &mut rng)?;
        steps.extend(self.expert_steps(self.config.data.per_epoch, false, &mut rng));
        steps.shuffle(&mut rng);
        Ok(steps)
    }

    fn loss(&self, model: &NeuroChessNet, phase: usize, batch: &[Step], _at: usize) -> Loss {
        let loss = match (&model.chess_model, phase == self.td_phase()) {
            (Some(chess_model), false) => self.model_loss(chess_model, batch),
            _ => self.td_loss(model, batch),
        };
        Loss { loss, correct: None }
    }

    fn validate(&self, model: &NeuroChessNet, phase: usize, detail: bool) -> anyhow::Result<Validation> {
        // Only what the phase trained is taken out of the graph: burn
        // initialises parameters lazily, and `no_grad` on a clone of a
        // parameter not yet drawn would also apply to the original.
        if let (Some(chess_model), false) = (&model.chess_model, phase == self.td_phase()) {
            let chess_model = &chess_model.clone().no_grad();
            let transitions: Vec<Step> = self.val_steps.iter().filter(|s| s.later.is_some()).cloned().collect();
            let mut loss = 0f64;
            for chunk in transitions.chunks(1024) {
                loss += f64::from(self.model_loss(chess_model, chunk).into_scalar::<f32>()) * chunk.len() as f64;
            }
            return Ok(Validation { loss: loss / transitions.len().max(1) as f64, accuracy: None, detail: None });
        }
        let (mut loss, mut right, mut decisive) = (0f64, 0usize, 0usize);
        let value = model.value.clone().no_grad();
        for chunk in self.val_steps.chunks(1024) {
            // The value error only: the slope error is a training aid.
            let (now, targets) = self.td_values(&value, chunk);
            loss += f64::from(now.clone().sub(targets).powi_scalar(2).mean().into_scalar::<f32>()) * chunk.len() as f64;
            for (v, s) in tensor_values(now).iter().zip(chunk) {
                if s.result != 0.0 {
                    decisive += 1;
                    right += usize::from(v * s.result > 0.0);
                }
            }
        }
        let stats = *self.stats.lock().expect("stats");
        let detail = (detail && stats.games > 0).then(|| {
            format!(
                "self-play: {} games, {} / {} / {} (White wins / draws / Black wins), {:.0} plies on average",
                stats.games,
                stats.white,
                stats.draws,
                stats.black,
                stats.plies as f64 / stats.games as f64
            )
        });
        Ok(Validation {
            loss: loss / self.val_steps.len() as f64,
            accuracy: (decisive > 0).then(|| right as f64 / decisive as f64),
            detail,
        })
    }

    fn save(&self, run: &RunDir, model: &NeuroChessNet, rows: &[EpochRow]) -> anyhow::Result<()> {
        if rows.last().is_none_or(|r| r.phase != self.td_phase() + 1) {
            return Ok(());
        }
        let td_epochs = rows.iter().filter(|r| r.phase == self.td_phase() + 1).count();
        let accuracy = rows.last().and_then(|r| r.val_accuracy).unwrap_or(0.0);
        let self_play = &self.config.self_play;
        let description = format!(
            "NeuroChess TD(0) (768 inputs from the side to move, ReLU {:?}, tanh; γ = {}; final values × {}; {}; {} self-play games of {} nodes a move per epoch; EBNN {}); {td_epochs} epochs; held-out result-sign accuracy {accuracy:.4}",
            self.config.model.hidden,
            self.config.gamma,
            self.config.final_rate,
            if self.config.quiescent_only { "quiescent positions only" } else { "every position" },
            self_play.games,
            self_play.nodes,
            if self.ebnn() { "on" } else { "off" },
        );
        let bytes = self.export(&model.value, description)?.to_bytes();
        run.save_learned(&bytes, metrics::last_is_best(rows, |r| r.val_accuracy))
    }
}
