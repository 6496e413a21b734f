//! `deepchess perft`: leaf counts of the legal move tree, for one position
//! (divided by first move, as `go perft` prints them) or for every line of
//! an EPD perft suite against the counts it gives (`;D1 20 ;D2 400 …`).
//!
//! Counts are shakmaty's, bulk-counted at the last ply. With
//! `--check-path`, a suite's trees are walked node by node instead, and at
//! every node the search's own move path (staged captures, the test for a
//! legal move, incremental keys) is held to shakmaty, as the core's tests do
//! over `core/src/search/perft.epd` and the chess programming wiki's
//! positions (`tests/fixtures/perft-wiki.epd` has their published counts to
//! depth 5 and 6).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use deepchess_core::search::perft::check_suite;
use deepchess_core::shakmaty::Chess;
use deepchess_core::uci::perft_divide;

use crate::commands::encode::parse_fen;

/// Arguments of `deepchess perft`.
#[derive(clap::Args)]
pub struct Args {
    /// The position (default: the start position).
    #[arg(long, conflicts_with = "epd")]
    fen: Option<String>,
    /// Plies to count; with `--epd`, the deepest count checked on each line
    /// (default: every count the line gives).
    #[arg(long)]
    depth: Option<u32>,
    /// An EPD perft suite: `<FEN> ;D1 n ;D2 n …` a line.
    #[arg(long)]
    epd: Option<PathBuf>,
    /// With `--epd`: walk every tree node by node, holding the search's move
    /// path to shakmaty at each (slower).
    #[arg(long, requires = "epd")]
    check_path: bool,
}

/// Prints the counts; an error where a suite's count differs.
pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.epd {
        Some(path) => suite(path, args.depth, args.check_path),
        None => {
            let pos = match &args.fen {
                Some(fen) => parse_fen(fen)?,
                None => Chess::default(),
            };
            let depth = args.depth.unwrap_or(5);
            if depth == 0 {
                bail!("--depth must be 1 or more");
            }
            let start = Instant::now();
            perft_divide(&pos, depth, &mut |line| println!("{line}"));
            println!("Time: {:.3} s", start.elapsed().as_secs_f64());
            Ok(())
        }
    }
}

fn suite(path: &PathBuf, depth: Option<u32>, check_path: bool) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let start = Instant::now();
    let counts = check_suite(&text, depth.unwrap_or(u32::MAX), check_path)
        .map_err(|(line, why)| anyhow::anyhow!("{}:{line}: {why}", path.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    let path_note = if check_path {
        format!("; the move path held to shakmaty at {} nodes", counts.checked)
    } else {
        String::new()
    };
    println!(
        "{} positions, every count equal: {} leaves counted in {seconds:.1} s{path_note}",
        counts.positions, counts.leaves
    );
    Ok(())
}
