//! The other learners, on a small perceptron ([`mlp`]) that core runs as
//! a learned network (`.dcsn`, `deepchess_core::learned`): Herud–Mueller's deep
//! belief network ([`dbn`]), Deep Pink ([`deep_pink`]), and NeuroChess
//! ([`neurochess`]: TD over game steps ([`td`]) from expert games and
//! self-play ([`self_play`]), with EBNN's slopes ([`tangent`])); their presets
//! ([`presets`]).

pub mod dbn;
pub mod deep_pink;
pub mod mlp;
pub mod neurochess;
pub mod presets;
pub mod self_play;
pub mod tangent;
pub mod td;
