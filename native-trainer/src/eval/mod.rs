//! Measuring a network: pair accuracy on held-out games ([`accuracy`]),
//! test suites in EPD ([`epd`]) and the paper's static tests
//! ([`understanding`]).

pub mod accuracy;
pub mod epd;
pub mod understanding;
