//! DeepChess's learners: Pos2Vec pretraining ([`pos2vec`]), the Siamese
//! comparison network ([`model`], [`siamese`]), distillation into the small
//! shape ([`distill`]), the utility head fitted on a frozen tower
//! ([`utility`]), and the training-speed benchmark ([`speed`]).

pub mod distill;
pub mod model;
pub mod pos2vec;
pub mod siamese;
pub mod speed;
pub mod utility;
