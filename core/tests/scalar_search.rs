//! The scalar search: rule-decided outcomes (mates, stalemate, the 50-move
//! rule, repetition), the transposition table's mate scores, the null move's
//! guards, slices, stop, MultiPV, SEE.
//!
//! Mates are found with a random network, because the rules decide them. The
//! draw tests use a test-only evaluator that counts material, so that the
//! right choice is known in advance.

mod common;

use std::sync::Arc;

use common::{depth, forces_mate, material, multipv_lines, position, uci};

use deepchess_core::Search;
use deepchess_core::search::scalar::{Bound, MATE, ScoreTable, move_code};
use deepchess_core::search::{
    Evaluator, Event, HelperContext, Limits, NetEvaluator, POLL_NODES, ScalarSearch, Score, see_ge,
};
use deepchess_core::{Network, Shape, seeded};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position, Role, fen::Fen};

fn net() -> Network {
    let shape = Shape::distilled().with_utility(true).unwrap();
    Network::from_bytes(&seeded::network(&shape, 2.0, 77).to_bytes()).unwrap()
}

fn net_search() -> ScalarSearch<NetEvaluator> {
    ScalarSearch::new(NetEvaluator::new(net(), 1 << 20), 1 << 20)
}

/// Runs to the end in one go; returns the best line's score and move.
fn run<E: Evaluator>(search: &mut ScalarSearch<E>, pos: &Chess, game: &[u64], limits: Limits) -> (Score, Option<Move>) {
    search.start(pos.clone(), game, limits);
    while search.step(u64::MAX, &mut |_| false) != Event::Finished {}
    let score = search.lines().next().map_or(Score::Cp(0), |line| line.score);
    (score, search.best_move())
}

#[test]
fn mates_in_one_to_three_are_found_and_scored_exactly() {
    for (fen, moves) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
        ("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1),
        ("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", 1),
        ("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2),
        ("1r4k1/r7/8/8/8/8/8/6K1 b - - 0 1", 2),
        ("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 2),
        ("1k6/8/8/1K6/8/8/8/7R w - - 0 1", 3),
        ("2k5/8/8/2K5/8/8/8/7R w - - 0 1", 3),
    ] {
        let pos = position(fen);
        assert!(forces_mate(&pos, moves) && !forces_mate(&pos, moves - 1), "{fen} is not a mate in {moves}");
        // Reductions and pruning may need a few plies more than the mate: the
        // rook's quiet mating moves, low in the history of the seeded
        // network's search, are reduced (the mate in three below is found at
        // depth 11).
        let (score, best) = run(&mut net_search(), &pos, &[], depth(2 * moves + 5));
        assert_eq!(score, Score::Mate(moves as i32), "{fen}");
        let mut after = pos.clone();
        after.play_unchecked(best.unwrap());
        let forced = after.is_checkmate()
            || after.legal_moves().into_iter().all(|reply| {
                let mut next = after.clone();
                next.play_unchecked(reply);
                forces_mate(&next, moves - 1)
            });
        assert!(forced, "{fen}: {} does not force mate in {moves}", uci(best));
    }
}

#[test]
fn being_mated_scores_negative_mate() {
    let pos = position("7k/Q7/6K1/8/8/8/8/8 b - - 0 1");
    let (score, _) = run(&mut net_search(), &pos, &[], depth(3));
    assert_eq!(score, Score::Mate(-1));
}

#[test]
fn no_move_at_the_root() {
    for fen in ["7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"] {
        let mut search = net_search();
        search.start(position(fen), &[], depth(3));
        assert!(!search.is_running());
        assert_eq!(search.step(1000, &mut |_| false), Event::Finished);
        assert_eq!(search.best_move(), None, "{fen}");
    }
}

/// Material in centipawns ([`material`] × 100). For tests only: the engine
/// never uses a hand-written evaluation. It records the positions where the
/// search passed.
#[derive(Default)]
struct Material {
    passed_in: Vec<Chess>,
}

impl Evaluator for Material {
    fn set_root(&mut self, _: &Chess) {}
    fn push(&mut self, _: &Chess, _: Move, _: &Chess) {}
    fn push_null(&mut self, before: &Chess) {
        self.passed_in.push(before.clone());
    }
    fn pop(&mut self) {}
    fn evaluate(&mut self, pos: &Chess, _: u64) -> i32 {
        100 * material(pos)
    }
    fn clear(&mut self) {}
}

fn material_search() -> ScalarSearch<Material> {
    ScalarSearch::new(Material::default(), 1 << 20)
}

#[test]
fn stalemate_is_a_draw() {
    // White is a queen up; Qf7 would stalemate the black king.
    let pos = position("7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    let stalemating = "g6f7".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    let (score, best) = run(&mut material_search(), &pos, &[], depth(2));
    assert_ne!(best, Some(stalemating));
    assert!(matches!(score, Score::Cp(cp) if cp > 0), "{score:?}");
    // Black, stalemated after Qf7, scores it 0.
    let mut after = pos.clone();
    after.play_unchecked(stalemating);
    let mut search = material_search();
    search.start(after, &[], depth(1));
    assert!(!search.is_running());
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // A queen and a pawn up with 99 half-moves played: only a pawn move or a
    // capture keeps the win alive; anything else is a draw.
    let pos = position("7k/8/8/8/8/8/P7/K5Q1 w - - 99 80");
    let (score, best) = run(&mut material_search(), &pos, &[], depth(1));
    assert_eq!(best.unwrap().role(), Role::Pawn, "{}", uci(best));
    assert!(matches!(score, Score::Cp(cp) if cp > 0));
    // Black to move at the same count, a queen down: every move draws.
    let pos = position("7k/8/8/8/8/8/P7/K5Q1 b - - 99 80");
    let (score, _) = run(&mut material_search(), &pos, &[], depth(3));
    assert_eq!(score, Score::Cp(0));
}

#[test]
fn repetition_is_a_draw() {
    common::repetition_is_a_draw(|pos, game| run(&mut material_search(), pos, game, depth(3)));
}

#[test]
fn transposition_table_mate_scores_survive_another_ply() {
    let table = ScoreTable::with_bytes(1 << 16);
    // Keys spread over the table as Zobrist hashes are.
    let [a, b, c, d] = [1u64, 2, 3, 4].map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let m = Chess::default().legal_moves()[0];
    // Found at ply 3: mate in 5 plies from there, MATE - 8 from the root.
    table.store(a, 3, 6, MATE - 8, 17, Bound::Exact, Some(m));
    let hit = table.probe(a, 3).unwrap();
    assert_eq!((hit.score, hit.eval, hit.depth, hit.bound), (MATE - 8, 17, 6, Bound::Exact));
    assert_eq!(hit.best_move(&Chess::default().legal_moves()), Some(m));
    // Probed at ply 7 (a transposition deeper in the tree): still 5 plies to mate.
    assert_eq!(table.probe(a, 7).unwrap().score, MATE - 12);
    // Being mated, likewise; and a plain score does not move.
    table.store(b, 2, 4, -MATE + 6, 0, Bound::Upper, None);
    assert_eq!(table.probe(b, 10).unwrap().score, -MATE + 14);
    table.store(c, 2, 4, -250, -240, Bound::Lower, None);
    assert_eq!(table.probe(c, 9).unwrap().score, -250);
    assert_eq!(table.probe(d, 0), None);
    // The same position without a move keeps the stored one.
    table.store(a, 3, 7, 30, 17, Bound::Lower, None);
    assert_eq!(table.probe(a, 3).unwrap().move_code, move_code(m));
    table.clear();
    assert_eq!(table.probe(a, 3), None);
    // Emptied by plain stores where no other thread holds it.
    let mut table = table;
    table.store(b, 2, 4, 10, 0, Bound::Exact, None);
    assert!(table.probe(b, 2).is_some());
    table.clear_exclusive();
    assert_eq!(table.probe(b, 2), None);
}

#[test]
fn a_new_game_empties_a_shared_table_and_one_held_alone() {
    let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut alone = net_search();
    let (_, first) = run(&mut alone, &pos, &[], depth(5));
    let nodes = alone.nodes();
    // Held by this search alone: the next run searches the same tree again.
    alone.clear();
    assert_eq!(run(&mut alone, &pos, &[], depth(5)).1, first);
    assert_eq!(alone.nodes(), nodes);
    // Still held by another search: cleared through atomic stores, the same result.
    let table = Arc::new(ScoreTable::with_bytes(1 << 20));
    let mut shared = ScalarSearch::with_table(NetEvaluator::new(net(), 1 << 20), table.clone());
    run(&mut shared, &pos, &[], depth(5));
    shared.clear();
    run(&mut shared, &pos, &[], depth(5));
    assert_eq!((shared.nodes(), shared.best_move()), (nodes, first));
    drop(table);
}

#[test]
fn null_move_is_never_tried_in_check_or_in_a_pawn_ending() {
    let mut tried = 0;
    for fen in [
        "8/5pk1/6p1/8/3P4/5K2/6P1/8 w - - 0 1", // pawn ending
        "8/8/4k3/3p4/3P4/4K3/8/8 b - - 0 1",    // pawn ending, Black to move
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1", // in check at the root
    ] {
        let mut search = material_search();
        run(&mut search, &position(fen), &[], depth(6));
        let passed = &search.evaluator().passed_in;
        for pos in passed {
            assert!(
                !pos.is_check(),
                "{fen}: null move in check at {}",
                Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
            let board = pos.board();
            let pieces = board.by_color(pos.turn()) & !board.by_role(Role::Pawn) & !board.by_role(Role::King);
            assert!(pieces.any(), "{fen}: null move with only pawns");
        }
        tried += passed.len();
    }
    assert!(tried > 0, "no null move was tried at all");
}

#[test]
fn static_exchange() {
    let cases = [
        // Pawn takes an undefended knight: +320.
        ("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 320),
        // Queen takes a pawn defended by a pawn: 100 − 950.
        ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -850),
        // Rook takes a rook defended by a rook, with a queen behind it (x-ray):
        // +500 − 500 + 500.
        ("3rk3/8/8/3r4/8/8/3R4/3QK3 w - - 0 1", "d2d5", 500),
        // Without the queen, the exchange of rooks is even.
        ("3rk3/8/8/3r4/8/8/3R4/4K3 w - - 0 1", "d2d5", 0),
    ];
    for (fen, m, value) in cases {
        let pos = position(fen);
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert!(see_ge(&pos, m, value), "{fen}: {m:?} should win at least {value}");
        assert!(!see_ge(&pos, m, value + 1), "{fen}: {m:?} should not win {}", value + 1);
    }
}

#[test]
fn slices_resume_exactly() {
    let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    common::slices_resume_exactly(&mut net_search(), &mut net_search(), &pos, 6);
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
    // Quiescence runs inside a step, so a poll can come a little late.
    assert!(search.nodes() < 20_000 + 4 * POLL_NODES, "{}", search.nodes());
    assert!(polls >= 19, "{polls} polls");
    assert!(pos.legal_moves().contains(&search.best_move().unwrap()));

    common::stop_leaves_a_legal_move(&mut search, &pos);
}

#[test]
fn multipv_gives_distinct_ordered_lines() {
    let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut search = net_search();
    multipv_lines(&mut search, &pos, 4, 3);
    let lines: Vec<_> = search.lines().cloned().collect();
    assert!(lines[0].raw >= lines[1].raw && lines[1].raw >= lines[2].raw, "{lines:?}");
}

#[test]
fn helpers_share_the_table() {
    // A helper search fills the shared table; the main search then finds
    // the same best move with fewer nodes.
    let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut alone = net_search();
    run(&mut alone, &pos, &[], depth(6));
    let table = Arc::new(ScoreTable::with_bytes(1 << 20));
    let mut helper = ScalarSearch::with_table(NetEvaluator::new(net(), 1 << 20), table.clone());
    run(&mut helper, &pos, &[], depth(6));
    let mut main = ScalarSearch::with_table(NetEvaluator::new(net(), 1 << 20), table);
    run(&mut main, &pos, &[], depth(6));
    assert!(main.nodes() < alone.nodes() / 2, "{} vs {}", main.nodes(), alone.nodes());
    assert_eq!(main.best_move(), alone.best_move());
}

#[test]
fn the_fifty_move_scale_prefers_moves_that_reset_the_count() {
    // A queen and a pawn up (+1000) with 60 half-moves played. Without the
    // scale every safe move keeps +1000; with it, a quiet move's position
    // (61 half-moves) is worth 1000 × 139 / 200 = 695 and only a pawn move
    // (the count back to 0) keeps the whole score.
    let pos = position("7k/8/8/8/8/8/P7/K5Q1 w - - 60 80");
    let (score, _) = run(&mut material_search(), &pos, &[], depth(1));
    assert_eq!(score, Score::Cp(1000));
    let mut scaled = material_search().with_fifty_scale(true);
    assert!(scaled.fifty_scale());
    let (score, best) = run(&mut scaled, &pos, &[], depth(1));
    assert_eq!(score, Score::Cp(1000));
    assert_eq!(best.unwrap().role(), Role::Pawn, "{}", uci(best));
    // Black's one move (Kh7) is quiet: −1000 unscaled, −695 scaled.
    let pos = position("7k/8/8/8/8/8/P7/K5Q1 b - - 60 80");
    assert_eq!(run(&mut material_search(), &pos, &[], depth(1)).0, Score::Cp(-1000));
    assert_eq!(run(&mut scaled, &pos, &[], depth(1)).0, Score::Cp(-695));
    // Lazy SMP helpers search with the main search's setting.
    for on in [false, true] {
        let search = net_search().with_fifty_scale(on);
        let nodes = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let context = HelperContext { helpers: 2, hash_mb: 1, root: &pos, game: &[], nodes: &nodes, stop: &stop };
        let helpers = search.scalar_helpers(&context);
        assert_eq!(helpers.len(), 2);
        assert!(helpers.iter().all(|helper| helper.fifty_scale() == on));
        assert!(material_search().scalar_helpers(&context).is_empty(), "an evaluator without copies");
    }
}
