//! The AlphaZero reimplementation: its input planes, policy index, network and MCTS.
//!
//! # Input planes ([`planes`])
//!
//! 22 planes of 8 × 8, seen from the side to move: its pieces are "own", and
//! the board is turned upside down (square `s` is read as `s ^ 56`) when
//! Black is to move, so that the side to move always plays up the board.
//!
//! | planes | contents |
//! |---|---|
//! | 0–5 | own pawns, knights, bishops, rooks, queens, king |
//! | 6–11 | the opponent's, in the same order |
//! | 12, 13 | all ones if the position occurred before at least once, at least twice |
//! | 14 | colour: all ones if White is to move |
//! | 15 | total move count: the full-move number / 100, on every square |
//! | 16, 17 | own castling rights, king side and queen side: all ones if held |
//! | 18, 19 | the opponent's castling rights |
//! | 20 | no-progress count: the half-move clock / 100, on every square |
//! | 21 | en passant: one on the capture square, where a capture there is legal |
//!
//! The reimplementation's description lists 20 of these (pieces, repetitions, castling, en
//! passant, no-progress) and counts 22: the other two are AlphaZero's colour
//! and total-move-count planes, here planes 14 and 15.
//!
//! # Policy index ([`policy`])
//!
//! `from × 73 + kind`, 8 × 8 × 73 = 4,672, with `from` turned as the planes
//! are. The 73 kinds:
//!
//! | kinds | moves |
//! |---|---|
//! | 0–55 | queen-like: direction × 7 + distance − 1; directions N, NE, E, SE, S, SW, W, NW (N is up the board) |
//! | 56–63 | knight: steps (file, rank) (1, 2), (2, 1), (2, −1), (1, −2), (−1, −2), (−2, −1), (−2, 1), (−1, 2) |
//! | 64–72 | underpromotion: 64 + (file step + 1) × 3 + piece, pieces knight, bishop, rook |
//!
//! Promotions to a queen are queen-like moves; castling is the king's move
//! two squares towards the rook.
//!
//! Both are tested against `tests/fixtures/alphazero.txt`, written with
//! python-chess from this description alone (`tests/fixtures/make_alphazero.py`).
//!
//! # Network ([`net`])
//!
//! [`AzNet`]: a residual tower of 3 × 3 convolutions ([`conv`], batch norm
//! folded in) with a policy head over the 4,672 indexes and a value head,
//! in `f32` on the [`kernels`](crate::kernels)' matrix product, read from a
//! `.dcaz` file. MCTS ([`crate::search::mcts`]) asks it for values and
//! priors one position at a time
//! ([`AzEvaluator`](crate::search::mcts::AzEvaluator)); a host with a batch
//! device gathers leaves instead ([`leaf_batch`]).

pub mod conv;
pub mod leaf_batch;
pub mod net;
pub mod planes;
pub mod policy;
mod view;

pub use conv::Conv;
pub use leaf_batch::{Leaf, LeafBatch, evaluate_leaves, outputs_len};
pub use net::{AZ_FORMAT, AZ_MAGIC, AZ_VERSION, AzDense, AzLayers, AzNet, AzOutput, AzScratch};
pub use planes::{PLANES, Planes, Repetitions};
pub use policy::{POLICY_SIZE, move_from_index, move_index};
