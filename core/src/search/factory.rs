//! The one place that turns a network and the UCI options into a search:
//! which search can play which family ([`playable`]), the search itself
//! ([`build`]), and what to say when the options ask for one the network
//! cannot play ([`refusal`]).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::deepchess::network::Network;
use crate::search::comparison::net_comparator::NetComparator;
use crate::search::comparison::search::ComparisonSearch;
use crate::search::mcts::alphazero::AzEvaluator;
use crate::search::mcts::search::MctsSearch;
use crate::search::mcts::utility::UtilityEvaluator;
use crate::search::scalar::learned::LearnedEvaluator;
use crate::search::scalar::net_evaluator::NetEvaluator;
use crate::search::scalar::search::ScalarSearch;
use crate::search::seam::{Search, SearchKind};
use crate::weights::Weights;

/// What the UCI options ask for: `Search` (an alpha-beta kind),
/// `Engine` (MCTS instead) and `FiftyMoveScale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchChoice {
    /// `Search`: [`SearchKind::Scalar`] or [`SearchKind::Comparison`].
    pub search: SearchKind,
    /// `Engine value mcts`.
    pub mcts: bool,
    /// `FiftyMoveScale`: the scalar search's static evaluations shrink as
    /// the fifty-move count grows ([`ScalarSearch::with_fifty_scale`]).
    pub fifty_scale: bool,
}

impl SearchChoice {
    /// The options that ask for `kind`: `Engine value mcts` for MCTS (with
    /// `Search` left at the scalar search), else `Search` set to it.
    pub fn of(kind: SearchKind) -> SearchChoice {
        match kind {
            SearchKind::Mcts => SearchChoice { search: SearchKind::Scalar, mcts: true, fifty_scale: false },
            kind => SearchChoice { search: kind, mcts: false, fifty_scale: false },
        }
    }

    /// The search these options name.
    pub fn wanted(self) -> SearchKind {
        if self.mcts { SearchKind::Mcts } else { self.search }
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
            let wanted = choice.wanted();
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

/// What to tell the user when `option`, just set (the options now being
/// `choice`), asks for a search `weights` cannot play, as an `info string`.
pub fn refusal(weights: &Weights, option: SearchOption, choice: SearchChoice) -> Option<String> {
    let alphazero = "info string error: the AlphaZero network plays only with MCTS";
    match (weights, option) {
        (Weights::AlphaZero(_), SearchOption::Search(_)) => Some(alphazero.into()),
        (Weights::AlphaZero(_), SearchOption::Engine { mcts: false }) => Some(alphazero.into()),
        (Weights::Learned(_), SearchOption::Search(kind)) if kind != SearchKind::Scalar => {
            Some("info string error: a learner's network has no comparison head; playing with the scalar search".into())
        }
        (Weights::DeepChess(net), SearchOption::Search(kind)) if !has_head_for(net, kind) => Some(format!(
            "info string error: this network has no {} head; playing with the {} search",
            if kind == SearchKind::Scalar { "utility" } else { "comparison" },
            playable(weights, choice).name()
        )),
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
