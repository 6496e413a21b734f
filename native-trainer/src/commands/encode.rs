//! `deepchess encode`: the 773-bit encoding of a position.

use anyhow::Context;
use deepchess_core::Features;
use deepchess_core::shakmaty::{CastlingMode, Chess, fen::Fen};

/// Arguments of `deepchess encode`.
#[derive(clap::Args)]
pub struct Args {
    /// The position, in Forsyth-Edwards Notation.
    #[arg(long)]
    fen: String,
}

/// Prints the active indices, ascending, space-separated, on one line.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let pos = parse_fen(&args.fen)?;
    println!("{}", Features::from_position(&pos));
    Ok(())
}

/// Parses and validates a FEN (standard chess; Chess960 castling rights are
/// accepted).
pub fn parse_fen(fen: &str) -> anyhow::Result<Chess> {
    let parsed: Fen = fen.trim().parse().with_context(|| format!("invalid FEN {fen:?}"))?;
    parsed.into_position(CastlingMode::Chess960).map_err(|err| anyhow::anyhow!("illegal position {fen:?}: {err}"))
}
