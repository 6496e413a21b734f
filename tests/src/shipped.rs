//! The networks in `weights/` that tests play with by name.

use std::path::PathBuf;

use deepchess_trainer::network::{Listed, read_list};

/// `weights/`.
pub fn weights_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../weights"))
}

/// `weights/learners.json`, read as `deepchess uci` reads it.
pub fn list() -> Vec<Listed> {
    read_list(&weights_dir()).expect("weights/learners.json")
}

/// The files `weights/learners.json` lists for the site, in its order.
pub fn listed() -> Vec<String> {
    list().into_iter().map(|net| net.file).collect()
}

/// The paper's comparison network: the first DeepChess network (`.dcnn`)
/// the site lists, which both DeepChess searches play (the embedded default
/// is a value network, for the scalar search).
pub fn paper_network() -> PathBuf {
    let name = listed().into_iter().find(|n| n.ends_with(".dcnn")).expect("learners.json lists a .dcnn");
    weights_dir().join(name)
}
