//! The incremental accumulator (in place, and in one pass from the parent's
//! sums as the search path updates it) equals a full recompute after every
//! move of thousands of random positions, on every kernel and both network
//! shapes.

use deepchess_core::{Accumulator, FeatureDelta, Kernel, Network, Shape, seeded};
use shakmaty::Position;

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
