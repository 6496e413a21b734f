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
//! a cutechess-style comment (`{ +0.35/9 }`: White's view and depth; no time, so that a fixed-node
//! game is written the same in every run), so `data build` labels
//! every position with the search score and the game's result.
//!
//! Games go to a zstd PGN file, each game its own frame, written and flushed
//! as it ends. `--games N` makes the file hold games 1 to N: `--append`
//! continues it (the same command goes on after a stop), playing the game
//! numbers up to N that it lacks (each game has its own seed), so none is
//! played twice and none is skipped, whatever order a stopped run's games
//! finished in; a stopped run's partial last frame is cut off first. A
//! larger N extends a finished file.
//!
//! Under `mpirun` (the `mpi` feature) the ranks share the game numbers
//! round robin, each with `--jobs` games at once, and send their games to
//! rank 0, which alone writes the file. A game depends only on the seed and
//! its number (its opening, random plies and strengths are drawn from
//! them, and engines start each game afresh with `ucinewgame`), so at a
//! fixed node count any number of ranks plays the same set of games.

use std::collections::BTreeSet;
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

use crate::cluster;
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
    /// Games the file holds when the run ends: with `--append`, the numbers
    /// up to this that it lacks are played (the same command resumes).
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
/// (a stopped run's, saying so) and returns the game numbers (0-based: a
/// game's `Round` tag less one) the file holds.
fn resume_point(path: &Path) -> anyhow::Result<BTreeSet<usize>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let keep = complete_frames(&bytes);
    if keep < bytes.len() {
        std::fs::OpenOptions::new().write(true).open(path)?.set_len(keep as u64)?;
        eprintln!("cut {} bytes of an unfinished game off the end of {}", bytes.len() - keep, path.display());
    }
    let mut text = String::new();
    zstd::Decoder::new(&bytes[..keep])?.read_to_string(&mut text)?;
    Ok(played_rounds(&text))
}

/// The game numbers of the games in `pgn`, from their `Round` tags.
fn played_rounds(pgn: &str) -> BTreeSet<usize> {
    pgn.lines()
        .filter_map(|line| line.strip_prefix("[Round \"")?.strip_suffix("\"]")?.parse::<usize>().ok())
        .filter_map(|round| round.checked_sub(1))
        .collect()
}

/// The game numbers below `total` not in `played`.
fn next_games(played: &BTreeSet<usize>, total: usize) -> Vec<usize> {
    (0..total).filter(|index| !played.contains(index)).collect()
}

/// The games this rank plays: every `size`-th of `games`, from its `rank`-th.
fn rank_games(games: &[usize], rank: usize, size: usize) -> Vec<usize> {
    games.iter().copied().skip(rank).step_by(size).collect()
}

/// A finished game as sent between ranks: its number, whether it was
/// decisive, its PGN.
fn encode_game(index: usize, pgn: &str, decisive: bool) -> Vec<u8> {
    let mut bytes = (index as u64).to_le_bytes().to_vec();
    bytes.push(u8::from(decisive));
    bytes.extend_from_slice(pgn.as_bytes());
    bytes
}

/// The game [`encode_game`] wrote.
fn decode_game(bytes: &[u8]) -> anyhow::Result<(usize, String, bool)> {
    anyhow::ensure!(bytes.len() >= 9, "a short game message ({} bytes)", bytes.len());
    let index = u64::from_le_bytes(bytes[..8].try_into().expect("eight bytes")) as usize;
    Ok((index, String::from_utf8(bytes[9..].to_vec())?, bytes[8] != 0))
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

/// Plays the games and writes them (rank 0), or plays this rank's share
/// and sends them to rank 0.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let openings = openings::load(args.openings.as_deref())?;
    let (rank, ranks, root) = (cluster::rank(), cluster::size(), cluster::is_root());
    let mut file = None;
    let mut held = 0;
    let mut games = Vec::new();
    if root {
        let played = if args.append && args.out.exists() { resume_point(&args.out)? } else { BTreeSet::new() };
        held = played.len();
        games = next_games(&played, args.games);
        file = Some(
            std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(args.append)
                .truncate(!args.append)
                .open(&args.out)
                .with_context(|| format!("cannot open {}", args.out.display()))?,
        );
    }
    // Rank 0's list of game numbers on every rank; each plays its share.
    let list = cluster::broadcast(games.iter().flat_map(|&g| (g as u64).to_le_bytes()).collect());
    let games: Vec<usize> =
        list.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")) as usize).collect();
    let mine = rank_games(&games, rank, ranks);
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
    let progress = if args.quiet || !root { ProgressBar::hidden() } else { ProgressBar::new(games.len() as u64) };
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {per_sec} eta {eta} {msg}").expect("a valid template"),
    );
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<anyhow::Result<(usize, String, bool)>>();
    let mut decisive = 0;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.jobs.clamp(1, mine.len().max(1)) {
            let tx = tx.clone();
            let (next, openings, pairs, mine) = (&next, &openings, &pairs, &mine);
            scope.spawn(move || {
                let result = (|| -> anyhow::Result<()> {
                    if mine.is_empty() {
                        return Ok(());
                    }
                    let mut engines: Vec<Engine> =
                        args.engines.iter().map(|c| Engine::start(c, &[])).collect::<Result<_, _>>()?;
                    loop {
                        let Some(&index) = mine.get(next.fetch_add(1, Ordering::SeqCst)) else {
                            return Ok(());
                        };
                        let (pgn, decisive) = play_game(args, &mut engines, index, openings, pairs, tc)?;
                        if tx.send(Ok((index, pgn, decisive))).is_err() {
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
        // Rank 0 writes its own games and those the other ranks send until
        // every rank has finished; another rank sends its games on.
        let mut write = |pgn: &str, is_decisive: bool| -> anyhow::Result<()> {
            let Some(file) = file.as_mut() else {
                return Ok(());
            };
            // One frame per game, flushed: a stop loses at most the game being written.
            file.write_all(&zstd::encode_all(pgn.as_bytes(), 9)?)?;
            file.flush()?;
            decisive += usize::from(is_decisive);
            progress.inc(1);
            progress.set_message(format!("{decisive} decisive"));
            if progress.is_hidden() && !args.quiet {
                // No terminal (a background run's log): a line per game instead of the bar.
                eprintln!("game {} of {}: {decisive} decisive so far", progress.position(), games.len());
            }
            Ok(())
        };
        let (mut local_done, mut ranks_done) = (false, 1);
        while !local_done || ranks_done < ranks {
            match rx.recv_timeout(Duration::from_millis(if ranks > 1 { 5 } else { 1000 })) {
                Ok(message) => {
                    let (index, pgn, is_decisive) = message?;
                    if root {
                        write(&pgn, is_decisive)?;
                    } else {
                        forward(&encode_game(index, &pgn, is_decisive));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) if !local_done => {
                    local_done = true;
                    if !root {
                        // Rank 0 counts the other ranks' ends; this one's is sent.
                        finish();
                        ranks_done = ranks;
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => std::thread::sleep(Duration::from_millis(5)),
            }
            if root {
                while let Some(message) = receive() {
                    match message {
                        Some(bytes) => {
                            let (_, pgn, is_decisive) = decode_game(&bytes)?;
                            write(&pgn, is_decisive)?;
                        }
                        None => ranks_done += 1,
                    }
                }
            }
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    if root {
        let on = if ranks > 1 { format!(" on {ranks} ranks") } else { String::new() };
        println!(
            "played {} games ({decisive} decisive){on} into {}; the file holds {}",
            games.len(),
            args.out.display(),
            held + games.len()
        );
    }
    Ok(())
}

/// Plays game number `index` with `engines`: its PGN, and whether it was decisive.
fn play_game(
    args: &Args,
    engines: &mut [Engine],
    index: usize,
    openings: &[Vec<String>],
    pairs: &[(usize, usize)],
    tc: TimeControl,
) -> anyhow::Result<(String, bool)> {
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
        game::play(&mut engines[w], &mut other, &opening, [tc; 2], args.max_plies)?
    } else {
        let (white, black) = two(engines, w, b);
        game::play(white, black, &opening, [tc; 2], args.max_plies)?
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
    // Scores and depths only: training needs no times, and without them a
    // fixed-node game is written the same on any machine and in any run.
    let mut game = game;
    for note in game.notes.iter_mut().flatten() {
        note.time = None;
    }
    Ok((game::pgn(&game, &tags), decisive))
}

/// Sends a finished game to rank 0.
fn forward(bytes: &[u8]) {
    #[cfg(feature = "mpi")]
    cluster::messages::send_game(bytes);
    let _ = bytes;
}

/// Tells rank 0 that this rank has played all its games.
fn finish() {
    #[cfg(feature = "mpi")]
    cluster::messages::send_done();
}

/// On rank 0: another rank's game (`Some(Some)`) or end (`Some(None)`), if one waits.
fn receive() -> Option<Option<Vec<u8>>> {
    #[cfg(feature = "mpi")]
    if cluster::size() > 1 {
        return cluster::messages::try_receive();
    }
    None
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_appending_run_fills_the_holes_first_and_never_repeats_a_game() {
        let pgn =
            "[Event \"x\"]\n[Round \"1\"]\n\n1-0\n\n[Event \"x\"]\n[Round \"2\"]\n\n[Event \"x\"]\n[Round \"5\"]\n";
        let played = played_rounds(pgn);
        assert_eq!(played, BTreeSet::from([0, 1, 4]));
        // Up to 7 games in all: the holes, then the numbers after the last.
        assert_eq!(next_games(&played, 7), [2, 3, 5, 6]);
        assert_eq!(next_games(&played, 2), Vec::<usize>::new());
        assert_eq!(next_games(&BTreeSet::new(), 3), [0, 1, 2]);
    }

    #[test]
    fn ranks_share_the_games_round_robin() {
        let games: Vec<usize> = (10..17).collect();
        let shares: Vec<Vec<usize>> = (0..3).map(|rank| rank_games(&games, rank, 3)).collect();
        assert_eq!(shares, [vec![10, 13, 16], vec![11, 14], vec![12, 15]]);
        assert_eq!(rank_games(&games, 0, 1), games);
    }

    #[test]
    fn a_game_crosses_between_ranks_whole() {
        let bytes = encode_game(12_345, "[Event \"é\"]\n\n1-0\n", true);
        assert_eq!(decode_game(&bytes).unwrap(), (12_345, "[Event \"é\"]\n\n1-0\n".to_string(), true));
        assert!(decode_game(&bytes[..5]).is_err());
    }
}
