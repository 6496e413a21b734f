//! The networks in `weights/` that tests play with by name.

use std::path::PathBuf;

/// `weights/`.
pub fn weights_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../weights"))
}

/// The files `weights/learners.json` lists for the site, in its order.
pub fn listed() -> Vec<String> {
    listed_plays().into_iter().map(|(file, _)| file).collect()
}

/// Each file `weights/learners.json` lists, with the searches the list says
/// it plays (`["scalar", "mcts"]`).
pub fn listed_plays() -> Vec<(String, Vec<String>)> {
    let list = std::fs::read_to_string(weights_dir().join("learners.json")).expect("weights/learners.json");
    let list: Vec<serde_json::Value> = serde_json::from_str(&list).expect("weights/learners.json is JSON");
    list.iter()
        .map(|net| {
            let file = net["file"].as_str().expect("a file").to_string();
            let plays = net["plays"].as_array().expect("plays").iter().map(|p| p.as_str().unwrap().to_string());
            (file, plays.collect())
        })
        .collect()
}

/// The paper's comparison network: the first DeepChess network (`.dcnn`)
/// the site lists, which both DeepChess searches play (the embedded default
/// is a value network, for the scalar search).
pub fn paper_network() -> PathBuf {
    let name = listed().into_iter().find(|n| n.ends_with(".dcnn")).expect("learners.json lists a .dcnn");
    weights_dir().join(name)
}
