//! `deepchess eval strength-curve`: our score against the opponent's limit,
//! read from match logs, as a table and an SVG plot. The Deep Pink seed
//! played Sunfish at a time per move drawn for each game and logged both
//! sides' times; here any set of `deepchess match --pgn` logs is drawn that
//! way, one point a log, one line for each of our own limits (and one for
//! the matches at equal limits).
//!
//! The score is the match's headline (the opponent's forfeits left out, ours
//! counted), with Wilson's 95% interval ([`Score::interval`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use plotters::prelude::*;

use crate::play::game::TimeControl;
use crate::play::match_log::{self, Logged};
use crate::play::stats::{Score, Tally};

/// Arguments of `eval strength-curve`.
#[derive(clap::Args)]
pub struct Args {
    /// Match logs (`deepchess match --pgn`), one point each: the opponent's limit is
    /// the x axis, our own limit names the line.
    #[arg(required = true)]
    logs: Vec<PathBuf>,
    /// The plot to write (SVG).
    #[arg(long)]
    out: PathBuf,
    /// The plot's title.
    #[arg(long, default_value = "our score against the opponent's limit")]
    title: String,
}

/// The line of the matches where both sides had the same limit.
pub const EQUAL: &str = "the opponent's limit";

/// One match: our limit, the opponent's, and how it went.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The log it was read from.
    pub log: PathBuf,
    /// Our limit (`depth 2`), the line it belongs to: [`EQUAL`] where it is
    /// the opponent's.
    pub ours: String,
    /// The opponent's limit.
    pub theirs: TimeControl,
    /// The games, from our side.
    pub tally: Tally,
}

/// What the x axis counts: one kind of limit for every point.
fn axis(limit: &TimeControl) -> (&'static str, f64) {
    match limit {
        TimeControl::MoveTime(t) => ("the opponent's time per move (ms)", t.as_secs_f64() * 1000.0),
        TimeControl::Nodes(n) => ("the opponent's nodes per move", *n as f64),
        TimeControl::Depth(d) => ("the opponent's depth", f64::from(*d)),
        TimeControl::Clock { base, .. } => ("the opponent's base time (s)", base.as_secs_f64()),
    }
}

/// Reads one log: every game must give each side the same limit.
pub fn point(log: &Path) -> anyhow::Result<Point> {
    let games = match_log::read(log)?;
    anyhow::ensure!(!games.is_empty(), "{}: no finished game", log.display());
    // `deepchess match` gives us White in even games (Round 1, 3, …).
    let ours_white = |game: &Logged| game.index.is_multiple_of(2);
    let limits = |game: &Logged| {
        let [white, black] = &game.time_controls;
        if ours_white(game) { (white.clone(), black.clone()) } else { (black.clone(), white.clone()) }
    };
    let (ours, theirs) = limits(&games[0]);
    let mut tally = Tally::default();
    for game in &games {
        anyhow::ensure!(
            limits(game) == (ours.clone(), theirs.clone()),
            "{}: game {} was played at other limits ({:?}) than game {} ({:?})",
            log.display(),
            game.index + 1,
            limits(game),
            games[0].index + 1,
            (&ours, &theirs)
        );
        tally.add(game.result, ours_white(game), game.forfeit);
    }
    // Matches at equal limits (`--movetime 300` for both) make one line.
    let ours = if ours == theirs { EQUAL.to_string() } else { ours };
    let theirs = TimeControl::from_pgn_tag(&theirs).with_context(|| {
        format!("{}: the opponent's limit {theirs:?} is not one `deepchess match` writes", log.display())
    })?;
    Ok(Point { log: log.to_path_buf(), ours, theirs, tally })
}

/// The points of every log, in lines by our limit, each line ordered by the
/// opponent's limit. Every log must limit the opponent the same way (all by
/// time per move, say), and no line may have two points at one place.
pub fn lines(logs: &[PathBuf]) -> anyhow::Result<BTreeMap<String, Vec<Point>>> {
    let mut lines: BTreeMap<String, Vec<Point>> = BTreeMap::new();
    let mut kind = None;
    for log in logs {
        let point = point(log)?;
        let (this, _) = axis(&point.theirs);
        let first = *kind.get_or_insert(this);
        anyhow::ensure!(
            first == this,
            "{}: the opponent is limited by {this}, where an earlier log limits it by {first}",
            log.display()
        );
        lines.entry(point.ours.clone()).or_default().push(point);
    }
    for (ours, points) in &mut lines {
        points.sort_by(|a, b| axis(&a.theirs).1.total_cmp(&axis(&b.theirs).1));
        if let Some(pair) = points.windows(2).find(|w| w[0].theirs == w[1].theirs) {
            anyhow::bail!(
                "{} and {}: two logs at one point (ours {ours}, theirs {})",
                pair[0].log.display(),
                pair[1].log.display(),
                pair[0].theirs.pgn_tag()
            );
        }
    }
    Ok(lines)
}

/// Draws the lines: x the opponent's limit (a log scale where it spans a
/// factor of ten or more), y our score in percent with its 95% interval.
pub fn plot(path: &Path, title: &str, lines: &BTreeMap<String, Vec<Point>>) -> anyhow::Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("cannot draw {}: {e}", path.display());
    let xs: Vec<f64> = lines.values().flatten().map(|p| axis(&p.theirs).1).collect();
    let label = lines.values().flatten().next().map_or("", |p| axis(&p.theirs).0);
    let (low, high) = xs.iter().fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(*x), hi.max(*x)));
    anyhow::ensure!(!xs.is_empty(), "no point to draw");
    let root = SVGBackend::new(path, (640, 440)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let colours = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    let mut builder = ChartBuilder::on(&root);
    builder.caption(title, ("sans-serif", 18)).margin(14).x_label_area_size(36).y_label_area_size(50);
    // A log scale where the limits span a factor of ten (and none is 0: a
    // clock with no base time).
    let log_scale = low > 0.0 && high >= 10.0 * low;
    // Each line's points, with its colour and legend, each line moved a
    // little sideways so that intervals at one limit do not hide each other.
    let series = |(i, (ours, points)): (usize, (&String, &Vec<Point>))| {
        let colour = colours[i % colours.len()];
        let dodge = 0.012 * (i as f64 - (lines.len() as f64 - 1.0) / 2.0);
        let at = |p: &Point| -> (f64, f64, f64, f64) {
            let (lo, hi) = p.tally.headline.interval();
            let x = axis(&p.theirs).1;
            let x = if log_scale { x * (dodge * (high / low).ln()).exp() } else { x + dodge * (high - low).max(1.0) };
            (x, 100.0 * p.tally.headline.fraction(), 100.0 * lo, 100.0 * hi)
        };
        (format!("ours: {ours}"), colour, points.iter().map(at).collect::<Vec<_>>())
    };
    let drawn: Vec<_> = lines.iter().enumerate().map(series).collect();
    macro_rules! draw {
        ($chart:expr) => {{
            let mut chart = $chart.map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .x_desc(label)
                .y_desc("our score (%)")
                .light_line_style(TRANSPARENT)
                .x_labels(8)
                .x_label_formatter(&|x| format!("{}", (x * 100.0).round() / 100.0))
                .y_label_formatter(&|y| format!("{y:.0}"))
                .draw()
                .map_err(|e| err(&e))?;
            for (name, colour, points) in &drawn {
                let colour = *colour;
                chart
                    .draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.1)), colour))
                    .map_err(|e| err(&e))?
                    .label(name.as_str())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour));
                chart
                    .draw_series(points.iter().map(|p| Circle::new((p.0, p.1), 3, colour.filled())))
                    .map_err(|e| err(&e))?;
                chart
                    .draw_series(points.iter().map(|p| PathElement::new(vec![(p.0, p.2), (p.0, p.3)], colour)))
                    .map_err(|e| err(&e))?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(|e| err(&e))?;
        }};
    }
    if log_scale {
        draw!(builder.build_cartesian_2d((low / 1.5..high * 1.5).log_scale(), 0.0..100.0));
    } else {
        let pad = ((high - low) * 0.1).max(low.abs() * 0.1).max(0.5);
        draw!(builder.build_cartesian_2d(low - pad..high + pad, 0.0..100.0));
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Prints the table and writes the plot.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let lines = lines(&args.logs)?;
    println!(
        "{:<16} {:<18} {:>6} {:>14} {:>7} {:>16}  their forfeits (left out)",
        "ours", "theirs", "games", "W / D / L", "score", "95% interval"
    );
    for (ours, points) in &lines {
        for p in points {
            let Score { wins, draws, losses } = p.tally.headline;
            let (lo, hi) = p.tally.headline.interval();
            println!(
                "{ours:<16} {:<18} {:>6} {:>14} {:>6.1}% {:>16}  {}",
                p.theirs.pgn_tag(),
                p.tally.headline.games(),
                format!("{wins} / {draws} / {losses}"),
                100.0 * p.tally.headline.fraction(),
                format!("{:.1}% to {:.1}%", 100.0 * lo, 100.0 * hi),
                p.tally.theirs.total()
            );
        }
    }
    plot(&args.out, &args.title, &lines)?;
    println!("plot: {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::match_log::MatchLog;

    /// Game `index` of a match as `deepchess match` logs it (ours White in
    /// even games), `ours_points` from our side: 1, 0, or 2 for a draw.
    fn game(index: usize, ours: &str, theirs: &str, ours_points: u8) -> String {
        let ours_white = index.is_multiple_of(2);
        let (white, black) = if ours_white { (ours, theirs) } else { (theirs, ours) };
        let result = match (ours_points, ours_white) {
            (2, _) => "1/2-1/2",
            (1, true) | (0, false) => "1-0",
            _ => "0-1",
        };
        format!(
            "[Round \"{}\"]\n[White \"a\"]\n[Black \"b\"]\n[WhiteTimeControl \"{white}\"]\n\
             [BlackTimeControl \"{black}\"]\n[Result \"{result}\"]\n[Termination \"checkmate\"]\n\n{result}\n\n",
            index + 1
        )
    }

    /// A match log of `results` (as [`game`] takes them).
    fn log(dir: &Path, name: &str, ours: &str, theirs: &str, results: &[u8]) -> PathBuf {
        let path = dir.join(name);
        let mut log = MatchLog::open(&path, false).unwrap();
        for (index, points) in results.iter().enumerate() {
            log.append(&game(index, ours, theirs, *points)).unwrap();
        }
        path
    }

    #[test]
    fn logs_become_lines_by_our_limit_ordered_by_theirs() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let logs = [
            log(d, "d1-1000.pgn", "depth 1", "movetime 1000ms", &[0, 0, 0, 2]),
            log(d, "d1-100.pgn", "depth 1", "movetime 100ms", &[1, 1, 0, 2]),
            log(d, "d2-100.pgn", "depth 2", "movetime 100ms", &[1, 1, 1, 1]),
        ];
        let equal = [
            log(d, "eq-300.pgn", "movetime 300ms", "movetime 300ms", &[1, 0]),
            log(d, "eq-100.pgn", "movetime 100ms", "movetime 100ms", &[1, 1]),
        ];
        let lines = lines(&[&logs[..], &equal[..]].concat()).unwrap();
        assert_eq!(lines.keys().collect::<Vec<_>>(), ["depth 1", "depth 2", EQUAL]);
        let at_equal: Vec<_> = lines[EQUAL].iter().map(|p| (p.theirs.pgn_tag(), p.tally.headline.wins)).collect();
        assert_eq!(at_equal, [("movetime 100ms".to_string(), 2), ("movetime 300ms".to_string(), 1)]);
        let depth1: Vec<_> = lines["depth 1"].iter().map(|p| (p.theirs.pgn_tag(), p.tally.headline)).collect();
        assert_eq!(
            depth1,
            [
                ("movetime 100ms".to_string(), Score { wins: 2, draws: 1, losses: 1 }),
                ("movetime 1000ms".to_string(), Score { wins: 0, draws: 1, losses: 3 }),
            ]
        );
        assert_eq!(lines["depth 2"][0].tally.headline, Score { wins: 4, draws: 0, losses: 0 });
        // The plot names each line and is drawn on a log scale (100 to 1000).
        let svg = d.join("curve.svg");
        plot(&svg, "test", &lines).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.contains("ours: depth 1") && text.contains("ours: depth 2") && text.contains("1000"), "{text}");
        assert!(
            text.contains("ours: the opponent&apos;s limit") || text.contains("ours: the opponent's limit"),
            "{text}"
        );
        // Clocks, one of them with no base time: drawn on a linear scale.
        let clocks = [log(d, "c0.pgn", "60+0.6", "0+1", &[1, 0]), log(d, "c10.pgn", "60+0.6", "10+0.1", &[1, 1])];
        plot(&d.join("clocks.svg"), "clocks", &super::lines(&clocks).unwrap()).unwrap();
        let text = std::fs::read_to_string(d.join("clocks.svg")).unwrap();
        let xs: std::collections::BTreeSet<&str> = text
            .match_indices("<circle cx=\"")
            .map(|(at, m)| text[at + m.len()..].split('"').next().unwrap())
            .collect();
        assert_eq!(xs.len(), 2, "the points at 0 s and 10 s must not fall together: {text}");
    }

    #[test]
    fn logs_that_cannot_share_a_plot_are_refused_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let by_time = log(d, "a.pgn", "depth 1", "movetime 100ms", &[1, 0]);
        let by_nodes = log(d, "b.pgn", "depth 1", "nodes 1000", &[1, 0]);
        let err = lines(&[by_time.clone(), by_nodes]).unwrap_err().to_string();
        assert!(err.contains("limited by the opponent's nodes per move"), "{err}");
        let again = log(d, "c.pgn", "depth 1", "movetime 100ms", &[1, 1]);
        let err = lines(&[by_time.clone(), again]).unwrap_err().to_string();
        assert!(err.contains("two logs at one point"), "{err}");
        // A log whose games were played at different limits.
        let mixed = d.join("mixed.pgn");
        let text = std::fs::read_to_string(&by_time).unwrap() + &game(2, "depth 2", "movetime 100ms", 1);
        std::fs::write(&mixed, text).unwrap();
        let err = lines(&[mixed]).unwrap_err().to_string();
        assert!(err.contains("other limits"), "{err}");
        let empty = d.join("empty.pgn");
        std::fs::write(&empty, "").unwrap();
        assert!(lines(&[empty]).unwrap_err().to_string().contains("no finished game"));
    }
}
