//! `deepchess bench`: a fixed search over fixed positions.
//!
//! The total node count is a signature of the search: it changes only when the
//! search (or the network) changes. By default the network is a seeded random
//! one, so the signature does not move when a new network ships.

use std::path::PathBuf;
use std::time::Instant;

use deepchess_core::bench::BENCH_POSITIONS;
use deepchess_core::search::{Event, Limits};
use deepchess_core::uci::{DEFAULT_HASH_MB, net_search, parse_game};

use crate::network;

/// Arguments of `deepchess bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Search depth for every position.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// A `.dcnn` network instead of the seeded random reference network.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Print each position's node count.
    #[arg(long)]
    verbose: bool,
}

/// Searches every bench position to `--depth` and prints nodes and speed.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let net = match &args.weights {
        Some(path) => network::load(path)?,
        None => network::seeded_random(),
    };
    let kernel = net.kernel();
    let mut search = net_search(net, DEFAULT_HASH_MB);
    let mut total = 0u64;
    let start = Instant::now();
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        let (pos, game) = parse_game(Some(fen), &[]).map_err(anyhow::Error::msg)?;
        search.clear();
        search.start(pos, &game, Limits { depth: Some(args.depth), ..Limits::default() });
        while search.step(u64::MAX, &mut |_| false) != Event::Finished {}
        total += search.nodes();
        if args.verbose {
            println!("position {:>2}: {:>9} nodes  {fen}", i + 1, search.nodes());
        }
    }
    let elapsed = start.elapsed();
    println!("positions         : {}", BENCH_POSITIONS.len());
    println!("depth             : {}", args.depth);
    println!("kernel            : {}", kernel.name());
    println!("total time (ms)   : {}", elapsed.as_millis());
    println!("nodes searched    : {total}");
    println!("nodes/second      : {}", (total as f64 / elapsed.as_secs_f64()) as u64);
    Ok(())
}
