//! Game collections to training data: PGN in, fixed-size records out, and
//! (W, L) pairs for training.

pub mod az;
mod build;
mod dataset;
mod eval;
mod filter;
mod game;
mod input;
mod labels;
mod mix;
mod pairs;
mod random;
mod record;
mod sampling;
mod scale;

pub use build::{
    BuildOptions, HeldOut, SourceSummary, SourceTable, SplitCounts, Summary, build, openings, read_sources,
};
pub use dataset::{Dataset, DatasetError, DatasetWriter, dataset_files};
pub use eval::{eval_comment, parse_eval};
pub use filter::{Filtering, GameFilter, game_key};
pub use game::{Game, GameReader, Ply, SkipReason};
pub use input::open_pgn;
pub use labels::{LabelOptions, LabelSampler, Labels, eval_cp, eval_probability};
pub use mix::{SourceMix, SourceWeight, per_input};
pub use pairs::{Pair, PairSampler};
pub use random::random_records;
pub use record::{Eval, GameResult, Record};
pub use sampling::{Sampling, mix};
pub use scale::{ScaleFit, ScaleSamples};
