//! A NeuroChess run's configuration (`config.json`): `V`, its TD phase,
//! self-play, and EBNN's chess model `M` and slope fit.

use burn::config::Config;

use crate::train::runner::config::{DataConfig, MlpConfig};
use crate::train::runner::optim::OptimConfig;

/// Self-play within each epoch.
#[derive(Config, Debug)]
pub struct SelfPlayConfig {
    /// Games per epoch (0: expert games only).
    #[config(default = 32)]
    pub games: usize,
    /// Search nodes per move.
    #[config(default = 800)]
    pub nodes: u64,
    /// Half-moves after which a game is a draw.
    #[config(default = 300)]
    pub max_plies: usize,
    /// Each game starts from a random one of the first this many positions
    /// of a random training game (so that games differ).
    #[config(default = 20)]
    pub start_within: usize,
}

/// Explanation-based learning (EBNN): the chess model and the slope fit.
#[derive(Config, Debug)]
pub struct EbnnConfig {
    /// Train `M` first, then fit `V`'s slopes too.
    #[config(default = false)]
    pub enabled: bool,
    /// `M`'s hidden widths (Thrun: one layer of 165).
    pub model: MlpConfig,
    /// `M`'s phase: epochs, batch, optimizer.
    pub optim: OptimConfig,
    /// Transitions (a position and the one two plies later) per epoch of `M`.
    #[config(default = 200_000)]
    pub per_epoch: usize,
    /// Weight of the slope error beside the value error.
    #[config(default = 1.0)]
    pub slope_weight: f64,
    /// Random directions per position.
    #[config(default = 2)]
    pub directions: usize,
}

/// A NeuroChess run's configuration, saved as `config.json`.
#[derive(Config, Debug)]
pub struct NeuroChessConfig {
    /// `V`'s hidden widths (Thrun: 175 inputs, 165 hidden, 1 output).
    pub model: MlpConfig,
    /// `V`'s TD phase.
    pub optim: OptimConfig,
    /// `per_epoch`: steps from expert games per epoch; `val`: held-out steps.
    pub data: DataConfig,
    /// Self-play games per epoch and their search.
    pub self_play: SelfPlayConfig,
    /// EBNN, on or off.
    pub ebnn: EbnnConfig,
    /// The discount per two plies.
    #[config(default = 0.98)]
    pub gamma: f64,
    /// The weight of a step whose target is the game's outcome, against 1
    /// for the others (Thrun: 20).
    #[config(default = 1.0)]
    pub final_rate: f64,
    /// Fit quiescent positions only (Thrun's).
    #[config(default = false)]
    pub quiescent_only: bool,
}
