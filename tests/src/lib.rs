//! Helpers shared by the end-to-end tests.

pub mod binary;
pub mod engine;
pub mod fixture;
pub mod shipped;
