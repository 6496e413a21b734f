//! The engine's UCI options, each declared once, as Stockfish declares
//! them: its name, its type, its default and bounds. `uci` lists them from
//! the declarations ([`Declared::line`]) and `setoption` checks a value
//! against the same declaration ([`parse`]) before the engine applies the
//! typed [`Setting`].

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::search::factory::SearchChoice;
use crate::search::seam::SearchKind;

/// Default `Hash`, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest `Hash`, in MiB (a browser tab's memory is the limit).
pub const MAX_HASH_MB: usize = 1024;
/// Largest `MultiPV`.
pub const MAX_MULTIPV: usize = 64;
/// Default `Move Overhead`, in ms.
pub const DEFAULT_MOVE_OVERHEAD: u64 = 30;
/// Largest `Move Overhead`, in ms.
const MAX_MOVE_OVERHEAD: u64 = 5000;
/// The default `Search`: the stronger of the two in matches (docs/results.md).
pub const DEFAULT_SEARCH: SearchKind = SearchKind::Scalar;

/// An option's type and its default, as `uci` lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A number, clamped to `min..=max`.
    Spin { default: u64, min: u64, max: u64 },
    /// `true` or `false`.
    Check { default: bool },
    /// One of `vars` (any case).
    Combo { default: &'static str, vars: Vec<&'static str> },
    /// Any text.
    Text { default: &'static str },
}

/// One option as the engine declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Declared {
    name: &'static str,
    kind: Kind,
}

impl Declared {
    /// The `option name … type …` line of `uci`.
    pub(super) fn line(&self) -> String {
        let name = self.name;
        match &self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Text { default } => format!("option name {name} type string default {default}"),
        }
    }
}

/// Every option, in the order `uci` lists them; `Threads` goes up to `max_threads`.
pub(super) fn declarations(max_threads: usize) -> Vec<Declared> {
    let spin = |name, default, min, max| Declared { name, kind: Kind::Spin { default, min, max } };
    let check = |name| Declared { name, kind: Kind::Check { default: false } };
    vec![
        spin("Hash", DEFAULT_HASH_MB as u64, 1, MAX_HASH_MB as u64),
        spin("Threads", 1, 1, max_threads as u64),
        spin("MultiPV", 1, 1, MAX_MULTIPV as u64),
        check("UCI_AnalyseMode"),
        check("FiftyMoveScale"),
        spin("Move Overhead", DEFAULT_MOVE_OVERHEAD, 0, MAX_MOVE_OVERHEAD),
        Declared { name: "EvalFile", kind: Kind::Text { default: "<embedded>" } },
        Declared {
            name: "Search",
            kind: Kind::Combo {
                default: DEFAULT_SEARCH.name(),
                vars: vec![SearchKind::Scalar.name(), SearchKind::Comparison.name()],
            },
        },
        Declared { name: "Engine", kind: Kind::Combo { default: "alphabeta", vars: vec!["alphabeta", "mcts"] } },
    ]
}

/// The options' values as the engine keeps them.
pub(super) struct Options {
    pub(super) hash_mb: usize,
    pub(super) multipv: usize,
    pub(super) move_overhead: u64,
    /// `Search`: the alpha-beta search, played unless `Engine` is `mcts`.
    pub(super) alphabeta: SearchKind,
    /// `Engine value mcts`.
    pub(super) mcts: bool,
    /// `FiftyMoveScale`.
    pub(super) fifty_scale: bool,
    pub(super) threads: usize,
}

impl Options {
    /// The search these options ask for.
    pub(super) fn choice(&self) -> SearchChoice {
        let search = if self.mcts { SearchKind::Mcts } else { self.alphabeta };
        SearchChoice { search, fifty_scale: self.fifty_scale }
    }
}

/// A `setoption` that its declaration accepts, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Setting {
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    /// Analysis and play search the same way: accepted, no effect.
    AnalyseMode,
    /// The scalar search's evaluations fade towards the fifty-move draw.
    FiftyMoveScale(bool),
    MoveOverhead(u64),
    /// A weights file to load, or `<embedded>`.
    EvalFile(String),
    Search(SearchKind),
    /// `mcts`, or the alpha-beta search that `Search` names.
    Engine {
        mcts: bool,
    },
}

/// Why a `setoption` was refused; its `Display` is the `info string error:` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum OptionError {
    /// No option has that name.
    Unknown(String),
    /// The option's declaration does not accept that value.
    Invalid { name: String, value: String },
}

impl core::fmt::Display for OptionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option {name:?}"),
            OptionError::Invalid { name, value } => write!(f, "invalid value {value:?} for option {name}"),
        }
    }
}

/// `setoption name <name> value <value>` checked against its declaration
/// (names in any case, as UCI allows).
pub(super) fn parse(name: &str, value: &str, max_threads: usize) -> Result<Setting, OptionError> {
    let value = value.trim();
    let declared = declarations(max_threads)
        .into_iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let invalid = || OptionError::Invalid { name: name.to_string(), value: value.to_string() };
    // The value in the declaration's terms: a clamped number, a flag, a var or text.
    let number = match declared.kind {
        Kind::Spin { min, max, .. } => value.parse::<u64>().map_err(|_| invalid())?.clamp(min, max),
        _ => 0,
    };
    let flag = match declared.kind {
        Kind::Check { .. } => match value {
            "true" => true,
            "false" => false,
            _ => return Err(invalid()),
        },
        _ => false,
    };
    if let Kind::Combo { vars, .. } = &declared.kind
        && !vars.iter().any(|v| v.eq_ignore_ascii_case(value))
    {
        return Err(invalid());
    }
    Ok(match declared.name {
        "Hash" => Setting::Hash(number as usize),
        "Threads" => Setting::Threads(number as usize),
        "MultiPV" => Setting::MultiPv(number as usize),
        "UCI_AnalyseMode" => Setting::AnalyseMode,
        "FiftyMoveScale" => Setting::FiftyMoveScale(flag),
        "Move Overhead" => Setting::MoveOverhead(number),
        "EvalFile" if value.is_empty() => return Err(invalid()),
        "EvalFile" => Setting::EvalFile(value.to_string()),
        "Search" => Setting::Search(value.parse().map_err(|_| invalid())?),
        _ => Setting::Engine { mcts: value.eq_ignore_ascii_case("mcts") },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_option_parses_its_own_default() {
        for declared in declarations(4) {
            let default = match &declared.kind {
                Kind::Spin { default, .. } => default.to_string(),
                Kind::Check { default } => default.to_string(),
                Kind::Combo { default, .. } => default.to_string(),
                Kind::Text { default } => default.to_string(),
            };
            assert!(parse(declared.name, &default, 4).is_ok(), "{}", declared.line());
        }
    }

    #[test]
    fn values_are_checked_against_the_declaration() {
        assert_eq!(parse("hash", "64", 1), Ok(Setting::Hash(64)));
        assert_eq!(parse("Hash", "999999", 1), Ok(Setting::Hash(MAX_HASH_MB)), "clamped");
        assert_eq!(parse("Threads", "8", 2), Ok(Setting::Threads(2)), "up to the host's threads");
        assert_eq!(parse("ENGINE", "MCTS", 1), Ok(Setting::Engine { mcts: true }));
        assert_eq!(parse("Search", "Comparison", 1), Ok(Setting::Search(SearchKind::Comparison)));
        for (name, value) in
            [("Hash", "lots"), ("FiftyMoveScale", "1"), ("Search", "mcts"), ("Engine", "minimax"), ("EvalFile", " ")]
        {
            assert_eq!(
                parse(name, value, 1),
                Err(OptionError::Invalid { name: name.to_string(), value: value.trim().to_string() }),
                "{name} {value}"
            );
        }
        assert_eq!(parse("Contempt", "0", 1), Err(OptionError::Unknown("Contempt".into())));
        assert_eq!(
            OptionError::Invalid { name: "Search".into(), value: "sideways".into() }.to_string(),
            "invalid value \"sideways\" for option Search"
        );
    }

    #[test]
    fn the_uci_lines_are_the_declarations() {
        let lines: Vec<String> = declarations(2).iter().map(Declared::line).collect();
        assert_eq!(lines[0], "option name Hash type spin default 16 min 1 max 1024");
        assert_eq!(lines[1], "option name Threads type spin default 1 min 1 max 2");
        assert_eq!(lines[7], "option name Search type combo default scalar var scalar var comparison");
        assert_eq!(lines[8], "option name Engine type combo default alphabeta var alphabeta var mcts");
    }
}
