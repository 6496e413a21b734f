//! The UCI engine state machine, shared by the native binary and the
//! browser worker.
//!
//! The host owns the input, the clock and the files. It passes each input line
//! to [`UciEngine::handle`], and while [`UciEngine::is_thinking`] it calls
//! [`UciEngine::think`] with a node budget, reading input between calls. A
//! slice of a few thousand nodes takes milliseconds, so `stop` and `isready`
//! are answered promptly even in a single-threaded worker. Output lines go to
//! the host's `out` callback, without a newline.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::{Chess, Position};

use super::info::{info_line, network_text, print_lines, stats_line};
use super::options::{self, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD, DEFAULT_SEARCH, Host, Options, Setting};
use crate::alphazero::net::AzNet;
use crate::deepchess::default_network::DEFAULT_NETWORK;
use crate::deepchess::network::Network;
use crate::learned::net::LearnedNet;
use crate::search::abilities::{HelperContext, HelperTask};
use crate::search::factory::{self, SearchOption};
use crate::search::interface::{Search, SearchKind, step_for};
use crate::search::types::{Event, Limits};
use crate::uci::command::{Command, Go};
use crate::uci::game::{parse_game, uci_move};
use crate::uci::multipv::{IterationLines, Stats};
use crate::uci::time::TimeBudget;
use crate::weights::Weights;

/// A search sends a progress line (`info depth … nodes … time …`, no
/// `pv`) when this long has passed without an `info` line, in ms.
pub const STATS_INTERVAL_MS: u64 = 1000;

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

struct Active {
    started: u64,
    /// When the last `info` line was sent (ms, the host's clock).
    reported: u64,
    budget: Option<TimeBudget>,
    infinite: bool,
    /// The search ended by itself during `go infinite`: `bestmove` waits for `stop`.
    waiting: bool,
    /// With MultiPV above 1 (alpha-beta searches): the iteration's lines,
    /// printed sorted once all are in.
    lines: Option<IterationLines>,
}

/// A UCI engine over any network and any search, built by the
/// [`factory`](crate::search::factory) from the network and the options.
pub struct UciEngine {
    /// The network that plays.
    weights: Option<Weights>,
    /// Where it came from, as `uci` names it: `<embedded>`, or the
    /// `EvalFile` (or `--weights`) it was loaded from.
    source: String,
    /// The search over it.
    pub(super) search: Option<Box<dyn Search>>,
    options: Options,
    /// Largest `Threads` the host supports (1 in the browser worker) and the
    /// networks it loads by name.
    host: Host,
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
        UciEngine::with_weights(network.map(Weights::DeepChess))
    }

    /// An engine that plays with a network of any family, or, with `None`,
    /// answers `go` with an error until a network is loaded.
    pub fn with_weights(weights: Option<Weights>) -> UciEngine {
        let options = Options {
            hash_mb: DEFAULT_HASH_MB,
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            alphabeta: DEFAULT_SEARCH,
            mcts: false,
            fifty_scale: false,
            threads: 1,
        };
        let mut engine = UciEngine {
            weights: None,
            source: String::from("<embedded>"),
            search: None,
            options,
            host: Host { max_threads: 1, networks: Vec::new() },
            position: Chess::default(),
            game: Vec::new(),
            active: None,
            searches: 0,
            helper_nodes: Arc::new(AtomicU64::new(0)),
        };
        if let Some(weights) = weights {
            engine.set_weights(weights);
        }
        engine
    }

    /// Names where the network came from (a host that loaded it from a file
    /// before `uci`), for the `info string network …` line `uci` prints.
    pub fn with_source(mut self, source: &str) -> UciEngine {
        self.source = source.to_string();
        self
    }

    /// Lets `Threads` go up to `max` (a host that runs helper searches
    /// calls it before `uci`; see [`helper_tasks`](Self::helper_tasks)).
    pub fn set_max_threads(&mut self, max: usize) {
        self.host.max_threads = max.max(1);
    }

    /// Offers `networks` (each a name and the `EvalFile` it loads) in a
    /// `Network` option beside the built-in network ([`BUILT_IN_NETWORK`](super::BUILT_IN_NETWORK));
    /// the host calls it before `uci`.
    pub fn set_networks(&mut self, networks: Vec<(String, String)>) {
        self.host.networks = networks;
    }

    /// Replaces the network with a DeepChess network (see
    /// [`set_weights`](Self::set_weights)).
    pub fn set_network(&mut self, net: Network) {
        self.set_weights(Weights::DeepChess(net));
    }

    /// Replaces the network (and empties the caches). The search is the one
    /// the options name if the network can play it, else the one it can
    /// ([`factory::playable`]).
    pub fn set_weights(&mut self, weights: Weights) {
        self.search = Some(factory::build(&weights, self.options.choice(), self.options.hash_mb));
        self.weights = Some(weights);
    }

    /// Builds the search again if the options now name another one.
    fn rebuild_if_changed(&mut self) {
        if let Some(weights) = &self.weights
            && self.search_kind() != Some(factory::playable(weights, self.options.choice()))
        {
            self.search = Some(factory::build(weights, self.options.choice(), self.options.hash_mb));
        }
    }

    /// The network in use, of any family.
    pub fn weights(&self) -> Option<&Weights> {
        self.weights.as_ref()
    }

    /// The DeepChess network in use (`None` while another family plays).
    pub fn network(&self) -> Option<&Network> {
        self.weights.as_ref().and_then(Weights::deepchess)
    }

    /// The learner's network in use, if one plays.
    pub fn learned_network(&self) -> Option<&LearnedNet> {
        self.weights.as_ref().and_then(Weights::learned)
    }

    /// The AlphaZero network in use, if it plays.
    pub fn az_network(&self) -> Option<&AzNet> {
        self.weights.as_ref().and_then(Weights::alphazero)
    }

    /// The search that plays.
    pub fn search_kind(&self) -> Option<SearchKind> {
        self.search.as_ref().map(|s| s.kind())
    }

    /// The search that plays, for a host that fills its cache from a batch
    /// computed elsewhere ([`Search::prefiller`]; see
    /// [`first_positions`](crate::search::first_positions)).
    pub fn search_mut(&mut self) -> Option<&mut (dyn Search + 'static)> {
        self.search.as_deref_mut()
    }

    /// The tasks of the helper threads that join the search `go` just
    /// started (Lazy SMP over the shared transposition table), all stopped
    /// by `stop`: none unless the search takes helpers (the scalar search
    /// over a DeepChess network), it is running and `Threads` is above 1.
    pub fn helper_tasks(&self, stop: &Arc<AtomicBool>) -> Vec<Box<dyn HelperTask>> {
        let helpers = self.search.as_ref().and_then(|s| s.helpers());
        match helpers {
            Some(helpers) if self.options.threads > 1 && self.active.is_some() => helpers.helper_tasks(HelperContext {
                helpers: self.options.threads - 1,
                hash_mb: self.options.hash_mb,
                root: &self.position,
                game: &self.game,
                nodes: &self.helper_nodes,
                stop,
            }),
            _ => Vec::new(),
        }
    }

    /// Loads a weights file read by the host for `EvalFile`, reporting the
    /// result as an `info string`: a DeepChess network (`.dcnn`), a
    /// learner's (`.dcsn`) or the AlphaZero reimplementation's (`.dcaz`), told by the
    /// magic, and the searches it plays (`(plays scalar, mcts)`). On error
    /// the previous network stays.
    pub fn load_network(&mut self, bytes: Result<&[u8], String>, source: &str, out: &mut dyn FnMut(&str)) {
        match bytes.and_then(|b| Weights::from_bytes(b).map_err(|e| e.to_string())) {
            Ok(weights) => {
                out(&format!("info string loaded {}", network_text(source, &weights)));
                self.set_weights(weights);
                self.source = source.to_string();
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

    /// Nodes of the running or the last search, its helpers' counted (final
    /// once the host has joined them after `bestmove`).
    pub fn nodes(&self) -> u64 {
        self.search.as_ref().map_or(0, |s| s.nodes()) + self.helper_nodes.load(Ordering::Relaxed)
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
            Command::Perft(depth) => crate::uci::perft::perft_divide(&self.position, depth, out),
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
        for declared in options::declarations(&self.host) {
            out(&declared.line());
        }
        // The network that plays, and what it plays, as `EvalFile` reports a
        // loaded one: a front end learns it here instead of loading it again.
        if let Some(weights) = &self.weights {
            out(&format!("info string {}", network_text(&self.source, weights)));
        }
        out("uciok");
    }

    /// `setoption`: the value checked against the option's declaration, then applied.
    fn set_option(&mut self, name: &str, value: Option<&str>, out: &mut dyn FnMut(&str)) -> Request {
        let setting = match options::parse(name, value.unwrap_or(""), &self.host) {
            Ok(setting) => setting,
            Err(error) => {
                out(&format!("info string error: {error}"));
                return Request::Continue;
            }
        };
        match setting {
            Setting::Hash(mb) => {
                self.options.hash_mb = mb;
                if let Some(search) = &mut self.search {
                    search.resize(mb);
                }
            }
            Setting::MultiPv(k) => self.options.multipv = k,
            // Helper threads join the scalar search where the host runs them.
            Setting::Threads(n) => self.options.threads = n,
            Setting::Search(kind) => {
                self.options.alphabeta = kind;
                self.choose_search(SearchOption::Search(kind), out);
            }
            // MCTS (over the utility head with a DeepChess network; the
            // AlphaZero network always plays it) or the alpha-beta search
            // `Search` names.
            Setting::Engine { mcts } => {
                self.options.mcts = mcts;
                self.choose_search(SearchOption::Engine { mcts }, out);
            }
            Setting::FiftyMoveScale(on) => {
                self.finish(out);
                self.options.fifty_scale = on;
                if let Some(weights) = &self.weights {
                    self.search = Some(factory::build(weights, self.options.choice(), self.options.hash_mb));
                }
            }
            Setting::AnalyseMode => {}
            Setting::MoveOverhead(ms) => self.options.move_overhead = ms,
            Setting::EvalFile(file) if file == "<embedded>" => match DEFAULT_NETWORK {
                Some((name, bytes)) => self.load_network(Ok(bytes), name, out),
                None => out("info string error: this build has no embedded network"),
            },
            Setting::EvalFile(file) => return Request::LoadEvalFile(file),
        }
        Request::Continue
    }

    /// After `Search` or `Engine`: ends any search, says if the network
    /// cannot play what was asked, and builds the search the options now name.
    fn choose_search(&mut self, option: SearchOption, out: &mut dyn FnMut(&str)) {
        self.finish(out);
        if let Some(weights) = &self.weights
            && let Some(refusal) = factory::refusal(weights, option, self.options.choice())
        {
            out(&format!("info string error: {refusal}"));
        }
        self.rebuild_if_changed();
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
        // MCTS reports its lines by visits; an alpha-beta search's come one
        // by one and are sorted by score before they are printed.
        let lines = (self.options.multipv > 1 && search.kind() != SearchKind::Mcts).then(IterationLines::default);
        self.active = Some(Active { started: now, reported: now, budget, infinite, waiting: false, lines });
    }

    /// Searches about `nodes` nodes, printing `info` lines as principal
    /// variations complete and `bestmove` when the search ends. `clock`
    /// returns the time in ms (same epoch as [`handle`](Self::handle)'s `now`).
    pub fn think(&mut self, nodes: u64, clock: &dyn Fn() -> u64, out: &mut dyn FnMut(&str)) {
        let Some((started, hard)) = self.deadline() else { return };
        let Some(search) = &mut self.search else { return };
        let event =
            step_for(search.as_mut(), nodes, &mut |_| hard.is_some_and(|h| clock().saturating_sub(started) >= h));
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
                    out(&stats_line(search.as_ref(), now.saturating_sub(started), helpers));
                }
                false
            }
            Event::Line => {
                let elapsed = clock().saturating_sub(started);
                active.reported = clock();
                let expected = self.options.multipv.min(self.position.legal_moves().len());
                let iteration_done = if let Some(lines) = &mut active.lines {
                    let Some(report) = search.report(&self.position) else { return };
                    let stats = Stats { nodes: search.nodes() + helpers, hashfull: search.hashfull(), elapsed };
                    let done = lines.add(report, stats, expected);
                    if let Some((sorted, stats)) = &done {
                        print_lines(sorted, *stats, out);
                    }
                    done.is_some()
                } else {
                    let Some((multipv, line)) = info_line(search.as_mut(), &self.position, elapsed, helpers) else {
                        return;
                    };
                    out(&line);
                    multipv >= expected
                };
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
        let Some(active) = self.active.take() else { return };
        let Some(search) = &mut self.search else { return };
        search.stop();
        // With sorted MultiPV lines, `bestmove` is line 1's move: the lines of
        // an iteration cut short are printed first, sorted, as far as they go.
        let mut best = None;
        if let Some(mut lines) = active.lines {
            if let Some((sorted, stats)) = lines.flush() {
                print_lines(&sorted, stats, out);
            }
            best = lines.best();
        }
        match best.or_else(|| search.best_move()) {
            Some(m) => out(&format!("bestmove {}", uci_move(m))),
            None => out("bestmove (none)"),
        }
    }
}
