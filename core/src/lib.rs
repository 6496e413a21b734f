//! DeepChess: a chess network that learns from games, with no hand-written
//! evaluation (David, Netanyahu and Wolf, ICANN 2016), rebuilt for native
//! and WebAssembly targets.
//!
//! This crate is `#![no_std]` with `alloc`. It holds what every DeepChess
//! program shares:
//!
//! - the paper's 773-bit position encoding ([`Features`]) and its per-move
//!   change ([`FeatureDelta`]);
//! - the `.dcnn` file ([`deepchess::format`]) and the quantized network ([`Network`]):
//!   an incrementally updated first layer ([`Accumulator`]), Pos2Vec
//!   [`Embedding`]s, `compare(a, b)`, the probability that `a` is better
//!   for White than `b`, and, where the file has a utility head,
//!   `evaluate`, a position's value in centipawns;
//! - the SIMD [`kernels`] (scalar oracle, AVX2, AVX-512, SIMD128, relaxed SIMD);
//! - the float reference network ([`FloatNetwork`]) that tests and the
//!   trainer's export use;
//! - the other families: the other learners' networks ([`learned`]) and
//!   the AlphaZero reimplementation's ([`alphazero`]);
//! - one entry for any weights file ([`Weights::from_bytes`]) over the
//!   shared header ([`file`](mod@file));
//! - the [`search`]es behind one seam ([`Search`], built by
//!   [`search::factory`]): DeepChess's comparison alpha-beta, a scalar
//!   principal-variation search, MCTS; and the [`uci`] protocol.
//!
//! The folders follow the domain: [`deepchess`] (encoding, accumulator,
//! layers, quantization, format, network), [`learned`], [`alphazero`],
//! [`search`] (`comparison`, `scalar`, `mcts`, their shared
//! [`types`](search::types)), [`uci`]. The types most programs
//! use are also at the root (`deepchess_core::Network`, …).
//!
//! The architecture and its quantization are declared once, in [`arch`].
//! Rules come from [`shakmaty`].
//!
//! # Quick start
//!
//! ```
//! use deepchess_core::{FloatNetwork, Network, Shape};
//! use shakmaty::{Chess, fen::Fen, CastlingMode};
//!
//! // A real engine loads a trained file; a zero network shows the API.
//! let net = Network::from_bytes(&FloatNetwork::zeros(&Shape::distilled()).to_bytes())?;
//! let a: Chess = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
//!     .parse::<Fen>()?
//!     .into_position(CastlingMode::Standard)?;
//! let b = Chess::default();
//! let p = net.compare(&net.embed_position(&a), &net.embed_position(&b));
//! assert!((0.0..=1.0).contains(&p));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub use shakmaty;

pub mod alphazero;
pub mod arch;
pub mod bench;
pub mod deepchess;
pub mod file;
pub mod kernels;
pub mod learned;
pub mod search;
#[cfg(feature = "random")]
pub mod seeded;
pub mod uci;
pub mod weights;

// What most programs use, at the crate's root; the rest under its module.
pub use deepchess::accumulator::Accumulator;
pub use deepchess::default_network::DEFAULT_NETWORK;
pub use deepchess::delta::FeatureDelta;
pub use deepchess::embedding::Embedding;
pub use deepchess::features::Features;
pub use deepchess::float::{FloatLayer, FloatNetwork};
pub use deepchess::network::Network;
pub use deepchess::shape::{Shape, ShapeError};
pub use file::{UtilityDefect, WeightsError};
pub use kernels::Kernel;
pub use search::{Search, SearchKind};
pub use weights::{Family, Weights};
