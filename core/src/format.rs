//! The `.dcnn` weights file format.
//!
//! All integers are little-endian.
//!
//! | field | type |
//! |---|---|
//! | magic | `b"DCNN"` |
//! | format version | `u32` ([`VERSION`]; version 1 files are read too) |
//! | architecture hash | `u32` ([`arch_hash_with_utility`](crate::arch::arch_hash_with_utility) of the sizes below) |
//! | tower widths | `u32` count, then `u32` each (773 first) |
//! | comparison head widths | `u32` count (0: no comparison head), then `u32` each (2 last) |
//! | utility head | `u32`: 1 if one follows the comparison head, else 0 (version 2 only) |
//! | description | `u32` length, then UTF-8 (at most [`MAX_DESCRIPTION`] bytes) |
//! | first layer | bias `i16[h]`, then weights `i16[773][h]`, one row per input bit |
//! | each other tower layer, then each head layer | bias `i32[out]`, then weights `i8[out][in]` |
//! | utility head, if any | bias `i32[1]`, weights `i8[1][embedding]`, then `f32` centipawns per unit of utility |
//!
//! Version 1 files (before utility heads) have no utility field and always a
//! comparison head. Nothing follows the last tensor. Files are named by their
//! content: `deepchess-<first 12 hex digits of sha256>.dcnn` ([`file_name`]).

use alloc::string::String;
use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use crate::error::{UtilityDefect, WeightsError};
use crate::shape::Shape;

/// The first four bytes of every weights file.
pub const MAGIC: [u8; 4] = *b"DCNN";

/// The first four bytes of a float network file (`.dcnf`): the trainer's
/// checkpoints, the same header followed by `f32` tensors.
pub const FLOAT_MAGIC: [u8; 4] = *b"DCNF";

/// The format version this build writes.
pub const VERSION: u32 = 2;

/// The oldest format version this build reads: version 1 files are
/// comparison networks without a utility head.
pub const MIN_VERSION: u32 = 1;

/// Longest description a file may carry, in bytes.
pub const MAX_DESCRIPTION: usize = 4096;

/// The canonical file name of a weights file: `deepchess-<12 hex>.dcnn`,
/// from the SHA-256 of its bytes.
///
/// ```
/// let name = deepchess_core::format::file_name(b"");
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
        Header::read_with_magic(reader, MAGIC)
    }

    /// [`read`](Self::read) for a file that starts with `expected` instead
    /// of [`MAGIC`].
    pub fn read_with_magic(reader: &mut Reader<'_>, expected: [u8; 4]) -> Result<Header, WeightsError> {
        let magic: [u8; 4] = reader.array()?;
        if magic != expected {
            return Err(WeightsError::BadMagic { found: magic });
        }
        let version = reader.u32()?;
        if !(MIN_VERSION..=VERSION).contains(&version) {
            return Err(WeightsError::UnsupportedVersion { found: version, supported: VERSION });
        }
        let hash = reader.u32()?;
        let tower = reader.widths()?;
        let head = reader.widths()?;
        let utility = match version {
            1 => false,
            _ => match reader.u32()? {
                0 => false,
                1 => true,
                found => return Err(WeightsError::BadUtility { reason: UtilityDefect::Flag(found) }),
            },
        };
        let shape = Shape::with_heads(&tower, &head, utility)?;
        if hash != shape.hash() {
            return Err(WeightsError::ArchHashMismatch { found: hash, expected: shape.hash() });
        }
        let len = reader.u32()? as usize;
        if len > MAX_DESCRIPTION {
            return Err(WeightsError::BadDescription);
        }
        let description = core::str::from_utf8(reader.take(len)?).map_err(|_| WeightsError::BadDescription)?.into();
        Ok(Header { shape, description })
    }

    /// Writes the header; the description is cut to [`MAX_DESCRIPTION`] bytes
    /// at a character boundary.
    pub fn write(&self, out: &mut Vec<u8>) {
        self.write_with_magic(out, MAGIC);
    }

    /// [`write`](Self::write) with another magic.
    pub fn write_with_magic(&self, out: &mut Vec<u8>, magic: [u8; 4]) {
        out.extend_from_slice(&magic);
        write_u32(out, VERSION);
        write_u32(out, self.shape.hash());
        for widths in [self.shape.tower(), self.shape.head()] {
            write_u32(out, widths.len() as u32);
            for &width in widths {
                write_u32(out, width as u32);
            }
        }
        write_u32(out, u32::from(self.shape.has_utility()));
        let mut end = self.description.len().min(MAX_DESCRIPTION);
        while !self.description.is_char_boundary(end) {
            end -= 1;
        }
        write_u32(out, end as u32);
        out.extend_from_slice(&self.description.as_bytes()[..end]);
    }
}

/// A cursor over a weights file that turns every short read into
/// [`WeightsError::Truncated`].
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    /// Starts at the first byte.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, offset: 0 }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], WeightsError> {
        let truncated = WeightsError::Truncated { offset: self.offset, needed: n, len: self.bytes.len() };
        let end = self.offset.checked_add(n).ok_or(truncated.clone())?;
        let slice = self.bytes.get(self.offset..end).ok_or(truncated)?;
        self.offset = end;
        Ok(slice)
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, WeightsError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], WeightsError> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N)?);
        Ok(array)
    }

    /// A count, then that many `u32` widths. A count over
    /// [`MAX_LAYERS`](crate::arch::MAX_LAYERS) is a shape error, checked
    /// before anything is allocated.
    fn widths(&mut self) -> Result<Vec<usize>, WeightsError> {
        let count = self.u32()? as usize;
        if count > crate::arch::MAX_LAYERS {
            return Err(crate::shape::ShapeError::TooManyLayers { layers: count }.into());
        }
        (0..count).map(|_| self.u32().map(|w| w as usize)).collect()
    }

    /// `n` little-endian `i16`.
    pub fn i16s(&mut self, n: usize) -> Result<impl Iterator<Item = i16> + 'a, WeightsError> {
        let bytes = self.take(n.saturating_mul(2))?;
        Ok(bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])))
    }

    /// `n` little-endian `i32`.
    pub fn i32s(&mut self, n: usize) -> Result<impl Iterator<Item = i32> + 'a, WeightsError> {
        let bytes = self.take(n.saturating_mul(4))?;
        Ok(bytes.chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }

    /// `n` little-endian `f32`.
    pub fn f32s(&mut self, n: usize) -> Result<impl Iterator<Item = f32> + 'a, WeightsError> {
        let bytes = self.take(n.saturating_mul(4))?;
        Ok(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }

    /// `n` `i8`.
    pub fn i8s(&mut self, n: usize) -> Result<impl Iterator<Item = i8> + 'a, WeightsError> {
        Ok(self.take(n)?.iter().map(|&b| b as i8))
    }

    /// Fails with [`WeightsError::TrailingBytes`] unless every byte was read.
    pub fn finish(self) -> Result<(), WeightsError> {
        match self.bytes.len() - self.offset {
            0 => Ok(()),
            extra => Err(WeightsError::TrailingBytes { extra }),
        }
    }
}

/// Reads the centipawn scale that ends a utility head: a finite, positive
/// `f32`.
pub fn read_cp_scale(reader: &mut Reader<'_>) -> Result<f32, WeightsError> {
    let scale = f32::from_le_bytes(reader.array()?);
    if is_valid_cp_scale(scale) {
        Ok(scale)
    } else {
        Err(WeightsError::BadUtility { reason: UtilityDefect::Scale(scale.to_bits()) })
    }
}

/// Whether `scale` can be a utility head's centipawn scale: finite, positive
/// and at most [`MAX_CP_SCALE`].
pub fn is_valid_cp_scale(scale: f32) -> bool {
    scale.is_finite() && scale > 0.0 && scale <= MAX_CP_SCALE
}

/// The largest centipawn scale a file may give: centipawns per unit of
/// utility (a unit is a factor of e in the odds that one position beats
/// another).
pub const MAX_CP_SCALE: f32 = 100_000.0;

/// Appends a little-endian `u32`.
pub fn write_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}
