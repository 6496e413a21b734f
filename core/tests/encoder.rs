//! The 773-bit encoding: index order, and the per-move delta against a full
//! re-encode over random games.

use std::collections::BTreeSet;

use deepchess_core::{FeatureDelta, Features, seeded};
use shakmaty::{CastlingMode, CastlingSide, Chess, Color, Move, Position, Role, Square, fen::Fen};

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap()
}

#[test]
fn index_order_matches_the_spec() {
    // White: Ke1, Ra1, Pe4. Black: Ke8, Qd8, Rh8, Pa7. Black to move, castling Q and k.
    let pos = position("3qk2r/p7/8/8/4P3/8/8/R3K3 b Qk - 0 1");
    let expected = vec![
        28,                // white pawn e4: 0*384 + 0*64 + 28
        3 * 64,            // white rook a1: 0*384 + 3*64 + 0
        5 * 64 + 4,        // white king e1
        384 + 48,          // black pawn a7
        384 + 3 * 64 + 63, // black rook h8
        384 + 4 * 64 + 59, // black queen d8
        384 + 5 * 64 + 60, // black king e8
        770,               // Q
        771,               // k
    ];
    assert_eq!(Features::from_position(&pos).as_slice(), &expected[..]);
    assert_eq!(Features::from_position(&pos).to_string(), "28 192 324 432 639 699 764 770 771");
}

#[test]
fn start_position() {
    let features = Features::from_position(&Chess::default());
    let mut expected: Vec<u16> = (8..16).collect(); // white pawns
    expected.extend([64 + 1, 64 + 6, 128 + 2, 128 + 5, 192, 192 + 7, 256 + 3, 320 + 4]);
    expected.extend((48..56).map(|s| 384 + s));
    expected.extend([384 + 64 + 57, 384 + 64 + 62, 384 + 128 + 58, 384 + 128 + 61]);
    expected.extend([384 + 192 + 56, 384 + 192 + 63, 384 + 256 + 59, 384 + 320 + 60]);
    expected.extend([768, 769, 770, 771, 772]);
    assert_eq!(features.as_slice(), &expected[..]);
}

/// Decodes the indices and checks them against the position, square by square.
fn check_decodes(pos: &Chess, features: &Features) {
    let slice = features.as_slice();
    assert!(slice.windows(2).all(|w| w[0] < w[1]), "not ascending: {slice:?}");
    assert!(slice.len() <= 37);
    let mut pieces = 0;
    for &index in slice.iter().filter(|&&i| i < 768) {
        let color = if index < 384 { Color::White } else { Color::Black };
        let role = Role::ALL[usize::from(index % 384 / 64)];
        let square = Square::new(u32::from(index % 64));
        let piece = pos.board().piece_at(square).expect("a piece on an encoded square");
        assert_eq!((piece.color, piece.role), (color, role), "index {index}");
        pieces += 1;
    }
    assert_eq!(pieces, pos.board().occupied().count());
    assert_eq!(features.contains(768), pos.turn() == Color::White);
    let castles = pos.castles();
    let expected = [
        castles.has(Color::White, CastlingSide::KingSide),
        castles.has(Color::White, CastlingSide::QueenSide),
        castles.has(Color::Black, CastlingSide::KingSide),
        castles.has(Color::Black, CastlingSide::QueenSide),
    ];
    for (bit, has) in expected.into_iter().enumerate() {
        assert_eq!(features.contains(769 + bit as u16), has, "castling bit {bit}");
    }
}

#[test]
fn delta_equals_reencoding_over_random_games() {
    let (mut castles, mut en_passant, mut promotions, mut captures, mut lost_rights) = (0, 0, 0, 0, 0);
    let mut moves = 0;
    for seed in 0..300 {
        for (before, m) in seeded::playout(300, seed) {
            let before_features = Features::from_position(&before);
            check_decodes(&before, &before_features);
            let Some(m) = m else { continue };
            let mut after = before.clone();
            after.play_unchecked(m);
            let after_features = Features::from_position(&after);
            let delta = FeatureDelta::new(&before, m, &after);

            let old: BTreeSet<u16> = before_features.as_slice().iter().copied().collect();
            let new: BTreeSet<u16> = after_features.as_slice().iter().copied().collect();
            let added: BTreeSet<u16> = delta.added().iter().copied().collect();
            let removed: BTreeSet<u16> = delta.removed().iter().copied().collect();
            assert_eq!(added.len(), delta.added().len(), "duplicate in {delta:?}");
            assert_eq!(removed.len(), delta.removed().len(), "duplicate in {delta:?}");
            assert_eq!(added, &new - &old, "added bits of {m:?} in {before:?}");
            assert_eq!(removed, &old - &new, "removed bits of {m:?} in {before:?}");

            moves += 1;
            match m {
                Move::Castle { .. } => castles += 1,
                Move::EnPassant { .. } => en_passant += 1,
                Move::Normal { promotion: Some(_), .. } => promotions += 1,
                _ => {}
            }
            captures += usize::from(m.is_capture());
            lost_rights += usize::from(removed.iter().any(|&i| i >= 769));
        }
    }
    // Every kind of move must have been exercised, many times.
    assert!(moves > 20_000, "{moves} moves");
    for (kind, count) in [
        ("castles", castles),
        ("en passant", en_passant),
        ("promotions", promotions),
        ("captures", captures),
        ("lost castling rights", lost_rights),
    ] {
        assert!(count >= 50, "only {count} {kind}");
    }
}

#[test]
fn chess960_castling_keeps_delta_consistent() {
    // King on b1, rook on a1: castling queen side moves the king to c1 and
    // the rook to d1; king side (rook h1) moves the king to g1 and the rook to f1.
    for (fen, uci) in [
        ("4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "b1a1"),
        ("4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "b1h1"),
        ("4k3/8/8/8/8/8/8/1R4KR w HB - 0 1", "g1h1"),
    ] {
        let before = position(fen);
        let m = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&before).unwrap();
        assert!(matches!(m, Move::Castle { .. }));
        let mut after = before.clone();
        after.play_unchecked(m);
        let delta = FeatureDelta::new(&before, m, &after);
        let old: BTreeSet<u16> = Features::from_position(&before).as_slice().iter().copied().collect();
        let new: BTreeSet<u16> = Features::from_position(&after).as_slice().iter().copied().collect();
        assert_eq!(delta.added().iter().copied().collect::<BTreeSet<_>>(), &new - &old, "{fen} {uci}");
        assert_eq!(delta.removed().iter().copied().collect::<BTreeSet<_>>(), &old - &new, "{fen} {uci}");
    }
}
