//! The fields every weights file starts with, whatever its family: four
//! magic bytes, a format version and an architecture hash.

use crate::file::error::WeightsError;
use crate::file::format::Format;
use crate::file::reader::{Reader, write_u32};

use alloc::vec::Vec;

/// What every weights file starts with: which [`Format`] it is (told by its
/// magic), its version and its architecture hash, which each family checks
/// against the sizes that follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileHeader {
    /// The format, one of those the reader accepts.
    pub format: Format,
    /// The format version, within the format's range.
    pub version: u32,
    /// The architecture hash as written.
    pub hash: u32,
}

impl FileHeader {
    /// Reads magic, version and hash. A magic that is none of `accepted`
    /// is [`WeightsError::BadMagic`] (naming what was found and what is
    /// accepted); a version out of the format's range is
    /// [`WeightsError::UnsupportedVersion`].
    pub fn read(reader: &mut Reader<'_>, accepted: &'static [Format]) -> Result<FileHeader, WeightsError> {
        let magic: [u8; 4] = reader.array()?;
        let format =
            *accepted.iter().find(|f| f.magic == magic).ok_or(WeightsError::BadMagic { found: magic, accepted })?;
        let version = reader.u32()?;
        if !(format.oldest..=format.newest).contains(&version) {
            return Err(WeightsError::UnsupportedVersion { found: version, supported: format.newest });
        }
        let hash = reader.u32()?;
        Ok(FileHeader { format, version, hash })
    }

    /// Writes `format`'s magic, the version it writes and `hash`.
    pub fn write(out: &mut Vec<u8>, format: Format, hash: u32) {
        FileHeader::write_version(out, format, format.newest, hash);
    }

    /// Writes `format`'s magic, `version` (an older one where the file needs
    /// nothing newer, so that older builds read it) and `hash`.
    pub fn write_version(out: &mut Vec<u8>, format: Format, version: u32, hash: u32) {
        debug_assert!((format.oldest..=format.newest).contains(&version));
        out.extend_from_slice(&format.magic);
        write_u32(out, version);
        write_u32(out, hash);
    }
}
