//! `deepchess eval games`: what a match's games show, read from its log
//! (`deepchess match --pgn`): the score and its colour split, how the games
//! ended, how long they were, each side's depth and thinking time, and the
//! games one side let go: both engines agreed, on consecutive moves, that it
//! stood at least `--agreed` centipawns better, and it did not win.
//!
//! `deepchess match` gives us White in even games (`Round` 1, 3, …) and
//! writes each move's note as cutechess does, `{ +0.46/14 0.41s }`, the
//! score from White's side; book moves carry `{ book }` or nothing.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::Context;
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Skip, Visitor};

use deepchess_core::shakmaty::Color;

use crate::data::{Eval, GameResult, parse_eval};
use crate::play::game::Termination;
use crate::play::match_log::index_and_result;
use crate::play::stats::{Forfeit, Tally};

/// Arguments of `eval games`.
#[derive(clap::Args)]
pub struct Args {
    /// Match logs (`deepchess match --pgn`), each reported on its own.
    #[arg(required = true)]
    logs: Vec<PathBuf>,
    /// A side "stood better" where both engines said so by at least this
    /// many centipawns on consecutive moves (a mate counts as more).
    #[arg(long, default_value_t = 200)]
    agreed: i32,
}

/// Mates as centipawns: beyond any evaluation.
const MATE_CP: i32 = 30_000;

/// One move's note, from our side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Note {
    /// Whether we played the move.
    pub ours: bool,
    /// The mover's score, in centipawns from our side (mates at
    /// ±(30,000 − moves)).
    pub score: Option<i32>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// The time the move took, in seconds.
    pub seconds: Option<f64>,
}

/// One game of a log.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedGame {
    /// Its index in the match (`Round` less one).
    pub index: usize,
    /// Whether we had White.
    pub ours_white: bool,
    /// Its result.
    pub result: GameResult,
    /// Its `Termination` tag.
    pub termination: String,
    /// The side that forfeited it, and how.
    pub forfeit: Option<(Color, Forfeit)>,
    /// Its moves, book moves included.
    pub plies: usize,
    /// One note per move that has one.
    pub notes: Vec<Note>,
}

impl LoggedGame {
    /// Our points: 1, ½ or 0.
    pub fn points(&self) -> f64 {
        crate::play::stats::points(self.result, self.ours_white)
    }

    /// Whether both engines, on consecutive moves, put us at least
    /// `agreed` centipawns up (`ours` true) or down (`ours` false).
    pub fn agreed(&self, agreed: i32, ours: bool) -> bool {
        let good = |note: &Note| note.score.is_some_and(|s| if ours { s >= agreed } else { s <= -agreed });
        self.notes.windows(2).any(|pair| pair[0].ours != pair[1].ours && good(&pair[0]) && good(&pair[1]))
    }
}

/// Every game of the log at `path`.
pub fn read(path: &Path) -> anyhow::Result<Vec<LoggedGame>> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = Reader::new(file);
    let mut games = Vec::new();
    while let Some(game) =
        reader.read_game(&mut GameVisitor).with_context(|| format!("cannot read {}", path.display()))?
    {
        games.push(game.with_context(|| format!("{}: game {} of the log", path.display(), games.len() + 1))?);
    }
    Ok(games)
}

/// What the games of one log show.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The score, as `deepchess match` reports it.
    pub tally: Tally,
    /// Games by `Termination` tag.
    pub endings: BTreeMap<String, u32>,
    /// Each game's length in plies.
    pub plies: Vec<usize>,
    /// Every reported depth: ours, theirs.
    pub depths: [Vec<u32>; 2],
    /// Each game's thinking time in seconds: ours, theirs.
    pub seconds: [Vec<f64>; 2],
    /// Games we did not win though both engines agreed we stood better:
    /// (round, our points, termination).
    pub let_go: Vec<(usize, f64, String)>,
    /// Games we did not lose though both agreed the opponent stood better.
    pub escaped: Vec<(usize, f64, String)>,
    /// The threshold of both lists, in centipawns.
    pub agreed: i32,
}

impl Report {
    /// Reads `games` with the threshold `agreed` (centipawns).
    pub fn new(games: &[LoggedGame], agreed: i32) -> Report {
        let mut report = Report { agreed, ..Report::default() };
        for game in games {
            report.tally.add(game.result, game.ours_white, game.forfeit);
            *report.endings.entry(game.termination.clone()).or_default() += 1;
            report.plies.push(game.plies);
            let mut seconds = [0.0; 2];
            for note in &game.notes {
                let side = usize::from(!note.ours);
                report.depths[side].extend(note.depth);
                seconds[side] += note.seconds.unwrap_or(0.0);
            }
            for (side, s) in seconds.into_iter().enumerate() {
                report.seconds[side].push(s);
            }
            let entry = (game.index + 1, game.points(), game.termination.clone());
            if game.forfeit.is_none() {
                if game.points() < 1.0 && game.agreed(agreed, true) {
                    report.let_go.push(entry.clone());
                }
                if game.points() > 0.0 && game.agreed(agreed, false) {
                    report.escaped.push(entry);
                }
            }
        }
        report
    }
}

fn median<T: Copy + PartialOrd>(values: &[T]) -> Option<T> {
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    sorted.get(sorted.len() / 2).copied()
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// `2: round 12 draw by fifty-move rule; 40 loss by checkmate`, or `0`
fn games_line(f: &mut fmt::Formatter<'_>, games: &[(usize, f64, String)]) -> fmt::Result {
    write!(f, "{}", games.len())?;
    for (k, (round, points, termination)) in games.iter().enumerate() {
        let outcome = match points {
            p if *p >= 1.0 => "win",
            p if *p > 0.0 => "draw",
            _ => "loss",
        };
        write!(f, "{} {round} {outcome} by {termination}", if k == 0 { ": round" } else { ";" })?;
    }
    writeln!(f)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tally = &self.tally;
        writeln!(f, "games           : {}", tally.all.games())?;
        writeln!(f, "score           : {}", tally.headline)?;
        writeln!(f, "as White        : {}", tally.by_colour[0])?;
        writeln!(f, "as Black        : {}", tally.by_colour[1])?;
        writeln!(f, "their forfeits  : {} (left out of the score)", tally.theirs)?;
        writeln!(f, "our forfeits    : {} (counted as losses)", tally.ours)?;
        let mut endings: Vec<_> = self.endings.iter().collect();
        endings.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let endings: Vec<String> = endings.iter().map(|(name, n)| format!("{name} {n}")).collect();
        writeln!(f, "endings         : {}", endings.join(", "))?;
        if let Some(plies) = median(&self.plies) {
            writeln!(f, "median length   : {plies} plies")?;
        }
        let depth = |side: usize| median(&self.depths[side]).map_or("-".to_string(), |d| d.to_string());
        writeln!(f, "median depth    : ours {}, theirs {} (every move's last reported depth)", depth(0), depth(1))?;
        let secs = |side: usize| mean(&self.seconds[side]).map_or("-".to_string(), |s| format!("{s:.2}"));
        writeln!(f, "thinking s/game : ours {}, theirs {} (mean)", secs(0), secs(1))?;
        let cp = f64::from(self.agreed) / 100.0;
        write!(f, "let go          : games not won though both engines agreed we stood +{cp:.2} or better: ")?;
        games_line(f, &self.let_go)?;
        write!(f, "escaped         : games not lost though both agreed the opponent stood +{cp:.2} or better: ")?;
        games_line(f, &self.escaped)
    }
}

/// Reports each log.
pub fn run(args: &Args) -> anyhow::Result<()> {
    anyhow::ensure!(args.agreed > 0, "--agreed must be above 0 centipawns");
    for log in &args.logs {
        let games = read(log)?;
        anyhow::ensure!(!games.is_empty(), "{}: no finished game", log.display());
        println!("{}", log.display());
        print!("{}", Report::new(&games, args.agreed));
    }
    Ok(())
}

/// Reads a game's tags, then its moves and their notes.
struct GameVisitor;

#[derive(Default)]
struct Partial {
    round: Option<String>,
    result: Option<String>,
    termination: String,
    black_first: bool,
    plies: usize,
    /// Each note as written (White's view), and whether White moved.
    notes: Vec<(Note, bool)>,
    noted: bool,
}

impl Visitor for GameVisitor {
    type Tags = Partial;
    type Movetext = Partial;
    type Output = anyhow::Result<LoggedGame>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Partial> {
        ControlFlow::Continue(Partial::default())
    }

    fn tag(&mut self, game: &mut Partial, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let value = String::from_utf8_lossy(value.decode().as_ref()).into_owned();
        match name {
            b"Round" => game.round = Some(value),
            b"Result" => game.result = Some(value),
            b"Termination" => game.termination = value,
            b"FEN" => game.black_first = value.split_whitespace().nth(1) == Some("b"),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, game: Partial) -> ControlFlow<Self::Output, Partial> {
        ControlFlow::Continue(game)
    }

    fn san(&mut self, game: &mut Partial, _san: SanPlus) -> ControlFlow<Self::Output> {
        game.plies += 1;
        game.noted = false;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut Partial, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        // The first comment after a move is its note.
        if game.plies > 0 && !game.noted {
            game.noted = true;
            let white_moved = (game.plies % 2 == 1) != game.black_first;
            game.notes.push((parse_note(comment.as_bytes()), white_moved));
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut Partial) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, game: Partial) -> Self::Output {
        let (index, result) = index_and_result(game.round, game.result.as_deref())?;
        let ours_white = index.is_multiple_of(2);
        // From White's side to ours.
        let notes = game
            .notes
            .into_iter()
            .map(|(note, white_moved)| Note {
                ours: white_moved == ours_white,
                score: note.score.map(|s| if ours_white { s } else { -s }),
                ..note
            })
            .collect();
        Ok(LoggedGame {
            index,
            ours_white,
            result,
            forfeit: Termination::forfeit_in(&game.termination),
            termination: game.termination,
            plies: game.plies,
            notes,
        })
    }
}

/// A note `+0.46/14 0.41s` as written: the score from White's side (`ours`
/// is set once the game says who we are).
fn parse_note(comment: &[u8]) -> Note {
    let text = String::from_utf8_lossy(comment);
    let score = parse_eval(comment).map(|eval| match eval {
        Eval::Cp(cp) => i32::from(cp),
        Eval::Mate(moves) => (MATE_CP - i32::from(moves.abs())) * i32::from(moves.signum()),
    });
    let first = text.split_whitespace().next().unwrap_or("");
    let depth = score.and(first.split_once('/')).and_then(|(_, d)| d.parse().ok());
    let seconds = text
        .split_whitespace()
        .filter_map(|w| w.strip_suffix('s'))
        .find_map(|w| w.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0));
    Note { ours: false, score, depth, seconds }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `round` as `deepchess match` logs it (ours White in odd rounds).
    fn game(round: usize, result: &str, termination: &str, movetext: &str) -> String {
        format!(
            "[Event \"deepchess match\"]\n[Round \"{round}\"]\n[White \"A\"]\n[Black \"B\"]\n\
             [Result \"{result}\"]\n[Termination \"{termination}\"]\n\n{movetext} {result}\n\n"
        )
    }

    fn log(games: &[String]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("match.pgn");
        std::fs::write(&path, games.concat()).unwrap();
        (dir, path)
    }

    #[test]
    fn notes_are_read_from_our_side_and_let_go_games_are_found() {
        let (_dir, path) = log(&[
            // Round 1, ours White: both agree White is +2.5 and better, then a draw.
            game(
                1,
                "1/2-1/2",
                "fifty-move rule",
                "1. e4 { book } e5 { book } 2. Nf3 { +2.50/14 0.50s } Nc6 { +2.10/11 0.25s } \
                 3. Bb5 { +0.10/15 1.00s } a6 { -0.05/12 0.50s }",
            ),
            // Round 2, ours Black: White (they) said +3.00, we said +1.00 (not agreed), they lost.
            game(
                2,
                "0-1",
                "checkmate",
                "1. d4 { book } d5 { book } 2. c4 { +3.00/10 0.40s } e6 { +1.00/13 0.30s } \
                 3. Nc3 { -M2/9 0.10s } Qh4 { -M1/20 0.20s }",
            ),
            // Round 3, ours White: both agree Black (the opponent) is better; we draw.
            game(3, "1/2-1/2", "threefold repetition", "1. f3 { -2.20/8 0.20s } e5 { -2.40/9 0.20s }"),
            // Round 4, ours Black: we lose on time (our forfeit, no "let go").
            game(4, "1-0", "Black lost on time", "1. e4 { -3.00/9 0.1s } e5 { -3.00/9 0.1s }"),
        ]);
        let games = read(&path).unwrap();
        assert_eq!(games.len(), 4);
        assert!(games[0].ours_white && !games[1].ours_white);
        assert_eq!(games[0].plies, 6);
        // Book moves have no score; the first scored note is ours, +250.
        assert_eq!(games[0].notes[2], Note { ours: true, score: Some(250), depth: Some(14), seconds: Some(0.5) });
        assert_eq!(games[0].notes[3].score, Some(210));
        assert!(!games[0].notes[3].ours);
        // Ours Black: White's +3.00 is −300 for us; their mate against them is ours.
        assert_eq!(games[1].notes[2], Note { ours: false, score: Some(-300), depth: Some(10), seconds: Some(0.4) });
        assert_eq!(games[1].notes[4].score, Some(MATE_CP - 2));
        assert!(games[1].notes[5].ours);

        let report = Report::new(&games, 200);
        assert_eq!(report.let_go, [(1, 0.5, "fifty-move rule".to_string())]);
        assert_eq!(report.escaped, [(3, 0.5, "threefold repetition".to_string())]);
        assert_eq!(report.endings["checkmate"], 1);
        assert_eq!(report.tally.headline.games(), 4);
        assert_eq!(report.tally.ours.time, 1);
        assert_eq!(report.plies, [6, 6, 2, 2]);
        // Ours: 14, 15, 13, 20, 8, 9; theirs: 11, 12, 10, 9, 9, 9 (the upper median).
        assert_eq!(median(&report.depths[0]), Some(14));
        assert_eq!(median(&report.depths[1]), Some(10));
        assert!((report.seconds[0][0] - 1.5).abs() < 1e-9 && (report.seconds[1][0] - 0.75).abs() < 1e-9);
        // A higher bar: round 1's +2.10 no longer counts.
        assert!(Report::new(&games, 220).let_go.is_empty());
        let text = report.to_string();
        assert!(text.contains("let go          : games not won though both engines agreed we stood +2.00 or better: 1: round 1 draw by fifty-move rule"), "{text}");
        assert!(text.contains("median depth    : ours 14, theirs 10"), "{text}");
    }

    #[test]
    fn a_damaged_log_is_an_error_not_a_panic() {
        let (_dir, path) = log(&["[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n".to_string()]);
        let err = read(&path).unwrap_err();
        assert!(format!("{err:#}").contains("without a Round tag"), "{err:#}");
        let (_dir, path) = log(&[game(1, "*", "", "1. e4")]);
        assert!(format!("{:#}", read(&path).unwrap_err()).contains("has no result"));
        assert!(read(Path::new("/nonexistent/match.pgn")).is_err());
    }
}
