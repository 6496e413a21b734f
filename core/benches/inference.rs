//! Inference speed per kernel: incremental update, full embed, compare.
//!
//! `cargo bench -p deepchess-core --bench inference` prints one table per
//! network shape. The wasm twin of this benchmark is `wasm/bench/run.mjs`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use deepchess_core::{Accumulator, FeatureDelta, Kernel, Network, Shape, seeded};
use shakmaty::{Chess, Move, Position};

/// Runs `f` over `items` until at least `min` has passed; returns operations per second.
fn rate<T>(items: &[T], min: Duration, mut f: impl FnMut(&T)) -> f64 {
    let start = Instant::now();
    let mut ops = 0u64;
    while start.elapsed() < min {
        for item in items {
            f(item);
        }
        ops += items.len() as u64;
    }
    ops as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let min = Duration::from_millis(std::env::var("BENCH_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(1500));
    let games: Vec<Vec<(Chess, Option<Move>)>> = (0..64).map(|seed| seeded::playout(120, seed)).collect();
    let steps: Vec<(Chess, Move, Chess)> = games
        .iter()
        .flatten()
        .filter_map(|(pos, m)| {
            let m = (*m)?;
            let mut after = pos.clone();
            after.play_unchecked(m);
            Some((pos.clone(), m, after))
        })
        .collect();
    let deltas: Vec<FeatureDelta> = steps.iter().map(|(b, m, a)| FeatureDelta::new(b, *m, a)).collect();
    let positions: Vec<Chess> = steps.iter().map(|(b, _, _)| b.clone()).collect();

    for shape in [Shape::distilled(), Shape::full()] {
        let bytes = seeded::network(&shape, 2.0, 1).to_bytes();
        println!("network {shape}");
        println!("{:<8} {:>16} {:>16} {:>16}", "kernel", "update/s", "embed/s", "compare/s");
        for kernel in Kernel::ALL.into_iter().filter(|k| k.is_supported()) {
            let mut net = Network::from_bytes(&bytes).unwrap();
            net.set_kernel(kernel);
            let embeddings: Vec<_> = positions.iter().map(|p| net.embed_position(p)).collect();

            // One accumulator takes every delta in turn; the sums wrap, which
            // costs the same as a real game.
            let mut acc = Accumulator::new(&net, &positions[0]);
            let update = rate(&deltas, min, |delta| acc.apply(&net, black_box(delta)));
            black_box(&acc);
            let embed = rate(&positions, min, |pos| {
                black_box(net.embed(&Accumulator::new(&net, black_box(pos))));
            });
            let pairs: Vec<_> = embeddings.windows(2).collect();
            let compare = rate(&pairs, min, |pair| {
                black_box(net.compare_logit(black_box(&pair[0]), black_box(&pair[1])));
            });
            println!(
                "{:<8} {:>10.1} M/s {:>10.3} M/s {:>10.3} M/s   ({:.1} ns, {:.0} ns, {:.0} ns)",
                kernel.name(),
                update / 1e6,
                embed / 1e6,
                compare / 1e6,
                1e9 / update,
                1e9 / embed,
                1e9 / compare
            );
        }
    }
    println!("update: one move's delta applied to the first-layer sums; embed: sums from scratch plus the tower;");
    println!("compare: the head on two cached embeddings. {} positions from random games.", positions.len());
}
