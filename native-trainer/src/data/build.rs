//! `deepchess data build`: PGN files to a train and a validation dataset.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use pgn_reader::Reader;

use crate::data::dataset::DatasetWriter;
use crate::data::filter::{Filtering, GameFilter};
use crate::data::game::{GameReader, SkipReason};
use crate::data::input::{open_pgn, total_bytes};
use crate::data::record::GameResult;
use crate::data::sampling::{Sampling, mix};

/// What to build.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BuildOptions {
    /// Input PGN files (`.pgn` or `.pgn.zst`).
    pub pgn: Vec<PathBuf>,
    /// Output directory: `train.bin`, `val.bin`, `meta.json`.
    pub out: PathBuf,
    /// Which games to keep.
    pub filter: GameFilter,
    /// Which positions of a game to keep.
    pub sampling: Sampling,
    /// Which games go to validation.
    pub held_out: HeldOut,
}

/// Which games a build holds out for validation, each game drawn by a hash
/// of its index and the seed, so that builds of the same inputs with the same
/// seed agree game by game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum HeldOut {
    /// This many games per thousand.
    Permille(u32),
    /// Fold `index` (1-based) of `folds` equal folds: the other folds train.
    /// The `folds` builds with indices 1 to `folds` hold out every game once
    /// (k-fold cross-validation).
    Fold {
        /// Which fold, 1 to `folds`.
        index: u32,
        /// How many folds.
        folds: u32,
    },
}

impl HeldOut {
    /// Reads `K/N` (fold `K` of `N`, `1 ≤ K ≤ N`, `N ≥ 2`).
    ///
    /// ```
    /// use deepchess_trainer::data::HeldOut;
    ///
    /// assert_eq!(HeldOut::parse_fold("3/10").unwrap(), HeldOut::Fold { index: 3, folds: 10 });
    /// assert!(HeldOut::parse_fold("0/10").is_err() && HeldOut::parse_fold("11/10").is_err());
    /// assert!(HeldOut::parse_fold("1/1").is_err() && HeldOut::parse_fold("ten").is_err());
    /// ```
    pub fn parse_fold(text: &str) -> anyhow::Result<HeldOut> {
        let bad = || anyhow::anyhow!("{text:?} is not a fold K/N (1 ≤ K ≤ N, N ≥ 2), for example 3/10");
        let (index, folds) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = index.trim().parse().map_err(|_| bad())?;
        let folds: u32 = folds.trim().parse().map_err(|_| bad())?;
        anyhow::ensure!(folds >= 2 && (1..=folds).contains(&index), bad());
        Ok(HeldOut::Fold { index, folds })
    }

    /// Whether the game whose hash is `draw` is held out.
    pub fn holds_out(self, draw: u64) -> bool {
        match self {
            HeldOut::Permille(permille) => draw % 1000 < u64::from(permille),
            HeldOut::Fold { index, folds } => draw % u64::from(folds) == u64::from(index - 1),
        }
    }
}

/// Positions kept in one split, by game result.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct SplitCounts {
    /// Games that gave at least one position.
    pub games: u64,
    /// Positions from games White won.
    pub white_wins: u64,
    /// Positions from games Black won.
    pub black_wins: u64,
    /// Positions from drawn games.
    pub draws: u64,
}

impl SplitCounts {
    /// All positions.
    pub fn positions(&self) -> u64 {
        self.white_wins + self.black_wins + self.draws
    }
}

/// What one input gave.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct SourceSummary {
    /// The input file.
    pub path: PathBuf,
    /// The game index of its first game: records whose `game` lies in
    /// `first_game..first_game + games_read` came from it.
    pub first_game: u64,
    /// Games in it.
    pub games_read: u64,
    /// Games kept (replayed without error, and through the filters).
    pub games_used: u64,
    /// Decisive games kept.
    pub decisive_games: u64,
    /// Games left out, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Positions written (both splits).
    pub positions: u64,
    /// Positions written with an engine evaluation.
    pub evaluated_positions: u64,
}

impl SourceSummary {
    /// Whether game `game` of the build (a record's `game`) came from this input.
    pub fn contains(&self, game: u64) -> bool {
        (self.first_game..self.first_game + self.games_read).contains(&game)
    }

    /// The input's file name, for tables.
    pub fn name(&self) -> String {
        self.path.file_name().map_or_else(|| self.path.display().to_string(), |n| n.to_string_lossy().into())
    }
}

/// What a build did; also written to `meta.json`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    /// The options.
    pub options: BuildOptions,
    /// Games in the input.
    pub games_read: u64,
    /// Games replayed without error (whatever their result).
    pub games_used: u64,
    /// Decisive games replayed.
    pub decisive_games: u64,
    /// Games skipped, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// The training split.
    pub train: SplitCounts,
    /// The validation split.
    pub val: SplitCounts,
    /// Each input, in order.
    pub sources: Vec<SourceSummary>,
    /// Wall time, seconds.
    pub seconds: f64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "games read     : {}", self.games_read)?;
        writeln!(f, "games used     : {} ({} decisive)", self.games_used, self.decisive_games)?;
        for reason in SkipReason::ALL {
            writeln!(f, "skipped {:<14}: {}", reason.as_str(), self.skipped.get(&reason).copied().unwrap_or(0))?;
        }
        for (name, split) in [("train", &self.train), ("val", &self.val)] {
            writeln!(
                f,
                "{name:<5} positions: {} from {} games (1-0: {}, 0-1: {}, draw: {})",
                split.positions(),
                split.games,
                split.white_wins,
                split.black_wins,
                split.draws
            )?;
        }
        writeln!(f, "{}", SourceTable(&self.sources))?;
        write!(f, "time           : {:.1} s", self.seconds)
    }
}

/// Per-input lines: games, decisive share, positions, evaluated positions.
pub struct SourceTable<'a>(pub &'a [SourceSummary]);

impl std::fmt::Display for SourceTable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:<28} {:>9} {:>9} {:>9} {:>11} {:>11}",
            "source", "games", "kept", "decisive", "positions", "evaluated"
        )?;
        for s in self.0 {
            let name = s.name();
            let decisive = 100.0 * s.decisive_games as f64 / s.games_used.max(1) as f64;
            write!(
                f,
                "\n{name:<28} {:>9} {:>9} {:>8.1}% {:>11} {:>11}",
                s.games_read, s.games_used, decisive, s.positions, s.evaluated_positions
            )?;
            let skipped: Vec<String> =
                s.skipped.iter().filter(|(_, n)| **n > 0).map(|(r, n)| format!("{} {n}", r.as_str())).collect();
            if !skipped.is_empty() {
                write!(f, "\n{:<28} left out: {}", "", skipped.join(", "))?;
            }
        }
        Ok(())
    }
}

/// Builds the dataset; shows a progress bar unless `quiet`.
pub fn build(options: &BuildOptions, quiet: bool) -> anyhow::Result<Summary> {
    let start = Instant::now();
    std::fs::create_dir_all(&options.out).with_context(|| format!("cannot create {}", options.out.display()))?;
    let mut train = DatasetWriter::create(&options.out.join("train.bin"))?;
    let mut val = DatasetWriter::create(&options.out.join("val.bin"))?;
    let progress = if quiet { ProgressBar::hidden() } else { ProgressBar::new(total_bytes(&options.pgn)) };
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta} {msg}")
            .expect("a valid template"),
    );
    let mut summary = Summary {
        options: options.clone(),
        games_read: 0,
        games_used: 0,
        decisive_games: 0,
        skipped: BTreeMap::new(),
        train: SplitCounts::default(),
        val: SplitCounts::default(),
        sources: Vec::new(),
        seconds: 0.0,
    };
    let mut filtering = Filtering::new(options.filter);
    for path in &options.pgn {
        let mut source =
            SourceSummary { path: path.clone(), first_game: summary.games_read, ..SourceSummary::default() };
        let mut reader = Reader::new(open_pgn(path, &progress)?);
        while let Some(outcome) =
            reader.read_game(&mut GameReader).with_context(|| format!("cannot read {}", path.display()))?
        {
            let game_index = u32::try_from(summary.games_read).context("more than 2³² games")?;
            summary.games_read += 1;
            source.games_read += 1;
            let game = match outcome.and_then(|game| filtering.check(&game).map_or(Ok(game), Err)) {
                Ok(game) => game,
                Err(reason) => {
                    *summary.skipped.entry(reason).or_default() += 1;
                    *source.skipped.entry(reason).or_default() += 1;
                    continue;
                }
            };
            let decisive = u64::from(game.result != GameResult::Draw);
            summary.games_used += 1;
            summary.decisive_games += decisive;
            source.games_used += 1;
            source.decisive_games += decisive;
            let is_val = options.held_out.holds_out(mix(options.sampling.seed ^ 0x5eed, u64::from(game_index)));
            let (writer, counts) = if is_val { (&mut val, &mut summary.val) } else { (&mut train, &mut summary.train) };
            let records = options.sampling.records(game_index, &game);
            counts.games += u64::from(!records.is_empty());
            for record in &records {
                writer.push(record)?;
            }
            let kept = records.len() as u64;
            source.positions += kept;
            source.evaluated_positions += records.iter().filter(|r| r.eval().is_some()).count() as u64;
            match game.result {
                GameResult::WhiteWins => counts.white_wins += kept,
                GameResult::BlackWins => counts.black_wins += kept,
                GameResult::Draw => counts.draws += kept,
            }
            if summary.games_read.is_multiple_of(1024) {
                progress.set_message(format!("{} games", summary.games_read));
            }
        }
        summary.sources.push(source);
    }
    train.finish()?;
    val.finish()?;
    progress.finish_and_clear();
    summary.seconds = start.elapsed().as_secs_f64();
    let meta = serde_json::to_string_pretty(&summary)?;
    std::fs::write(options.out.join("meta.json"), meta + "\n")?;
    Ok(summary)
}

/// The first `plies` moves of every replayable game, as UCI lines, without
/// duplicates, in input order.
pub fn openings(pgn: &[impl AsRef<Path>], plies: usize) -> anyhow::Result<Vec<String>> {
    use deepchess_core::uci::uci_move;
    let mut seen = std::collections::HashSet::new();
    let mut lines = Vec::new();
    for path in pgn {
        let path = path.as_ref();
        let mut reader = Reader::new(open_pgn(path, &ProgressBar::hidden())?);
        while let Some(outcome) = reader.read_game(&mut GameReader)? {
            let Ok(game) = outcome else { continue };
            if game.plies.len() < plies {
                continue;
            }
            let line: Vec<String> = game.plies[..plies].iter().map(|p| uci_move(p.played).to_string()).collect();
            let line = line.join(" ");
            if seen.insert(line.clone()) {
                lines.push(line);
            }
        }
    }
    Ok(lines)
}

/// The inputs recorded in `dir/meta.json` by `data build`, if there is one.
pub fn read_sources(dataset: &Path) -> anyhow::Result<Vec<SourceSummary>> {
    #[derive(serde::Deserialize)]
    struct Meta {
        #[serde(default)]
        sources: Vec<SourceSummary>,
    }
    let path = dataset.join("meta.json");
    if !dataset.is_dir() || !path.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let meta: Meta =
        serde_json::from_str(&text).with_context(|| format!("{} is not a build's meta.json", path.display()))?;
    Ok(meta.sources)
}
