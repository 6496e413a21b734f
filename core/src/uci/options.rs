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
use crate::search::interface::SearchKind;

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
/// The `Network` of the network built into the engine.
pub const BUILT_IN_NETWORK: &str = "DeepChess (built in)";

/// What the host offers that the options list: the most `Threads` it runs,
/// and the networks it can load by name (`Network`).
#[derive(Clone, Debug, Default)]
pub(super) struct Host {
    pub(super) max_threads: usize,
    /// Each network's name and the `EvalFile` it loads.
    pub(super) networks: Vec<(String, String)>,
}

/// An option's type and its default, as `uci` lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A number, clamped to `min..=max`.
    Spin { default: u64, min: u64, max: u64 },
    /// `true` or `false`.
    Check { default: bool },
    /// One of `vars` (any case).
    Combo { default: String, vars: Vec<String> },
    /// Any text.
    Text { default: &'static str },
}

/// Which option a declaration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Id {
    Hash,
    Threads,
    MultiPv,
    AnalyseMode,
    FiftyMoveScale,
    MoveOverhead,
    EvalFile,
    Network,
    Search,
    Engine,
}

/// One option as the engine declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Declared {
    id: Id,
    name: &'static str,
    kind: Kind,
}

/// A value that an option's declaration accepts.
enum Value<'a> {
    /// A spin's number, clamped to its bounds.
    Number(u64),
    /// A check's `true` or `false`.
    Flag(bool),
    /// A combo's var (as given) or a string's text (not empty).
    Text(&'a str),
}

impl Declared {
    /// `value` as this declaration reads it, if it accepts it.
    fn accept<'a>(&self, value: &'a str) -> Option<Value<'a>> {
        match &self.kind {
            Kind::Spin { min, max, .. } => value.parse::<u64>().ok().map(|n| Value::Number(n.clamp(*min, *max))),
            Kind::Check { .. } => match value {
                "true" => Some(Value::Flag(true)),
                "false" => Some(Value::Flag(false)),
                _ => None,
            },
            Kind::Combo { vars, .. } => {
                vars.iter().any(|v| v.eq_ignore_ascii_case(value)).then_some(Value::Text(value))
            }
            Kind::Text { .. } => (!value.is_empty()).then_some(Value::Text(value)),
        }
    }

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

/// Every option, in the order `uci` lists them: `Threads` goes up to the
/// host's most, and `Network` is there when the host offers networks.
pub(super) fn declarations(host: &Host) -> Vec<Declared> {
    let spin = |id, name, default, min, max| Declared { id, name, kind: Kind::Spin { default, min, max } };
    let check = |id, name| Declared { id, name, kind: Kind::Check { default: false } };
    let combo = |id, name, default: &str, vars: &[&str]| Declared {
        id,
        name,
        kind: Kind::Combo { default: default.to_string(), vars: vars.iter().map(|v| v.to_string()).collect() },
    };
    let mut networks = vec![BUILT_IN_NETWORK];
    networks.extend(host.networks.iter().map(|(name, _)| name.as_str()));
    let mut declared = vec![
        spin(Id::Hash, "Hash", DEFAULT_HASH_MB as u64, 1, MAX_HASH_MB as u64),
        spin(Id::Threads, "Threads", 1, 1, host.max_threads as u64),
        spin(Id::MultiPv, "MultiPV", 1, 1, MAX_MULTIPV as u64),
        check(Id::AnalyseMode, "UCI_AnalyseMode"),
        check(Id::FiftyMoveScale, "FiftyMoveScale"),
        spin(Id::MoveOverhead, "Move Overhead", DEFAULT_MOVE_OVERHEAD, 0, MAX_MOVE_OVERHEAD),
        Declared { id: Id::EvalFile, name: "EvalFile", kind: Kind::Text { default: "<embedded>" } },
        combo(Id::Network, "Network", BUILT_IN_NETWORK, &networks),
        combo(Id::Search, "Search", DEFAULT_SEARCH.name(), &[SearchKind::Scalar.name(), SearchKind::Comparison.name()]),
        combo(Id::Engine, "Engine", "alphabeta", &["alphabeta", "mcts"]),
    ];
    if host.networks.is_empty() {
        declared.retain(|d| d.id != Id::Network);
    }
    declared
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
/// (names in any case, as UCI allows). A `Network` is the `EvalFile` it
/// names.
pub(super) fn parse(name: &str, value: &str, host: &Host) -> Result<Setting, OptionError> {
    let value = value.trim();
    let declared = declarations(host)
        .into_iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let invalid = || OptionError::Invalid { name: name.to_string(), value: value.to_string() };
    let accepted = declared.accept(value).ok_or_else(invalid)?;
    Ok(match (declared.id, accepted) {
        (Id::Hash, Value::Number(mb)) => Setting::Hash(mb as usize),
        (Id::Threads, Value::Number(n)) => Setting::Threads(n as usize),
        (Id::MultiPv, Value::Number(k)) => Setting::MultiPv(k as usize),
        (Id::AnalyseMode, Value::Flag(_)) => Setting::AnalyseMode,
        (Id::FiftyMoveScale, Value::Flag(on)) => Setting::FiftyMoveScale(on),
        (Id::MoveOverhead, Value::Number(ms)) => Setting::MoveOverhead(ms),
        (Id::EvalFile, Value::Text(file)) => Setting::EvalFile(file.to_string()),
        (Id::Network, Value::Text(network)) => Setting::EvalFile(
            host.networks
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(network))
                .map_or_else(|| "<embedded>".to_string(), |(_, file)| file.clone()),
        ),
        (Id::Search, Value::Text(kind)) => Setting::Search(kind.parse().map_err(|_| invalid())?),
        (Id::Engine, Value::Text(engine)) => Setting::Engine { mcts: engine.eq_ignore_ascii_case("mcts") },
        // An option declared with a kind that does not fit it (a mistake in
        // `declarations`, which the tests below would show).
        _ => return Err(invalid()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_option_parses_its_own_default() {
        let host = Host { max_threads: 4, networks: vec![("Deep Pink".into(), "nets/pink.dcsn".into())] };
        for declared in declarations(&host) {
            let default = match &declared.kind {
                Kind::Spin { default, .. } => default.to_string(),
                Kind::Check { default } => default.to_string(),
                Kind::Combo { default, .. } => default.to_string(),
                Kind::Text { default } => default.to_string(),
            };
            assert!(parse(declared.name, &default, &host).is_ok(), "{}", declared.line());
        }
    }

    #[test]
    fn values_are_checked_against_the_declaration() {
        let one = Host { max_threads: 1, networks: Vec::new() };
        let two = Host { max_threads: 2, networks: Vec::new() };
        assert_eq!(parse("hash", "64", &one), Ok(Setting::Hash(64)));
        assert_eq!(parse("Hash", "999999", &one), Ok(Setting::Hash(MAX_HASH_MB)), "clamped");
        assert_eq!(parse("Threads", "8", &two), Ok(Setting::Threads(2)), "up to the host's threads");
        assert_eq!(parse("ENGINE", "MCTS", &one), Ok(Setting::Engine { mcts: true }));
        assert_eq!(parse("Search", "Comparison", &one), Ok(Setting::Search(SearchKind::Comparison)));
        for (name, value) in
            [("Hash", "lots"), ("FiftyMoveScale", "1"), ("Search", "mcts"), ("Engine", "minimax"), ("EvalFile", " ")]
        {
            assert_eq!(
                parse(name, value, &one),
                Err(OptionError::Invalid { name: name.to_string(), value: value.trim().to_string() }),
                "{name} {value}"
            );
        }
        assert_eq!(parse("Contempt", "0", &one), Err(OptionError::Unknown("Contempt".into())));
        assert_eq!(
            OptionError::Invalid { name: "Search".into(), value: "sideways".into() }.to_string(),
            "invalid value \"sideways\" for option Search"
        );
    }

    #[test]
    fn the_uci_lines_are_the_declarations() {
        let lines: Vec<String> =
            declarations(&Host { max_threads: 2, networks: Vec::new() }).iter().map(Declared::line).collect();
        assert_eq!(lines[0], "option name Hash type spin default 16 min 1 max 1024");
        assert_eq!(lines[1], "option name Threads type spin default 1 min 1 max 2");
        assert_eq!(lines[7], "option name Search type combo default scalar var scalar var comparison");
        assert_eq!(lines[8], "option name Engine type combo default alphabeta var alphabeta var mcts");
        assert!(!lines.iter().any(|l| l.starts_with("option name Network")), "no networks offered, no option");
    }

    #[test]
    fn a_network_is_named_and_loads_as_its_file() {
        let host = Host {
            max_threads: 1,
            networks: vec![("Deep Pink (Bernhardsson 2015)".into(), "/w/deepchess-14d43258c8bb.dcsn".into())],
        };
        let lines: Vec<String> = declarations(&host).iter().map(Declared::line).collect();
        assert_eq!(
            lines[7],
            "option name Network type combo default DeepChess (built in) var DeepChess (built in) var Deep Pink (Bernhardsson 2015)"
        );
        assert_eq!(
            parse("Network", "deep pink (bernhardsson 2015)", &host),
            Ok(Setting::EvalFile("/w/deepchess-14d43258c8bb.dcsn".into()))
        );
        assert_eq!(parse("Network", "DeepChess (built in)", &host), Ok(Setting::EvalFile("<embedded>".into())));
        assert_eq!(
            parse("Network", "Deep", &host),
            Err(OptionError::Invalid { name: "Network".into(), value: "Deep".into() })
        );
    }
}
