//! Tests of the tree search.

use alloc::string::ToString;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Role};

use super::*;

/// Uniform priors, and a value from material alone.
struct Material;

impl PolicyValue for Material {
    fn evaluate(&mut self, pos: &Chess, _: usize, moves: &[Move], priors: &mut Vec<f32>) -> f32 {
        priors.extend(moves.iter().map(|_| 1.0));
        let worth = |role: Role| [0.0, 1.0, 3.0, 3.0, 5.0, 9.0, 0.0][role as usize];
        let board = pos.board();
        let balance: f32 = board
            .clone()
            .into_iter()
            .map(|(_, p)| if p.color == pos.turn() { worth(p.role) } else { -worth(p.role) })
            .sum();
        libm::tanhf(balance / 5.0)
    }
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

#[test]
fn exploration_follows_the_formula() {
    let puct = Puct::default();
    assert!((puct.exploration(0) - (libm::logf(19_653.0 / 19_652.0) + 1.25)).abs() < 1e-6);
    assert!(puct.exploration(1_000_000) > puct.exploration(800));
}

#[test]
fn finds_mate_in_one_and_takes_a_hanging_queen() {
    for (fen, best) in [("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"), ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5")]
    {
        let mut mcts = Mcts::new(position(fen), Vec::new(), Puct::default());
        mcts.run(&mut Material, 800);
        assert_eq!(mcts.playouts(), 800);
        let m = mcts.best_move().unwrap();
        assert_eq!(m.to_uci(CastlingMode::Standard).to_string(), best, "{fen}");
        assert_eq!(mcts.pv().first(), Some(&m));
    }
}

#[test]
fn visits_add_up_and_values_stay_in_range() {
    let mut mcts = Mcts::new(Chess::default(), Vec::new(), Puct::default());
    mcts.run(&mut Material, 300);
    let moves = mcts.root_moves();
    assert_eq!(moves.len(), 20);
    // The first playout expands the root without visiting a child.
    assert_eq!(moves.iter().map(|m| m.visits).sum::<u32>(), 299);
    assert!(moves.iter().all(|m| (-1.0..=1.0).contains(&m.q)));
    assert!((moves.iter().map(|m| m.prior).sum::<f32>() - 1.0).abs() < 1e-5);
    assert!(moves.windows(2).all(|w| w[0].visits >= w[1].visits));
}

#[test]
fn multipv_lines_follow_the_visit_order() {
    let mut mcts = Mcts::new(position("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1"), Vec::new(), Puct::default());
    mcts.run(&mut Material, 400);
    let moves = mcts.root_moves();
    let (best, q) = mcts.line(0).unwrap();
    assert_eq!(best, mcts.pv());
    assert_eq!(q, moves[0].q);
    for (k, m) in moves.iter().enumerate() {
        let (line, q) = mcts.line(k).unwrap();
        assert_eq!(line[0], m.mv);
        assert!(line.len() == 1 || m.visits > 1, "{k}: a line below an unexpanded move");
        // A legal line from the root.
        let mut pos = mcts.root().clone();
        for mv in &line {
            assert!(pos.is_legal(*mv), "{k}: {line:?}");
            pos.play_unchecked(*mv);
        }
        if m.visits > 0 {
            assert_eq!(q, m.q);
        } else {
            assert_eq!(q, -mcts.nodes[0].q(), "an unvisited move gets the root's value");
        }
    }
    assert!(mcts.line(moves.len()).is_none());
}

#[test]
fn finished_games_are_scored_not_searched() {
    // Black is checkmated: no moves, value −1 for the side to move.
    let mated = position("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1");
    let mut mcts = Mcts::new(mated, Vec::new(), Puct::default());
    mcts.run(&mut Material, 10);
    assert_eq!(mcts.best_move(), None);
    assert!(mcts.pv().is_empty());
    // A position seen twice before is a draw by repetition.
    let start = Chess::default();
    assert_eq!(terminal(&start, 2, &start.legal_moves()), Some(0.0));
    assert_eq!(terminal(&start, 1, &start.legal_moves()), None);
}

/// Gathers and applies batches of up to `max` leaves, judged by `Material`.
fn run_batched(mcts: &mut Mcts, max: usize, limit: u32) -> Vec<usize> {
    let mut sizes = Vec::new();
    while mcts.playouts() < limit {
        let batch = mcts.gather(max, limit);
        // No leaf twice in a batch, and every one waits unexpanded.
        let mut nodes: Vec<usize> = batch.leaves().iter().map(|l| l.node).collect();
        nodes.sort_unstable();
        nodes.dedup();
        assert_eq!(nodes.len(), batch.len());
        assert!(nodes.iter().all(|&n| mcts.nodes[n].waiting && !mcts.nodes[n].expanded));
        sizes.push(batch.len());
        mcts.apply(batch, |_, leaf, priors| Material.evaluate(&leaf.pos, leaf.repetitions, &leaf.moves, priors));
        assert!(mcts.nodes.iter().all(|n| n.virtual_losses == 0 && !n.waiting), "virtual losses left");
    }
    sizes
}

#[test]
fn batches_of_one_leaf_are_the_sequential_search() {
    for fen in ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1"] {
        let mut sequential = Mcts::new(position(fen), Vec::new(), Puct::default());
        sequential.run(&mut Material, 300);
        let mut batched = Mcts::new(position(fen), Vec::new(), Puct::default());
        let sizes = run_batched(&mut batched, 1, 300);
        assert!(sizes.iter().all(|&n| n <= 1));
        assert_eq!(batched.playouts(), 300);
        assert_eq!(batched.root_moves(), sequential.root_moves(), "{fen}");
        assert_eq!(batched.pv(), sequential.pv());
        assert_eq!(batched.size(), sequential.size());
    }
}

#[test]
fn batches_spread_by_virtual_loss_and_find_the_same_tactics() {
    for (fen, best) in [("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"), ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5")]
    {
        let mut mcts = Mcts::new(position(fen), Vec::new(), Puct::default());
        let sizes = run_batched(&mut mcts, 32, 800);
        // Exactly the limit, though batches come whole.
        assert_eq!(mcts.playouts(), 800, "{fen}");
        // The first batch is the root alone; virtual losses spread the others.
        assert_eq!(sizes[0], 1);
        let mean = sizes[1..].iter().sum::<usize>() as f32 / (sizes.len() - 1) as f32;
        assert!(mean > 8.0, "{fen}: batches of {sizes:?}");
        let m = mcts.best_move().unwrap();
        assert_eq!(m.to_uci(CastlingMode::Standard).to_string(), best, "{fen}");
        let moves = mcts.root_moves();
        assert_eq!(moves.iter().map(|m| m.visits).sum::<u32>(), 799);
    }
}

#[test]
fn a_cancelled_batch_leaves_the_tree_as_it_was() {
    let mut mcts = Mcts::new(Chess::default(), Vec::new(), Puct::default());
    mcts.run(&mut Material, 100);
    let (moves, size) = (mcts.root_moves(), mcts.size());
    let batch = mcts.gather(16, u32::MAX);
    assert!(batch.len() > 1 && batch.planes().len() == batch.len() * 22 * 64);
    mcts.cancel(batch);
    assert_eq!((mcts.root_moves(), mcts.size()), (moves, size));
    assert!(mcts.nodes.iter().all(|n| n.virtual_losses == 0 && !n.waiting));
    // And it searches on, sequentially or by batches.
    mcts.run(&mut Material, 10);
    assert_eq!(mcts.playouts(), 110);
}

#[test]
fn a_finished_game_in_a_batch_counts_at_once() {
    // Black is mated after a1a8: that leaf is a finished game, backed up
    // while gathering, never sent for evaluation.
    let mut mcts = Mcts::new(position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), Vec::new(), Puct::default());
    run_batched(&mut mcts, 1, 1);
    let before = mcts.playouts();
    let batch = mcts.gather(64, u32::MAX);
    let sent: u32 = batch.len() as u32;
    assert!(batch.leaves().iter().all(|l| !l.moves().is_empty()));
    mcts.apply(batch, |_, leaf, priors| Material.evaluate(&leaf.pos, leaf.repetitions, &leaf.moves, priors));
    assert!(mcts.playouts() > before + sent, "the mate counted beside the {sent} leaves");
    assert!(
        mcts.root_moves().iter().any(|m| m.mv.to_uci(CastlingMode::Standard).to_string() == "a1a8" && m.visits > 1)
    );
}

#[test]
fn root_noise_mixes_into_the_priors() {
    let mut mcts = Mcts::new(Chess::default(), Vec::new(), Puct::default());
    let mut noise = alloc::vec![0.0; 20];
    noise[0] = 1.0;
    assert!(!mcts.add_root_noise(&mut Material, &[1.0], 0.25));
    assert!(mcts.add_root_noise(&mut Material, &noise, 0.25));
    let priors: Vec<f32> = mcts.root_moves().iter().map(|m| m.prior).collect();
    assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    assert!((priors[0] - (0.75 / 20.0 + 0.25)).abs() < 1e-6, "{priors:?}");
}
