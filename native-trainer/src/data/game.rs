//! Reading games from PGN with pgn-reader, replaying them with shakmaty.

use std::ops::ControlFlow;

use deepchess_core::shakmaty::{Chess, Move, Position};
use pgn_reader::{RawComment, RawTag, SanPlus, Skip, Visitor};

use crate::data::eval::parse_eval;
use crate::data::record::{Eval, GameResult};

/// Why a game was left out. Bad games never stop a build; they are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipReason {
    /// A move that is not legal in the position (or not a move at all).
    IllegalMove,
    /// A variant other than standard chess (Chess960 included).
    Variant,
    /// A start position other than the standard one.
    StartPosition,
    /// No result, or `*`.
    NoResult,
    /// No moves.
    NoMoves,
    /// The same moves as a game read before (in any input).
    Duplicate,
    /// A player rated below `--min-elo`.
    LowElo,
    /// Fewer half-moves than `--min-plies`.
    TooShort,
}

impl SkipReason {
    /// Every reason, in report order.
    pub const ALL: [SkipReason; 8] = [
        SkipReason::IllegalMove,
        SkipReason::Variant,
        SkipReason::StartPosition,
        SkipReason::NoResult,
        SkipReason::NoMoves,
        SkipReason::Duplicate,
        SkipReason::LowElo,
        SkipReason::TooShort,
    ];

    /// `illegal-move`, `variant`, …
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::IllegalMove => "illegal-move",
            SkipReason::Variant => "variant",
            SkipReason::StartPosition => "start-position",
            SkipReason::NoResult => "no-result",
            SkipReason::NoMoves => "no-moves",
            SkipReason::Duplicate => "duplicate",
            SkipReason::LowElo => "low-elo",
            SkipReason::TooShort => "too-short",
        }
    }
}

/// One position of a replayed game.
#[derive(Clone, Debug)]
pub struct Ply {
    /// The position before the move.
    pub position: Chess,
    /// The move played from it.
    pub played: Move,
    /// The evaluation in the comment after the move, White's point of view.
    pub eval: Option<Eval>,
}

/// A replayed game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The result from the `Result` tag.
    pub result: GameResult,
    /// Every position with the move played from it, from the start.
    pub plies: Vec<Ply>,
    /// `WhiteElo` and `BlackElo`, where the tags hold a rating.
    pub elo: [Option<u32>; 2],
}

/// Tag state while reading a game's header.
#[derive(Default)]
pub struct Tags {
    result: Option<Option<GameResult>>,
    skip: Option<SkipReason>,
    elo: [Option<u32>; 2],
}

/// Movetext state while replaying a game.
pub struct Movetext {
    result: Option<GameResult>,
    elo: [Option<u32>; 2],
    pos: Chess,
    plies: Vec<Ply>,
}

/// A pgn-reader visitor that replays standard games from the start.
#[derive(Default)]
pub struct GameReader;

impl Visitor for GameReader {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<Game, SkipReason>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let value = value.decode();
        match name {
            b"Result" => {
                tags.result = Some(match value.as_ref() {
                    b"1-0" => Some(GameResult::WhiteWins),
                    b"0-1" => Some(GameResult::BlackWins),
                    b"1/2-1/2" => Some(GameResult::Draw),
                    _ => None,
                })
            }
            // `?`, `-` or nothing is no rating.
            b"WhiteElo" | b"BlackElo" => {
                let rating = std::str::from_utf8(value.as_ref()).ok().and_then(|v| v.trim().parse().ok());
                tags.elo[usize::from(name == b"BlackElo")] = rating;
            }
            b"Variant" => {
                let variant = value.to_ascii_lowercase();
                if !matches!(variant.as_slice(), b"standard" | b"chess" | b"normal" | b"") {
                    tags.skip.get_or_insert(SkipReason::Variant);
                }
            }
            b"FEN" => {
                let standard = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
                if value.as_ref() != standard.as_slice() {
                    tags.skip.get_or_insert(SkipReason::StartPosition);
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        if let Some(reason) = tags.skip {
            return ControlFlow::Break(Err(reason));
        }
        let Some(Some(result)) = tags.result else { return ControlFlow::Break(Err(SkipReason::NoResult)) };
        ControlFlow::Continue(Movetext {
            result: Some(result),
            elo: tags.elo,
            pos: Chess::default(),
            plies: Vec::with_capacity(160),
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&movetext.pos) {
            Ok(m) => {
                let before = movetext.pos.clone();
                movetext.pos.play_unchecked(m);
                movetext.plies.push(Ply { position: before, played: m, eval: None });
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(Err(SkipReason::IllegalMove)),
        }
    }

    fn comment(&mut self, movetext: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        if let Some(last) = movetext.plies.last_mut() {
            last.eval = last.eval.or_else(|| parse_eval(comment.as_bytes()));
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, movetext: Movetext) -> Self::Output {
        let result = movetext.result.ok_or(SkipReason::NoResult)?;
        if movetext.plies.is_empty() {
            return Err(SkipReason::NoMoves);
        }
        Ok(Game { result, plies: movetext.plies, elo: movetext.elo })
    }
}
