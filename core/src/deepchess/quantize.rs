//! Float → integer conversion of each tensor, with the scales of
//! [`arch`](crate::arch).
//!
//! Each function rounds to nearest and saturates (NaN becomes 0), so any
//! float network can be exported; weights outside the representable range
//! are clipped, which is why the trainer clips them while training.

use crate::arch::{FT_SCALE, SUM_SCALE, WEIGHT_SCALE};

/// A first-layer weight or bias: `round(w * 127)` as `i16`.
/// Error ≤ 0.5 / 127 for `|w| ≤ MAX_FT_WEIGHT`.
pub fn ft_weight(w: f32) -> i16 {
    saturate(w * FT_SCALE as f32, i16::MIN.into(), i16::MAX.into()) as i16
}

/// A hidden weight: `round(w * 64)` as `i8`, within `±127`.
/// Error ≤ 0.5 / 64 for `|w| ≤ MAX_HIDDEN_WEIGHT`.
pub fn hidden_weight(w: f32) -> i8 {
    saturate(w * WEIGHT_SCALE as f32, -127, 127) as i8
}

/// A hidden bias: `round(b * 127 * 64)` as `i32`, within `±2^30`.
/// Error ≤ 0.5 / 8128.
pub fn hidden_bias(b: f32) -> i32 {
    saturate(b * SUM_SCALE as f32, -(1 << 30), 1 << 30)
}

fn saturate(x: f32, min: i32, max: i32) -> i32 {
    // `as` saturates and maps NaN to 0.
    (libm::roundf(x) as i32).clamp(min, max)
}
