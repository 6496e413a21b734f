//! A learnable fixture shared by the test binaries: random games whose
//! result follows the material balance at their end.

use std::io::Write;
use std::path::Path;

use deepchess_core::seeded;
use deepchess_core::shakmaty::san::San;
use deepchess_core::shakmaty::{Chess, Color, Position, Role};

/// Material, White's minus Black's, in pawns (labels for the fixture only).
pub fn balance(pos: &Chess) -> i32 {
    let value = |color: Color| -> i32 {
        [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)]
            .iter()
            .map(|&(role, v)| v * (pos.board().by_role(role) & pos.board().by_color(color)).count() as i32)
            .sum()
    };
    value(Color::White) - value(Color::Black)
}

/// Random games whose result follows the material balance at their end:
/// a learnable fixture for the tests (labels only; the engine never counts
/// material). Every move carries the balance after it as a TCEC-style
/// evaluation comment, `{ +2.00/1 }`, White's view.
pub fn learnable_pgn(path: &Path, games: u64) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for seed in 0..games {
        let game = seeded::playout(40, seed);
        let end = &game.last().unwrap().0;
        let result = match balance(end) {
            d if d > 0 => "1-0",
            d if d < 0 => "0-1",
            _ => "1/2-1/2",
        };
        write!(out, "[Event \"Fixture {seed}\"]\n[Result \"{result}\"]\n\n").unwrap();
        for (i, (pos, m)) in game.iter().enumerate() {
            let Some(m) = m else { break };
            if i % 2 == 0 {
                write!(out, "{}. ", i / 2 + 1).unwrap();
            }
            let mut after = pos.clone();
            after.play_unchecked(*m);
            write!(out, "{} {{ {:+.2}/1 }} ", San::from_move(pos, *m), f64::from(balance(&after))).unwrap();
        }
        write!(out, "{result}\n\n").unwrap();
    }
}
