//! The UCI engine state machine, shared by the native binary and the
//! browser worker.
//!
//! The host owns the input, the clock and the files. It passes each input line
//! to [`UciEngine::handle`], and while [`UciEngine::is_thinking`] it calls
//! [`UciEngine::think`] with a node budget, reading input between calls. A
//! slice of a few thousand nodes takes milliseconds, so `stop` and `isready`
//! are answered promptly even in a single-threaded worker. Output lines go to
//! the host's `out` callback, without a newline.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU64, Ordering};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::alphazero::{AZ_MAGIC, AzNet};
use crate::default_network::DEFAULT_NETWORK;
use crate::learned::{LEARNED_MAGIC, LearnedNet};
use crate::network::Network;
use crate::search::{Event, Limits, NetComparator, NetEvaluator, Search, zobrist};
use crate::uci::command::{Command, Go};
use crate::uci::helpers::HelperJob;
use crate::uci::searcher::{SearchKind, Searcher, split_hash};
use crate::uci::time::TimeBudget;

/// Default `Hash`, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest `Hash`, in MiB (a browser tab's memory is the limit).
pub const MAX_HASH_MB: usize = 1024;
/// Largest `MultiPV`.
pub const MAX_MULTIPV: usize = 64;
/// A search sends a progress line (`info depth … nodes … time …`, no
/// `pv`) when this long has passed without an `info` line, in ms.
pub const STATS_INTERVAL_MS: u64 = 1000;

/// Default `Move Overhead`, in ms.
pub const DEFAULT_MOVE_OVERHEAD: u64 = 30;

/// What the host must do after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Nothing: read the next line (and keep calling `think` while thinking).
    Continue,
    /// `quit` was received.
    Quit,
    /// `setoption name EvalFile value <path>`: the host reads the file and
    /// calls [`UciEngine::load_network`]. (`<embedded>`, the default network,
    /// is loaded by the engine itself and never reaches the host.)
    LoadEvalFile(String),
}

struct Options {
    hash_mb: usize,
    multipv: usize,
    move_overhead: u64,
    search: SearchKind,
    /// `Engine`: MCTS instead of the alpha-beta search `search` names.
    mcts: bool,
    threads: usize,
}

/// The default `Search`: the stronger of the two in matches (STRENGTH.md).
pub const DEFAULT_SEARCH: SearchKind = SearchKind::Scalar;

struct Active {
    started: u64,
    /// When the last `info` line was sent (ms, the host's clock).
    reported: u64,
    budget: Option<TimeBudget>,
    infinite: bool,
    /// The search ended by itself during `go infinite`: `bestmove` waits for `stop`.
    waiting: bool,
}

/// A UCI engine over the scalar or the comparison search (`Search`).
pub struct UciEngine {
    pub(super) search: Option<Searcher>,
    options: Options,
    /// Largest `Threads` the host supports (1 in the browser worker).
    max_threads: usize,
    position: Chess,
    /// Zobrist hashes of the game's positions before `position`.
    game: Vec<u64>,
    active: Option<Active>,
    /// Searches started (each `go`).
    searches: u64,
    /// Nodes the Lazy SMP helpers of the current search have searched.
    helper_nodes: Arc<AtomicU64>,
}

impl UciEngine {
    /// An engine that judges with `network`, or, with `None`, answers `go`
    /// with an error until a network is loaded.
    pub fn new(network: Option<Network>) -> UciEngine {
        let options = Options {
            hash_mb: DEFAULT_HASH_MB,
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            search: DEFAULT_SEARCH,
            mcts: false,
            threads: 1,
        };
        let mut engine = UciEngine {
            search: None,
            options,
            max_threads: 1,
            position: Chess::default(),
            game: Vec::new(),
            active: None,
            searches: 0,
            helper_nodes: Arc::new(AtomicU64::new(0)),
        };
        if let Some(net) = network {
            engine.set_network(net);
        }
        engine
    }

    /// Lets `Threads` go up to `max` (a host that runs helper searches
    /// calls it before `uci`; see [`helper_job`](Self::helper_job)).
    pub fn set_max_threads(&mut self, max: usize) {
        self.max_threads = max.max(1);
    }

    /// Replaces the network (and empties the caches). The search is the one
    /// `Search` names if the network has its head, else the other.
    pub fn set_network(&mut self, net: Network) {
        let kind = self.playable_kind(&net);
        self.search = Some(Searcher::new(kind, net, self.options.hash_mb));
    }

    fn playable_kind(&self, net: &Network) -> SearchKind {
        let wanted = if self.options.mcts { SearchKind::Mcts } else { self.options.search };
        if wanted.supported_by(net) {
            wanted
        } else {
            SearchKind::ALL.into_iter().find(|k| k.supported_by(net)).unwrap_or(wanted)
        }
    }

    /// Plays with a learner's network ([`crate::learned`]) through the
    /// scalar search, whatever `Search` says (it has no other head).
    pub fn set_learned_network(&mut self, net: LearnedNet) {
        self.search = Some(Searcher::learned(net, self.options.hash_mb));
    }

    /// Plays with the AlphaZero seed's network through MCTS, whatever
    /// `Engine` says (it has no alpha-beta evaluation).
    pub fn set_az_network(&mut self, net: AzNet) {
        self.search = Some(Searcher::az(net));
    }

    /// The AlphaZero network in use, if it plays.
    pub fn az_network(&self) -> Option<&AzNet> {
        self.search.as_ref().and_then(Searcher::az_network)
    }

    /// The DeepChess network in use (`None` while a learner's network plays).
    pub fn network(&self) -> Option<&Network> {
        self.search.as_ref().and_then(Searcher::network)
    }

    /// The learner's network in use, if one plays.
    pub fn learned_network(&self) -> Option<&LearnedNet> {
        self.search.as_ref().and_then(Searcher::learned_network)
    }

    /// The search that plays: `Search`, where the network has its head.
    pub fn search_kind(&self) -> Option<SearchKind> {
        self.search.as_ref().map(Searcher::kind)
    }

    /// The comparison search's comparator, to fill its embedding cache from
    /// a batch computed elsewhere (see [`frontier`](crate::search::frontier));
    /// `None` while the scalar search plays.
    pub fn comparator_mut(&mut self) -> Option<&mut NetComparator> {
        match self.search.as_mut() {
            Some(Searcher::Comparison(search)) => Some(search.comparator_mut()),
            _ => None,
        }
    }

    /// The scalar search's evaluator, to fill its cache from a batch
    /// computed elsewhere; `None` while the comparison search plays.
    pub fn evaluator_mut(&mut self) -> Option<&mut NetEvaluator> {
        match self.search.as_mut() {
            Some(Searcher::Scalar(search)) => Some(search.evaluator_mut()),
            _ => None,
        }
    }

    /// What helper threads need to join the search `go` just started (Lazy
    /// SMP over the shared transposition table): `None` unless the scalar
    /// search is running and `Threads` is above 1.
    pub fn helper_job(&self) -> Option<HelperJob> {
        let Some(Searcher::Scalar(search)) = &self.search else { return None };
        if self.options.threads < 2 || self.active.is_none() {
            return None;
        }
        Some(HelperJob {
            helpers: self.options.threads - 1,
            network: search.evaluator().network().clone(),
            table: search.table().clone(),
            root: self.position.clone(),
            game: self.game.clone(),
            cache_bytes: split_hash(SearchKind::Scalar, self.options.hash_mb).0,
            nodes: self.helper_nodes.clone(),
        })
    }

    /// Loads a weights file read by the host for `EvalFile`, reporting the
    /// result as an `info string`: a DeepChess network (`.dcnn`), a
    /// learner's (`.dcsn`) or the AlphaZero seed's (`.dcaz`), told by the
    /// magic. On error the previous network stays.
    pub fn load_network(&mut self, bytes: Result<&[u8], String>, source: &str, out: &mut dyn FnMut(&str)) {
        if let Ok(b) = &bytes
            && b.starts_with(&AZ_MAGIC)
        {
            match AzNet::from_bytes(b) {
                Ok(net) => {
                    out(&format!(
                        "info string loaded network {source}: AlphaZero {} blocks × {} filters (mcts)",
                        net.blocks(),
                        net.filters()
                    ));
                    self.set_az_network(net);
                }
                Err(err) => out(&format!("info string error: cannot load network {source}: {err}")),
            }
            return;
        }
        if let Ok(b) = &bytes
            && b.starts_with(&LEARNED_MAGIC)
        {
            match LearnedNet::from_bytes(b) {
                Ok(net) => {
                    out(&format!("info string loaded network {source}: {} (scalar search)", net.shape_name()));
                    self.set_learned_network(net);
                }
                Err(err) => out(&format!("info string error: cannot load network {source}: {err}")),
            }
            return;
        }
        match bytes.and_then(|b| Network::from_bytes(b).map_err(|e| e.to_string())) {
            Ok(net) => {
                out(&format!("info string loaded network {source}: {}", net.shape()));
                self.set_network(net);
            }
            Err(err) => out(&format!("info string error: cannot load network {source}: {err}")),
        }
    }

    /// The position the next `go` searches.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// A number that changes with every `go`, so that a host can tell a new
    /// search from the one its helper threads joined.
    pub fn search_id(&self) -> u64 {
        self.searches
    }

    /// Whether a search is running and wants [`think`](Self::think) calls.
    pub fn is_thinking(&self) -> bool {
        self.active.as_ref().is_some_and(|a| !a.waiting)
    }

    /// Whether the running search waits for `stop` (`go infinite`, or `go`
    /// with no limit).
    pub fn is_infinite(&self) -> bool {
        self.active.as_ref().is_some_and(|a| a.infinite)
    }

    /// Whether `go` was received and `bestmove` not yet sent.
    pub fn is_searching(&self) -> bool {
        self.active.is_some()
    }

    /// Handles one input line at time `now` (ms, any epoch).
    pub fn handle(&mut self, line: &str, now: u64, out: &mut dyn FnMut(&str)) -> Request {
        let command = match Command::parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Request::Continue,
            Err(err) => {
                out(&format!("info string error: {err}"));
                return Request::Continue;
            }
        };
        match command {
            Command::Uci => self.identify(out),
            Command::IsReady => out("readyok"),
            Command::UciNewGame => {
                self.finish(out);
                if let Some(search) = &mut self.search {
                    search.clear();
                }
            }
            Command::SetOption { name, value } => return self.set_option(&name, value.as_deref(), out),
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves, out),
            Command::Go(go) => self.go(&go, now, out),
            Command::Stop => self.finish(out),
            Command::Quit => {
                self.finish(out);
                return Request::Quit;
            }
        }
        Request::Continue
    }

    fn identify(&self, out: &mut dyn FnMut(&str)) {
        out(concat!("id name DeepChess ", env!("CARGO_PKG_VERSION")));
        out("id author the DeepChess developers");
        out(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
        out(&format!("option name Threads type spin default 1 min 1 max {}", self.max_threads));
        out(&format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"));
        out("option name UCI_AnalyseMode type check default false");
        out(&format!("option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD} min 0 max 5000"));
        out("option name EvalFile type string default <embedded>");
        out(&format!(
            "option name Search type combo default {} var {} var {}",
            DEFAULT_SEARCH.name(),
            SearchKind::Scalar.name(),
            SearchKind::Comparison.name()
        ));
        out("option name Engine type combo default alphabeta var alphabeta var mcts");
        out("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, out: &mut dyn FnMut(&str)) -> Request {
        let value = value.unwrap_or("").trim();
        let number = |min: u64, max: u64| value.parse::<u64>().ok().map(|v| v.clamp(min, max));
        let mut invalid = || out(&format!("info string error: invalid value {value:?} for option {name}"));
        match name.to_ascii_lowercase().as_str() {
            "hash" => match number(1, MAX_HASH_MB as u64) {
                Some(mb) => {
                    self.options.hash_mb = mb as usize;
                    if let Some(search) = &mut self.search {
                        search.resize(self.options.hash_mb);
                    }
                }
                None => invalid(),
            },
            "multipv" => match number(1, MAX_MULTIPV as u64) {
                Some(k) => self.options.multipv = k as usize,
                None => invalid(),
            },
            // Helper threads join the scalar search where the host runs them.
            "threads" => match number(1, self.max_threads as u64) {
                Some(n) => self.options.threads = n as usize,
                None => invalid(),
            },
            "search" => match value.parse::<SearchKind>() {
                Ok(kind) => {
                    self.options.search = kind;
                    self.finish(out);
                    if self.az_network().is_some() {
                        out("info string error: the AlphaZero network plays only with MCTS");
                    }
                    if self.learned_network().is_some() && kind != SearchKind::Scalar {
                        out(
                            "info string error: a learner's network has no comparison head; playing with the scalar search",
                        );
                    }
                    if let Some(net) = self.network().cloned() {
                        if !kind.supported_by(&net) {
                            out(&format!(
                                "info string error: this network has no {} head; playing with the {} search",
                                if kind == SearchKind::Scalar { "utility" } else { "comparison" },
                                self.playable_kind(&net).name()
                            ));
                        }
                        if self.search_kind() != Some(self.playable_kind(&net)) {
                            self.set_network(net);
                        }
                    }
                }
                Err(()) => invalid(),
            },
            // MCTS (over the utility head with a DeepChess network; the
            // AlphaZero network always plays it) or the alpha-beta search
            // `Search` names.
            "engine" => match value.to_ascii_lowercase().as_str() {
                engine @ ("alphabeta" | "mcts") => {
                    self.options.mcts = engine == "mcts";
                    self.finish(out);
                    if self.az_network().is_some() && !self.options.mcts {
                        out("info string error: the AlphaZero network plays only with MCTS");
                    }
                    if let Some(net) = self.network().cloned()
                        && self.search_kind() != Some(self.playable_kind(&net))
                    {
                        self.set_network(net);
                    }
                }
                _ => invalid(),
            },
            // Analysis and play search the same way: accepted, no effect.
            "uci_analysemode" => {
                if value != "true" && value != "false" {
                    invalid();
                }
            }
            "move overhead" => match number(0, 5000) {
                Some(ms) => self.options.move_overhead = ms,
                None => invalid(),
            },
            "evalfile" if value == "<embedded>" => match DEFAULT_NETWORK {
                Some((name, bytes)) => self.load_network(Ok(bytes), name, out),
                None => out("info string error: this build has no embedded network"),
            },
            "evalfile" if !value.is_empty() => return Request::LoadEvalFile(value.to_string()),
            _ => out(&format!("info string error: unknown option {name:?}")),
        }
        Request::Continue
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String], out: &mut dyn FnMut(&str)) {
        match parse_game(fen, moves) {
            Ok((position, game)) => {
                self.position = position;
                self.game = game;
            }
            Err(err) => out(&format!("info string error: {err}; keeping the previous position")),
        }
    }

    fn go(&mut self, go: &Go, now: u64, out: &mut dyn FnMut(&str)) {
        self.finish(out);
        self.searches += 1;
        // The previous search's helpers may count a last slice into the old counter.
        self.helper_nodes = Arc::new(AtomicU64::new(0));
        let Some(search) = &mut self.search else {
            out("info string error: no network loaded; use --weights or setoption name EvalFile value <file>");
            out("bestmove (none)");
            return;
        };
        let limits = Limits { depth: go.depth, nodes: go.nodes, multipv: self.options.multipv };
        search.start(self.position.clone(), &self.game, limits);
        if !search.is_running() {
            let score = if self.position.is_check() { "mate 0" } else { "cp 0" };
            out(&format!("info depth 0 score {score} nodes 0 time 0"));
            out("bestmove (none)");
            return;
        }
        let budget = TimeBudget::new(go, self.position.turn(), self.options.move_overhead);
        // Without any limit, `go` searches until `stop`, like `go infinite`.
        let infinite = go.infinite || (budget.is_none() && go.depth.is_none() && go.nodes.is_none());
        self.active = Some(Active { started: now, reported: now, budget, infinite, waiting: false });
    }

    /// Searches about `nodes` nodes, printing `info` lines as principal
    /// variations complete and `bestmove` when the search ends. `clock`
    /// returns the time in ms (same epoch as [`handle`](Self::handle)'s `now`).
    pub fn think(&mut self, nodes: u64, clock: &dyn Fn() -> u64, out: &mut dyn FnMut(&str)) {
        let Some((started, hard)) = self.deadline() else { return };
        let Some(search) = &mut self.search else { return };
        let event = search.step(nodes, &mut |_| hard.is_some_and(|h| clock().saturating_sub(started) >= h));
        self.on_event(event, clock, out);
    }

    /// The running search's start and hard time limit (ms), unless it
    /// waits for `stop` or none runs.
    pub(super) fn deadline(&self) -> Option<(u64, Option<u64>)> {
        let active = self.active.as_ref().filter(|a| !a.waiting)?;
        Some((active.started, active.budget.map(|b| b.hard)))
    }

    /// Reports what the search's last step gave (`info` lines) and sends
    /// `bestmove` when the search ends.
    pub(super) fn on_event(&mut self, event: Event, clock: &dyn Fn() -> u64, out: &mut dyn FnMut(&str)) {
        let (Some(active), Some(search)) = (&mut self.active, &mut self.search) else { return };
        let started = active.started;
        let helpers = self.helper_nodes.load(Ordering::Relaxed);
        let finish_now = match event {
            Event::Paused => {
                // A long iteration still shows progress, as engines do: depth,
                // nodes and speed once a second, between principal variations.
                let now = clock();
                if now.saturating_sub(active.reported) >= STATS_INTERVAL_MS {
                    active.reported = now;
                    out(&search.stats_info(now.saturating_sub(started), helpers));
                }
                false
            }
            Event::Line => {
                let elapsed = clock().saturating_sub(started);
                active.reported = clock();
                let Some((multipv, line)) = search.last_info(&self.position, elapsed, helpers) else { return };
                out(&line);
                let iteration_done = multipv >= self.options.multipv.min(self.position.legal_moves().len());
                iteration_done && active.budget.is_some_and(|b| elapsed >= b.soft)
            }
            Event::Finished => {
                // `go infinite` holds `bestmove` back until `stop`.
                active.waiting = active.infinite;
                !active.infinite
            }
        };
        if finish_now {
            self.finish(out);
        }
    }

    /// Stops any search and sends its `bestmove`.
    fn finish(&mut self, out: &mut dyn FnMut(&str)) {
        if self.active.take().is_none() {
            return;
        }
        let Some(search) = &mut self.search else { return };
        search.stop();
        match search.best_move() {
            Some(m) => out(&format!("bestmove {}", uci_move(m))),
            None => out("bestmove (none)"),
        }
    }
}

/// A comparison search over `net` whose caches take `hash_mb` MiB, split as
/// the `Hash` option is.
pub fn net_search(net: Network, hash_mb: usize) -> Search<NetComparator> {
    let (cache, tt) = split_hash(SearchKind::Comparison, hash_mb);
    Search::new(NetComparator::new(net, cache), tt)
}

/// `e2e4`, `e7e8q`, `e1g1` (castling as the king's two-square move).
pub fn uci_move(m: Move) -> UciMove {
    UciMove::from_move(m, CastlingMode::Standard)
}

/// A position and the moves played from it, checked move by move; returns the
/// final position and the Zobrist hashes of the positions before it.
pub fn parse_game(fen: Option<&str>, moves: &[String]) -> Result<(Chess, Vec<u64>), String> {
    let mut pos = match fen {
        None => Chess::default(),
        Some(fen) => {
            let parsed: Fen = fen.parse().map_err(|e| format!("invalid FEN {fen:?}: {e}"))?;
            // Castling rights on other files than a and h are Chess960's.
            let mode = if parsed.clone().into_position::<Chess>(CastlingMode::Standard).is_ok() {
                CastlingMode::Standard
            } else {
                CastlingMode::Chess960
            };
            parsed.into_position(mode).map_err(|e| format!("illegal position {fen:?}: {e}"))?
        }
    };
    let mut game = Vec::with_capacity(moves.len());
    for text in moves {
        let m = text
            .parse::<UciMove>()
            .map_err(|_| format!("invalid move {text:?}"))?
            .to_move(&pos)
            .map_err(|_| format!("illegal move {text:?}"))?;
        game.push(zobrist(&pos));
        pos.play_unchecked(m);
    }
    Ok((pos, game))
}
