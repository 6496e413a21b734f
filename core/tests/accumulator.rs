//! The incremental accumulator (in place, and in one pass from the parent's
//! sums as the search path updates it) equals a full recompute after every
//! move of thousands of random positions, on every kernel and both network
//! shapes; so does the search path's, which updates only where it is read.

use deepchess_core::search::AccumulatorPath;
use deepchess_core::{Accumulator, FeatureDelta, Features, Kernel, Network, Shape, seeded};
use shakmaty::{Chess, Position};

#[test]
fn incremental_equals_full_recompute() {
    for (shape, seed) in [(Shape::distilled(), 11), (Shape::full(), 12)] {
        let bytes = seeded::network(&shape, 1.0, seed).to_bytes();
        for kernel in Kernel::ALL.into_iter().filter(|k| k.is_supported()) {
            let mut net = Network::from_bytes(&bytes).unwrap();
            assert!(net.set_kernel(kernel));
            let mut positions = 0;
            for game in 0..40 {
                let playout = seeded::playout(250, 1000 + game);
                let mut acc = Accumulator::new(&net, &playout[0].0);
                // The search path's one-pass update, beside the in-place one.
                let mut fused = acc.clone();
                for (before, m) in &playout {
                    assert_eq!(acc, Accumulator::new(&net, before), "{kernel:?} {shape}");
                    assert_eq!(fused, acc, "{kernel:?} {shape}");
                    positions += 1;
                    if let Some(m) = m {
                        let mut after = before.clone();
                        after.play_unchecked(*m);
                        let delta = FeatureDelta::new(before, *m, &after);
                        let parent = fused.clone();
                        fused.apply_from(&net, &delta, &parent);
                        acc.apply(&net, &delta);
                    }
                }
                // The embedding from the incremental sums equals a fresh one.
                let last = &playout.last().unwrap().0;
                assert_eq!(net.embed(&acc), net.embed_position(last));
            }
            assert!(positions > 5_000, "{positions} positions");
        }
    }
}

#[test]
fn every_kernel_gives_the_same_embeddings_and_comparisons() {
    let bytes = seeded::network(&Shape::distilled(), 1.0, 5).to_bytes();
    let scalar = {
        let mut net = Network::from_bytes(&bytes).unwrap();
        assert!(net.set_kernel(Kernel::Scalar));
        net
    };
    for kernel in Kernel::ALL.into_iter().filter(|k| k.is_supported()) {
        let mut net = Network::from_bytes(&bytes).unwrap();
        assert!(net.set_kernel(kernel));
        let positions: Vec<_> = (0..20).flat_map(|seed| seeded::playout(80, seed)).map(|(p, _)| p).collect();
        for pair in positions.windows(2) {
            let (a, b) = (net.embed_position(&pair[0]), net.embed_position(&pair[1]));
            assert_eq!(a, scalar.embed_position(&pair[0]), "{kernel:?}");
            assert_eq!(net.logits(&a, &b), scalar.logits(&a, &b), "{kernel:?}");
        }
    }
}

#[test]
fn the_search_path_updates_where_read_and_equals_a_full_recompute() {
    // A walk down and up the tree below random playouts' positions, as a
    // search goes, reading the top only at some nodes: each read equals the
    // position's sums (and its mirror image's) computed from scratch,
    // whatever was pushed, popped and never read before it.
    let net = Network::from_bytes(&seeded::network(&Shape::distilled(), 1.0, 21).to_bytes()).unwrap();
    let (mut path, mut mirror) = (AccumulatorPath::new(&net), AccumulatorPath::mirrored(&net));
    let mut state = 0x9e37_79b9_u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let mut reads = 0;
    for game in 0..20 {
        let playout = seeded::playout(60, 2000 + game);
        let root = playout[playout.len() / 2].0.clone();
        path.set_root(&net, &Features::from_position(&root));
        mirror.set_root(&net, &Features::from_position(&root));
        let mut line: Vec<Chess> = vec![root];
        for _ in 0..300 {
            let pos = line.last().unwrap().clone();
            let moves = pos.legal_moves();
            let r = next();
            if line.len() < 8 && !moves.is_empty() && (line.len() == 1 || r % 3 != 0) {
                let m = moves[(r >> 4) as usize % moves.len()];
                let mut child = pos.clone();
                child.play_unchecked(m);
                let delta = FeatureDelta::new(&pos, m, &child);
                path.push(&delta);
                mirror.push(&delta);
                line.push(child);
            } else if line.len() > 1 {
                path.pop();
                mirror.pop();
                line.pop();
            }
            if next() % 4 == 0 {
                let top = line.last().unwrap();
                assert_eq!(path.top(&net), &Accumulator::new(&net, top), "game {game}");
                let mut flipped = Accumulator::new(&net, top);
                flipped.refresh(&net, &Features::from_position(top).mirrored());
                assert_eq!(mirror.top(&net), &flipped, "game {game}");
                reads += 1;
            }
        }
    }
    assert!(reads > 1_000, "{reads} reads");
}
