//! One training position: a fixed-size, memory-mappable record.

use std::num::NonZeroU32;

use bytemuck::{Pod, Zeroable};
use deepchess_core::Features;
use deepchess_core::shakmaty::packed::{PackedSetup, PackedUciMove};
use deepchess_core::shakmaty::uci::UciMove;
use deepchess_core::shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Move, Position};

/// A game's result, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GameResult {
    /// 1-0
    WhiteWins,
    /// 0-1
    BlackWins,
    /// ½-½
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// White's score: 1, ½ or 0.
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    fn code(self) -> u8 {
        match self {
            GameResult::WhiteWins => 0,
            GameResult::BlackWins => 1,
            GameResult::Draw => 2,
        }
    }
}

/// An engine evaluation from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns.
    Cp(i16),
    /// Mate in this many moves; positive when White mates.
    Mate(i16),
}

/// Stored evaluations: centipawns within ±[`Record::MAX_CP`]; mates at
/// ±(30000 − moves); [`Record::NO_EVAL`] for none.
const MATE_BASE: i16 = 30_000;

/// One position of a game: 36 bytes, `#[repr(C)]`, the on-disk layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct Record {
    /// shakmaty's packed setup (move counters normalized), zero-padded.
    position: [u8; 24],
    /// The move played from the position (shakmaty's packed UCI move).
    played: [u8; 2],
    /// Half-moves since the start of the game.
    ply: u16,
    /// See [`Record::eval`].
    eval: i16,
    /// 0: 1-0, 1: 0-1, 2: draw.
    result: u8,
    /// The 50-move counter, saturated at 255.
    halfmoves: u8,
    /// Index of the game in the build's input, across files.
    game: u32,
}

const _: () = assert!(size_of::<Record>() == 36);

impl Record {
    /// Stored value for "no evaluation".
    pub const NO_EVAL: i16 = i16::MIN;
    /// Largest centipawn value stored; larger ones are clipped.
    pub const MAX_CP: i16 = 20_000;

    /// Packs a position, the move played from it, and the game's data.
    pub fn new(pos: &Chess, played: Move, ply: u32, result: GameResult, eval: Option<Eval>, game: u32) -> Record {
        let mut setup = pos.to_setup(EnPassantMode::Legal);
        setup.halfmoves = 0;
        setup.fullmoves = NonZeroU32::MIN;
        let packed = PackedSetup::pack_standard(&setup).expect("a legal standard position packs");
        let bytes = packed.as_bytes();
        let mut position = [0; 24];
        position[..bytes.len()].copy_from_slice(bytes);
        let eval = match eval {
            None => Record::NO_EVAL,
            Some(Eval::Cp(cp)) => cp.clamp(-Record::MAX_CP, Record::MAX_CP),
            Some(Eval::Mate(n)) => {
                let n = n.clamp(-(MATE_BASE - Record::MAX_CP - 1), MATE_BASE - Record::MAX_CP - 1);
                if n >= 0 { MATE_BASE - n } else { -MATE_BASE - n }
            }
        };
        Record {
            position,
            played: PackedUciMove::pack(UciMove::from_move(played, CastlingMode::Standard)).to_bytes(),
            ply: ply.min(u32::from(u16::MAX)) as u16,
            eval,
            result: result.code(),
            halfmoves: pos.halfmoves().min(255) as u8,
            game,
        }
    }

    /// The position, or `None` if the bytes do not hold a legal one (a
    /// damaged file).
    pub fn position(&self) -> Option<Chess> {
        let mut setup = PackedSetup::try_from_bytes(&self.position).ok()?.unpack_standard().ok()?;
        setup.halfmoves = u32::from(self.halfmoves);
        setup.fullmoves = NonZeroU32::new(u32::from(self.ply) / 2 + 1).unwrap_or(NonZeroU32::MIN);
        Chess::from_setup(setup, CastlingMode::Chess960).ok()
    }

    /// The position's 773 input bits: the one way training, validation and
    /// evaluation encode a record (a damaged record encodes as the starting
    /// position, which no pair's label depends on).
    pub fn features(&self) -> Features {
        self.position().map_or_else(|| Features::from_position(&Chess::default()), |p| Features::from_position(&p))
    }

    /// The move played, in UCI notation.
    pub fn played(&self) -> UciMove {
        PackedUciMove::from_bytes(self.played).unpack()
    }

    /// Half-moves since the start of the game.
    pub fn ply(&self) -> u32 {
        u32::from(self.ply)
    }

    /// The game's result, or `None` for a damaged record.
    pub fn result(&self) -> Option<GameResult> {
        match self.result {
            0 => Some(GameResult::WhiteWins),
            1 => Some(GameResult::BlackWins),
            2 => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// The engine evaluation recorded in the game, White's point of view.
    pub fn eval(&self) -> Option<Eval> {
        match self.eval {
            Record::NO_EVAL => None,
            e if e > Record::MAX_CP => Some(Eval::Mate(MATE_BASE - e)),
            e if e < -Record::MAX_CP => Some(Eval::Mate(-MATE_BASE - e)),
            cp => Some(Eval::Cp(cp)),
        }
    }

    /// Index of the game in the build's input.
    pub fn game(&self) -> u32 {
        self.game
    }
}

impl std::fmt::Display for Eval {
    /// `+80` (centipawns) or `M20` / `-M20` (mate, White's point of view).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Eval::Cp(cp) => write!(f, "{cp:+}"),
            Eval::Mate(n) if *n >= 0 => write!(f, "M{n}"),
            Eval::Mate(n) => write!(f, "-M{}", -n),
        }
    }
}
