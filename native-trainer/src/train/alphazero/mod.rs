//! The AlphaZero reimplementation's learners: its policy-and-value network in burn
//! ([`model`]; its convolutions on a GPU backend as matrix products,
//! [`board_conv`]), trained by supervision on games ([`supervised`]) or by
//! self-play generations with gate matches ([`self_play`]) over games that
//! core's MCTS plays ([`games`]); its presets ([`presets`]).

pub mod board_conv;
pub mod games;
pub mod model;
pub mod presets;
pub mod self_play;
pub mod supervised;
