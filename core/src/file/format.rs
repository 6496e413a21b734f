//! A kind of weights file: its magic and the versions this build reads.

/// One kind of weights file: its magic and the versions this build reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// The first four bytes.
    pub magic: [u8; 4],
    /// The oldest version this build reads.
    pub oldest: u32,
    /// The version this build writes (and the newest it reads).
    pub newest: u32,
}
