//! Measuring a network: pair accuracy on held-out games ([`accuracy`]),
//! the AlphaZero network's policy and value ([`az`]), test suites in EPD
//! ([`epd`]), the static tests ([`understanding`]) on position pairs that
//! differ in one feature ([`feature_pairs`]), and a score against the
//! opponent's limit over several matches ([`strength_curve`]), and what a
//! match's games show ([`games`]); any family judges a pair through
//! [`judge`].

pub mod accuracy;
pub mod az;
pub mod epd;
pub mod feature_pairs;
pub mod games;
pub mod judge;
pub mod strength_curve;
pub mod understanding;
