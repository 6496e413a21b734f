//! The comparison search: rule-decided outcomes (mates, stalemate, the
//! 50-move rule, repetition), slices, stop, MultiPV.
//!
//! Mates are found with a random network, because the rules decide them. The
//! draw tests use a test-only comparator that orders positions by material,
//! so that the right choice is known in advance.

mod common;

use std::cmp::Ordering;

use common::{depth, forces_mate, material, multipv_lines, position, uci};

use deepchess_core::Search;
use deepchess_core::search::comparison::Value;
use deepchess_core::search::{Comparator, ComparisonSearch, Event, Limits, NetComparator, Score};
use deepchess_core::{Network, Shape, seeded};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position, Role};

fn net_search() -> ComparisonSearch<NetComparator> {
    let net = Network::from_bytes(&seeded::network(&Shape::distilled(), 2.0, 77).to_bytes()).unwrap();
    ComparisonSearch::new(NetComparator::new(net, 1 << 20), 1 << 20)
}

/// Runs to the end in one go; returns the last line's score and the best move.
fn run<C: Comparator>(
    search: &mut ComparisonSearch<C>,
    pos: &Chess,
    game: &[u64],
    limits: Limits,
) -> (Score, Option<Move>) {
    search.start(pos.clone(), game, limits);
    while search.step(u64::MAX, &mut |_| false) != Event::Finished {}
    let value = search.lines().next().map(|line| line.value.clone()).unwrap_or(Value::Draw);
    (search.score(&value), search.best_move())
}

#[test]
fn mate_in_one_at_depth_two() {
    for (fen, mate) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
        ("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "a8a1"),
        ("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", "g1g7"),
    ] {
        let (score, best) = run(&mut net_search(), &position(fen), &[], depth(2));
        assert_eq!(score, Score::Mate(1), "{fen}");
        let mut after = position(fen);
        after.play_unchecked(best.unwrap());
        assert!(after.is_checkmate(), "{fen}: {} does not mate (expected e.g. {mate})", uci(best));
    }
}

#[test]
fn mate_in_two_at_depth_four() {
    for fen in [
        "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",                           // rook ladder
        "1r4k1/r7/8/8/8/8/8/6K1 b - - 0 1",                          // the same, for Black
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", // Qd8+ Bxd8 Re8#
    ] {
        let pos = position(fen);
        assert!(forces_mate(&pos, 2) && !forces_mate(&pos, 1), "{fen} is not a mate in 2");
        let (score, best) = run(&mut net_search(), &pos, &[], depth(4));
        assert_eq!(score, Score::Mate(2), "{fen}");
        let mut after = pos.clone();
        after.play_unchecked(best.unwrap());
        assert!(
            after.legal_moves().into_iter().all(|reply| {
                let mut next = after.clone();
                next.play_unchecked(reply);
                forces_mate(&next, 1)
            }),
            "{fen}: {} does not force mate",
            uci(best)
        );
    }
}

#[test]
fn being_mated_scores_negative_mate() {
    // Black's only move, Kg8, allows Qg7# (or Qa8#).
    let pos = position("7k/Q7/6K1/8/8/8/8/8 b - - 0 1");
    let (score, _) = run(&mut net_search(), &pos, &[], depth(3));
    assert_eq!(score, Score::Mate(-1));
}

#[test]
fn no_move_at_the_root() {
    for fen in
        ["7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"]
    {
        let pos = position(fen);
        if !pos.legal_moves().is_empty() {
            continue;
        }
        let mut search = net_search();
        search.start(pos, &[], depth(3));
        assert!(!search.is_running());
        assert_eq!(search.step(1000, &mut |_| false), Event::Finished);
        assert_eq!(search.best_move(), None, "{fen}");
    }
}

/// Orders positions by material (pawn 1, minor 3, rook 5, queen 9), White's
/// minus Black's; a draw is worth 0. For tests only: the engine never uses a
/// hand-written judgement.
struct Material {
    depth: usize,
}

impl Comparator for Material {
    type Leaf = i32;
    fn set_root(&mut self, _: &Chess, _: u64) {
        self.depth = 0;
    }
    fn push(&mut self, _: &Chess, _: Move, _: &Chess, _: u64) {
        self.depth += 1;
    }
    fn pop(&mut self) {
        self.depth -= 1;
    }
    fn leaf(&mut self, pos: &Chess, _: u64) -> i32 {
        material(pos)
    }
    fn compare(&mut self, a: &i32, b: &i32) -> Ordering {
        a.cmp(b)
    }
    fn versus_draw(&mut self, a: &i32) -> Ordering {
        a.cmp(&0)
    }
    fn draw_logit(&mut self, a: &i32) -> f32 {
        *a as f32
    }
    fn clear(&mut self) {}
}

fn material_search() -> ComparisonSearch<Material> {
    ComparisonSearch::new(Material { depth: 0 }, 1 << 16)
}

#[test]
fn stalemate_is_a_draw() {
    // White is a queen up; Qf7 would stalemate the black king.
    let pos = position("7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    let stalemating = "g6f7".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    let mut after = pos.clone();
    after.play_unchecked(stalemating);
    assert!(after.is_stalemate());
    let (score, best) = run(&mut material_search(), &pos, &[], depth(2));
    assert_ne!(best, Some(stalemating));
    assert!(matches!(score, Score::Cp(cp) if cp > 0), "{score:?}");
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // A queen and a pawn up with 99 half-moves played: only a pawn move keeps
    // the win alive; anything else is a draw.
    let pos = position("7k/8/8/8/8/8/P7/K5Q1 w - - 99 80");
    let (score, best) = run(&mut material_search(), &pos, &[], depth(1));
    let best = best.unwrap();
    assert_eq!(best.role(), Role::Pawn, "{}", uci(Some(best)));
    assert!(matches!(score, Score::Cp(cp) if cp > 0));
}

#[test]
fn repetition_is_a_draw() {
    common::repetition_is_a_draw(|pos, game| run(&mut material_search(), pos, game, depth(1)));
}

#[test]
fn slices_resume_exactly() {
    let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    common::slices_resume_exactly(&mut net_search(), &mut net_search(), &pos, 4);
}

#[test]
fn should_stop_and_stop_keep_a_legal_move() {
    let pos = Chess::default();
    let mut search = net_search();
    search.start(pos.clone(), &[], Limits::default());
    let mut polls = 0;
    while search.step(u64::MAX, &mut |nodes| {
        polls += 1;
        nodes > 20_000
    }) != Event::Finished
    {}
    assert!(search.nodes() < 20_000 + 2 * deepchess_core::search::POLL_NODES);
    assert!(polls >= 19, "{polls} polls");
    assert!(pos.legal_moves().contains(&search.best_move().unwrap()));

    common::stop_leaves_a_legal_move(&mut search, &pos);
}

#[test]
fn node_limit() {
    let mut search = net_search();
    search.start(Chess::default(), &[], Limits { nodes: Some(5_000), ..Limits::default() });
    while search.step(u64::MAX, &mut |_| false) != Event::Finished {}
    assert!((5_000..5_100).contains(&search.nodes()), "{}", search.nodes());
}

#[test]
fn multipv_gives_distinct_ordered_lines() {
    let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut search = net_search();
    multipv_lines(&mut search, &pos, 3, 3);
}

#[test]
fn values_order_as_documented() {
    let mut m = Material { depth: 0 };
    let order: Vec<Value<i32>> = vec![
        Value::Lowest,
        Value::Mate { winner: Color::Black, ply: 1 },
        Value::Mate { winner: Color::Black, ply: 5 },
        Value::Position(-3),
        Value::Draw,
        Value::Position(2),
        Value::Mate { winner: Color::White, ply: 7 },
        Value::Mate { winner: Color::White, ply: 3 },
        Value::Highest,
    ];
    for (i, a) in order.iter().enumerate() {
        for (j, b) in order.iter().enumerate() {
            assert_eq!(deepchess_core::search::comparison::compare(&mut m, a, b), i.cmp(&j), "{a:?} vs {b:?}");
        }
    }
}
