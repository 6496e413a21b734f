//! The network embedded at build time: `weights/DEFAULT` names a file in
//! `weights/` (see `core/build.rs`).

include!(concat!(env!("OUT_DIR"), "/default_network.rs"));
