//! The AlphaZero reimplementation's learners: its policy-and-value network in burn
//! ([`model`]), trained by supervision on games ([`supervised`]) or by
//! self-play generations with gate matches ([`self_play`]) over games that
//! core's MCTS plays ([`games`]); its presets ([`presets`]).

pub mod games;
pub mod model;
pub mod presets;
pub mod self_play;
pub mod supervised;
