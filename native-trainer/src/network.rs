//! Choosing the network: a file, the embedded default, or a seeded random
//! one; or a learner's network (`.dcsn`), or the AlphaZero seed's (`.dcaz`).

use std::path::Path;

use anyhow::Context;
use deepchess_core::alphazero::{AZ_MAGIC, AzNet};
use deepchess_core::learned::{LEARNED_MAGIC, LearnedNet};
use deepchess_core::{DEFAULT_NETWORK, Network, Shape, random};

/// Reads and checks a `.dcnn` file.
pub fn load(path: &Path) -> anyhow::Result<Network> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Network::from_bytes(&bytes).with_context(|| format!("cannot load {}", path.display()))
}

/// The embedded default network, if this build has one.
pub fn embedded() -> Option<(&'static str, Network)> {
    let (name, bytes) = DEFAULT_NETWORK?;
    // The build script embedded a file that loads; a failure here is a bug.
    Some((name, Network::from_bytes(bytes).expect("the embedded network loads")))
}

/// The network given by `--weights`, else the embedded default.
pub fn chosen(weights: Option<&Path>) -> anyhow::Result<Option<(String, Network)>> {
    Ok(match weights {
        Some(path) => Some((path.display().to_string(), load(path)?)),
        None => embedded().map(|(name, net)| (name.to_string(), net)),
    })
}

/// A seeded random network of the distilled shape with a utility head: the
/// same on every machine, so that it can serve as a fixed reference (for
/// `bench`). Its tower and comparison head are those of the reference
/// network before utility heads existed.
pub fn seeded_random() -> Network {
    let shape = Shape::distilled().with_utility(true).expect("the distilled shape takes a utility head");
    let bytes = random::network(&shape, 2.0, 2016).to_bytes();
    Network::from_bytes(&bytes).expect("a generated network loads")
}

/// The AlphaZero seed's network in `path` (a `.dcaz` file, told by its
/// magic), or `None` if the file is another kind.
pub fn load_az(path: &Path) -> anyhow::Result<Option<AzNet>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !bytes.starts_with(&AZ_MAGIC) {
        return Ok(None);
    }
    Ok(Some(AzNet::from_bytes(&bytes).with_context(|| format!("cannot load {}", path.display()))?))
}

/// The learner's network (`.dcsn`) at `path`, or `None` if the file is
/// another kind of network; an error if it cannot be read or is damaged.
pub fn load_learned(path: &Path) -> anyhow::Result<Option<LearnedNet>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !bytes.starts_with(&LEARNED_MAGIC) {
        return Ok(None);
    }
    Ok(Some(LearnedNet::from_bytes(&bytes).with_context(|| format!("cannot load {}", path.display()))?))
}
