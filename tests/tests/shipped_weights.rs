//! The networks in `weights/`: named by their content hash, loadable, and the
//! default one embedded in the engine.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use deepchess_core::{DEFAULT_NETWORK, Network, format};
use deepchess_tests::binary::deepchess;

fn weights_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../weights"))
}

#[test]
fn every_shipped_network_is_named_by_its_hash_and_loads() {
    let mut count = 0;
    for entry in std::fs::read_dir(weights_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "dcnn") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(path.file_name().unwrap().to_str().unwrap(), format::file_name(&bytes), "{}", path.display());
        Network::from_bytes(&bytes).unwrap();
        count += 1;
    }
    assert!(count >= 1);
}

#[test]
fn the_default_network_is_embedded() {
    let name = std::fs::read_to_string(weights_dir().join("DEFAULT")).unwrap();
    let (embedded, bytes) = DEFAULT_NETWORK.expect("weights/DEFAULT is embedded");
    assert_eq!(embedded, name.trim());
    assert_eq!(bytes, std::fs::read(weights_dir().join(name.trim())).unwrap());
}

/// The README's command, with no `--weights`: the embedded network plays.
#[test]
fn uci_plays_with_the_embedded_network() {
    let mut child = Command::new(deepchess()).arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"uci\nisready\nposition startpos moves e2e4\ngo depth 5\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("info depth")).count(), 5, "{text}");
    assert!(text.lines().last().unwrap().starts_with("bestmove "), "{text}");
    assert!(!text.contains("error"), "{text}");
}
