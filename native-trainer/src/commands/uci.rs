//! `deepchess uci`: the native UCI engine.
//!
//! A thread reads standard input; the main thread searches in slices of
//! [`SLICE_NODES`] and reads the lines that arrived between slices, so `stop`
//! and `isready` are answered within a slice (a few milliseconds). With
//! `Threads` above 1, helper threads search the same position with the
//! scalar search over the main search's transposition table (Lazy SMP) until
//! the main search sends `bestmove`.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, TryRecvError};
use std::time::Instant;

use deepchess_core::uci::{Request, UciEngine};

use crate::helper_threads::HelperThreads;
use crate::network;

/// Nodes searched between two reads of the input.
pub const SLICE_NODES: u64 = 2048;

/// Most `Threads`.
pub const MAX_THREADS: usize = 64;

/// Arguments of `deepchess uci`.
#[derive(clap::Args)]
pub struct Args {
    /// A network to play with instead of the embedded default: a DeepChess
    /// `.dcnn`, a learner's `.dcsn` (played by the scalar search), or the
    /// AlphaZero reimplementation's `.dcaz` (played by MCTS).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// A folder of networks with their list (`learners.json`, as in the
    /// repository's `weights/`), offered by name in the `Network` option
    /// [default: the repository's weights/ this binary was built from, if
    /// it is there]
    #[arg(long)]
    networks: Option<PathBuf>,
}

/// Runs the engine until `quit` or the end of the input. At the end of the
/// input a search with a limit (depth, nodes, time) still completes and
/// prints its `bestmove`; an infinite one is stopped.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let weights = network::chosen(args.weights.as_deref())?.map(|(_, weights)| weights);
    let source = args.weights.as_ref().map_or_else(|| "<embedded>".to_string(), |p| p.display().to_string());
    let mut engine = UciEngine::with_weights(weights).with_source(&source);
    engine.set_max_threads(MAX_THREADS);
    engine.set_networks(network::listed(args.networks.as_deref())?);
    let mut helpers = HelperThreads::default();
    let start = Instant::now();
    let clock = || start.elapsed().as_millis() as u64;
    let stdout = std::io::stdout();
    let mut out = |line: &str| {
        let mut lock = stdout.lock();
        // A closed pipe leaves nobody to tell; the loop ends at the input's end.
        let _ = writeln!(lock, "{line}").and_then(|()| lock.flush());
    };

    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });

    let mut input_open = true;
    loop {
        let line = if engine.is_thinking() {
            engine.think(SLICE_NODES, &clock, &mut out);
            match rx.try_recv() {
                Ok(line) => Some(line),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => {
                    input_open = false;
                    None
                }
            }
        } else if input_open {
            rx.recv().ok().or_else(|| {
                input_open = false;
                None
            })
        } else {
            None
        };
        match line {
            Some(line) => match engine.handle(&line, clock(), &mut out) {
                Request::Continue => {}
                Request::Quit => {
                    helpers.stop();
                    return Ok(());
                }
                Request::LoadEvalFile(path) => load_eval_file(&mut engine, &path, &mut out),
            },
            None if !input_open => {
                if engine.is_infinite() {
                    engine.handle("stop", clock(), &mut out);
                }
                if !engine.is_thinking() {
                    engine.handle("stop", clock(), &mut out);
                    helpers.stop();
                    return Ok(());
                }
            }
            None => {}
        }
        helpers.sync(&engine);
    }
}

fn load_eval_file(engine: &mut UciEngine, path: &str, out: &mut dyn FnMut(&str)) {
    let bytes = std::fs::read(path).map_err(|err| err.to_string());
    engine.load_network(bytes.as_deref().map_err(Clone::clone), path, out);
}
