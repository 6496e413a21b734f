//! `deepchess eval understanding`: the paper's static tests (§5.1).
//!
//! Pairs of real positions that differ in one feature: a piece of one role
//! removed, or one castling right taken away. The network should prefer, for
//! White, the position where White has the piece (or the right), and the one
//! where Black lacks it. The report gives, per role and side, how often it
//! does.

use std::path::PathBuf;

use deepchess_core::Network;
use deepchess_core::shakmaty::{CastlingMode, Chess, Color, EnPassantMode, FromSetup, Position, Role};

use crate::data::Sampling;
use crate::eval::accuracy;
use crate::network;

/// Arguments of `eval understanding`.
#[derive(clap::Args)]
pub struct Args {
    /// Games to take positions from (`.pgn` or `.pgn.zst`).
    #[arg(long)]
    pgn: PathBuf,
    /// The network (default: the embedded one).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Most positions to use.
    #[arg(long, default_value_t = 20_000)]
    positions: usize,
}

/// One line of the report: how often the network preferred the side that
/// has the feature.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Pairs judged.
    pub pairs: usize,
    /// Pairs where the network preferred the side with the feature.
    pub agreed: usize,
}

/// The features tested, in report order.
pub const FEATURES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "castling right"];

/// `pos` without one feature of `color`: a piece of `feature`'s role or, for
/// feature 5, all its castling rights. `None` if it has none, or if the
/// result is not a legal position. The piece is the first (a1 to h8) whose
/// square carries no castling right; only when every such piece does (rooks
/// in their corners) does the right go with the rook.
pub fn without(pos: &Chess, color: Color, feature: usize) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    if feature < 5 {
        let role = Role::ALL[feature];
        let pieces = setup.board.by_role(role) & setup.board.by_color(color);
        let square = (pieces & !setup.castling_rights).first().or_else(|| pieces.first())?;
        setup.board.discard_piece_at(square);
    } else {
        let before = setup.castling_rights;
        let backrank = if color == Color::White { 0x0000_0000_0000_00ff } else { 0xff00_0000_0000_0000 };
        setup.castling_rights = before & !shakmaty::Bitboard(backrank);
        if setup.castling_rights == before {
            return None;
        }
    }
    setup.ep_square = None;
    // A rook taken from its corner takes its castling right with it.
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(pos) => Some(pos),
        Err(err) => err.ignore_invalid_castling_rights().ok(),
    }
}

/// Tallies per feature and colour (index 0: White's feature, 1: Black's).
pub fn understanding(net: &Network, positions: &[Chess]) -> Vec<[Tally; 2]> {
    let mut report = vec![[Tally::default(), Tally::default()]; FEATURES.len()];
    for pos in positions {
        let original = net.embed_position(pos);
        for (feature, tallies) in report.iter_mut().enumerate() {
            for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
                let Some(reduced) = without(pos, color, feature) else { continue };
                let reduced = net.embed_position(&reduced);
                // Greater: the original is better for White than the reduced one.
                let original_better = net.compare_logit(&original, &reduced) > 0;
                tallies[side].pairs += 1;
                tallies[side].agreed += usize::from(original_better == (color == Color::White));
            }
        }
    }
    report
}

/// Runs the tests and prints the report.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let net = network::chosen_deepchess(args.weights.as_deref())?;
    let sampling = Sampling { include_draws: true, ..Sampling::default() };
    let positions: Vec<Chess> = accuracy::records_from_pgn(&args.pgn, &sampling)?
        .iter()
        .filter_map(|r| r.position())
        .take(args.positions)
        .collect();
    let report = understanding(&net, &positions);
    println!("positions: {} from {}", positions.len(), args.pgn.display());
    println!("{:<16} {:>22} {:>22}", "feature removed", "White's: prefers White", "Black's: prefers White");
    for (name, [white, black]) in FEATURES.iter().zip(&report) {
        let cell = |t: &Tally| {
            if t.pairs == 0 {
                "-".to_string()
            } else {
                format!("{:.1}% of {}", 100.0 * t.agreed as f64 / t.pairs as f64, t.pairs)
            }
        };
        println!("{name:<16} {:>22} {:>22}", cell(white), cell(black));
    }
    println!("(a network that understands the feature prefers the side that has it: 100% is best)");
    Ok(())
}
