//! The DeepChess network: the paper's 773-bit encoding ([`features`]) and
//! its per-move change ([`delta`]), the incrementally updated first layer
//! ([`accumulator`], [`layers`]), Pos2Vec [`embedding`]s, the comparison and
//! utility heads ([`network`]), quantization ([`quantize`]) from the float
//! reference ([`float`]), the layer sizes ([`shape`]) and the `.dcnn` file
//! ([`format`]), the working memory of the dense layers ([`scratch`]), and a
//! position's value from its two accumulators for either kind of value
//! network ([`value`]).

pub mod accumulator;
pub mod default_network;
pub mod delta;
pub mod embedding;
pub mod features;
pub mod float;
pub mod format;
pub mod layers;
pub mod network;
pub mod quantize;
pub mod scratch;
pub mod shape;
pub mod value;
