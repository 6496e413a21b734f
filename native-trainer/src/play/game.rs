//! One game between two UCI engines, adjudicated by the rules.

use std::collections::HashMap;
use std::time::Duration;

use deepchess_core::search::zobrist;
use deepchess_core::shakmaty::san::SanPlus;
use deepchess_core::shakmaty::uci::UciMove;
use deepchess_core::shakmaty::{Chess, Color, Move, Position};
use deepchess_core::uci::uci_move;

use crate::data::{Eval, GameResult, eval_comment};
use crate::play::engine::{Engine, GoLimit, Reply};
use crate::play::stats::Forfeit;

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed number of nodes per move.
    Nodes(u64),
    /// A fixed search depth per move (NeuroChess's test against GNU Chess).
    Depth(u32),
    /// A clock: base time plus an increment per move (`10+0.1`).
    Clock {
        /// Starting time.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl TimeControl {
    /// Parses `10+0.1` (seconds), as cutechess writes a clock.
    pub fn parse_clock(text: &str) -> anyhow::Result<TimeControl> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| -> anyhow::Result<Duration> {
            let value: f64 = s.trim().parse().map_err(|_| anyhow::anyhow!("bad time control {text:?}"))?;
            anyhow::ensure!((0.0..1e6).contains(&value), "bad time control {text:?}");
            Ok(Duration::from_secs_f64(value))
        };
        Ok(TimeControl::Clock { base: seconds(base)?, increment: seconds(increment)? })
    }

    /// Parses any limit: a clock as [`TimeControl::parse_clock`] reads it
    /// (`10+0.1`), or `movetime=MS`, `nodes=N`, `depth=N`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use deepchess_trainer::play::game::TimeControl;
    ///
    /// assert_eq!(TimeControl::parse("depth=3").unwrap(), TimeControl::Depth(3));
    /// assert_eq!(TimeControl::parse("movetime=250").unwrap(), TimeControl::MoveTime(Duration::from_millis(250)));
    /// assert_eq!(TimeControl::parse("nodes=5000").unwrap(), TimeControl::Nodes(5000));
    /// assert_eq!(TimeControl::parse("60+0.6").unwrap(), TimeControl::parse_clock("60+0.6").unwrap());
    /// assert!(TimeControl::parse("depth=0").is_err() && TimeControl::parse("ply=3").is_err());
    /// ```
    pub fn parse(text: &str) -> anyhow::Result<TimeControl> {
        let Some((kind, value)) = text.split_once('=') else { return TimeControl::parse_clock(text) };
        let number = || -> anyhow::Result<u64> {
            let n: u64 = value.trim().parse().map_err(|_| anyhow::anyhow!("bad limit {text:?}"))?;
            anyhow::ensure!(n > 0, "bad limit {text:?}: it must be above 0");
            Ok(n)
        };
        Ok(match kind.trim() {
            "movetime" => TimeControl::MoveTime(Duration::from_millis(number()?)),
            "nodes" => TimeControl::Nodes(number()?),
            "depth" => TimeControl::Depth(u32::try_from(number()?).map_err(|_| anyhow::anyhow!("bad limit {text:?}"))?),
            _ => anyhow::bail!("bad limit {text:?}: a clock (10+0.1), movetime=MS, nodes=N or depth=N"),
        })
    }

    /// The PGN `TimeControl` tag.
    pub fn pgn_tag(&self) -> String {
        match self {
            TimeControl::MoveTime(t) => format!("movetime {}ms", t.as_millis()),
            TimeControl::Nodes(n) => format!("nodes {n}"),
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::Clock { base, increment } => format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64()),
        }
    }

    /// Reads back what [`TimeControl::pgn_tag`] wrote.
    ///
    /// ```
    /// use deepchess_trainer::play::game::TimeControl;
    ///
    /// for text in ["movetime=300", "nodes=5000", "depth=2", "10+0.1", "60+0"] {
    ///     let limit = TimeControl::parse(text).unwrap();
    ///     assert_eq!(TimeControl::from_pgn_tag(&limit.pgn_tag()), Some(limit));
    /// }
    /// assert_eq!(TimeControl::from_pgn_tag("movetime 300"), None);
    /// assert_eq!(TimeControl::from_pgn_tag("depth x"), None);
    /// ```
    pub fn from_pgn_tag(tag: &str) -> Option<TimeControl> {
        // Back into what `parse` reads, so that one parser checks the numbers.
        let text = match tag.split_once(' ') {
            Some(("movetime", ms)) => format!("movetime={}", ms.strip_suffix("ms")?),
            Some((kind @ ("nodes" | "depth"), n)) => format!("{kind}={n}"),
            None if tag.contains('+') => tag.to_string(),
            _ => return None,
        };
        TimeControl::parse(&text).ok()
    }

    /// The PGN tags for a game where White plays at `sides[0]` and Black
    /// at `sides[1]`: `TimeControl` when they are the same, else
    /// `WhiteTimeControl` and `BlackTimeControl` (cutechess's time-odds
    /// tags).
    pub fn pgn_tags(sides: [TimeControl; 2]) -> Vec<(&'static str, String)> {
        if sides[0] == sides[1] {
            vec![("TimeControl", sides[0].pgn_tag())]
        } else {
            vec![("WhiteTimeControl", sides[0].pgn_tag()), ("BlackTimeControl", sides[1].pgn_tag())]
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Checkmate.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// The same position a third time.
    Repetition,
    /// 50 moves without a capture or a pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// The game reached the move cap and is scored a draw.
    MoveCap,
    /// A side sent an illegal or malformed move, and loses.
    IllegalMove(Color, String),
    /// A side crashed or stopped answering, and loses.
    EngineFailure(Color, String),
    /// A side ran out of time, and loses.
    TimeForfeit(Color),
}

impl Termination {
    /// The PGN `Termination` tag.
    pub fn describe(&self) -> String {
        let side = |c: &Color| if *c == Color::White { "White" } else { "Black" };
        match self {
            Termination::Checkmate => "checkmate".into(),
            Termination::Stalemate => "stalemate".into(),
            Termination::Repetition => "threefold repetition".into(),
            Termination::FiftyMoves => "fifty-move rule".into(),
            Termination::InsufficientMaterial => "insufficient material".into(),
            Termination::MoveCap => "move cap (adjudicated draw)".into(),
            Termination::IllegalMove(c, m) => format!("illegal move {m:?} by {}", side(c)),
            Termination::EngineFailure(c, why) => format!("{} failed: {why}", side(c)),
            Termination::TimeForfeit(c) => format!("{} lost on time", side(c)),
        }
    }

    /// The side that lost by forfeit (a crash or hang, the clock, an
    /// illegal move) and how, if the game ended so.
    pub fn forfeit(&self) -> Option<(Color, Forfeit)> {
        match self {
            Termination::EngineFailure(c, _) => Some((*c, Forfeit::Crash)),
            Termination::TimeForfeit(c) => Some((*c, Forfeit::Time)),
            Termination::IllegalMove(c, _) => Some((*c, Forfeit::Illegal)),
            _ => None,
        }
    }

    /// Whether a side's engine must be restarted: one that crashed or hung.
    pub fn failed_side(&self) -> Option<Color> {
        self.forfeit().filter(|&(_, how)| how == Forfeit::Crash).map(|(side, _)| side)
    }

    /// The forfeit a PGN `Termination` tag describes, as
    /// [`describe`](Self::describe) writes it, if any.
    pub fn forfeit_in(termination: &str) -> Option<(Color, Forfeit)> {
        let side = |name: &str| if name == "White" { Color::White } else { Color::Black };
        if let Some((name, _)) = termination.split_once(" failed: ") {
            return Some((side(name), Forfeit::Crash));
        }
        if let Some(name) = termination.strip_suffix(" lost on time") {
            return Some((side(name), Forfeit::Time));
        }
        let name = termination.strip_prefix("illegal move ")?.rsplit_once(" by ")?.1;
        Some((side(name), Forfeit::Illegal))
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Every move from the start position, the opening included.
    pub moves: Vec<Move>,
    /// Moves that came from the opening book.
    pub opening_plies: usize,
    /// What each engine said of its move (`None` for the opening's moves),
    /// one per move.
    pub notes: Vec<Option<MoveNote>>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
}

/// What an engine said of a move it played: its score (White's point of
/// view; `None` where it reported none), the depth of that score, and how
/// long it thought. The PGN writes it as cutechess does, `{ +0.46/14 0.41s }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// The last score reported, White's point of view.
    pub eval: Option<Eval>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// The time the move took, as the referee measured it (`None` where it
    /// is left out: fixed-node self-play is the same game on any machine,
    /// and its file stays the same from run to run without times).
    pub time: Option<Duration>,
}

impl MoveNote {
    /// The PGN comment's text: `+0.46/14 0.41s`, `-M3/9`, `0.41s` without a
    /// score (which [`crate::data::parse_eval`] reads as no evaluation), or
    /// nothing.
    ///
    /// ```
    /// use std::time::Duration;
    /// use deepchess_trainer::data::{Eval, parse_eval};
    /// use deepchess_trainer::play::game::MoveNote;
    ///
    /// let note = MoveNote { eval: Some(Eval::Cp(46)), depth: Some(14), time: Some(Duration::from_millis(412)) };
    /// assert_eq!(note.comment(), "+0.46/14 0.41s");
    /// assert_eq!(parse_eval(note.comment().as_bytes()), Some(Eval::Cp(46)));
    /// let silent = MoveNote { eval: None, depth: None, time: Some(Duration::from_millis(1500)) };
    /// assert_eq!(silent.comment(), "1.50s");
    /// assert_eq!(parse_eval(silent.comment().as_bytes()), None);
    /// assert_eq!(MoveNote { time: None, ..note }.comment(), "+0.46/14");
    /// ```
    pub fn comment(&self) -> String {
        let mut text = match (self.eval, self.depth) {
            (Some(eval), Some(depth)) => format!("{}/{depth}", eval_comment(eval)),
            (Some(eval), None) => eval_comment(eval),
            (None, _) => String::new(),
        };
        if let Some(time) = self.time {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&format!("{:.2}s", time.as_secs_f64()));
        }
        text
    }
}

/// Slack over the allotted time before a silent engine counts as hung.
const HANG_SLACK: Duration = Duration::from_secs(5);

/// Plays `opening` (UCI moves, checked) then lets `white` and `black` play
/// until the rules end the game or `max_plies` is reached, White under
/// `tc[0]` and Black under `tc[1]` (the same, except in a time-odds match
/// or where one side plays a fixed depth, time or node count against the
/// other's clock: a clocked engine is then shown its own clock for both
/// sides, as engines expect two).
pub fn play(
    white: &mut Engine,
    black: &mut Engine,
    opening: &[String],
    tc: [TimeControl; 2],
    max_plies: usize,
) -> anyhow::Result<PlayedGame> {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    for text in opening {
        let m = text.parse::<UciMove>()?.to_move(&pos).map_err(|_| anyhow::anyhow!("illegal opening move {text}"))?;
        *seen.entry(zobrist(&pos)).or_default() += 1;
        pos.play_unchecked(m);
        moves.push(m);
    }
    let opening_plies = moves.len();
    let mut notes = vec![None; opening_plies];
    let start = tc.map(|t| match t {
        TimeControl::Clock { base, increment } => (base, increment),
        _ => (Duration::ZERO, Duration::ZERO),
    });
    let increments = start.map(|(_, increment)| increment);
    let mut clocks = start.map(|(base, _)| base);
    for engine in [&mut *white, &mut *black] {
        // A fresh game for both; a failure here is the engine's loss below.
        let _ = engine.new_game();
    }
    let finish =
        |result, termination, moves, notes| Ok(PlayedGame { moves, opening_plies, notes, result, termination });
    loop {
        *seen.entry(zobrist(&pos)).or_default() += 1;
        if let Some((result, termination)) = rules_end(&pos, &seen) {
            return finish(result, termination, moves, notes);
        }
        if moves.len() >= max_plies {
            return finish(GameResult::Draw, Termination::MoveCap, moves, notes);
        }
        let turn = pos.turn();
        let side = usize::from(turn == Color::Black);
        let engine = if turn == Color::White { &mut *white } else { &mut *black };
        let (limit, timeout) = match tc[side] {
            TimeControl::MoveTime(t) => (GoLimit::MoveTime(t), t + HANG_SLACK),
            TimeControl::Nodes(n) => (GoLimit::Nodes(n), Duration::from_secs(60)),
            TimeControl::Depth(d) => (GoLimit::Depth(d), Duration::from_secs(60)),
            TimeControl::Clock { .. } => {
                let shown = |s: usize| {
                    let clocked = matches!(tc[s], TimeControl::Clock { .. });
                    if clocked { (clocks[s], increments[s]) } else { (clocks[side], increments[side]) }
                };
                let ((white, white_increment), (black, black_increment)) = (shown(0), shown(1));
                (GoLimit::Clock { white, black, white_increment, black_increment }, clocks[side] + HANG_SLACK)
            }
        };
        let texts: Vec<String> = moves.iter().map(|&m| uci_move(m).to_string()).collect();
        let loser = |termination| {
            (if turn == Color::White { GameResult::BlackWins } else { GameResult::WhiteWins }, termination)
        };
        let Reply { best: text, elapsed, score, depth } =
            match engine.ready().and_then(|()| engine.best_move(&texts, &limit, timeout)) {
                Ok(answer) => answer,
                Err(err) => {
                    let (result, termination) = loser(Termination::EngineFailure(turn, err.to_string()));
                    return finish(result, termination, moves, notes);
                }
            };
        if let TimeControl::Clock { .. } = tc[side] {
            if elapsed > clocks[side] {
                let (result, termination) = loser(Termination::TimeForfeit(turn));
                return finish(result, termination, moves, notes);
            }
            clocks[side] = clocks[side] - elapsed + increments[side];
        }
        let Some(m) = text.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok()) else {
            let (result, termination) = loser(Termination::IllegalMove(turn, text));
            return finish(result, termination, moves, notes);
        };
        pos.play_unchecked(m);
        moves.push(m);
        notes.push(Some(MoveNote { eval: score.map(|score| white_view(score, turn)), depth, time: Some(elapsed) }));
    }
}

/// A score from `turn`'s point of view, from White's.
fn white_view(score: Eval, turn: Color) -> Eval {
    match (score, turn) {
        (score, Color::White) => score,
        (Eval::Cp(cp), Color::Black) => Eval::Cp(cp.saturating_neg()),
        (Eval::Mate(moves), Color::Black) => Eval::Mate(moves.saturating_neg()),
    }
}

/// The rules' verdict on `pos`, if the game is over.
fn rules_end(pos: &Chess, seen: &HashMap<u64, u32>) -> Option<(GameResult, Termination)> {
    if pos.is_checkmate() {
        let result = if pos.turn() == Color::White { GameResult::BlackWins } else { GameResult::WhiteWins };
        return Some((result, Termination::Checkmate));
    }
    let draw = if pos.is_stalemate() {
        Termination::Stalemate
    } else if pos.is_insufficient_material() {
        Termination::InsufficientMaterial
    } else if seen.get(&zobrist(pos)).is_some_and(|&n| n >= 3) {
        Termination::Repetition
    } else if pos.halfmoves() >= 100 {
        Termination::FiftyMoves
    } else {
        return None;
    };
    Some((GameResult::Draw, draw))
}

/// A game in PGN, with `tags` (name, value) before the `Result` tag.
pub fn pgn(game: &PlayedGame, tags: &[(&str, String)]) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", value.replace('"', "'")));
    }
    out.push_str(&format!("[Result \"{}\"]\n", game.result.as_str()));
    out.push_str(&format!(
        "[Termination \"{}\"]\n[PlyCount \"{}\"]\n\n",
        game.termination.describe().replace('"', "'"),
        game.moves.len()
    ));
    let mut pos = Chess::default();
    let mut line = String::new();
    for (i, &m) in game.moves.iter().enumerate() {
        if i % 2 == 0 {
            line.push_str(&format!("{}. ", i / 2 + 1));
        }
        line.push_str(&SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        line.push(' ');
        if i + 1 == game.opening_plies {
            line.push_str("{ book } ");
        } else if let Some(note) = game.notes.get(i).copied().flatten() {
            let comment = note.comment();
            if !comment.is_empty() {
                line.push_str(&format!("{{ {comment} }} "));
            }
        }
    }
    line.push_str(game.result.as_str());
    // Wrap at about 80 columns, as PGN export does.
    let mut width = 0;
    for word in line.split(' ') {
        if width + word.len() > 79 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.len();
    }
    out.push_str("\n\n");
    out
}
