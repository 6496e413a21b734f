//! `deepchess eval epd`: test suites in EPD.
//!
//! `bm` (best move) lines are solved when the engine plays one of the
//! listed moves, `am` (avoid move) lines when it plays none of them. Lines
//! that carry STS-style scores (`c8` points, `c9` the matching moves in UCI)
//! give the points of the move played.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use deepchess_core::search::{self, SearchChoice, SearchKind, step_for};
use deepchess_core::search::{Event, Limits};
use deepchess_core::shakmaty::san::San;
use deepchess_core::shakmaty::{Chess, Move};
use deepchess_core::uci::{DEFAULT_HASH_MB, DEFAULT_SEARCH, parse_game, uci_move};

use crate::network;

/// Arguments of `eval epd`.
#[derive(clap::Args)]
pub struct Args {
    /// The suite (`.epd`).
    #[arg(long)]
    suite: PathBuf,
    /// Time per position, ms.
    #[arg(long, conflicts_with = "depth", required_unless_present = "depth")]
    movetime: Option<u64>,
    /// Depth per position (reproducible anywhere).
    #[arg(long)]
    depth: Option<u32>,
    /// The network, of any family: `.dcnn`, `.dcsn` or `.dcaz` (default:
    /// the embedded one).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Which search plays: scalar, comparison or mcts (default: the one the
    /// engine would play the network with: a learner's plays scalar, the
    /// AlphaZero network MCTS). MCTS at depth d runs a fixed number of
    /// playouts per depth.
    #[arg(long, value_parser = ["scalar", "comparison", "mcts"])]
    search: Option<String>,
    /// Print each position's result.
    #[arg(long)]
    verbose: bool,
}

/// One suite position.
#[derive(Debug)]
pub struct Case {
    /// Its `id`, or its line number.
    pub id: String,
    /// The position.
    pub position: Chess,
    /// `bm` moves.
    pub best: Vec<Move>,
    /// `am` moves.
    pub avoid: Vec<Move>,
    /// STS points per move (`c9` moves with `c8` points).
    pub points: Vec<(Move, u32)>,
}

/// Parses one EPD line: four FEN fields, then `opcode operands;` operations.
pub fn parse_case(line: &str, number: usize) -> anyhow::Result<Case> {
    let mut fields = line.splitn(5, ' ');
    let fen: Vec<&str> = fields.by_ref().take(4).collect();
    anyhow::ensure!(fen.len() == 4, "line {number}: an EPD line starts with four FEN fields");
    let (position, _) = parse_game(Some(&format!("{} 0 1", fen.join(" "))), &[])
        .map_err(|err| anyhow::anyhow!("line {number}: {err}"))?;
    let mut case =
        Case { id: format!("line {number}"), position, best: Vec::new(), avoid: Vec::new(), points: Vec::new() };
    let (mut c8, mut c9) = (Vec::new(), Vec::new());
    for operation in fields.next().unwrap_or("").split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (opcode, operands) = operation.split_once(' ').unwrap_or((operation, ""));
        let operands = operands.trim().trim_matches('"');
        let san_moves = |text: &str| -> anyhow::Result<Vec<Move>> {
            text.split_whitespace()
                .map(|san| {
                    let san = san.trim_end_matches(['+', '#', '!', '?']);
                    san.parse::<San>()
                        .ok()
                        .and_then(|s| s.to_move(&case.position).ok())
                        .with_context(|| format!("line {number}: {san:?} is not a legal move"))
                })
                .collect()
        };
        match opcode {
            "id" => case.id = operands.to_string(),
            "bm" => case.best = san_moves(operands)?,
            "am" => case.avoid = san_moves(operands)?,
            "c8" => {
                c8 = operands
                    .split_whitespace()
                    .map(|p| {
                        p.parse::<u32>().with_context(|| format!("line {number}: c8 points {p:?} are not a number"))
                    })
                    .collect::<anyhow::Result<_>>()?
            }
            "c9" => c9 = operands.split_whitespace().map(String::from).collect(),
            _ => {}
        }
    }
    anyhow::ensure!(
        c8.len() == c9.len(),
        "line {number}: c8 gives {} points for the {} moves of c9",
        c8.len(),
        c9.len()
    );
    for (text, points) in c9.iter().zip(c8) {
        let m = text
            .parse::<shakmaty::uci::UciMove>()
            .ok()
            .and_then(|u| u.to_move(&case.position).ok())
            .with_context(|| format!("line {number}: c9 move {text:?} is not legal"))?;
        // A move listed twice (seven lines of STS v3: Open Files and
        // Diagonals.049 gives Re2 2 points and 5) keeps its first points, as
        // fsmosca/STS-Rating's `sts_rating.py` scores it (the first match in
        // the list); the run says so on standard error.
        if let Some((_, first)) = case.points.iter().find(|(seen, _)| *seen == m) {
            eprintln!("line {number}: c9 lists {text} twice; it scores its first points, {first}");
            continue;
        }
        case.points.push((m, points));
    }
    Ok(case)
}

/// Runs the suite and prints the totals.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.suite).with_context(|| format!("cannot read {}", args.suite.display()))?;
    let cases: Vec<Case> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| parse_case(l.trim(), i + 1))
        .collect::<anyhow::Result<_>>()?;
    let Some((_, weights)) = network::chosen(args.weights.as_deref())? else {
        anyhow::bail!("no network: give --weights")
    };
    let kind = match &args.search {
        Some(name) if name == "mcts" => SearchKind::Mcts,
        Some(name) => name.parse::<SearchKind>()?,
        None => search::playable(&weights, SearchChoice::of(DEFAULT_SEARCH)),
    };
    anyhow::ensure!(
        search::supports(&weights, kind),
        "the network cannot play the {} search {}",
        kind.name(),
        search::plays(&weights)
    );
    let mut search = search::build(&weights, SearchChoice::of(kind), DEFAULT_HASH_MB);
    let (mut solved, mut tested, mut points, mut max_points) = (0, 0, 0, 0);
    for case in &cases {
        search.clear();
        search.start(case.position.clone(), &[], Limits { depth: args.depth, ..Limits::default() });
        let start = Instant::now();
        let limit = args.movetime.map(Duration::from_millis);
        while step_for(search.as_mut(), 4096, &mut |_| limit.is_some_and(|l| start.elapsed() >= l)) != Event::Finished {
        }
        let Some(played) = search.best_move() else { continue };
        let mut verdict = Vec::new();
        if !case.best.is_empty() || !case.avoid.is_empty() {
            tested += 1;
            let ok = (case.best.is_empty() || case.best.contains(&played)) && !case.avoid.contains(&played);
            solved += usize::from(ok);
            verdict.push(if ok { "solved" } else { "missed" }.to_string());
        }
        if !case.points.is_empty() {
            let got = case.points.iter().find(|(m, _)| *m == played).map_or(0, |(_, p)| *p);
            points += got;
            max_points += case.points.iter().map(|(_, p)| *p).max().unwrap_or(0);
            verdict.push(format!("{got} points"));
        }
        if args.verbose {
            println!("{:<30} {:<6} {}", case.id, uci_move(played).to_string(), verdict.join(", "));
        }
    }
    println!("suite     : {} ({} positions)", args.suite.display(), cases.len());
    println!("search    : {}", kind.name());
    println!(
        "limit     : {}",
        args.depth.map_or_else(|| format!("{} ms", args.movetime.unwrap_or(0)), |d| format!("depth {d}"))
    );
    if tested > 0 {
        println!("solved    : {solved} / {tested} ({:.1}%)", 100.0 * solved as f64 / tested as f64);
    }
    if max_points > 0 {
        println!("points    : {points} / {max_points} ({:.1}%)", 100.0 * f64::from(points) / f64::from(max_points));
    }
    Ok(())
}
