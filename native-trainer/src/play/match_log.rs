//! A match's PGN as its log: each game is appended the moment it ends, so a
//! match that is stopped (a killed job, a machine that goes away) loses at
//! most the games in progress, and `deepchess match --resume` reads the
//! finished ones back and plays only the rest.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::Context;
use pgn_reader::{RawTag, Reader, Skip, Visitor};

use deepchess_core::shakmaty::Color;

use crate::data::GameResult;
use crate::play::game::Termination;
use crate::play::stats::Forfeit;

/// A game read back from a match log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logged {
    /// The game's index in the match (its `Round` tag less one).
    pub index: usize,
    /// Its result.
    pub result: GameResult,
    /// `White` and `Black`.
    pub names: [String; 2],
    /// White's and Black's time controls: the `TimeControl` tag, or in a
    /// time-odds match `WhiteTimeControl` and `BlackTimeControl`.
    pub time_controls: [String; 2],
    /// The side that forfeited it and how, read from its `Termination` tag
    /// as [`Termination::describe`](crate::play::game::Termination::describe)
    /// writes it (`White failed: …`, `Black lost on time`, `illegal move …
    /// by White`).
    pub forfeit: Option<(Color, Forfeit)>,
}

/// The file the games go to.
pub struct MatchLog {
    file: File,
    path: PathBuf,
}

impl MatchLog {
    /// Starts a new log at `path` (truncating it), or, with `resume`,
    /// appends to the one there.
    pub fn open(path: &Path, resume: bool) -> anyhow::Result<Self> {
        let file = if resume { OpenOptions::new().create(true).append(true).open(path) } else { File::create(path) }
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(MatchLog { file, path: path.to_path_buf() })
    }

    /// Appends one game's PGN and flushes it to the file.
    pub fn append(&mut self, pgn: &str) -> anyhow::Result<()> {
        self.file
            .write_all(pgn.as_bytes())
            .and_then(|()| self.file.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// The finished games in the log at `path` (none if there is no file).
/// A game without a `Round` or a result (a truncated last game, say) is an
/// error: the log is not one this command wrote.
pub fn read(path: &Path) -> anyhow::Result<Vec<Logged>> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut reader = Reader::new(file);
    let mut games = Vec::new();
    while let Some(game) =
        reader.read_game(&mut TagReader).with_context(|| format!("cannot read {}", path.display()))?
    {
        let game = game.with_context(|| format!("{}: game {} of the log", path.display(), games.len() + 1))?;
        games.push(game);
    }
    Ok(games)
}

/// A logged game's index in the match (its `Round` tag less one) and its
/// result, from those two tags: an error where either is missing or is not
/// one a match writes.
pub fn index_and_result(round: Option<String>, result: Option<&str>) -> anyhow::Result<(usize, GameResult)> {
    let round = round.context("a game without a Round tag")?;
    let index = round
        .parse::<usize>()
        .ok()
        .and_then(|r| r.checked_sub(1))
        .with_context(|| format!("Round {round:?} is not a game number"))?;
    let result = match result {
        Some("1-0") => GameResult::WhiteWins,
        Some("0-1") => GameResult::BlackWins,
        Some("1/2-1/2") => GameResult::Draw,
        other => anyhow::bail!("game {round} has no result ({other:?})"),
    };
    Ok((index, result))
}

/// Reads the tags a resumed match needs, and skips the moves.
struct TagReader;

#[derive(Default)]
struct Tags {
    round: Option<String>,
    result: Option<String>,
    white: String,
    black: String,
    time_control: String,
    white_time_control: Option<String>,
    black_time_control: Option<String>,
    termination: String,
}

impl Visitor for TagReader {
    type Tags = Tags;
    type Movetext = Tags;
    type Output = anyhow::Result<Logged>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let value = String::from_utf8_lossy(value.decode().as_ref()).into_owned();
        match name {
            b"Round" => tags.round = Some(value),
            b"Result" => tags.result = Some(value),
            b"White" => tags.white = value,
            b"Black" => tags.black = value,
            b"TimeControl" => tags.time_control = value,
            b"WhiteTimeControl" => tags.white_time_control = Some(value),
            b"BlackTimeControl" => tags.black_time_control = Some(value),
            b"Termination" => tags.termination = value,
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Tags> {
        ControlFlow::Continue(tags)
    }

    fn begin_variation(&mut self, _tags: &mut Tags) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, tags: Tags) -> Self::Output {
        let (index, result) = index_and_result(tags.round, tags.result.as_deref())?;
        let forfeit = Termination::forfeit_in(&tags.termination);
        let time_controls = [
            tags.white_time_control.unwrap_or_else(|| tags.time_control.clone()),
            tags.black_time_control.unwrap_or(tags.time_control),
        ];
        Ok(Logged { index, result, names: [tags.white, tags.black], time_controls, forfeit })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::game::TimeControl;

    #[test]
    fn games_appended_are_read_back_and_a_resumed_log_keeps_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("match.pgn");
        assert!(read(&path).unwrap().is_empty(), "no file, no games");
        let game = |round: usize, result: &str| {
            format!(
                "[Event \"deepchess match\"]\n[Round \"{round}\"]\n[White \"A\"]\n[Black \"B\"]\n\
                 [TimeControl \"10+0.1\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
            )
        };
        let mut log = MatchLog::open(&path, false).unwrap();
        log.append(&game(2, "0-1").replace("[Result", "[Termination \"White failed: exited\"]\n[Result")).unwrap();
        log.append(&game(1, "1/2-1/2")).unwrap();
        drop(log);
        let mut log = MatchLog::open(&path, true).unwrap();
        log.append(&game(3, "1-0")).unwrap();
        drop(log);
        let games = read(&path).unwrap();
        let summary: Vec<_> = games.iter().map(|g| (g.index, g.result)).collect();
        assert_eq!(summary, [(1, GameResult::BlackWins), (0, GameResult::Draw), (2, GameResult::WhiteWins)]);
        assert_eq!(games[0].names, ["A".to_string(), "B".to_string()]);
        assert_eq!(games[0].time_controls, ["10+0.1", "10+0.1"]);
        let forfeits: Vec<_> = games.iter().map(|g| g.forfeit).collect();
        assert_eq!(forfeits, [Some((Color::White, Forfeit::Crash)), None, None]);
        // Every forfeit's tag, as `describe` writes it, reads back.
        for termination in [
            Termination::EngineFailure(Color::Black, "exited".into()),
            Termination::TimeForfeit(Color::White),
            Termination::IllegalMove(Color::Black, "a1a1".into()),
            Termination::Checkmate,
        ] {
            assert_eq!(Termination::forfeit_in(&termination.describe()), termination.forfeit());
        }
        assert_eq!(Termination::forfeit_in("illegal move 'a1a1' by White"), Some((Color::White, Forfeit::Illegal)));

        // A new (not resumed) log starts empty.
        drop(MatchLog::open(&path, false).unwrap());
        assert!(read(&path).unwrap().is_empty());
    }

    #[test]
    fn a_time_odds_game_reads_back_each_sides_clock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("odds.pgn");
        let (ours, theirs) = (TimeControl::parse_clock("40+0.4").unwrap(), TimeControl::parse_clock("10+0.1").unwrap());
        let mut text = String::from("[Round \"1\"]\n");
        for (name, value) in TimeControl::pgn_tags([theirs, ours]) {
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        text.push_str("[Result \"1-0\"]\n\n1. e4 1-0\n\n");
        std::fs::write(&path, text).unwrap();
        assert_eq!(read(&path).unwrap()[0].time_controls, ["10+0.1", "40+0.4"]);
        assert_eq!(TimeControl::pgn_tags([ours, ours]), [("TimeControl", "40+0.4".to_string())]);
    }

    #[test]
    fn a_game_without_round_or_result_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.pgn");
        std::fs::write(&path, "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n").unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("game 1"));
        std::fs::write(&path, "[Round \"4\"]\n[Result \"*\"]\n\n1. e4 *\n").unwrap();
        assert!(format!("{:#}", read(&path).unwrap_err()).contains("no result"));
    }
}
