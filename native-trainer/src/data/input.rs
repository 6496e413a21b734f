//! Opening PGN files, plain or zstd-compressed (as lichess publishes them).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::Context;
use indicatif::ProgressBar;

/// A streaming reader over `path`, decompressed if it ends in `.zst`. Bytes
/// read from the file (compressed) advance `progress`.
pub fn open_pgn(path: &Path, progress: &ProgressBar) -> anyhow::Result<Box<dyn Read + Send>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let counted = progress.wrap_read(BufReader::with_capacity(1 << 20, file));
    if path.extension().is_some_and(|ext| ext == "zst") {
        let decoder = zstd::Decoder::new(counted).with_context(|| format!("{} is not zstd", path.display()))?;
        Ok(Box::new(decoder))
    } else {
        Ok(Box::new(counted))
    }
}

/// Total size of the files, for a progress bar.
pub fn total_bytes(paths: &[impl AsRef<Path>]) -> u64 {
    paths.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum()
}
