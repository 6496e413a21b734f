//! DeepChess's learners: Pos2Vec pretraining ([`pos2vec`]), the Siamese
//! comparison network ([`model`], [`siamese`]), distillation into the small
//! shape ([`distill`]), the utility head fitted on a frozen tower
//! ([`utility`]), the value network trained position by position for the
//! scalar search ([`value_model`], [`value`]), and the training-speed
//! benchmark ([`speed`]); their presets ([`presets`]).

pub mod distill;
pub mod model;
pub mod pos2vec;
pub mod presets;
pub mod siamese;
pub mod speed;
pub mod utility;
pub mod value;
pub mod value_model;
