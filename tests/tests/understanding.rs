//! `deepchess eval understanding`: the pairs differ in exactly the feature
//! named, and the report covers every feature on real games.

use std::process::Command;

use deepchess_core::Features;
use deepchess_core::shakmaty::{Chess, Color, Position};
use deepchess_tests::binary::deepchess;
use deepchess_trainer::eval::understanding::{FEATURES, without};

#[test]
fn pairs_differ_in_one_feature() {
    let start = Chess::default();
    for (feature, name) in FEATURES.iter().enumerate().take(5) {
        for color in [Color::White, Color::Black] {
            let reduced = without(&start, color, feature).expect("the start has every piece");
            let (a, b) = (Features::from_position(&start), Features::from_position(&reduced));
            // A rook in its corner takes its castling right with it.
            let lost_right = usize::from(feature == 3);
            assert_eq!(a.len(), b.len() + 1 + lost_right, "{name} of {color:?}");
            assert_eq!(reduced.board().by_color(color).count(), 15);
            assert_eq!(reduced.board().by_color(!color).count(), 16);
        }
    }
    let no_rights = without(&start, Color::White, 5).unwrap();
    assert!(!no_rights.castles().has_color(Color::White) && no_rights.castles().has_color(Color::Black));
    assert!(without(&no_rights, Color::White, 5).is_none(), "no right left to take");
    let bare: Chess = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    assert!(without(&bare, Color::White, 4).is_none(), "no queen to remove");
}

#[test]
fn report_covers_every_feature() {
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games.pgn");
    let out = Command::new(deepchess()).args(["eval", "understanding", "--pgn", pgn]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    // Ten positions from each of the fixture's three replayable games (draws included).
    assert!(text.starts_with("positions: 30 from"), "{text}");
    for name in FEATURES {
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {text}"));
        for cell in line[name.len()..].split("  ").map(str::trim).filter(|c| !c.is_empty()) {
            if cell != "-" {
                let percent: f64 = cell.split('%').next().unwrap().parse().unwrap();
                assert!((0.0..=100.0).contains(&percent), "{line}");
            }
        }
    }
}
