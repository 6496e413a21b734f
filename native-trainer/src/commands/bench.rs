//! `deepchess bench`: the searches over fixed positions.
//!
//! With `--depth`, the total node count of each search is a signature: it
//! changes only when that search (or the network) changes. By default the
//! network is a seeded random one with both heads, so the signatures do not
//! move when a new network ships. With `--movetime`, each position is
//! searched for that long and the depth reached is reported instead.
//!
//! With `--threads N`, the positions go through the UCI engine as `deepchess
//! uci` runs them (`setoption name Threads`, `ucinewgame`, `position`, `go`),
//! with its Lazy SMP helpers on native threads: nodes are every thread's, and
//! the time to the depth is what two threads should shorten.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::time::Instant;

use deepchess_core::Weights;
use deepchess_core::bench::BENCH_POSITIONS;
use deepchess_core::search::{self, Event, Limits, SearchChoice, SearchKind};
use deepchess_core::uci::{DEFAULT_HASH_MB, UciEngine, parse_game};

use crate::commands::uci::{MAX_THREADS, SLICE_NODES};
use crate::helper_threads::HelperThreads;
use crate::network;
use crate::play::uci::info_depth;

/// Arguments of `deepchess bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Search depth for every position.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Search each position for this many milliseconds instead of to a
    /// depth, and report the depth reached (median, least, most).
    #[arg(long)]
    movetime: Option<u64>,
    /// Which search: scalar, comparison, both, or mcts (a depth of N is
    /// N × 100 playouts).
    #[arg(long, default_value = "both", value_parser = ["both", "scalar", "comparison", "mcts"])]
    search: String,
    /// A network of any family (`.dcnn`, `.dcsn`, `.dcaz`) instead of the
    /// seeded random reference network.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Print each position's node count (and depth).
    #[arg(long)]
    verbose: bool,
    /// Search through the UCI engine with this many threads (Lazy SMP), as
    /// `deepchess uci` does with `Threads`; compare 1 with 2 this way.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    threads: Option<u32>,
}

/// Searches every bench position with each search and prints nodes and speed.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let weights = match &args.weights {
        Some(path) => network::load_weights(path)?,
        None => Weights::DeepChess(network::seeded_random()),
    };
    println!("positions         : {}", BENCH_POSITIONS.len());
    println!("kernel            : {}", weights.kernel().name());
    let kinds: Vec<SearchKind> = match args.search.as_str() {
        "both" => SearchKind::ALL.to_vec(),
        "mcts" => vec![SearchKind::Mcts],
        name => vec![name.parse()?],
    };
    for kind in kinds {
        if !search::supports(&weights, kind) {
            println!("search            : {} (skipped: the network cannot play it)", kind.name());
            continue;
        }
        if let Some(threads) = args.threads {
            if threads > 1 && kind != SearchKind::Scalar {
                println!("search            : {} (skipped: only the scalar search has helper threads)", kind.name());
            } else {
                threaded(args, &weights, kind, threads)?;
            }
            continue;
        }
        let mut search = search::build(&weights, SearchChoice::of(kind), DEFAULT_HASH_MB);
        let (mut total, mut depths) = (0u64, Vec::new());
        let start = Instant::now();
        for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
            let (pos, game) = parse_game(Some(fen), &[])?;
            search.clear();
            let depth = if args.movetime.is_some() { None } else { Some(args.depth) };
            search.start(pos.clone(), &game, Limits { depth, ..Limits::default() });
            let began = Instant::now();
            let mut reached = 0;
            loop {
                let mut out_of_time = |_| args.movetime.is_some_and(|ms| began.elapsed().as_millis() as u64 >= ms);
                match search.step(u64::MAX, &mut out_of_time) {
                    Event::Finished => break,
                    Event::Line => {
                        if let Some(report) = search.report(&pos) {
                            reached = report.depth;
                        }
                    }
                    Event::Paused => {}
                }
            }
            total += search.nodes();
            depths.push(reached);
            if args.verbose {
                println!("position {:>2}: {:>9} nodes  depth {reached:>2}  {fen}", i + 1, search.nodes());
            }
        }
        let elapsed = start.elapsed();
        println!("search            : {}", kind.name());
        summary(args, total, &mut depths, elapsed);
    }
    Ok(())
}

/// The bench positions through a [`UciEngine`] with `threads` threads.
fn threaded(args: &Args, weights: &Weights, kind: SearchKind, threads: u32) -> anyhow::Result<()> {
    anyhow::ensure!(kind != SearchKind::Mcts, "--threads is for the alpha-beta searches (scalar, comparison)");
    let mut engine = UciEngine::with_weights(Some(weights.clone()));
    engine.set_max_threads(MAX_THREADS);
    let mut helpers = HelperThreads::default();
    let start = Instant::now();
    let clock = || start.elapsed().as_millis() as u64;
    // The first error the engine reports, and the deepest line of the search under way.
    let error = RefCell::new(None);
    let deepest = Cell::new(0);
    let mut out = |line: &str| {
        if line.starts_with("info string error") {
            error.borrow_mut().get_or_insert_with(|| line.to_string());
        } else if let Some(depth) = info_depth(line)
            && line.contains(" pv ")
        {
            deepest.set(depth);
        }
    };
    for line in
        [format!("setoption name Search value {}", kind.name()), format!("setoption name Threads value {threads}")]
    {
        engine.handle(&line, clock(), &mut out);
    }
    let go = match args.movetime {
        Some(ms) => format!("go movetime {ms}"),
        None => format!("go depth {}", args.depth),
    };
    let (mut total, mut depths) = (0u64, Vec::new());
    let began = Instant::now();
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        for line in ["ucinewgame".to_string(), format!("position fen {fen}"), go.clone()] {
            engine.handle(&line, clock(), &mut out);
            helpers.sync(&engine);
        }
        while engine.is_thinking() {
            engine.think(SLICE_NODES, &clock, &mut out);
            helpers.sync(&engine);
        }
        helpers.stop();
        total += engine.nodes();
        depths.push(deepest.replace(0));
        if args.verbose {
            println!("position {:>2}: {:>9} nodes  depth {:>2}  {fen}", i + 1, engine.nodes(), depths[i]);
        }
        if let Some(line) = error.take() {
            anyhow::bail!("the engine said: {line}");
        }
    }
    let elapsed = began.elapsed();
    println!("search            : {}", kind.name());
    println!("threads           : {threads}");
    summary(args, total, &mut depths, elapsed);
    Ok(())
}

/// Prints the depth (or the depths reached), the time and the speed.
fn summary(args: &Args, total: u64, depths: &mut [u32], elapsed: std::time::Duration) {
    if let Some(ms) = args.movetime {
        depths.sort_unstable();
        let median = depths[depths.len() / 2];
        println!("movetime (ms)     : {ms}");
        println!("depth reached     : median {median}, least {}, most {}", depths[0], depths[depths.len() - 1]);
    } else {
        println!("depth             : {}", args.depth);
    }
    println!("total time (ms)   : {}", elapsed.as_millis());
    println!("nodes searched    : {total}");
    println!("nodes/second      : {}", (total as f64 / elapsed.as_secs_f64()) as u64);
}
