//! `deepchess data build|dump|stats|openings|fit-scale`.

use std::path::PathBuf;

use anyhow::Context;
use deepchess_core::shakmaty::EnPassantMode;
use deepchess_core::shakmaty::fen::Fen;

use crate::data::{
    self, BuildOptions, Dataset, GameFilter, GameResult, HeldOut, Sampling, ScaleSamples, SourceTable, dataset_files,
    read_sources,
};

/// `deepchess data …`
#[derive(clap::Subcommand)]
pub enum Command {
    /// Turn PGN files (.pgn or .pgn.zst) into train and validation datasets.
    Build(BuildArgs),
    /// Print records: FEN;result;ply;move-played;eval (White's view, centipawns or M<n>) or -.
    Dump(DumpArgs),
    /// Print counts of a dataset (a directory or one .bin file).
    Stats(StatsArgs),
    /// Write the first moves of every game as UCI lines, one opening per line.
    Openings(OpeningsArgs),
    /// Fit the evaluation scale `s` (`train value --eval-scale`) whose
    /// expected scores `1 / (1 + 10^(−cp/s))` best predict the results, on
    /// the held-out positions, for the whole and for each input.
    FitScale(FitScaleArgs),
}

/// Arguments of `data build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Input PGN files.
    #[arg(long, required = true, num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// Output directory.
    #[arg(long)]
    out: PathBuf,
    /// Positions per game.
    #[arg(long, default_value_t = 10)]
    per_game: usize,
    /// Full moves never sampled at the start of a game.
    #[arg(long, default_value_t = 5)]
    skip_moves: u32,
    /// Keep drawn games.
    #[arg(long)]
    include_draws: bool,
    /// Keep every eligible position.
    #[arg(long)]
    all_positions: bool,
    /// Keep positions whose move played is a capture (the paper leaves them
    /// out; `train deep-pink` needs them).
    #[arg(long)]
    include_captures: bool,
    /// Leave out positions whose side to move is in check (engines that learn
    /// from their own games do; the paper keeps them).
    #[arg(long)]
    skip_checks: bool,
    /// Leave out games with a player rated below this (where the game's
    /// WhiteElo/BlackElo tags give a rating; games without one are kept).
    #[arg(long)]
    min_elo: Option<u32>,
    /// Leave out games shorter than this many half-moves.
    #[arg(long, default_value_t = 0)]
    min_plies: usize,
    /// Keep every copy of a game that appears more than once (by default a
    /// game with the same moves and result is kept once, across all inputs).
    #[arg(long)]
    keep_duplicates: bool,
    /// Games per thousand held out for validation.
    #[arg(long, default_value_t = 50)]
    val_permille: u32,
    /// Hold out fold K of N equal folds instead (`--fold 3/10`): the N builds
    /// `--fold 1/N` to `--fold N/N` of the same inputs and seed hold out
    /// every game once, for N-fold cross-validation.
    #[arg(long, conflicts_with = "val_permille")]
    fold: Option<String>,
    /// Seed of the sampling and of the split.
    #[arg(long, default_value_t = 2016)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Arguments of `data dump`.
#[derive(clap::Args)]
pub struct DumpArgs {
    /// A dataset directory or .bin file.
    dataset: PathBuf,
    /// Records to print.
    #[arg(long)]
    limit: Option<usize>,
}

/// Arguments of `data stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// A dataset directory or .bin file.
    dataset: PathBuf,
}

/// Arguments of `data openings`.
#[derive(clap::Args)]
pub struct OpeningsArgs {
    /// Input PGN files.
    #[arg(long, required = true, num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// Half-moves per opening.
    #[arg(long, default_value_t = 8)]
    plies: usize,
    /// Output file (standard output if absent).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Arguments of `data fit-scale`.
#[derive(clap::Args)]
pub struct FitScaleArgs {
    /// A dataset directory (its validation split, unless `--train`) or one .bin file.
    dataset: PathBuf,
    /// Fit on the training split of a directory instead of the held-out one.
    #[arg(long)]
    train: bool,
}

/// Runs a `data` subcommand.
pub fn run(command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Build(args) => {
            let options = BuildOptions {
                pgn: args.pgn.clone(),
                out: args.out.clone(),
                filter: GameFilter { min_elo: args.min_elo, min_plies: args.min_plies, dedup: !args.keep_duplicates },
                sampling: Sampling {
                    per_game: args.per_game,
                    skip_moves: args.skip_moves,
                    include_draws: args.include_draws,
                    all_positions: args.all_positions,
                    include_captures: args.include_captures,
                    skip_checks: args.skip_checks,
                    seed: args.seed,
                },
                held_out: match &args.fold {
                    Some(fold) => HeldOut::parse_fold(fold)?,
                    None => HeldOut::Permille(args.val_permille.min(1000)),
                },
            };
            let summary = data::build(&options, args.quiet)?;
            println!("{summary}");
            println!("wrote {}", args.out.display());
        }
        Command::Dump(args) => dump(args)?,
        Command::Stats(args) => stats(args)?,
        Command::FitScale(args) => fit_scale(args)?,
        Command::Openings(args) => {
            let lines = data::openings(&args.pgn, args.plies)?.join("\n") + "\n";
            match &args.out {
                Some(path) => {
                    std::fs::write(path, lines).with_context(|| format!("cannot write {}", path.display()))?
                }
                None => print!("{lines}"),
            }
        }
    }
    Ok(())
}

fn dump(args: &DumpArgs) -> anyhow::Result<()> {
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut left = args.limit.unwrap_or(usize::MAX);
    for path in dataset_files(&args.dataset) {
        let dataset = Dataset::open(&path)?;
        for record in dataset.records().iter().take(left) {
            let fen = record
                .position()
                .map_or("invalid".into(), |p| Fen::from_position(&p, EnPassantMode::Legal).to_string());
            let result = record.result().map_or("?", GameResult::as_str);
            let eval = record.eval().map_or("-".into(), |e| e.to_string());
            let written = writeln!(out, "{fen};{result};{};{};{eval}", record.ply(), record.played());
            if written.is_err() {
                return Ok(()); // a closed pipe (`| head`)
            }
            left -= 1;
        }
    }
    Ok(())
}

fn stats(args: &StatsArgs) -> anyhow::Result<()> {
    // A built directory's meta.json knows where each record's game came from.
    let sources = read_sources(&args.dataset)?;
    if !sources.is_empty() {
        println!("{}", SourceTable(&sources));
    }
    for path in dataset_files(&args.dataset) {
        let dataset = Dataset::open(&path)?;
        let records = dataset.records();
        let mut by_result = [0u64; 3];
        let (mut with_eval, mut games, mut last_game) = (0u64, 0u64, None);
        let mut plies: Vec<u32> = Vec::with_capacity(records.len());
        for record in records {
            match record.result() {
                Some(GameResult::WhiteWins) => by_result[0] += 1,
                Some(GameResult::BlackWins) => by_result[1] += 1,
                _ => by_result[2] += 1,
            }
            with_eval += u64::from(record.eval().is_some());
            if last_game != Some(record.game()) {
                games += 1;
                last_game = Some(record.game());
            }
            plies.push(record.ply());
        }
        plies.sort_unstable();
        let quantile = |q: f64| plies.get(((plies.len().max(1) - 1) as f64 * q) as usize).copied().unwrap_or(0);
        println!("{}", path.display());
        println!("  positions : {} from {games} games", records.len());
        println!("  results   : 1-0 {}, 0-1 {}, draw {}", by_result[0], by_result[1], by_result[2]);
        println!("  with eval : {with_eval}");
        println!("  ply       : min {}, median {}, max {}", quantile(0.0), quantile(0.5), quantile(1.0));
        if !sources.is_empty() {
            let mut per_source = vec![(0u64, 0u64); sources.len()];
            for record in records {
                let game = u64::from(record.game());
                if let Some(i) = sources.iter().position(|s| s.contains(game)) {
                    per_source[i].0 += 1;
                    per_source[i].1 += u64::from(record.eval().is_some());
                }
            }
            for (source, (positions, evaluated)) in sources.iter().zip(per_source) {
                println!("  {:<26}: {positions} positions, {evaluated} evaluated", source.path.display());
            }
        }
    }
    Ok(())
}

fn fit_scale(args: &FitScaleArgs) -> anyhow::Result<()> {
    let sources = read_sources(&args.dataset)?;
    let path = match dataset_files(&args.dataset).as_slice() {
        [train, _] if args.train => train.clone(),
        [_, val] => val.clone(),
        [file] => file.clone(),
        _ => unreachable!("a dataset is a directory of two files or one file"),
    };
    let dataset = Dataset::open(&path)?;
    let mut all = ScaleSamples::new();
    let mut by_source = vec![ScaleSamples::new(); sources.len()];
    for record in dataset.records() {
        let Some((cp, result)) = ScaleSamples::sample_of(record) else { continue };
        all.push(cp, result);
        let game = u64::from(record.game());
        if let Some(i) = sources.iter().position(|s| s.contains(game)) {
            by_source[i].push(cp, result);
        }
    }
    println!("{}: positions with an evaluation and a result, by mean cross-entropy", path.display());
    let line = |name: &str, samples: &ScaleSamples| match samples.fit() {
        Ok(fit) => println!("  {name:<30} {fit}; at s = 400: {:.5}", samples.loss(400.0)),
        Err(error) => println!("  {name:<30} no fit ({} positions): {error}", samples.len()),
    };
    line("all", &all);
    for (source, samples) in sources.iter().zip(&by_source) {
        line(&source.name(), samples);
    }
    all.fit().map(drop).with_context(|| format!("no scale fits {}", path.display()))
}
