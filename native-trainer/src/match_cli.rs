//! `deepchess match`: our engine against any UCI engine.
//!
//! Games are paired: each opening is played twice, colours swapped. An
//! engine that crashes, hangs or sends an illegal move loses that game and
//! is restarted; the match goes on.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::Context;
use deepchess_core::shakmaty::Color;
use indicatif::{ProgressBar, ProgressStyle};

use crate::data::GameResult;
use crate::play::engine::{Engine, Protocol};
use crate::play::game::{self, PlayedGame, TimeControl};
use crate::play::openings;
use crate::play::stats::Score;

/// Arguments of `deepchess match`.
#[derive(clap::Args)]
pub struct Args {
    /// The opponent's command line, for example "/usr/games/gnuchess --uci".
    #[arg(long)]
    engine: String,
    /// The opponent's protocol: `uci`, or `xboard` (Phalanx, for example).
    #[arg(long, value_enum, default_value = "uci")]
    protocol: Protocol,
    /// An option for the opponent, `Name=Value` (repeatable), e.g. UCI_Elo=1500.
    #[arg(long = "option")]
    options: Vec<String>,
    /// Our network (default: the embedded one).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Our engine's command line (default: this binary's `uci`).
    #[arg(long)]
    ours: Option<String>,
    /// Games to play (paired by opening).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Clock per side, base+increment in seconds (cutechess's `10+0.1`).
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    tc: Option<String>,
    /// Fixed time per move, ms.
    #[arg(long, conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Fixed nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Openings, one line of UCI moves each (default: 16 common lines).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game here (PGN).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Half-moves after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// One finished game of the match.
struct Finished {
    index: usize,
    ours_white: bool,
    game: PlayedGame,
    names: [String; 2],
}

/// Plays the match and prints the summary.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let tc = match (&args.tc, args.movetime, args.nodes) {
        (Some(tc), _, _) => TimeControl::parse_clock(tc)?,
        (None, Some(ms), _) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, None, Some(nodes)) => TimeControl::Nodes(nodes),
        (None, None, None) => anyhow::bail!("give --tc, --movetime or --nodes"),
    };
    let openings = openings::load(args.openings.as_deref())?;
    let options: Vec<(String, String)> = args
        .options
        .iter()
        .map(|o| o.split_once('=').map(|(n, v)| (n.to_string(), v.to_string())).context("--option takes Name=Value"))
        .collect::<anyhow::Result<_>>()?;
    let ours = match &args.ours {
        Some(command) => command.clone(),
        None => {
            let exe = std::env::current_exe()?.display().to_string();
            match &args.weights {
                Some(w) => format!("{exe} uci --weights {}", w.display()),
                None => format!("{exe} uci"),
            }
        }
    };

    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<anyhow::Result<Finished>>();
    let progress = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(args.games as u64) };
    progress.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg}").expect("a valid template"));
    let mut finished: Vec<Finished> = Vec::with_capacity(args.games);
    let mut score = Score::default();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.concurrency.clamp(1, args.games.max(1)) {
            let tx = tx.clone();
            let (next, openings, ours, options) = (&next, &openings, &ours, &options);
            scope.spawn(move || {
                let result = (|| -> anyhow::Result<()> {
                    let mut us = Engine::start(ours, &[])?;
                    let mut them = Engine::start_with(args.protocol, &args.engine, options)?;
                    loop {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        if index >= args.games {
                            return Ok(());
                        }
                        let ours_white = index % 2 == 0;
                        let opening = &openings[(index / 2) % openings.len()];
                        let (white, black) = if ours_white { (&mut us, &mut them) } else { (&mut them, &mut us) };
                        let names = [white.name().to_string(), black.name().to_string()];
                        let game = game::play(white, black, opening, tc, args.max_plies)?;
                        if let Some(side) = game.termination.failed_side() {
                            let failed = if (side == Color::White) == ours_white { &mut us } else { &mut them };
                            failed.restart()?;
                        }
                        if tx.send(Ok(Finished { index, ours_white, game, names })).is_err() {
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
            let done = message?;
            match (done.game.result, done.ours_white) {
                (GameResult::Draw, _) => score.draws += 1,
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => score.wins += 1,
                _ => score.losses += 1,
            }
            progress.inc(1);
            progress.set_message(score.to_string());
            finished.push(done);
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    finished.sort_by_key(|f| f.index);
    anyhow::ensure!(finished.len() == args.games, "only {} of {} games finished", finished.len(), args.games);

    let mut pgn = String::new();
    for f in &finished {
        let tags = [
            ("Event", "deepchess match".to_string()),
            ("Site", "local".to_string()),
            ("Round", (f.index + 1).to_string()),
            ("White", f.names[0].clone()),
            ("Black", f.names[1].clone()),
            ("TimeControl", tc.pgn_tag()),
        ];
        pgn.push_str(&game::pgn(&f.game, &tags));
    }
    if let Some(path) = &args.pgn {
        std::fs::write(path, &pgn).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let them = finished.first().map_or(args.engine.clone(), |f| f.names[usize::from(f.ours_white)].clone());
    let terminations = finished.iter().filter(|f| f.game.termination.failed_side().is_some()).count();
    println!("DeepChess vs {them}: {} games, {}", score.games(), tc.pgn_tag());
    println!("W/D/L           : {} / {} / {}", score.wins, score.draws, score.losses);
    println!("score           : {:.1}%", 100.0 * score.fraction());
    match score.elo() {
        Some(elo) => println!("Elo difference  : {:+.0} (95%: {:+.0} to {:+.0})", elo.diff, elo.lower, elo.upper),
        None => println!("Elo difference  : unbounded (all games {})", if score.wins > 0 { "won" } else { "lost" }),
    }
    println!("LOS             : {:.1}%", 100.0 * score.los());
    println!("engine failures : {terminations}");
    if let Some(path) = &args.pgn {
        println!("games           : {}", path.display());
    }
    Ok(())
}
