//! `deepchess match`: our engine against any UCI engine.
//!
//! Games are paired: each opening is played twice, colours swapped. An
//! engine that crashes, hangs or sends an illegal move loses that game and
//! is restarted; the match goes on. Each game is written to `--pgn` when it
//! ends; `--resume` reads that file back and plays only the games missing.

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
use crate::play::match_log::{self, MatchLog};
use crate::play::openings;
use crate::play::sprt::{Pairs, Sprt, Verdict};
use crate::play::stats::{self, Forfeit, Tally};

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
    /// An option for our engine, `Name=Value` (repeatable), e.g. Threads=2.
    #[arg(long = "our-option")]
    our_options: Vec<String>,
    /// Our network (default: the embedded one).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Our engine's command line (default: this binary's `uci`, with `--weights`; the two
    /// exclude each other, so that a network is never silently left out).
    #[arg(long, conflicts_with = "weights")]
    ours: Option<String>,
    /// Games to play (paired by opening).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Clock per side, base+increment in seconds (cutechess's `10+0.1`).
    #[arg(long, conflicts_with_all = ["movetime", "nodes", "depth"])]
    tc: Option<String>,
    /// The opponent's limit where it differs from ours: a clock (time odds:
    /// `--tc 40+0.4 --opponent-tc 10+0.1` gives us four times its time), or
    /// `movetime=MS`, `nodes=N`, `depth=N` (`--depth 3 --opponent-tc
    /// 10+0.1`: our depth 3 against its clock, as the site's Strength levels
    /// are rated).
    #[arg(long)]
    opponent_tc: Option<String>,
    /// Fixed time per move, ms.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    movetime: Option<u64>,
    /// Fixed nodes per move.
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Fixed search depth per move, for both sides unless `--opponent-tc`
    /// gives the opponent its own limit (`go depth N`, xboard's `sd N`): the
    /// learners' fixed-depth matches (NeuroChess, Deep Pink).
    #[arg(long)]
    depth: Option<u32>,
    /// Openings, one line of UCI moves each (default: 16 common lines).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Skip this many openings of the file first (to play fresh openings in
    /// a second match against the same engine).
    #[arg(long, default_value_t = 0)]
    skip_openings: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game here (PGN), each as soon as it ends.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Go on with the match in `--pgn`: its finished games count, and only
    /// the missing ones are played (same --games, openings and clock).
    #[arg(long, requires = "pgn")]
    resume: bool,
    /// Half-moves after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Stop when the sequential probability ratio test of H₀: elo ≤ elo0
    /// against H₁: elo ≥ elo1 (logistic Elo, α = β = 0.05) decides, its
    /// log-likelihood ratio taken over game pairs (pentanomial), e.g. `0,5`;
    /// `--games` is then the most it plays.
    #[arg(long)]
    sprt: Option<String>,
}

/// One finished game of the match.
struct Finished {
    index: usize,
    ours_white: bool,
    game: PlayedGame,
    names: [String; 2],
}

/// `Name=Value` options, split.
fn name_values(options: &[String], flag: &str) -> anyhow::Result<Vec<(String, String)>> {
    options
        .iter()
        .map(|o| o.split_once('=').map(|(n, v)| (n.to_string(), v.to_string())))
        .collect::<Option<_>>()
        .with_context(|| format!("{flag} takes Name=Value"))
}

/// Plays the match and prints the summary.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let tc = match (&args.tc, args.movetime, args.nodes, args.depth) {
        (Some(tc), ..) => TimeControl::parse_clock(tc)?,
        (None, Some(ms), ..) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, None, Some(nodes), _) => TimeControl::Nodes(nodes),
        (None, None, None, Some(depth)) => TimeControl::Depth(depth),
        (None, None, None, None) => anyhow::bail!("give --tc, --movetime, --nodes or --depth"),
    };
    let their_tc = args.opponent_tc.as_deref().map(TimeControl::parse).transpose()?.unwrap_or(tc);
    // White's and Black's time controls in a game where we are (or are not) White.
    let sides = |ours_white: bool| if ours_white { [tc, their_tc] } else { [their_tc, tc] };
    let mut openings = openings::load(args.openings.as_deref())?;
    anyhow::ensure!(
        args.skip_openings < openings.len(),
        "--skip-openings {} leaves none of the {} openings",
        args.skip_openings,
        openings.len()
    );
    openings.drain(..args.skip_openings);
    let options = name_values(&args.options, "--option")?;
    let our_options = name_values(&args.our_options, "--our-option")?;
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

    // The games a resumed match already has, and the ones left to play.
    let logged = match (&args.pgn, args.resume) {
        (Some(path), true) => match_log::read(path)?,
        _ => Vec::new(),
    };
    let mut done = vec![false; args.games];
    let mut tally = Tally::default();
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let mut pairs = Pairs::new(args.games);
    let mut verdict = Verdict::Continue;
    // Game 1 has us as White: the opponent is whichever side we are not.
    let mut them: Option<String> = None;
    for game in &logged {
        anyhow::ensure!(
            game.index < args.games && !done[game.index],
            "game {} of the log is outside this {}-game match, or twice in it",
            game.index + 1,
            args.games
        );
        let expected = sides(game.index % 2 == 0).map(|t| t.pgn_tag());
        anyhow::ensure!(
            game.time_controls == expected,
            "game {} of the log was played at {} (White) and {} (Black), this match at {} and {}",
            game.index + 1,
            game.time_controls[0],
            game.time_controls[1],
            expected[0],
            expected[1]
        );
        done[game.index] = true;
        tally.add(game.result, game.index % 2 == 0, game.forfeit);
        pairs.record(game.index, points(game.result, game.index % 2 == 0, game.forfeit));
        them.get_or_insert_with(|| game.names[usize::from(game.index % 2 == 0)].clone());
    }
    let todo: Vec<usize> = (0..args.games).filter(|&i| !done[i]).collect();
    let mut log = args.pgn.as_deref().map(|path| MatchLog::open(path, args.resume)).transpose()?;

    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<anyhow::Result<Finished>>();
    let progress = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(args.games as u64) };
    progress.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg}").expect("a valid template"));
    progress.set_position(logged.len() as u64);
    let mut finished: Vec<Finished> = Vec::with_capacity(todo.len());
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.concurrency.clamp(1, todo.len().max(1)) {
            let tx = tx.clone();
            let (next, openings, ours, options, todo, sides) = (&next, &openings, &ours, &options, &todo, &sides);
            let our_options = &our_options;
            scope.spawn(move || {
                let result = (|| -> anyhow::Result<()> {
                    let mut us = Engine::start(ours, our_options)?;
                    let mut them = Engine::start_with(args.protocol, &args.engine, options)?;
                    loop {
                        let Some(&index) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                            return Ok(());
                        };
                        let ours_white = index % 2 == 0;
                        let opening = &openings[(index / 2) % openings.len()];
                        let (white, black) = if ours_white { (&mut us, &mut them) } else { (&mut them, &mut us) };
                        let names = [white.name().to_string(), black.name().to_string()];
                        let game = game::play(white, black, opening, sides(ours_white), args.max_plies)?;
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
            let forfeit = done.game.termination.forfeit();
            tally.add(done.game.result, done.ours_white, forfeit);
            pairs.record(done.index, points(done.game.result, done.ours_white, forfeit));
            if let Some(sprt) = &sprt
                && verdict == Verdict::Continue
            {
                verdict = sprt.verdict(&pairs.pentanomial());
                if verdict != Verdict::Continue {
                    // No new game starts; the ones under way finish and count.
                    next.store(todo.len(), Ordering::SeqCst);
                }
            }
            if let Some(log) = &mut log {
                let mut tags = vec![
                    ("Event", "deepchess match".to_string()),
                    ("Site", "local".to_string()),
                    ("Round", (done.index + 1).to_string()),
                    ("White", done.names[0].clone()),
                    ("Black", done.names[1].clone()),
                    // Which engine is which, where both give the same name (a network against another).
                    ("WhiteCommand", if done.ours_white { ours.clone() } else { args.engine.clone() }),
                    ("BlackCommand", if done.ours_white { args.engine.clone() } else { ours.clone() }),
                ];
                // The options each side was given (`Threads=2`, `UCI_Elo=1500`), where any.
                let [white, black] = if done.ours_white {
                    [&args.our_options, &args.options]
                } else {
                    [&args.options, &args.our_options]
                };
                for (tag, given) in [("WhiteOptions", white), ("BlackOptions", black)] {
                    if !given.is_empty() {
                        tags.push((tag, given.join(" ")));
                    }
                }
                tags.extend(TimeControl::pgn_tags(sides(done.ours_white)));
                log.append(&game::pgn(&done.game, &tags))?;
            }
            progress.inc(1);
            progress.set_message(tally.headline.to_string());
            if progress.is_hidden() && !args.quiet {
                // No terminal (a background run's log): a line per game instead of the bar.
                let llr =
                    sprt.as_ref().map(|s| format!("; LLR {:.2}", s.llr(&pairs.pentanomial()))).unwrap_or_default();
                eprintln!(
                    "game {} of {}: {} ({}); {}{llr}",
                    done.index + 1,
                    args.games,
                    done.game.result.as_str(),
                    done.game.termination.describe(),
                    tally.headline
                );
            }
            them.get_or_insert_with(|| done.names[usize::from(done.ours_white)].clone());
            finished.push(done);
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    anyhow::ensure!(
        finished.len() == todo.len() || verdict != Verdict::Continue,
        "only {} of {} games finished",
        finished.len(),
        todo.len()
    );

    let them = them.unwrap_or_else(|| args.engine.clone());
    let score = tally.headline;
    let clocks =
        if their_tc == tc { tc.pgn_tag() } else { format!("ours {}, theirs {}", tc.pgn_tag(), their_tc.pgn_tag()) };
    println!("DeepChess vs {them}: {} games, {clocks}", tally.all.games());
    println!("W/D/L           : {} / {} / {}", score.wins, score.draws, score.losses);
    println!("score           : {:.1}%", 100.0 * score.fraction());
    match score.elo() {
        Some(elo) => println!("Elo difference  : {:+.0} (95%: {:+.0} to {:+.0})", elo.diff, elo.lower, elo.upper),
        None if score.games() == 0 => println!("Elo difference  : none (no game counted)"),
        None => println!("Elo difference  : unbounded (all games {})", if score.wins > 0 { "won" } else { "lost" }),
    }
    println!("LOS             : {:.1}%", 100.0 * score.los());
    for (colour, score) in ["White", "Black"].iter().zip(tally.by_colour) {
        let (wins, draws, losses) = (score.wins, score.draws, score.losses);
        println!("as {colour:<13}: {wins} / {draws} / {losses} ({:.1}%)", 100.0 * score.fraction());
    }
    println!("their forfeits  : {} (wins left out of the score above)", tally.theirs);
    println!("our forfeits    : {} (losses counted above)", tally.ours);
    println!("with forfeits   : {}", tally.all);
    println!("engine failures : {}", tally.theirs.crashes + tally.ours.crashes);
    if let Some(sprt) = &sprt {
        let counts = pairs.pentanomial();
        let (lower, upper) = sprt.bounds();
        let decision = match verdict {
            Verdict::H1 => format!("H1 accepted (at least {:+})", sprt.elo1),
            Verdict::H0 => format!("H0 accepted (at most {:+})", sprt.elo0),
            Verdict::Continue => "no decision yet".to_string(),
        };
        println!(
            "SPRT            : elo0 {:+}, elo1 {:+} (logistic), alpha {} beta {}: LLR {:.2} in [{lower:.2}, {upper:.2}] after {} pairs {:?}: {decision}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&counts),
            counts.pairs(),
            counts.0
        );
    }
    if let Some(path) = &args.pgn {
        println!("games           : {}", path.display());
    }
    Ok(())
}

/// Our points in a game (`None` for the opponent's forfeit, which the SPRT
/// leaves out as the score does).
fn points(result: GameResult, ours_white: bool, forfeit: Option<(Color, Forfeit)>) -> Option<f64> {
    (!stats::opponent_forfeited(forfeit, ours_white)).then(|| stats::points(result, ours_white))
}
