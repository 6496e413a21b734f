//! What the float layers of every family share ([`FloatParams`]): `outputs`
//! biases and `outputs` rows of `fan_in` weights, stored in files as the
//! bias, then the weights, little-endian `f32` ([`write_params`],
//! [`read_params`]). DeepChess's float reference layer
//! ([`FloatLayer`](crate::FloatLayer)), a learner's layer
//! ([`LearnedLayer`](crate::learned::LearnedLayer)), and the AlphaZero
//! network's convolutions and dense layers
//! ([`Conv`](crate::alphazero::Conv), [`AzDense`](crate::alphazero::AzDense))
//! all implement it.

use alloc::vec::Vec;

use crate::file::error::WeightsError;
use crate::file::reader::Reader;

/// A view of a float layer's parameters.
#[derive(Clone, Copy, Debug)]
pub struct Params<'a> {
    /// Weights per output (a convolution's: inputs × kernel taps).
    pub fan_in: usize,
    /// Outputs.
    pub outputs: usize,
    /// `outputs` biases.
    pub bias: &'a [f32],
    /// `outputs × fan_in` weights, one row per output.
    pub weights: &'a [f32],
}

/// A float layer: its parameters as a [`Params`] view.
pub trait FloatParams {
    /// The layer's sizes and tensors.
    fn params(&self) -> Params<'_>;

    /// Whether the tensors have the layer's sizes and hold finite numbers.
    fn is_well_formed(&self) -> bool {
        let Params { fan_in, outputs, bias, weights } = self.params();
        bias.len() == outputs && weights.len() == outputs * fan_in && bias.iter().chain(weights).all(|v| v.is_finite())
    }
}

/// Appends `layer`'s bias, then its weights.
pub fn write_params(out: &mut Vec<u8>, layer: &impl FloatParams) {
    let Params { bias, weights, .. } = layer.params();
    for v in bias.iter().chain(weights) {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// Reads `outputs` biases, then `outputs × fan_in` weights; each tensor is
/// allocated only once its bytes are there, so a short file that claims a
/// large layer costs nothing.
pub fn read_params(
    reader: &mut Reader<'_>,
    outputs: usize,
    fan_in: usize,
) -> Result<(Vec<f32>, Vec<f32>), WeightsError> {
    let bias = reader.f32s(outputs)?.collect();
    let weights = reader.f32s(outputs.saturating_mul(fan_in))?.collect();
    Ok((bias, weights))
}
