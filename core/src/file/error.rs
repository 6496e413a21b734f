//! Errors from loading a weights file.

use core::fmt;

use crate::deepchess::shape::ShapeError;
use crate::file::format::Format;

/// A weights file could not be loaded. Each failure has its own variant, so
/// that a caller (or a test) can tell a truncated download from a file made
/// for another architecture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The file ends before a field that the header promises.
    Truncated {
        /// Where the missing field starts.
        offset: usize,
        /// Bytes the field needs.
        needed: usize,
        /// Length of the file.
        len: usize,
    },
    /// The file does not start with the magic of a format the reader
    /// accepts.
    BadMagic {
        /// The first bytes of the file.
        found: [u8; 4],
        /// The formats the reader accepts.
        accepted: &'static [Format],
    },
    /// The format version is not the one this build reads.
    UnsupportedVersion {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        supported: u32,
    },
    /// The architecture hash in the header does not match the layer sizes and
    /// this build's quantization scales.
    ArchHashMismatch {
        /// Hash in the file.
        found: u32,
        /// Hash computed from the file's layer sizes and this build's scales.
        expected: u32,
    },
    /// The layer sizes do not describe a DeepChess network.
    BadShape(ShapeError),
    /// The description is not UTF-8.
    BadDescription,
    /// The utility head's flag or centipawn scale is invalid.
    BadUtility {
        /// What is wrong.
        reason: UtilityDefect,
    },
    /// The first layer's activation word (format version 4) names no
    /// activation this build knows.
    BadActivation {
        /// The word in the file.
        found: u32,
    },
    /// A learner's network file ([`crate::learned`]) describes no network
    /// this build can run.
    BadLearned {
        /// What is wrong.
        reason: &'static str,
    },
    /// An AlphaZero network file ([`crate::alphazero::AzNet`]) describes no
    /// network this build can run.
    BadAlphaZero {
        /// What is wrong.
        reason: &'static str,
    },
    /// Bytes follow the last tensor.
    TrailingBytes {
        /// Number of unexpected bytes.
        extra: usize,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Truncated { offset, needed, len } => {
                write!(f, "weights file truncated: {needed} bytes needed at offset {offset}, but the file has {len}")
            }
            WeightsError::BadMagic { found, accepted } => {
                write!(f, "not a DeepChess weights file (magic ")?;
                write_magic(f, found)?;
                f.write_str(", expected ")?;
                for (i, format) in accepted.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == accepted.len() { " or " } else { ", " })?;
                    }
                    write_magic(f, &format.magic)?;
                }
                f.write_str(")")
            }
            WeightsError::UnsupportedVersion { found, supported } => {
                write!(f, "weights format version {found} is not supported (this build reads {supported})")
            }
            WeightsError::ArchHashMismatch { found, expected } => write!(
                f,
                "weights architecture hash {found:08x} does not match {expected:08x}, computed from the layer sizes and this build's quantization"
            ),
            WeightsError::BadShape(err) => write!(f, "bad network shape: {err}"),
            WeightsError::BadDescription => f.write_str("weights description is not UTF-8"),
            WeightsError::BadUtility { reason: UtilityDefect::Flag(found) } => {
                write!(
                    f,
                    "weights utility-head flag is {found}, expected 0, 1, or 2 (a perspective network, no comparison head)"
                )
            }
            WeightsError::BadUtility { reason: UtilityDefect::Scale(bits) } => {
                let scale = f32::from_bits(*bits);
                write!(f, "weights utility-head centipawn scale {scale} is not a positive number up to 100000")
            }
            WeightsError::BadActivation { found } => {
                write!(f, "weights first-layer activation is {found}, expected 0 (clipped ReLU) or 1 (squared)")
            }
            WeightsError::BadLearned { reason } => write!(f, "bad learner network: {reason}"),
            WeightsError::BadAlphaZero { reason } => write!(f, "bad AlphaZero network: {reason}"),
            WeightsError::TrailingBytes { extra } => {
                write!(f, "weights file has {extra} unexpected bytes after the last tensor")
            }
        }
    }
}

impl core::error::Error for WeightsError {}

/// `"DCNN"` for printable magic bytes, else their hex values.
fn write_magic(f: &mut fmt::Formatter<'_>, magic: &[u8; 4]) -> fmt::Result {
    if magic.iter().all(|b| b.is_ascii_graphic()) {
        write!(f, "\"{}\"", magic.iter().map(|&b| char::from(b)).collect::<alloc::string::String>())
    } else {
        write!(f, "{magic:02x?}")
    }
}

/// What is wrong with a utility head's header field or scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UtilityDefect {
    /// The flag after the head widths is not 0, 1, or 2 without a
    /// comparison head.
    Flag(u32),
    /// The centipawn scale (its `f32` bits) is not finite, not positive, or
    /// too large.
    Scale(u32),
}

impl From<ShapeError> for WeightsError {
    fn from(err: ShapeError) -> WeightsError {
        WeightsError::BadShape(err)
    }
}
