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
use alloc::vec::Vec;
use core::fmt::Write as _;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::default_network::DEFAULT_NETWORK;
use crate::network::Network;
use crate::search::{Event, Limits, Line, NetComparator, NetLeaf, Search, zobrist};
use crate::uci::command::{Command, Go};
use crate::uci::time::TimeBudget;

/// Default `Hash`, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest `Hash`, in MiB (a browser tab's memory is the limit).
pub const MAX_HASH_MB: usize = 1024;
/// Largest `MultiPV`.
pub const MAX_MULTIPV: usize = 64;
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
}

struct Active {
    started: u64,
    budget: Option<TimeBudget>,
    infinite: bool,
    /// The search ended by itself during `go infinite`: `bestmove` waits for `stop`.
    waiting: bool,
}

/// A UCI engine over the comparison search.
pub struct UciEngine {
    search: Option<Search<NetComparator>>,
    options: Options,
    position: Chess,
    /// Zobrist hashes of the game's positions before `position`.
    game: Vec<u64>,
    active: Option<Active>,
}

impl UciEngine {
    /// An engine that judges with `network`, or, with `None`, answers `go`
    /// with an error until a network is loaded.
    pub fn new(network: Option<Network>) -> UciEngine {
        let options = Options { hash_mb: DEFAULT_HASH_MB, multipv: 1, move_overhead: DEFAULT_MOVE_OVERHEAD };
        let mut engine =
            UciEngine { search: None, options, position: Chess::default(), game: Vec::new(), active: None };
        if let Some(net) = network {
            engine.set_network(net);
        }
        engine
    }

    /// Replaces the network (and empties the caches).
    pub fn set_network(&mut self, net: Network) {
        self.search = Some(net_search(net, self.options.hash_mb));
    }

    /// The network in use.
    pub fn network(&self) -> Option<&Network> {
        self.search.as_ref().map(|s| s.comparator().network())
    }

    /// The comparator, to fill its embedding cache from a batch computed
    /// elsewhere (see [`frontier`](crate::search::frontier)).
    pub fn comparator_mut(&mut self) -> Option<&mut NetComparator> {
        self.search.as_mut().map(|s| s.comparator_mut())
    }

    /// Loads a weights file read by the host for `EvalFile`, reporting the
    /// result as an `info string`. On error the previous network stays.
    pub fn load_network(&mut self, bytes: Result<&[u8], String>, source: &str, out: &mut dyn FnMut(&str)) {
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
        out("option name Threads type spin default 1 min 1 max 1");
        out(&format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"));
        out("option name UCI_AnalyseMode type check default false");
        out(&format!("option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD} min 0 max 5000"));
        out("option name EvalFile type string default <embedded>");
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
                    let (cache, tt) = split_hash(self.options.hash_mb);
                    if let Some(search) = &mut self.search {
                        search.comparator_mut().resize_cache(cache);
                        search.resize_tt(tt);
                    }
                }
                None => invalid(),
            },
            "multipv" => match number(1, MAX_MULTIPV as u64) {
                Some(k) => self.options.multipv = k as usize,
                None => invalid(),
            },
            // One thread: the value is accepted and ignored.
            "threads" => {
                if number(1, 1).is_none() {
                    invalid();
                }
            }
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
        self.active = Some(Active { started: now, budget, infinite, waiting: false });
    }

    /// Searches about `nodes` nodes, printing `info` lines as principal
    /// variations complete and `bestmove` when the search ends. `clock`
    /// returns the time in ms (same epoch as [`handle`](Self::handle)'s `now`).
    pub fn think(&mut self, nodes: u64, clock: &dyn Fn() -> u64, out: &mut dyn FnMut(&str)) {
        let (Some(active), Some(search)) = (&mut self.active, &mut self.search) else { return };
        if active.waiting {
            return;
        }
        let started = active.started;
        let hard = active.budget.map(|b| b.hard);
        let event = search.step(nodes, &mut |_| hard.is_some_and(|h| clock().saturating_sub(started) >= h));
        let finish_now = match event {
            Event::Paused => false,
            Event::Line => {
                let elapsed = clock().saturating_sub(started);
                let Some(line) = search.last_line().cloned() else { return };
                out(&info_line(search, &line, elapsed));
                let iteration_done = line.multipv >= self.options.multipv.min(self.position.legal_moves().len());
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
    let (cache, tt) = split_hash(hash_mb);
    Search::new(NetComparator::new(net, cache), tt)
}

/// The embedding cache gets three quarters of `Hash`, the transposition
/// table the rest.
fn split_hash(mb: usize) -> (usize, usize) {
    let bytes = mb << 20;
    (bytes / 4 * 3, bytes / 4)
}

/// `e2e4`, `e7e8q`, `e1g1` (castling as the king's two-square move).
pub fn uci_move(m: Move) -> UciMove {
    UciMove::from_move(m, CastlingMode::Standard)
}

fn info_line(search: &mut Search<NetComparator>, line: &Line<NetLeaf>, elapsed: u64) -> String {
    let nodes = search.nodes();
    let nps = nodes * 1000 / elapsed.max(1);
    let score = search.score(&line.value);
    let mut text = format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {nodes} nps {nps} hashfull {} time {elapsed} pv",
        line.depth,
        line.seldepth.max(line.depth),
        line.multipv,
        search.hashfull(),
    );
    for &m in &line.pv {
        let _ = write!(text, " {}", uci_move(m));
    }
    text
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
