//! Embeds the default network: `weights/DEFAULT` names a `.dcnn` file in
//! `weights/`. Without it the crate builds with no default network.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let weights = manifest.join("../weights");
    let pointer = weights.join("DEFAULT");
    println!("cargo::rerun-if-changed={}", pointer.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("default_network.rs");
    let code = match std::fs::read_to_string(&pointer) {
        Ok(name) => {
            let file = weights.join(name.trim());
            assert!(file.is_file(), "weights/DEFAULT names {}, which does not exist", file.display());
            println!("cargo::rerun-if-changed={}", file.display());
            format!(
                "/// The default network, `weights/{name}`: a `static`, so that every use shares one copy of the bytes.\npub static DEFAULT_NETWORK: Option<(&str, &[u8])> = Some(({name:?}, include_bytes!({path:?})));\n",
                name = name.trim(),
                path = file.canonicalize().expect("the file exists").display().to_string(),
            )
        }
        Err(_) => "/// No default network was embedded (`weights/DEFAULT` is missing).\npub static DEFAULT_NETWORK: Option<(&str, &[u8])> = None;\n".to_string(),
    };
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
