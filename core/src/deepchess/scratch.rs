//! Working memory for the tower's dense layers, kept by a caller that
//! embeds many positions.

use crate::arch::MAX_WIDTH;

/// Activation and sum buffers as wide as the widest layer.
///
/// [`Network::embed`](crate::Network::embed) would otherwise zero 6 KiB of
/// stack on every call (a sixteenth of a node's time in the scalar search).
/// Reusing them needs no zeroing: every layer reads only the padded width
/// that the layer before it has just written (padding included, as zeros).
#[derive(Clone, Debug)]
pub struct Scratch {
    pub(crate) act: [u8; MAX_WIDTH],
    pub(crate) next: [u8; MAX_WIDTH],
    pub(crate) sums: [i32; MAX_WIDTH],
}

impl Scratch {
    /// Zeroed buffers.
    pub fn new() -> Scratch {
        Scratch { act: [0; MAX_WIDTH], next: [0; MAX_WIDTH], sums: [0; MAX_WIDTH] }
    }
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch::new()
    }
}
