//! `deepchess train neurochess`: NeuroChess, TD(0) with or without EBNN.

use super::args::set;
use super::{LearnerArgs, finished};

use crate::train::learned::neurochess::{NeuroChessConfig, NeuroChessLearner};
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::preset::Preset;
use crate::train::runner::run_dir::BEST_LEARNED_NETWORK;

/// Arguments of `train neurochess`.
#[derive(clap::Args)]
pub struct NeuroChessArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `smoke` for tests, `quick` (256-32) for this machine, `paper` (alias `seed`: Thrun's 80
    /// hidden units, quiescent positions only, final values × 20).
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override the preset's self-play games per epoch (0: expert games only).
    #[arg(long)]
    self_play_games: Option<usize>,
    /// Override the preset's search nodes per self-play move.
    #[arg(long)]
    self_play_nodes: Option<u64>,
    /// Override γ, the discount per two plies.
    #[arg(long)]
    gamma: Option<f64>,
    /// Explanation-based learning: train the chess model first, then fit the slopes it explains.
    #[arg(long)]
    ebnn: bool,
    /// Override the weight of EBNN's slope error.
    #[arg(long)]
    slope_weight: Option<f64>,
    /// Override the weight of a final value (a step whose target is the game's outcome) against
    /// 1 for the others (Thrun's: 20).
    #[arg(long)]
    final_rate: Option<f64>,
    /// Fit quiescent positions only (no check, no promotion, nothing hanging), as Thrun did.
    #[arg(long)]
    quiescent_only: bool,
}

pub(super) fn run(args: &NeuroChessArgs) -> anyhow::Result<()> {
    let mut config = NeuroChessConfig::preset(args.preset);
    args.common.apply(&mut config.optim, &mut config.data);
    args.common.apply_hidden(&mut config.model);
    set(&mut config.self_play.games, args.self_play_games);
    set(&mut config.self_play.nodes, args.self_play_nodes);
    set(&mut config.gamma, args.gamma);
    config.ebnn.enabled |= args.ebnn;
    set(&mut config.ebnn.slope_weight, args.slope_weight);
    set(&mut config.final_rate, args.final_rate.map(|r| r.max(0.0)));
    config.quiescent_only |= args.quiescent_only;
    let rows = args.common.run.train(config, NeuroChessLearner::new)?;
    let figure = |last: &EpochRow| {
        let accuracy = 100.0 * last.val_accuracy.unwrap_or(0.0);
        format!("held-out result-sign accuracy {accuracy:.2}%, TD loss {:.4}", last.val_loss)
    };
    finished("neurochess", &rows, figure, &args.common.run.out.join(BEST_LEARNED_NETWORK));
    Ok(())
}
