//! `deepchess bench`: the searches over fixed positions.
//!
//! With `--depth`, the total node count of each search is a signature: it
//! changes only when that search (or the network) changes. By default the
//! network is a seeded random one with both heads, so the signatures do not
//! move when a new network ships. With `--movetime`, each position is
//! searched for that long and the depth reached is reported instead.

use std::path::PathBuf;
use std::time::Instant;

use deepchess_core::Weights;
use deepchess_core::bench::BENCH_POSITIONS;
use deepchess_core::search::{self, Event, Limits, SearchChoice, SearchKind};
use deepchess_core::uci::{DEFAULT_HASH_MB, parse_game};

use crate::network;

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
        match args.movetime {
            None => println!("depth             : {}", args.depth),
            Some(ms) => {
                depths.sort_unstable();
                let median = depths[depths.len() / 2];
                println!("movetime (ms)     : {ms}");
                println!("depth reached     : median {median}, least {}, most {}", depths[0], depths[depths.len() - 1]);
            }
        }
        println!("total time (ms)   : {}", elapsed.as_millis());
        println!("nodes searched    : {total}");
        println!("nodes/second      : {}", (total as f64 / elapsed.as_secs_f64()) as u64);
    }
    Ok(())
}
