//! Dataset files: a small header, then records, memory-mapped for reading.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::data::record::Record;

/// The first bytes of a dataset file.
pub const MAGIC: [u8; 8] = *b"DCDATA\0\0";
/// The format version.
pub const VERSION: u32 = 1;
/// Header length; records start here (a multiple of the record alignment).
pub const HEADER_BYTES: usize = 32;

/// A dataset file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// The file cannot be read.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Not a dataset file.
    #[error("{path} is not a DeepChess dataset (bad magic)")]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// Written by another version, or with another record layout.
    #[error("{path} has format version {version} with {record_bytes}-byte records; this build reads version {VERSION}, {} bytes", size_of::<Record>())]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        version: u32,
        /// Its record size.
        record_bytes: u32,
    },
    /// The header's count does not match the file's length.
    #[error("{path} is truncated or damaged: the header promises {count} records, the file holds {actual}")]
    Length {
        /// The file.
        path: PathBuf,
        /// Records the header promises.
        count: u64,
        /// Records the file holds.
        actual: u64,
    },
}

/// A memory-mapped dataset file.
pub struct Dataset {
    mmap: Option<Mmap>,
    count: usize,
}

impl Dataset {
    /// Opens and checks a dataset file.
    pub fn open(path: &Path) -> Result<Dataset, DatasetError> {
        let io = |source| DatasetError::Io { path: path.to_owned(), source };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len < HEADER_BYTES as u64 {
            return Err(DatasetError::BadMagic { path: path.to_owned() });
        }
        // SAFETY: the file is opened read-only; a dataset is not modified
        // while it is read (builds write new files).
        let mmap = unsafe { Mmap::map(&file) }.map_err(io)?;
        if mmap[..8] != MAGIC {
            return Err(DatasetError::BadMagic { path: path.to_owned() });
        }
        let word = |at: usize| u32::from_le_bytes(mmap[at..at + 4].try_into().expect("4 bytes"));
        let (version, record_bytes) = (word(8), word(12));
        if version != VERSION || record_bytes as usize != size_of::<Record>() {
            return Err(DatasetError::Version { path: path.to_owned(), version, record_bytes });
        }
        let count = u64::from_le_bytes(mmap[16..24].try_into().expect("8 bytes"));
        let actual = (len - HEADER_BYTES as u64) / size_of::<Record>() as u64;
        if count != actual || !(len - HEADER_BYTES as u64).is_multiple_of(size_of::<Record>() as u64) {
            return Err(DatasetError::Length { path: path.to_owned(), count, actual });
        }
        let count = count as usize;
        Ok(Dataset { mmap: (count > 0).then_some(mmap), count })
    }

    /// The records.
    pub fn records(&self) -> &[Record] {
        match &self.mmap {
            Some(mmap) => bytemuck::cast_slice(&mmap[HEADER_BYTES..HEADER_BYTES + self.count * size_of::<Record>()]),
            None => &[],
        }
    }
}

/// Writes a dataset file: records are appended, the count is written last.
pub struct DatasetWriter {
    out: BufWriter<File>,
    count: u64,
}

impl DatasetWriter {
    /// Creates (or replaces) `path`.
    pub fn create(path: &Path) -> std::io::Result<DatasetWriter> {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        let mut header = [0u8; HEADER_BYTES];
        header[..8].copy_from_slice(&MAGIC);
        header[8..12].copy_from_slice(&VERSION.to_le_bytes());
        header[12..16].copy_from_slice(&(size_of::<Record>() as u32).to_le_bytes());
        out.write_all(&header)?;
        Ok(DatasetWriter { out, count: 0 })
    }

    /// Appends a record.
    pub fn push(&mut self, record: &Record) -> std::io::Result<()> {
        self.count += 1;
        self.out.write_all(bytemuck::bytes_of(record))
    }

    /// Records written so far.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Writes the count into the header and flushes.
    pub fn finish(mut self) -> std::io::Result<u64> {
        self.out.seek(SeekFrom::Start(16))?;
        self.out.write_all(&self.count.to_le_bytes())?;
        self.out.flush()?;
        Ok(self.count)
    }
}

/// The files of a dataset given as a directory (its `train.bin` and
/// `val.bin`) or as one file.
pub fn dataset_files(path: &Path) -> Vec<PathBuf> {
    if path.is_dir() { vec![path.join("train.bin"), path.join("val.bin")] } else { vec![path.to_owned()] }
}
