//! `deepchess data build`: PGN files to a train and a validation dataset.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use pgn_reader::Reader;

use crate::data::dataset::DatasetWriter;
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
    /// Which positions to keep.
    pub sampling: Sampling,
    /// Games per thousand that go to validation.
    pub val_permille: u32,
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
        write!(f, "time           : {:.1} s", self.seconds)
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
        seconds: 0.0,
    };
    for path in &options.pgn {
        let mut reader = Reader::new(open_pgn(path, &progress)?);
        while let Some(outcome) =
            reader.read_game(&mut GameReader).with_context(|| format!("cannot read {}", path.display()))?
        {
            let game_index = summary.games_read as u32;
            summary.games_read += 1;
            let game = match outcome {
                Ok(game) => game,
                Err(reason) => {
                    *summary.skipped.entry(reason).or_default() += 1;
                    continue;
                }
            };
            summary.games_used += 1;
            summary.decisive_games += u64::from(game.result != GameResult::Draw);
            let is_val =
                mix(options.sampling.seed ^ 0x5eed, u64::from(game_index)) % 1000 < u64::from(options.val_permille);
            let (writer, counts) = if is_val { (&mut val, &mut summary.val) } else { (&mut train, &mut summary.train) };
            let records = options.sampling.records(game_index, &game);
            counts.games += u64::from(!records.is_empty());
            for record in &records {
                writer.push(record)?;
            }
            let kept = records.len() as u64;
            match game.result {
                GameResult::WhiteWins => counts.white_wins += kept,
                GameResult::BlackWins => counts.black_wins += kept,
                GameResult::Draw => counts.draws += kept,
            }
            if summary.games_read.is_multiple_of(1024) {
                progress.set_message(format!("{} games", summary.games_read));
            }
        }
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
