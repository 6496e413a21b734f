//! Choosing the network: a file of any family (read once, through core's
//! one entry, [`Weights::from_bytes`]), the embedded default, or a seeded
//! random one; and writing one under its content-hash name.

use std::path::{Path, PathBuf};

use anyhow::Context;
use deepchess_core::alphazero::AzNet;
use deepchess_core::{DEFAULT_NETWORK, Network, Shape, Weights, seeded};

/// Reads and checks a weights file of any family (`.dcnn`, `.dcsn`,
/// `.dcaz`).
pub fn load_weights(path: &Path) -> anyhow::Result<Weights> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Weights::from_bytes(&bytes).with_context(|| format!("cannot load {}", path.display()))
}

/// Reads and checks a `.dcnn` file; a network of another family is an
/// error that names it.
pub fn load(path: &Path) -> anyhow::Result<Network> {
    load_weights(path)?.into_deepchess().map_err(|family| {
        anyhow::anyhow!("{} is {}; this command takes a DeepChess network (.dcnn)", path.display(), family.describe())
    })
}

/// Reads and checks the AlphaZero reimplementation's network (`.dcaz`).
pub fn load_az(path: &Path) -> anyhow::Result<AzNet> {
    load_weights(path)?.into_alphazero().map_err(|family| {
        anyhow::anyhow!("{} is {}, not an AlphaZero network (.dcaz)", path.display(), family.describe())
    })
}

/// The embedded default network, if this build has one.
pub fn embedded() -> Option<(&'static str, Network)> {
    let (name, bytes) = DEFAULT_NETWORK?;
    // The build script embedded a file that loads; a failure here is a bug.
    Some((name, Network::from_bytes(bytes).expect("the embedded network loads")))
}

/// The network given by `--weights` (any family), else the embedded
/// default.
pub fn chosen(weights: Option<&Path>) -> anyhow::Result<Option<(String, Weights)>> {
    Ok(match weights {
        Some(path) => Some((path.display().to_string(), load_weights(path)?)),
        None => embedded().map(|(name, net)| (name.to_string(), Weights::DeepChess(net))),
    })
}

/// The DeepChess network given by `--weights`, else the embedded default.
pub fn chosen_deepchess(weights: Option<&Path>) -> anyhow::Result<Network> {
    match weights {
        Some(path) => load(path),
        None => embedded().map(|(_, net)| net).context("this build has no embedded network: give --weights"),
    }
}

/// A seeded random network of the distilled shape with a utility head: the
/// same on every machine, so that it can serve as a fixed reference (for
/// `bench`). Its tower and comparison head are those of the reference
/// network before utility heads existed.
pub fn seeded_random() -> Network {
    let shape = Shape::distilled().with_utility(true).expect("the distilled shape takes a utility head");
    let bytes = seeded::network(&shape, 2.0, 2016).to_bytes();
    Network::from_bytes(&bytes).expect("a generated network loads")
}

/// Writes `weights` as `dir/deepchess-<hash>.<extension>` after checking
/// that the bytes load back; returns the path.
pub fn write_named(weights: &Weights, dir: &Path) -> anyhow::Result<PathBuf> {
    let bytes = weights.to_bytes();
    Weights::from_bytes(&bytes).context("the network does not load back")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(weights.family().file_name(&bytes));
    std::fs::write(&path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// One network of a folder's `learners.json`: its file (in that folder),
/// the name the site's *Network* menu and the UCI `Network` option give it,
/// and the searches it plays (`["scalar", "mcts"]`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct Listed {
    /// The file's name, in the list's folder.
    pub file: String,
    /// Its readable name.
    pub name: String,
    /// The searches it plays, as `Search` names them.
    pub plays: Vec<String>,
}

/// A folder's `learners.json`, in its order: the one reader of that list
/// (the `Network` option here, the tests of the shipped weights).
pub fn read_list(dir: &Path) -> anyhow::Result<Vec<Listed>> {
    let list = dir.join("learners.json");
    let text = std::fs::read_to_string(&list).with_context(|| format!("cannot read {}", list.display()))?;
    serde_json::from_str(&text).with_context(|| format!("cannot read {}", list.display()))
}

/// The networks a folder lists in its `learners.json` (name and path, in
/// its order), for the UCI `Network` option: the files that are there. With
/// no folder, the repository's `weights/` this binary was built from, if it
/// is there (none otherwise); a folder given without a readable list is an
/// error.
pub fn listed(dir: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    let built = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../weights"));
    let dir = match dir {
        Some(dir) => dir,
        None if built.join("learners.json").is_file() => built,
        None => return Ok(Vec::new()),
    };
    Ok(read_list(dir)?
        .into_iter()
        .map(|net| (net.name, dir.join(net.file)))
        .filter(|(_, path)| path.is_file())
        .map(|(name, path)| (name, path.display().to_string()))
        .collect())
}
