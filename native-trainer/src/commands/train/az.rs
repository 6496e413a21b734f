//! `deepchess train az`: the AlphaZero reimplementation's network, by supervision or self-play.

use super::args::set;
use super::{LearnerArgs, finished};

use crate::train::alphazero::self_play::AzSelfPlayLearner;
use crate::train::alphazero::supervised::{AzConfig, AzLearner};
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::preset::Preset;
use crate::train::runner::run_dir::BEST_AZ_NETWORK;

/// Arguments of `train az`.
#[derive(clap::Args)]
pub struct AzArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// Train by supervision on the dataset's games: the move played and the result.
    #[arg(long, conflicts_with = "self_play", required_unless_present = "self_play")]
    supervised: bool,
    /// Train by self-play through MCTS, one generation per epoch, with gate
    /// matches (the dataset's held-out games serve validation).
    #[arg(long)]
    self_play: bool,
    /// Override the preset's self-play games per generation.
    #[arg(long)]
    games: Option<usize>,
    /// Override the preset's MCTS playouts per move in self-play and gates.
    #[arg(long)]
    playouts: Option<u32>,
    /// Override the preset's gate games (0: accept every generation).
    #[arg(long)]
    gate_games: Option<usize>,
    /// Self-play and gate games played at once, one thread each (default: the
    /// machine's cores). Any count plays the same games.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// `smoke` for tests, `quick` (6 × 64, AlphaZero's SGD) for this machine, `paper` (alias
    /// `seed`: 19 × 256 with the reimplementation's optimizers).
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override the preset's residual blocks.
    #[arg(long)]
    blocks: Option<usize>,
    /// Override the preset's filters.
    #[arg(long)]
    filters: Option<usize>,
}

pub(super) fn run(args: &AzArgs) -> anyhow::Result<()> {
    let mut config = AzConfig::preset(args.preset, args.self_play);
    args.common.apply(&mut config.optim, &mut config.data);
    set(&mut config.play.games, args.games);
    set(&mut config.play.playouts, args.playouts);
    set(&mut config.play.gate_games, args.gate_games);
    set(&mut config.model.blocks, args.blocks);
    set(&mut config.model.filters, args.filters);
    let rows = if args.self_play {
        let jobs = args.jobs.map(|j| j as usize);
        let out = args.common.run.out.clone();
        args.common.run.train(config, |config, data, device, quiet| {
            let learner = AzSelfPlayLearner::new(config, data, &out, device, quiet)?;
            Ok(match jobs {
                Some(jobs) => learner.with_jobs(jobs),
                None => learner,
            })
        })?
    } else {
        args.common.run.train(config, AzLearner::new)?
    };
    let figure = |last: &EpochRow| {
        format!("held-out policy top-1 {:.2}%, loss {:.4}", 100.0 * last.val_accuracy.unwrap_or(0.0), last.val_loss)
    };
    finished("az", &rows, figure, &args.common.run.out.join(BEST_AZ_NETWORK));
    Ok(())
}
