//! A network of any family as a judge of which of two positions is better
//! for White: what `eval understanding` and `eval accuracy` ask of every
//! network, through core's inference (the code that plays).
//!
//! - A DeepChess network with a comparison head judges a pair with it (the
//!   paper's way); one without (a value network) by its utility head's
//!   symmetrized value, the scalar search's evaluation.
//! - A learner's network (`.dcsn`) by its value for White.
//! - The AlphaZero network (`.dcaz`) by its value head, turned to White's
//!   point of view.

use std::cmp::Ordering;

use deepchess_core::alphazero::{AzNet, AzScratch, Planes};
use deepchess_core::learned::LearnedNet;
use deepchess_core::shakmaty::{Chess, Color, Position};
use deepchess_core::{Embedding, Network, Weights};

/// A network and the head it judges with.
pub enum Judge {
    /// A DeepChess network's comparison head.
    Comparison(Network),
    /// A DeepChess network's utility head (no comparison head).
    Utility(Network),
    /// A learner's value.
    Learned(LearnedNet),
    /// The AlphaZero network's value head.
    AlphaZero(Box<AzNet>, AzScratch),
}

/// What a judge keeps of one position: an embedding for the comparison
/// head, else a value for White.
#[derive(Clone, Debug)]
pub enum Judged {
    /// Pos2Vec's embedding.
    Embedding(Embedding),
    /// A value for White (larger is better for White).
    Value(f64),
}

impl Judge {
    /// The judge for `weights`; `None` for a DeepChess network with neither
    /// head (it cannot tell two positions apart).
    pub fn new(weights: Weights) -> Option<Judge> {
        Some(match weights {
            Weights::DeepChess(net) if net.has_comparison() => Judge::Comparison(net),
            Weights::DeepChess(net) if net.has_utility() => Judge::Utility(net),
            Weights::DeepChess(_) => return None,
            Weights::Learned(net) => Judge::Learned(net),
            Weights::AlphaZero(net) => Judge::AlphaZero(Box::new(net), AzScratch::default()),
        })
    }

    /// The head it judges with, for a report.
    pub fn head(&self) -> &'static str {
        match self {
            Judge::Comparison(_) => "comparison head",
            Judge::Utility(_) => "utility head",
            Judge::Learned(_) => "value",
            Judge::AlphaZero(..) => "value head",
        }
    }

    /// What the judge keeps of `pos`.
    pub fn judge(&mut self, pos: &Chess) -> Judged {
        match self {
            Judge::Comparison(net) => Judged::Embedding(net.embed_position(pos)),
            // The network has a utility head: new() checked.
            Judge::Utility(net) => Judged::Value(f64::from(net.value_difference(pos).unwrap_or(0))),
            Judge::Learned(net) => Judged::Value(f64::from(net.white_value(pos))),
            Judge::AlphaZero(net, scratch) => {
                let value = f64::from(net.evaluate(&Planes::new(pos, 0), scratch).value);
                Judged::Value(if pos.turn() == Color::White { value } else { -value })
            }
        }
    }

    /// `Greater` when `a` is better for White than `b`, `Less` when worse,
    /// `Equal` when the network cannot tell them apart.
    pub fn order_for_white(&self, a: &Judged, b: &Judged) -> Ordering {
        match (self, a, b) {
            (Judge::Comparison(net), Judged::Embedding(a), Judged::Embedding(b)) => net.compare_logit(a, b).cmp(&0),
            (_, Judged::Value(a), Judged::Value(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            // A judge keeps one kind for every position.
            _ => unreachable!("positions judged by different heads"),
        }
    }
}
