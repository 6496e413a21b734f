//! The learned networks, the other learners' (Herud–Mueller's deep belief
//! network, Deep Pink, NeuroChess): a multilayer perceptron that gives a
//! position one number, played by the scalar search through
//! [`LearnedEvaluator`](crate::search::LearnedEvaluator).
//!
//! Unlike DeepChess's quantized [`Network`](crate::Network), these run in
//! `f32` ([`kernels::add_f32`](crate::kernels::add_f32) for the sparse first
//! layer, [`kernels::dense_f32`](crate::kernels::dense_f32) for the others),
//! because their activations (sigmoid, ReLU without a clip) and their
//! outputs (a softmax over classes, `tanh`) are not what the `i8` kernels
//! compute.
//!
//! - [`InputKind`]: which bits a position turns on (772 with castling and no
//!   side to move, 768 pieces, 768 from the side to move's view, or the
//!   paper's 773);
//! - [`LearnedNet`]: the layers and their activations, the output
//!   ([`OutputKind`]), and the centipawns per unit of value; the `.dcsn`
//!   file format ([`LearnedNet::from_bytes`]);
//!
//! The scalar search's evaluator over them is
//! [`LearnedEvaluator`](crate::search::LearnedEvaluator).

pub mod inputs;
pub mod net;

pub use inputs::InputKind;
pub use net::{Activation, LEARNED_FORMAT, LEARNED_MAGIC, LEARNED_VERSION, LearnedLayer, LearnedNet, OutputKind};
