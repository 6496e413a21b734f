//! The networks in `weights/` that tests play with by name.

use std::path::PathBuf;

/// `weights/`.
pub fn weights_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../weights"))
}

/// The files `weights/learners.json` lists for the site, in its order.
pub fn listed() -> Vec<String> {
    let list = std::fs::read_to_string(weights_dir().join("learners.json")).expect("weights/learners.json");
    list.split("\"file\": \"").skip(1).map(|s| s.split('"').next().unwrap().to_string()).collect()
}

/// The paper's comparison network: the one DeepChess network (`.dcnn`) the
/// site lists, which both DeepChess searches play (the embedded default is
/// a value network, for the scalar search).
pub fn paper_network() -> PathBuf {
    let name = listed().into_iter().find(|n| n.ends_with(".dcnn")).expect("learners.json lists a .dcnn");
    weights_dir().join(name)
}
