//! `deepchess eval accuracy`.

use std::path::PathBuf;

use crate::data::{Dataset, Pair, Record, Sampling, dataset_files};
use crate::eval::accuracy;
use crate::eval::judge::{Judge, Judged};
use crate::network;

/// `deepchess eval …`
#[derive(clap::Subcommand)]
pub enum Command {
    /// Held-out pair accuracy through the core's inference (the code that plays), any family.
    Accuracy(AccuracyArgs),
    /// The AlphaZero network on held-out positions: policy top-1 and value MSE (core's inference).
    Az(crate::eval::az::Args),
    /// Test suites in EPD: solved bm/am positions, STS points (c8/c9), any family and search.
    Epd(crate::eval::epd::Args),
    /// Static tests, any family: pairs of real positions that differ in one feature (a piece, castling, the
    /// bishop pair, mobility, king safety, passed, isolated or doubled pawns).
    Understanding(crate::eval::understanding::Args),
    /// Our score against the opponent's limit, from match logs (one point a log, one line for each
    /// of our limits): a table and an SVG plot (Deep Pink against Sunfish, say).
    StrengthCurve(crate::eval::strength_curve::Args),
    /// What a match's games show, from its log: score by colour, endings, length, each side's depth
    /// and thinking time, and the games a side let go after both engines agreed it stood better.
    Games(crate::eval::games::Args),
}

/// Arguments of `eval accuracy`.
#[derive(clap::Args)]
pub struct AccuracyArgs {
    /// The network, of any family (`.dcnn`, `.dcsn`, `.dcaz`).
    #[arg(long)]
    weights: PathBuf,
    /// A dataset: a directory (its validation split) or a `.bin` file.
    #[arg(long, conflicts_with = "pgn", required_unless_present = "pgn")]
    data: Option<PathBuf>,
    /// A PGN (`.pgn` or `.pgn.zst`): W and L positions are drawn with the paper's rule.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Pairs to score.
    #[arg(long, default_value_t = 100_000)]
    pairs: usize,
    /// Seed of the pairs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs an `eval` subcommand.
pub fn run(command: &Command) -> anyhow::Result<()> {
    let args = match command {
        Command::Accuracy(args) => args,
        Command::Az(args) => return crate::eval::az::run(args),
        Command::Epd(args) => return crate::eval::epd::run(args),
        Command::Understanding(args) => return crate::eval::understanding::run(args),
        Command::StrengthCurve(args) => return crate::eval::strength_curve::run(args),
        Command::Games(args) => return crate::eval::games::run(args),
    };
    let weights = network::load_weights(&args.weights)?;
    let summary = weights.summary();
    let sources = match &args.data {
        Some(data) => crate::data::read_sources(data)?,
        None => Vec::new(),
    };
    let records = match (&args.data, &args.pgn) {
        (Some(data), _) => {
            let file = if data.is_dir() { data.join("val.bin") } else { dataset_files(data)[0].clone() };
            Dataset::open(&file)?.records().to_vec()
        }
        (None, Some(pgn)) => accuracy::records_from_pgn(pgn, &Sampling::default())?,
        (None, None) => anyhow::bail!("give --data or --pgn"),
    };
    // Another family's networks are judged by their value.
    let mut judge = if weights.deepchess().is_some() { None } else { Judge::new(weights.clone()) };
    let pairs = accuracy::pairs(&records, args.pairs, args.seed);
    anyhow::ensure!(!pairs.is_empty(), "no pairs: the data needs positions from games won by each side");
    // Each head a DeepChess network has: the comparison head's order of the
    // pair, and the utility's (the scalar search's evaluation); another
    // family's value for White.
    let mut heads = |records: &[Record], pairs: &[Pair]| -> String {
        let mut figures = Vec::new();
        if let Some(net) = weights.deepchess() {
            if net.has_comparison() {
                let comparison = accuracy::quantized_accuracy(net, records, pairs);
                figures.push(format!("{:.2}% comparison head", 100.0 * comparison));
            }
            if net.has_utility() {
                let value = accuracy::quantized_value_accuracy(net, records, pairs);
                figures.push(format!("{:.2}% utility", 100.0 * value));
            }
        } else if let Some(judge) = &mut judge {
            // Only the positions in pairs are judged, each once (an
            // AlphaZero network's value is slow).
            let mut values: Vec<Option<f64>> = vec![None; records.len()];
            let mut value_of = |i: u32| {
                *values[i as usize].get_or_insert_with(|| {
                    match records[i as usize].position().map(|p| judge.judge(&p)) {
                        Some(Judged::Value(v)) => v,
                        _ => f64::NAN,
                    }
                })
            };
            let value = accuracy::value_accuracy(pairs, &mut value_of);
            figures.push(format!("{:.2}% {}", 100.0 * value, judge.head()));
        }
        figures.join(", ")
    };
    println!("network   : {} ({summary})", args.weights.display());
    println!("positions : {}", records.len());
    println!("pairs     : {}", pairs.len());
    println!("accuracy  : {}", heads(&records, &pairs));
    // A built directory's meta.json says which input each game came from:
    // the same rule on each input's held-out games alone.
    if sources.len() > 1 {
        println!("by source (held-out games of each input, the same rule and number of pairs):");
        for source in &sources {
            let own: Vec<Record> = records.iter().filter(|r| source.contains(u64::from(r.game()))).copied().collect();
            let pairs = accuracy::pairs(&own, args.pairs, args.seed);
            let name = source.name();
            if pairs.is_empty() {
                println!("  {name:<28} no pairs ({} positions)", own.len());
            } else {
                println!("  {name:<28} {}  ({} positions, {} pairs)", heads(&own, &pairs), own.len(), pairs.len());
            }
        }
    }
    Ok(())
}
