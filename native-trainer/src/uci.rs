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
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, TryRecvError};
use std::thread::JoinHandle;
use std::time::Instant;

use deepchess_core::search::{Event, Limits, NetEvaluator, ScalarSearch};
use deepchess_core::uci::{HelperJob, Request, UciEngine};

use crate::network;

/// Nodes searched between two reads of the input.
pub const SLICE_NODES: u64 = 2048;

/// Most `Threads`.
pub const MAX_THREADS: usize = 64;

/// Helper threads of a Lazy SMP search.
struct Helpers {
    /// The engine's [`search_id`](UciEngine::search_id) they help.
    search: u64,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Helpers {
    /// Starts `job.helpers` threads, each searching `job.root` over the
    /// shared table until told to stop.
    fn start(job: HelperJob, search: u64) -> Helpers {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..job.helpers)
            .map(|_| {
                let (stop, table) = (stop.clone(), job.table.clone());
                let (net, root, game) = (job.network.clone(), job.root.clone(), job.game.clone());
                let cache_bytes = job.cache_bytes;
                std::thread::spawn(move || {
                    let mut search = ScalarSearch::with_table(NetEvaluator::new(net, cache_bytes), table);
                    search.start(root, &game, Limits::default());
                    let mut should_stop = |_| stop.load(Ordering::Relaxed);
                    while !stop.load(Ordering::Relaxed) && search.step(SLICE_NODES, &mut should_stop) != Event::Finished
                    {
                    }
                })
            })
            .collect();
        Helpers { search, stop, threads }
    }

    fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads {
            // A helper that panicked has nothing left to stop.
            let _ = thread.join();
        }
    }
}

/// Arguments of `deepchess uci`.
#[derive(clap::Args)]
pub struct Args {
    /// A `.dcnn` network to play with instead of the embedded default.
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// Runs the engine until `quit` or the end of the input. At the end of the
/// input a search with a limit (depth, nodes, time) still completes and
/// prints its `bestmove`; an infinite one is stopped.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let mut engine = UciEngine::new(network::chosen(args.weights.as_deref())?.map(|(_, net)| net));
    engine.set_max_threads(MAX_THREADS);
    let mut helpers: Option<Helpers> = None;
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
                Request::Continue => {
                    // A new `go` ended the search the helpers were helping.
                    if helpers.as_ref().is_some_and(|h| h.search != engine.search_id())
                        && let Some(stale) = helpers.take()
                    {
                        stale.stop();
                    }
                    if engine.is_searching() && helpers.is_none() {
                        helpers = engine.helper_job().map(|job| Helpers::start(job, engine.search_id()));
                    }
                }
                Request::Quit => {
                    if let Some(helpers) = helpers.take() {
                        helpers.stop();
                    }
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
                    return Ok(());
                }
            }
            None => {}
        }
        if !engine.is_searching()
            && let Some(helpers) = helpers.take()
        {
            helpers.stop();
        }
    }
}

fn load_eval_file(engine: &mut UciEngine, path: &str, out: &mut dyn FnMut(&str)) {
    let bytes = std::fs::read(path).map_err(|err| err.to_string());
    engine.load_network(bytes.as_deref().map_err(Clone::clone), path, out);
}
