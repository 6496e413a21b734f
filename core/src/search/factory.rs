//! The one place that turns a network and the UCI options into a search:
//! which search can play which family ([`playable`]), the search itself
//! ([`build`]), and why, when the options ask for one the network cannot
//! play, it plays another ([`refusal`], a [`Refusal`] that the UCI layer words).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::deepchess::network::Network;
use crate::search::comparison::net_comparator::NetComparator;
use crate::search::comparison::search::ComparisonSearch;
use crate::search::interface::{Search, SearchKind};
use crate::search::mcts::alphazero::AzEvaluator;
use crate::search::mcts::search::MctsSearch;
use crate::search::mcts::utility::UtilityEvaluator;
use crate::search::scalar::learned::LearnedEvaluator;
use crate::search::scalar::net_evaluator::NetEvaluator;
use crate::search::scalar::search::ScalarSearch;
use crate::weights::Weights;

/// The search asked for, and how: what the UCI options `Search`, `Engine`
/// and `FiftyMoveScale` come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchChoice {
    /// The search wanted (the network may not have its head: [`playable`]).
    pub search: SearchKind,
    /// `FiftyMoveScale`: the scalar search's static evaluations shrink as
    /// the fifty-move count grows ([`ScalarSearch::with_fifty_scale`]).
    pub fifty_scale: bool,
}

impl SearchChoice {
    /// `kind`, without the fifty-move scale.
    pub fn of(kind: SearchKind) -> SearchChoice {
        SearchChoice { search: kind, fifty_scale: false }
    }
}

/// An option that chooses the search, as just set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOption {
    /// `setoption name Search value …`.
    Search(SearchKind),
    /// `setoption name Engine value alphabeta|mcts`.
    Engine {
        /// `mcts`.
        mcts: bool,
    },
}

/// Whether `weights` has what `kind` needs.
pub fn supports(weights: &Weights, kind: SearchKind) -> bool {
    match weights {
        Weights::DeepChess(net) => has_head_for(net, kind),
        Weights::Learned(_) => kind == SearchKind::Scalar,
        Weights::AlphaZero(_) => kind == SearchKind::Mcts,
    }
}

fn has_head_for(net: &Network, kind: SearchKind) -> bool {
    match kind {
        SearchKind::Scalar | SearchKind::Mcts => net.has_utility(),
        SearchKind::Comparison => net.has_comparison(),
    }
}

/// Every search `weights` can play, in the order of [`SearchKind`]:
/// `scalar` and `comparison`, then `mcts`.
pub fn searches(weights: &Weights) -> impl Iterator<Item = SearchKind> + '_ {
    [SearchKind::Scalar, SearchKind::Comparison, SearchKind::Mcts].into_iter().filter(|&kind| supports(weights, kind))
}

/// `(plays scalar, mcts)`: the searches `weights` can play, as the engine
/// says when it loads a network, so that a front end offers just those.
pub fn plays(weights: &Weights) -> String {
    let names: Vec<&str> = searches(weights).map(SearchKind::name).collect();
    format!("(plays {})", names.join(", "))
}

/// The search that plays `weights` under `choice`: the one it names if
/// the network has its head, else the first alpha-beta search the network
/// can play. A learner's network plays only the scalar search, the
/// AlphaZero network only MCTS.
pub fn playable(weights: &Weights, choice: SearchChoice) -> SearchKind {
    match weights {
        Weights::DeepChess(net) => {
            let wanted = choice.search;
            if has_head_for(net, wanted) {
                wanted
            } else {
                SearchKind::ALL.into_iter().find(|&k| has_head_for(net, k)).unwrap_or(wanted)
            }
        }
        Weights::Learned(_) => SearchKind::Scalar,
        Weights::AlphaZero(_) => SearchKind::Mcts,
    }
}

/// The search [`playable`] names, over a copy of the network, whose
/// tables take `hash_mb` MiB ([`split_hash`]).
pub fn build(weights: &Weights, choice: SearchChoice, hash_mb: usize) -> Box<dyn Search> {
    let kind = playable(weights, choice);
    let (cache, tt) = split_hash(kind, hash_mb);
    match (weights, kind) {
        (Weights::DeepChess(net), SearchKind::Comparison) => {
            Box::new(ComparisonSearch::new(NetComparator::new(net.clone(), cache), tt))
        }
        (Weights::DeepChess(net), SearchKind::Scalar) => {
            Box::new(ScalarSearch::new(NetEvaluator::new(net.clone(), cache), tt).with_fifty_scale(choice.fifty_scale))
        }
        (Weights::DeepChess(net), SearchKind::Mcts) => Box::new(MctsSearch::new(UtilityEvaluator::new(net.clone()))),
        (Weights::Learned(net), _) => Box::new(
            ScalarSearch::new(LearnedEvaluator::new(net.clone(), cache), tt).with_fifty_scale(choice.fifty_scale),
        ),
        (Weights::AlphaZero(net), _) => Box::new(MctsSearch::new(AzEvaluator::new(net.clone()))),
    }
}

/// Why the network plays another search than the options ask for; its
/// `Display` is the sentence the engine reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The AlphaZero network plays MCTS and nothing else.
    OnlyMcts,
    /// A learner's network plays the scalar search and nothing else.
    OnlyScalar,
    /// A DeepChess network lacks the head that `wanted` needs.
    NoHead {
        /// The search asked for.
        wanted: SearchKind,
        /// The search it plays.
        instead: SearchKind,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::OnlyMcts => f.write_str("the AlphaZero network plays only with MCTS"),
            Refusal::OnlyScalar => {
                f.write_str("a learner's network has no comparison head; playing with the scalar search")
            }
            Refusal::NoHead { wanted, instead } => write!(
                f,
                "this network has no {} head; playing with the {} search",
                if *wanted == SearchKind::Scalar { "utility" } else { "comparison" },
                instead.name()
            ),
        }
    }
}

/// Why `weights` cannot play what `option`, just set, asks for (the
/// options now being `choice`), if it cannot.
pub fn refusal(weights: &Weights, option: SearchOption, choice: SearchChoice) -> Option<Refusal> {
    match (weights, option) {
        (Weights::AlphaZero(_), SearchOption::Search(_) | SearchOption::Engine { mcts: false }) => {
            Some(Refusal::OnlyMcts)
        }
        (Weights::Learned(_), SearchOption::Search(kind)) if kind != SearchKind::Scalar => Some(Refusal::OnlyScalar),
        (Weights::DeepChess(net), SearchOption::Search(kind)) if !has_head_for(net, kind) => {
            Some(Refusal::NoHead { wanted: kind, instead: playable(weights, choice) })
        }
        _ => None,
    }
}

/// How `Hash` is split. The comparison search gives three quarters to its
/// embedding cache and a quarter to its move table; the scalar search three
/// quarters to its transposition table and a quarter to its evaluation
/// cache. Returns (cache bytes, table bytes).
pub fn split_hash(kind: SearchKind, mb: usize) -> (usize, usize) {
    let bytes = mb << 20;
    match kind {
        SearchKind::Comparison => (bytes / 4 * 3, bytes / 4),
        SearchKind::Scalar | SearchKind::Mcts => (bytes / 4, bytes / 4 * 3),
    }
}
