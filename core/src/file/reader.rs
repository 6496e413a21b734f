//! Reading and writing weights files: a cursor that turns every short
//! read into a typed error, and the fields every family's file shares.

use alloc::vec::Vec;

use crate::file::error::{UtilityDefect, WeightsError};

/// Longest description a file may carry, in bytes.
pub const MAX_DESCRIPTION: usize = 4096;

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

    /// A description: a `u32` length, then at most [`MAX_DESCRIPTION`]
    /// bytes of UTF-8.
    pub fn description(&mut self) -> Result<&'a str, WeightsError> {
        let len = self.u32()? as usize;
        if len > MAX_DESCRIPTION {
            return Err(WeightsError::BadDescription);
        }
        core::str::from_utf8(self.take(len)?).map_err(|_| WeightsError::BadDescription)
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

/// Writes a description as [`Reader::description`] reads it, cut to
/// [`MAX_DESCRIPTION`] bytes at a character boundary.
pub fn write_description(out: &mut Vec<u8>, description: &str) {
    let mut end = description.len().min(MAX_DESCRIPTION);
    while !description.is_char_boundary(end) {
        end -= 1;
    }
    write_u32(out, end as u32);
    out.extend_from_slice(&description.as_bytes()[..end]);
}
