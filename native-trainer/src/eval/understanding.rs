//! `deepchess eval understanding`: the paper's static tests (§5.1) and
//! the usual evaluation terms, for a network of any family.
//!
//! Pairs of real positions that differ in one feature
//! ([`feature_pairs`](crate::eval::feature_pairs)): a piece of one role
//! removed, the castling rights taken away (the paper's tests), the bishop
//! pair, mobility, king safety, and passed, isolated and doubled pawns. The
//! network should prefer the position that is better for the side whose
//! feature changed. The report gives, per feature and side, how often it
//! does, judged by the network's own head ([`Judge`]).

use std::cmp::Ordering;
use std::path::PathBuf;

use anyhow::Context;
use deepchess_core::shakmaty::{Chess, Color};

use crate::data::Sampling;
use crate::eval::accuracy;
use crate::eval::feature_pairs::Feature;
use crate::eval::judge::Judge;
use crate::network;

/// Arguments of `eval understanding`.
#[derive(clap::Args)]
pub struct Args {
    /// Games to take positions from (`.pgn` or `.pgn.zst`).
    #[arg(long)]
    pgn: PathBuf,
    /// The network, of any family: `.dcnn`, `.dcsn` or `.dcaz` (default:
    /// the embedded one).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Most positions to use.
    #[arg(long, default_value_t = 20_000)]
    positions: usize,
}

/// One line of the report: how often the network preferred the position
/// that is better for the side whose feature changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Pairs judged.
    pub pairs: usize,
    /// Pairs where the network preferred the better position.
    pub agreed: usize,
    /// Pairs the network could not tell apart (a learner whose inputs lack
    /// castling rights, say).
    pub ties: usize,
}

impl Tally {
    /// The share agreed, a tie counting half (as a coin would).
    pub fn share(&self) -> f64 {
        (self.agreed as f64 + 0.5 * self.ties as f64) / self.pairs.max(1) as f64
    }
}

/// Tallies per feature of [`Feature::ALL`] and side (index 0: a change to
/// White's feature, 1: to Black's).
pub fn understanding(judge: &mut Judge, positions: &[Chess]) -> Vec<[Tally; 2]> {
    let mut report = vec![[Tally::default(), Tally::default()]; Feature::ALL.len()];
    for pos in positions {
        let original = judge.judge(pos);
        for (feature, tallies) in Feature::ALL.iter().zip(report.iter_mut()) {
            for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
                let Some((changed, original_better)) = feature.pair(pos, color) else { continue };
                let changed = judge.judge(&changed);
                let (better, worse) = if original_better { (&original, &changed) } else { (&changed, &original) };
                // Better for White when the feature is White's, for Black when it is Black's.
                let order = judge.order_for_white(better, worse);
                let order = if color == Color::White { order } else { order.reverse() };
                tallies[side].pairs += 1;
                tallies[side].agreed += usize::from(order == Ordering::Greater);
                tallies[side].ties += usize::from(order == Ordering::Equal);
            }
        }
    }
    report
}

/// Runs the tests and prints the report.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (name, weights) =
        network::chosen(args.weights.as_deref())?.context("this build has no embedded network: give --weights")?;
    let mut judge =
        Judge::new(weights).with_context(|| format!("{name} has neither a comparison nor a utility head"))?;
    let sampling = Sampling { include_draws: true, ..Sampling::default() };
    let positions: Vec<Chess> = accuracy::records_from_pgn(&args.pgn, &sampling)?
        .iter()
        .filter_map(|r| r.position())
        .take(args.positions)
        .collect();
    let report = understanding(&mut judge, &positions);
    println!("network  : {name} (judged by its {})", judge.head());
    println!("positions: {} from {}", positions.len(), args.pgn.display());
    println!("{:<16} {:>28} {:>28}", "feature", "White's changed", "Black's changed");
    for (feature, [white, black]) in Feature::ALL.iter().zip(&report) {
        let cell = |t: &Tally| match (t.pairs, t.ties) {
            (0, _) => "-".to_string(),
            (pairs, 0) => format!("{:.1}% of {pairs}", 100.0 * t.share()),
            (pairs, ties) => format!("{:.1}% of {pairs}, {ties} ties", 100.0 * t.share()),
        };
        println!("{:<16} {:>28} {:>28}", feature.name(), cell(white), cell(black));
    }
    println!("(how often the network prefers the position better for the side whose feature changed, a tie counting");
    println!(" half: 100% is best, 50% is a coin)");
    Ok(())
}
