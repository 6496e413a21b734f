//! Measuring a network: pair accuracy on held-out games ([`accuracy`]),
//! the AlphaZero network's policy and value ([`az`]), test suites in EPD
//! ([`epd`]) and the paper's static tests ([`understanding`]).

pub mod accuracy;
pub mod az;
pub mod epd;
pub mod understanding;
