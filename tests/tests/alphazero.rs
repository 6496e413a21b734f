//! The AlphaZero reimplementation's input planes and policy index against
//! `tests/fixtures/alphazero.txt`, written with python-chess from the
//! specification in `core/src/alphazero/mod.rs` alone
//! (`tests/fixtures/make_alphazero.py`): every position of 16 games, among
//! them repetitions, castling, en passant and underpromotions.

use std::collections::HashSet;

use deepchess_core::alphazero::{PLANES, POLICY_SIZE, Planes, Repetitions, move_from_index, move_index};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

/// One fixture line: the position's square bits, its all-ones planes, the
/// two real-valued planes and the indexed legal moves.
struct Expected {
    ply: usize,
    bits: Vec<usize>,
    ones: Vec<usize>,
    move_count: f32,
    no_progress: f32,
    moves: Vec<(String, usize)>,
}

fn numbers<T: std::str::FromStr>(field: &str) -> Vec<T> {
    field.split_whitespace().map(|n| n.parse().ok().expect("a number")).collect()
}

fn games() -> Vec<(Vec<String>, Vec<Expected>)> {
    let mut games: Vec<(Vec<String>, Vec<Expected>)> = Vec::new();
    for line in include_str!("../fixtures/alphazero.txt").lines() {
        if let Some(moves) = line.strip_prefix("game") {
            games.push((moves.split_whitespace().map(String::from).collect(), Vec::new()));
            continue;
        }
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 6, "{line}");
        let moves = fields[5]
            .split_whitespace()
            .map(|pair| {
                let (uci, index) = pair.split_once(':').expect("uci:index");
                (uci.to_owned(), index.parse().expect("an index"))
            })
            .collect();
        games.last_mut().expect("a game line first").1.push(Expected {
            ply: fields[0].parse().expect("a ply"),
            bits: numbers(fields[1]),
            ones: numbers(fields[2]),
            move_count: fields[3].parse().expect("a number"),
            no_progress: fields[4].parse().expect("a number"),
            moves,
        });
    }
    assert_eq!(games.len(), 16);
    games
}

/// The planes' values as the fixture's parts.
fn parts(planes: &Planes) -> (Vec<usize>, Vec<usize>, f32, f32) {
    let values = planes.values();
    assert_eq!(values.len(), PLANES * 64);
    let plane = |p: usize| &values[p * 64..(p + 1) * 64];
    let bits = (0..PLANES)
        .filter(|&p| (0..12).contains(&p) || p == 21)
        .flat_map(|p| (0..64).filter(move |&s| values[p * 64 + s] != 0.0).map(move |s| p * 64 + s))
        .collect();
    let mut ones = Vec::new();
    for p in [12, 13, 14, 16, 17, 18, 19] {
        let on = plane(p).iter().all(|&v| v == 1.0);
        assert!(on || plane(p).iter().all(|&v| v == 0.0), "plane {p} is all ones or all zeros");
        if on {
            ones.push(p);
        }
    }
    for p in [15, 20] {
        assert!(plane(p).iter().all(|&v| v == plane(p)[0]), "plane {p} is constant");
    }
    (bits, ones, plane(15)[0], plane(20)[0])
}

#[test]
fn planes_and_policy_match_an_independent_implementation() {
    let (mut positions, mut moves, mut repeated, mut underpromotions) = (0, 0, 0, 0);
    for (game, expected) in games() {
        let mut pos = Chess::default();
        let mut seen = Repetitions::new();
        for (ply, e) in expected.iter().enumerate() {
            assert_eq!(e.ply, ply);
            let repetitions = seen.push(&pos);
            repeated += usize::from(repetitions > 0);
            let (bits, ones, move_count, no_progress) = parts(&Planes::new(&pos, repetitions));
            assert_eq!((bits, ones), (e.bits.clone(), e.ones.clone()), "game {game:?}, ply {ply}");
            assert!((move_count - e.move_count).abs() < 1e-6 && (no_progress - e.no_progress).abs() < 1e-6);
            for (uci, index) in &e.moves {
                let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
                assert_eq!(move_index(&pos, &m), *index, "{uci} at ply {ply} of {game:?}");
                assert_eq!(move_from_index(&pos, *index), Some(m), "{index} at ply {ply}");
                underpromotions += usize::from(index % 73 >= 64);
            }
            if !e.moves.is_empty() {
                assert_eq!(e.moves.len(), pos.legal_moves().len(), "every legal move is listed");
            }
            moves += e.moves.len();
            positions += 1;
            if let Some(uci) = game.get(ply) {
                let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
                pos.play_unchecked(m);
            }
        }
    }
    assert!(positions > 1000 && moves > 5_000, "{positions} positions, {moves} moves");
    assert!(repeated > 20 && underpromotions > 50, "{repeated} repeated positions, {underpromotions} underpromotions");
}

#[test]
fn policy_indices_are_distinct_and_in_range() {
    for (game, _) in games() {
        let mut pos = Chess::default();
        for uci in &game {
            let indices: HashSet<usize> = pos.legal_moves().iter().map(|m| move_index(&pos, m)).collect();
            assert_eq!(indices.len(), pos.legal_moves().len(), "no two legal moves share an index");
            assert!(indices.iter().all(|&i| i < POLICY_SIZE));
            pos.play_unchecked(uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap());
        }
    }
}
