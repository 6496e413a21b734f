//! `deepchess eval understanding`: each pair differs in the feature named
//! and in nothing the other tests measure; the report covers every feature,
//! for a network of every family.

use std::process::Command;

use deepchess_core::Features;
use deepchess_core::learned::{Activation, InputKind, LearnedLayer, LearnedNet, OutputKind};
use deepchess_core::shakmaty::fen::Fen;
use deepchess_core::shakmaty::san::San;
use deepchess_core::shakmaty::{CastlingMode, Chess, Color, Position, Role, Square};
use deepchess_tests::binary::deepchess;
use deepchess_tests::shipped::{listed, paper_network, weights_dir};
use deepchess_trainer::data::Sampling;
use deepchess_trainer::eval::accuracy::records_from_pgn;
use deepchess_trainer::eval::feature_pairs::{Feature, MOBILITY_GAP, PawnStructure, mobility, without_castling};

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

#[test]
fn removals_differ_in_one_piece_or_right() {
    let start = Chess::default();
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for color in [Color::White, Color::Black] {
            let (reduced, original_better) = Feature::Piece(role).pair(&start, color).expect("every piece is there");
            assert!(original_better);
            let (a, b) = (Features::from_position(&start), Features::from_position(&reduced));
            // A rook in its corner takes its castling right with it.
            let lost_right = usize::from(role == Role::Rook);
            assert_eq!(a.len(), b.len() + 1 + lost_right, "{role:?} of {color:?}");
            assert_eq!(reduced.board().by_color(color).count(), 15);
            assert_eq!(reduced.board().by_color(!color).count(), 16);
        }
    }
    let no_rights = without_castling(&start, Color::White).unwrap();
    assert!(!no_rights.castles().has_color(Color::White) && no_rights.castles().has_color(Color::Black));
    assert!(without_castling(&no_rights, Color::White).is_none(), "no right left to take");
    let bare = position("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(Feature::Piece(Role::Queen).pair(&bare, Color::White).is_none(), "no queen to remove");
}

#[test]
fn the_bishop_pair_becomes_bishop_and_knight() {
    let pos = position("4k3/pp3ppp/8/8/8/8/PP3PPP/2B1KB2 w - - 0 1");
    let (changed, original_better) = Feature::BishopPair.pair(&pos, Color::White).unwrap();
    assert!(original_better);
    assert_eq!(changed.board().role_at(Square::C1), Some(Role::Knight));
    assert_eq!(changed.board().occupied(), pos.board().occupied());
    assert!(Feature::BishopPair.pair(&pos, Color::Black).is_none(), "Black has no bishops");
    // Two bishops on squares of one colour are no pair.
    assert!(Feature::BishopPair.pair(&position("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1"), Color::White).is_none());
}

#[test]
fn mobility_pairs_move_one_piece_and_change_only_that_sides_mobility() {
    // The rook on a1 has three squares; in the open it has many more.
    let pos = position("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1");
    let (changed, original_better) = Feature::Mobility.pair(&pos, Color::White).unwrap();
    assert!(!original_better, "the rook is worse in its corner");
    assert!(mobility(changed.board(), Color::White) >= mobility(pos.board(), Color::White) + MOBILITY_GAP);
    assert_eq!(mobility(changed.board(), Color::Black), mobility(pos.board(), Color::Black));
    assert_eq!(changed.board().material(), pos.board().material());
    assert!(changed.board().rooks().first() != Some(Square::A1));
}

#[test]
fn king_safety_pushes_a_shelter_pawn() {
    let pos = position("3q2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1");
    let (changed, original_better) = Feature::KingSafety.pair(&pos, Color::White).unwrap();
    assert!(original_better);
    assert_eq!(changed.board().role_at(Square::F4), Some(Role::Pawn));
    assert_eq!(changed.board().role_at(Square::F2), None);
    assert_eq!(PawnStructure::of(changed.board()), PawnStructure::of(pos.board()));
    // The same for Black, whose king is castled too.
    let (black, _) = Feature::KingSafety.pair(&pos, Color::Black).unwrap();
    assert_eq!(black.board().role_at(Square::F5), Some(Role::Pawn));
    // No queen against the king: no king-safety pair.
    let no_queen = position("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1");
    assert!(Feature::KingSafety.pair(&no_queen, Color::White).is_none());
}

#[test]
fn pawn_pairs_change_one_count_of_one_side() {
    let cases = [
        // a2 to g2: passed (b7 stays blocked by c3).
        ("4k3/1p6/8/8/8/2P5/P7/4K3 w - - 0 1", Feature::PassedPawn),
        // a2 to b2: neither pawn isolated any more.
        ("4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1", Feature::IsolatedPawn),
        // a2 to c2 (b2 would end the isolation too): doubled.
        ("4k3/8/8/8/8/2P5/P7/4K3 w - - 0 1", Feature::DoubledPawn),
    ];
    for (fen, feature) in cases {
        let pos = position(fen);
        let (changed, original_better) =
            feature.pair(&pos, Color::White).unwrap_or_else(|| panic!("{fen}: no {} pair", feature.name()));
        let (before, after) = (PawnStructure::of(pos.board()), PawnStructure::of(changed.board()));
        let mut expected = before;
        match feature {
            Feature::PassedPawn => expected.passed[0] = after.passed[0],
            Feature::IsolatedPawn => expected.isolated[0] = after.isolated[0],
            _ => expected.doubled[0] = after.doubled[0],
        }
        assert_eq!(expected, after, "{fen}: only White's {} count changes", feature.name());
        assert_ne!(before, after, "{fen}");
        // The original has fewer passed pawns, more isolated ones, fewer doubled ones.
        assert_eq!(original_better, feature == Feature::DoubledPawn, "{fen}");
    }
}

#[test]
fn pairs_from_real_games_keep_their_promises() {
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games.pgn");
    let sampling = Sampling {
        include_draws: true,
        all_positions: true,
        include_captures: true,
        skip_moves: 0,
        ..Sampling::default()
    };
    let mut positions: Vec<Chess> =
        records_from_pgn(pgn.as_ref(), &sampling).unwrap().iter().filter_map(|r| r.position()).collect();
    assert!(positions.len() > 100, "{}", positions.len());
    // The fixture's games are random; a Ruy Lopez (Chigorin) has castled
    // kings behind their pawns, with queens on.
    let ruy = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Na5 Bc2 c5 d4 Qc7 Nbd2 cxd4 cxd4 Nc6 \
               Nb3 a5 Be3 a4 Nbd2 Bd7 Rc1 Qb7 Qe2 Rfe8 Bd3 Bd8";
    let mut pos = Chess::default();
    for san in ruy.split_whitespace() {
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap_or_else(|_| panic!("{san}"));
        pos.play_unchecked(m);
        positions.push(pos.clone());
    }
    // A passed pawn made on one side alone needs the other side's pawns
    // blocked twice over: rare in 200 positions, so one made to order.
    positions.push(position("4k3/1p6/8/8/8/2P5/P7/4K3 w - - 0 1"));
    let mut found = [0usize; Feature::ALL.len()];
    for pos in &positions {
        for (i, feature) in Feature::ALL.into_iter().enumerate() {
            for color in [Color::White, Color::Black] {
                let Some((changed, _)) = feature.pair(pos, color) else { continue };
                found[i] += 1;
                assert_eq!(changed.turn(), pos.turn());
                let pawns = |p: &Chess| PawnStructure::of(p.board());
                if matches!(feature, Feature::BishopPair | Feature::Mobility | Feature::KingSafety) {
                    assert_eq!(pawns(&changed), pawns(pos), "{feature:?}: pawn structure unchanged");
                    assert!(changed.checkers().is_empty());
                }
                if feature == Feature::Mobility {
                    assert_eq!(changed.board().material(), pos.board().material());
                    assert_eq!(mobility(changed.board(), !color), mobility(pos.board(), !color));
                }
            }
        }
    }
    for (feature, count) in Feature::ALL.iter().zip(found) {
        assert!(count > 0, "no {} pair in {} positions", feature.name(), positions.len());
    }
}

/// One network of each family: the embedded default (a value network),
/// the paper's comparison network, a learner's (`.dcsn`), the AlphaZero
/// reimplementation's (`.dcaz`).
fn every_family() -> Vec<Option<std::path::PathBuf>> {
    let of = |extension: &str| listed().into_iter().find(|n| n.ends_with(extension)).map(|n| weights_dir().join(n));
    vec![None, Some(paper_network()), of(".dcsn"), of(".dcaz")]
}

#[test]
fn every_family_goes_through_understanding() {
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games.pgn");
    for weights in every_family() {
        let mut command = Command::new(deepchess());
        command.args(["eval", "understanding", "--pgn", pgn]);
        if let Some(path) = &weights {
            command.arg("--weights").arg(path);
        }
        let out = command.output().unwrap();
        assert!(out.status.success(), "{weights:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("judged by its"), "{text}");
        // Ten positions from each of the fixture's three replayable games (draws included).
        assert!(text.contains("positions: 30 from"), "{text}");
        let mut percents = Vec::new();
        for feature in Feature::ALL {
            let name = feature.name();
            let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {text}"));
            for cell in line[name.len()..].split("  ").map(str::trim).filter(|c| !c.is_empty() && *c != "-") {
                let percent: f64 = cell.split('%').next().unwrap().parse().unwrap();
                assert!((0.0..=100.0).contains(&percent), "{line}");
                percents.push(percent);
            }
        }
        // A network that cannot judge (the value network through a missing
        // comparison head, once) gives 0% for White and 100% for Black on
        // every line; a real judge does not.
        let (white, black): (Vec<_>, Vec<_>) = percents.iter().enumerate().partition(|(i, _)| i % 2 == 0);
        let degenerate = white.iter().all(|(_, p)| **p == 0.0) && black.iter().all(|(_, p)| **p == 100.0);
        assert!(!degenerate, "{weights:?}: {text}");
    }
}

#[test]
fn every_family_goes_through_epd_and_accuracy() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/suite.epd");
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games.pgn");
    for weights in every_family() {
        let mut command = Command::new(deepchess());
        command.args(["eval", "epd", "--suite", suite, "--depth", "2"]);
        if let Some(path) = &weights {
            command.arg("--weights").arg(path);
        }
        let out = command.output().unwrap();
        assert!(out.status.success(), "{weights:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let expected =
            if weights.as_ref().is_some_and(|p| p.extension().unwrap() == "dcaz") { "mcts" } else { "scalar" };
        assert!(text.contains(&format!("search    : {expected}")), "{weights:?}: {text}");
        // Four mates in one and a move to avoid: a depth-2 alpha-beta search
        // finds them all whatever the network (MCTS's depth is its line's
        // length, no such promise).
        if expected == "scalar" {
            assert!(text.contains("solved    : 5 / 5 (100.0%)"), "{weights:?}: {text}");
        } else {
            assert!(text.contains("solved    : ") && text.contains(" / 5 ("), "{weights:?}: {text}");
        }

        let Some(path) = weights else { continue };
        let out = Command::new(deepchess())
            .args(["eval", "accuracy", "--pgn", pgn, "--pairs", "200", "--weights"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{path:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text.lines().find(|l| l.starts_with("accuracy  : ")).unwrap_or_else(|| panic!("{text}"));
        let percent: f64 = line["accuracy  : ".len()..].split('%').next().unwrap().parse().unwrap();
        assert!((0.0..=100.0).contains(&percent), "{line}");
    }
    // MCTS is refused to a learner's network, with the searches it plays.
    let learner = every_family()[2].clone().unwrap();
    let out = Command::new(deepchess())
        .args(["eval", "epd", "--suite", suite, "--depth", "2", "--search", "mcts", "--weights"])
        .arg(&learner)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("(plays scalar)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A network that counts material and sees nothing else (pawn 1, knight
/// and bishop 3, rook 5, queen 9; White's positive): its report is known
/// before it runs. Every removal of a piece is seen, always (100%); every
/// other change keeps the material, so every pair is a tie (50%, all ties).
#[test]
fn a_material_counter_gets_exactly_the_report_it_should() {
    const VALUES: [f32; 6] = [1.0, 3.0, 3.0, 5.0, 9.0, 0.0];
    let mut layer = LearnedLayer::zeros(768, 1, Activation::Identity);
    for (i, weight) in layer.weights.iter_mut().enumerate() {
        // The 768 piece bits: colour × 384 + role × 64 + square.
        let (colour, role) = (i / 384, i % 384 / 64);
        *weight = if colour == 0 { VALUES[role] } else { -VALUES[role] };
    }
    let net = LearnedNet::new(InputKind::Pieces768, vec![layer], OutputKind::Linear, 100.0, "material".into()).unwrap();
    assert_eq!(net.white_value(&Chess::default()), 0.0);
    assert_eq!(net.white_value(&position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")), 9.0, "White's pieces count for White");
    assert_eq!(net.white_value(&position("4k2r/8/8/8/8/8/8/4K3 w - - 0 1")), -5.0, "Black's against");
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("material.dcsn");
    std::fs::write(&weights, net.to_bytes()).unwrap();

    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games.pgn");
    let out = Command::new(deepchess())
        .args(["eval", "understanding", "--pgn", pgn, "--weights"])
        .arg(&weights)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("positions: 30 from"), "{text}");
    let mut judged = 0;
    for feature in Feature::ALL {
        let name = feature.name();
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {text}"));
        let cells: Vec<&str> = line[name.len()..].split("  ").map(str::trim).filter(|c| !c.is_empty()).collect();
        assert_eq!(cells.len(), 2, "{line}");
        for cell in cells.into_iter().filter(|c| *c != "-") {
            // "P% of N" or "P% of N, T ties".
            let (percent, rest) = cell.split_once("% of ").unwrap_or_else(|| panic!("{line}"));
            let (pairs, ties) = match rest.split_once(", ") {
                Some((pairs, ties)) => (pairs, ties.strip_suffix(" ties").unwrap_or_else(|| panic!("{line}"))),
                None => (rest, "0"),
            };
            let (pairs, ties): (usize, usize) = (pairs.parse().unwrap(), ties.parse().unwrap());
            assert!(pairs > 0, "{line}");
            if matches!(feature, Feature::Piece(_)) {
                assert_eq!((percent, ties), ("100.0", 0), "{line}");
            } else {
                assert_eq!((percent, ties), ("50.0", pairs), "{line}");
            }
            judged += 1;
        }
    }
    // Every piece line has pairs for both sides, and so do most others.
    assert!(judged >= 18, "{text}");
}
