//! The `.dcnn` weights file format.
//!
//! All integers are little-endian.
//!
//! | field | type |
//! |---|---|
//! | magic | `b"DCNN"` |
//! | format version | `u32` ([`VERSION`] for a first layer squared, 3 for a network with output buckets, else 2; versions 1 to 3 are read too) |
//! | architecture hash | `u32` ([`arch_hash_of`](crate::arch::arch_hash_of) of the sizes and kind below) |
//! | tower widths | `u32` count, then `u32` each (773 first) |
//! | comparison head widths | `u32` count (0: no comparison head), then `u32` each (2 last) |
//! | utility head | `u32`: 0 none, 1 after the comparison head, 2 a perspective network's ([`Shape::perspective`]; version 2 on) |
//! | output buckets | `u32`, 1 to [`MAX_BUCKETS`](crate::arch::MAX_BUCKETS) ([`Shape::with_buckets`]; version 3 on, and only with a utility head) |
//! | first-layer activation | `u32`: 0 clipped ReLU, 1 squared ([`Activation`]; version 4 only) |
//! | description | `u32` length, then UTF-8 (at most [`MAX_DESCRIPTION`](crate::file::MAX_DESCRIPTION) bytes) |
//! | first layer | bias `i16[h]`, then weights `i16[773][h]`, one row per input bit |
//! | each other tower layer, then each head layer | bias `i32[out]`, then weights `i8[out][in]` (perspective: the first `in = 2h`, the mover's half first) |
//! | utility head, if any | bias `i32[buckets]`, weights `i8[buckets][embedding]`, then `f32` centipawns per unit of utility |
//!
//! Version 1 files (before utility heads) have no utility field and always a
//! comparison head. The utility field's value 2 came after version 2 did;
//! builds from before it refuse such a file with
//! [`WeightsError::BadUtility`], a typed error, rather than misread it; builds
//! from before version 3 refuse a network with output buckets as
//! [`WeightsError::UnsupportedVersion`], and builds from before version 4 a
//! network whose first layer is squared. Nothing follows the last tensor. Files are named by their
//! content: `deepchess-<first 12 hex digits of sha256>.dcnn` ([`file_name`]).

use alloc::string::String;
use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use crate::arch::Activation;
use crate::deepchess::shape::{Shape, ShapeError};
use crate::file::{FileHeader, Format, Reader, UtilityDefect, WeightsError, write_description, write_u32};

/// The first four bytes of every weights file.
pub const MAGIC: [u8; 4] = *b"DCNN";

/// The first four bytes of a float network file (`.dcnf`): the trainer's
/// checkpoints, the same header followed by `f32` tensors.
pub const FLOAT_MAGIC: [u8; 4] = *b"DCNF";

/// The newest format version, which this build writes for a network whose
/// first layer is squared ([`Activation::SquaredClippedRelu`]); it writes a
/// network with output buckets as version 3 and any other as version 2,
/// byte for byte what the builds before each wrote.
pub const VERSION: u32 = 4;

/// The version of a network with output buckets and a clipped first layer.
const BUCKETS_VERSION: u32 = 3;

/// The version of a network without output buckets and with a clipped
/// first layer.
const PLAIN_VERSION: u32 = 2;

/// The oldest format version this build reads: version 1 files are
/// comparison networks without a utility head.
pub const MIN_VERSION: u32 = 1;

/// The `.dcnn` format: [`MAGIC`], versions [`MIN_VERSION`] to [`VERSION`].
pub const FORMAT: Format = Format { magic: MAGIC, oldest: MIN_VERSION, newest: VERSION };

/// The `.dcnf` format (the trainer's float checkpoints).
pub const FLOAT_FORMAT: Format = Format { magic: FLOAT_MAGIC, oldest: MIN_VERSION, newest: VERSION };

/// The canonical file name of a weights file: `deepchess-<12 hex>.dcnn`,
/// from the SHA-256 of its bytes.
///
/// ```
/// let name = deepchess_core::deepchess::format::file_name(b"");
/// assert_eq!(name, "deepchess-e3b0c44298fc.dcnn");
/// ```
pub fn file_name(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut name = String::from("deepchess-");
    for byte in &digest[..6] {
        name.push(char::from(HEX[usize::from(byte >> 4)]));
        name.push(char::from(HEX[usize::from(byte & 15)]));
    }
    name.push_str(".dcnn");
    name
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The header of a weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Layer sizes.
    pub shape: Shape,
    /// Free text: what the network was trained on, and how.
    pub description: String,
}

impl Header {
    /// Reads and checks the header: magic, version, shape, hash, description.
    pub fn read(reader: &mut Reader<'_>) -> Result<Header, WeightsError> {
        Header::read_as(reader, &FORMAT)
    }

    /// [`read`](Self::read) for a file of `format` ([`FORMAT`] or
    /// [`FLOAT_FORMAT`]).
    pub fn read_as(reader: &mut Reader<'_>, format: &'static Format) -> Result<Header, WeightsError> {
        let FileHeader { version, hash, .. } = FileHeader::read(reader, core::slice::from_ref(format))?;
        let tower = read_widths(reader)?;
        let head = read_widths(reader)?;
        let (utility, perspective) = match version {
            1 => (false, false),
            _ => match reader.u32()? {
                0 => (false, false),
                1 => (true, false),
                2 if head.is_empty() => (true, true),
                found => return Err(WeightsError::BadUtility { reason: UtilityDefect::Flag(found) }),
            },
        };
        let buckets = if version >= 3 && utility { reader.u32()? as usize } else { 1 };
        let activation = match version {
            4.. => {
                let code = reader.u32()?;
                Activation::from_code(code).ok_or(WeightsError::BadActivation { found: code })?
            }
            _ => Activation::ClippedRelu,
        };
        let shape = if perspective { Shape::perspective(&tower)? } else { Shape::with_heads(&tower, &head, utility)? };
        let shape = if utility { shape.with_buckets(buckets)? } else { shape }.with_activation(activation);
        if hash != shape.hash() {
            return Err(WeightsError::ArchHashMismatch { found: hash, expected: shape.hash() });
        }
        let description = reader.description()?.into();
        Ok(Header { shape, description })
    }

    /// Writes the header; the description is cut to [`MAX_DESCRIPTION`](crate::file::MAX_DESCRIPTION) bytes
    /// at a character boundary.
    pub fn write(&self, out: &mut Vec<u8>) {
        self.write_as(out, FORMAT);
    }

    /// [`write`](Self::write) as a file of `format`.
    pub fn write_as(&self, out: &mut Vec<u8>, format: Format) {
        let buckets = self.shape.buckets();
        let activation = self.shape.activation();
        let version = if activation != Activation::ClippedRelu {
            format.newest
        } else if buckets > 1 {
            BUCKETS_VERSION
        } else {
            PLAIN_VERSION
        };
        FileHeader::write_version(out, format, version, self.shape.hash());
        for widths in [self.shape.tower(), self.shape.head()] {
            write_u32(out, widths.len() as u32);
            for &width in widths {
                write_u32(out, width as u32);
            }
        }
        let utility = if self.shape.is_perspective() { 2 } else { u32::from(self.shape.has_utility()) };
        write_u32(out, utility);
        if version >= 3 && self.shape.has_utility() {
            write_u32(out, buckets as u32);
        }
        if version >= 4 {
            write_u32(out, activation.code());
        }
        write_description(out, &self.description);
    }
}

/// A count, then that many `u32` widths. A count over
/// [`MAX_LAYERS`](crate::arch::MAX_LAYERS) is a shape error, checked before
/// anything is allocated.
fn read_widths(reader: &mut Reader<'_>) -> Result<Vec<usize>, WeightsError> {
    let count = reader.u32()? as usize;
    if count > crate::arch::MAX_LAYERS {
        return Err(ShapeError::TooManyLayers { layers: count }.into());
    }
    (0..count).map(|_| reader.u32().map(|w| w as usize)).collect()
}
