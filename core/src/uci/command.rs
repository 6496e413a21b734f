//! Parsing one line of UCI input.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    UciNewGame,
    /// `setoption name <name> [value <value>]`
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value, if given.
        value: Option<String>,
    },
    /// `position startpos|fen <fen> [moves <m>…]`
    Position {
        /// The FEN, or `None` for the start position.
        fen: Option<String>,
        /// Moves in UCI notation.
        moves: Vec<String>,
    },
    /// `go …`
    Go(Go),
    /// `go perft <depth>`: the legal move paths of that length from the
    /// position, counted under each first move (Stockfish's command).
    Perft(u32),
    /// `stop`
    Stop,
    /// `quit`
    Quit,
}

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's remaining time, ms.
    pub wtime: Option<u64>,
    /// Black's remaining time, ms.
    pub btime: Option<u64>,
    /// White's increment, ms.
    pub winc: Option<u64>,
    /// Black's increment, ms.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search exactly this long, ms.
    pub movetime: Option<u64>,
    /// Search this many plies.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
}

/// A line that starts with a known command but does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCommandError {
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParseCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl core::error::Error for ParseCommandError {}

fn error(reason: impl ToString) -> ParseCommandError {
    ParseCommandError { reason: reason.to_string() }
}

impl Command {
    /// Parses a line. Unknown commands and blank lines are `Ok(None)`: UCI
    /// says to ignore them. A known command with bad arguments is an error.
    ///
    /// ```
    /// use deepchess_core::uci::{Command, Go};
    ///
    /// assert_eq!(Command::parse("isready"), Ok(Some(Command::IsReady)));
    /// assert_eq!(
    ///     Command::parse("go depth 5 nodes 1000"),
    ///     Ok(Some(Command::Go(Go { depth: Some(5), nodes: Some(1000), ..Go::default() })))
    /// );
    /// assert_eq!(Command::parse("xyzzy"), Ok(None));
    /// assert!(Command::parse("go depth lots").is_err());
    /// ```
    pub fn parse(line: &str) -> Result<Option<Command>, ParseCommandError> {
        let mut tokens = line.split_whitespace();
        let Some(first) = tokens.next() else { return Ok(None) };
        let rest: Vec<&str> = tokens.collect();
        Ok(Some(match first {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "stop" => Command::Stop,
            "quit" => Command::Quit,
            "setoption" => parse_setoption(&rest)?,
            "position" => parse_position(&rest)?,
            "go" if rest.first() == Some(&"perft") => parse_perft(&rest[1..])?,
            "go" => Command::Go(parse_go(&rest)?),
            _ => return Ok(None),
        }))
    }
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, ParseCommandError> {
    if tokens.first() != Some(&"name") {
        return Err(error("setoption needs `name <option>`"));
    }
    let value_at = tokens.iter().position(|&t| t == "value");
    let name = tokens[1..value_at.unwrap_or(tokens.len())].join(" ");
    if name.is_empty() {
        return Err(error("setoption has an empty option name"));
    }
    let value = value_at.map(|at| tokens[at + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn parse_position(tokens: &[&str]) -> Result<Command, ParseCommandError> {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (setup, moves) = tokens.split_at(moves_at.unwrap_or(tokens.len()));
    let fen = match setup {
        ["startpos"] => None,
        ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
        _ => return Err(error("position needs `startpos` or `fen <FEN>`")),
    };
    let moves = moves.iter().skip(1).map(|m| (*m).to_string()).collect();
    Ok(Command::Position { fen, moves })
}

fn parse_perft(tokens: &[&str]) -> Result<Command, ParseCommandError> {
    match tokens {
        [depth] => match depth.parse() {
            Ok(depth) if depth > 0 => Ok(Command::Perft(depth)),
            _ => Err(error(alloc::format!("go perft: {depth:?} is not a depth of 1 or more"))),
        },
        _ => Err(error("go perft needs one depth, e.g. `go perft 5`")),
    }
}

fn parse_go(tokens: &[&str]) -> Result<Go, ParseCommandError> {
    let mut go = Go::default();
    let mut tokens = tokens.iter();
    while let Some(&token) = tokens.next() {
        let mut number = |name: &str| -> Result<u64, ParseCommandError> {
            let value = tokens.next().ok_or_else(|| error(alloc::format!("go {name} needs a number")))?;
            // Some GUIs send negative remaining time; treat it as zero.
            if let Some(negative) = value.strip_prefix('-') {
                return negative.parse::<u64>().map(|_| 0).map_err(|_| error(alloc::format!("go {name} {value}")));
            }
            value.parse().map_err(|_| error(alloc::format!("go {name}: {value:?} is not a number")))
        };
        match token {
            "wtime" => go.wtime = Some(number("wtime")?),
            "btime" => go.btime = Some(number("btime")?),
            "winc" => go.winc = Some(number("winc")?),
            "binc" => go.binc = Some(number("binc")?),
            "movestogo" => go.movestogo = Some(number("movestogo")?.min(u64::from(u32::MAX)) as u32),
            "movetime" => go.movetime = Some(number("movetime")?),
            "depth" => go.depth = Some(number("depth")?.min(u64::from(u32::MAX)) as u32),
            "nodes" => go.nodes = Some(number("nodes")?),
            "infinite" => go.infinite = true,
            // `ponder`, `mate`, `searchmoves` and unknown tokens are ignored.
            _ => {}
        }
    }
    Ok(go)
}
