//! `deepchess datagen`: engine-vs-engine games for training data, as a
//! rating-list collection is made.
//!
//! Engines are paired round robin (an engine is never paired with itself
//! unless it is the only one). Where an engine offers `UCI_LimitStrength`
//! and `UCI_Elo`, each game draws its strength at random within the
//! engine's range, so that many games are decisive.
//!
//! Our engine's own games, the data that teaches its next network: one
//! engine (`--engine "deepchess uci"`) plays itself at a fixed node count
//! (`--nodes`) from book openings plus a few random plies
//! (`--random-plies`); every move carries the score its search reported, as
//! a TCEC-style comment (`{ +0.35 }`, White's view), so `data build` labels
//! every position with the search score and the game's result.
//!
//! Games go to a zstd PGN file, each game its own frame, written and flushed
//! as it ends. `--append` continues a file: a stopped run leaves at most one
//! partial frame at its end, which is cut off, and the new games take the
//! next game numbers (and so fresh seeds), so none is played again.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use deepchess_core::shakmaty::uci::UciMove;
use deepchess_core::shakmaty::{Chess, Position};
use deepchess_core::uci::uci_move;

use crate::data::mix;
use crate::play::engine::Engine;
use crate::play::game::{self, TimeControl};
use crate::play::openings;

/// Arguments of `deepchess datagen`.
#[derive(clap::Args)]
pub struct Args {
    /// An engine's command line (repeat for several).
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Games to play.
    #[arg(long)]
    games: usize,
    /// Time per move, ms.
    #[arg(long, default_value_t = 20)]
    movetime: u64,
    /// Nodes per move instead of a time (`go nodes N`): the same game on any machine.
    #[arg(long)]
    nodes: Option<u64>,
    /// Random legal moves after each opening (seeded), so that games from one opening differ.
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// Openings, one line of UCI moves each (`deepchess data openings`); default: 16 common lines.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Output file (`.pgn.zst`).
    #[arg(long)]
    out: PathBuf,
    /// Continue `--out` instead of replacing it.
    #[arg(long)]
    append: bool,
    /// Half-moves after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Seed of the pairings, strengths and openings.
    #[arg(long, default_value_t = 2016)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// The length of the whole zstd frames at the start of `bytes`: a run
/// stopped while writing leaves a partial frame after them.
pub fn complete_frames(bytes: &[u8]) -> usize {
    let mut at = 0;
    while at < bytes.len() {
        match zstd::zstd_safe::find_frame_compressed_size(&bytes[at..]) {
            Ok(size) if size > 0 && at + size <= bytes.len() => at += size,
            _ => break,
        }
    }
    at
}

/// Where a run appending to `path` goes on: cuts off a partial last frame
/// (a stopped run's, saying so) and returns the games the file holds.
fn resume_point(path: &Path) -> anyhow::Result<usize> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let keep = complete_frames(&bytes);
    if keep < bytes.len() {
        std::fs::OpenOptions::new().write(true).open(path)?.set_len(keep as u64)?;
        eprintln!("cut {} bytes of an unfinished game off the end of {}", bytes.len() - keep, path.display());
    }
    let mut text = String::new();
    zstd::Decoder::new(&bytes[..keep])?.read_to_string(&mut text)?;
    Ok(text.matches("[Event ").count())
}

/// The opening, then `plies` random legal moves (fewer if the game ends).
fn with_random_plies(opening: &[String], plies: usize, rng: &mut SmallRng) -> anyhow::Result<Vec<String>> {
    let mut pos = Chess::default();
    for text in opening {
        let m = text.parse::<UciMove>()?.to_move(&pos).map_err(|_| anyhow::anyhow!("illegal opening move {text}"))?;
        pos.play_unchecked(m);
    }
    let mut line = opening.to_vec();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_insufficient_material() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        line.push(uci_move(m).to_string());
        pos.play_unchecked(m);
    }
    Ok(line)
}

/// Plays the games and writes them.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let openings = openings::load(args.openings.as_deref())?;
    let first = if args.append && args.out.exists() { resume_point(&args.out)? } else { 0 };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(args.append)
        .truncate(!args.append)
        .open(&args.out)
        .with_context(|| format!("cannot open {}", args.out.display()))?;
    let tc = match args.nodes {
        Some(nodes) => TimeControl::Nodes(nodes),
        None => TimeControl::MoveTime(Duration::from_millis(args.movetime)),
    };
    let pairs: Vec<(usize, usize)> = if args.engines.len() == 1 {
        vec![(0, 0)]
    } else {
        (0..args.engines.len())
            .flat_map(|a| (0..args.engines.len()).filter(move |&b| b != a).map(move |b| (a, b)))
            .collect()
    };
    let progress = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(args.games as u64) };
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {per_sec} eta {eta} {msg}").expect("a valid template"),
    );
    let next = AtomicUsize::new(first);
    let end = first + args.games;
    let (tx, rx) = mpsc::channel::<anyhow::Result<(usize, String, bool)>>();
    let mut decisive = 0;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.jobs.clamp(1, args.games.max(1)) {
            let tx = tx.clone();
            let (next, openings, pairs) = (&next, &openings, &pairs);
            scope.spawn(move || {
                let result = (|| -> anyhow::Result<()> {
                    let mut engines: Vec<Engine> =
                        args.engines.iter().map(|c| Engine::start(c, &[])).collect::<Result<_, _>>()?;
                    loop {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        if index >= end {
                            return Ok(());
                        }
                        let mut rng = SmallRng::seed_from_u64(mix(args.seed, index as u64));
                        let (w, b) = pairs[index % pairs.len()];
                        let opening = &openings[rng.random_range(0..openings.len())];
                        let opening = with_random_plies(opening, args.random_plies, &mut rng)?;
                        // Strength of each side, where the engine can be limited.
                        let mut labels = [String::new(), String::new()];
                        for (side, &e) in [w, b].iter().enumerate() {
                            labels[side] = engines[e].name().to_string();
                            if let Some((min, max)) = engines[e].limit_strength {
                                let elo = rng.random_range(min..=max);
                                let engine = &mut engines[e];
                                engine.send("setoption name UCI_LimitStrength value true")?;
                                engine.send(&format!("setoption name UCI_Elo value {elo}"))?;
                                labels[side] = format!("{} (UCI_Elo {elo})", engine.name());
                            }
                        }
                        let game = if w == b {
                            // One engine plays itself: a second process for Black.
                            let mut other = Engine::start(&args.engines[b], &[])?;
                            game::play(&mut engines[w], &mut other, &opening, tc, args.max_plies)?
                        } else {
                            let (white, black) = two(&mut engines, w, b);
                            game::play(white, black, &opening, tc, args.max_plies)?
                        };
                        if let Some(side) = game.termination.failed_side() {
                            let e = if side == shakmaty::Color::White { w } else { b };
                            engines[e].restart()?;
                        }
                        let tags = [
                            ("Event", "deepchess datagen".to_string()),
                            ("Site", "local".to_string()),
                            ("Round", (index + 1).to_string()),
                            ("White", labels[0].clone()),
                            ("Black", labels[1].clone()),
                            ("WhiteCommand", args.engines[w].clone()),
                            ("BlackCommand", args.engines[b].clone()),
                            ("TimeControl", tc.pgn_tag()),
                        ];
                        let decisive = game.result != crate::data::GameResult::Draw;
                        if tx.send(Ok((index, game::pgn(&game, &tags), decisive))).is_err() {
                            return Ok(());
                        }
                    }
                })();
                if let Err(err) = result {
                    let _ = tx.send(Err(err));
                }
            });
        }
        drop(tx);
        for message in rx {
            let (_, pgn, is_decisive) = message?;
            // One frame per game, flushed: a stop loses at most the game being written.
            file.write_all(&zstd::encode_all(pgn.as_bytes(), 9)?)?;
            file.flush()?;
            decisive += usize::from(is_decisive);
            progress.inc(1);
            progress.set_message(format!("{decisive} decisive"));
            if progress.is_hidden() && !args.quiet {
                // No terminal (a background run's log): a line per game instead of the bar.
                eprintln!("game {} of {}: {decisive} decisive so far", progress.position(), args.games);
            }
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    println!(
        "played {} games ({decisive} decisive) into {}; the file holds {}",
        args.games,
        args.out.display(),
        first + args.games
    );
    Ok(())
}

/// Mutable references to two different engines.
fn two(engines: &mut [Engine], a: usize, b: usize) -> (&mut Engine, &mut Engine) {
    assert_ne!(a, b);
    if a < b {
        let (left, right) = engines.split_at_mut(b);
        (&mut left[a], &mut right[0])
    } else {
        let (left, right) = engines.split_at_mut(a);
        (&mut right[0], &mut left[b])
    }
}
