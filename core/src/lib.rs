//! DeepChess: a chess network that learns from game results alone
//! (David, Netanyahu and Wolf, ICANN 2016), rebuilt for native and
//! WebAssembly targets.
//!
//! This crate is `#![no_std]` with `alloc`. It holds what every DeepChess
//! program shares:
//!
//! - the paper's 773-bit position encoding ([`Features`]) and its per-move
//!   change ([`FeatureDelta`]);
//! - the weights file ([`format`]) and the quantized network ([`Network`]):
//!   an incrementally updated first layer ([`Accumulator`]), Pos2Vec
//!   [`Embedding`]s, `compare(a, b)`, the probability that `a` is better
//!   for White than `b`, and, where the file has a utility head,
//!   `evaluate`, a position's value in centipawns;
//! - the SIMD [`kernels`] (scalar oracle, AVX2, SIMD128);
//! - the two [`search`]es, DeepChess's comparison alpha-beta and a scalar
//!   principal-variation search over the utility head, and the [`uci`]
//!   protocol;
//! - the float reference network ([`FloatNetwork`]) that tests and the
//!   trainer's export use.
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
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub use shakmaty;

pub mod alphazero;
pub mod arch;
pub mod bench;
pub mod format;
pub mod kernels;
pub mod learned;
pub mod quantize;
#[cfg(feature = "random")]
pub mod random;
pub mod search;
pub mod uci;

mod accumulator;
mod default_network;
mod delta;
mod embedding;
mod error;
mod features;
mod float;
mod layers;
mod network;
mod shape;

pub use accumulator::Accumulator;
pub use default_network::DEFAULT_NETWORK;
pub use delta::FeatureDelta;
pub use embedding::Embedding;
pub use error::{UtilityDefect, WeightsError};
pub use features::{Features, castling_index, mirror_index, piece_index};
pub use float::{FloatLayer, FloatNetwork, crelu};
pub use kernels::Kernel;
pub use layers::{Dense, FeatureTransformer};
pub use network::{Network, logit_to_probability};
pub use shape::{Shape, ShapeError};
