//! Pair accuracy: how often a network orders a (W, L) pair correctly.
//!
//! Used by training (validation each epoch), by `export` (float against
//! quantized) and by `deepchess eval accuracy`, which measures through the
//! core's integer inference, the same code that plays.

use std::path::Path;

use deepchess_core::{Embedding, Features, FloatNetwork, Network};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::{self, GameReader, Pair, PairSampler, Record, Sampling, mix};

/// `count` seeded (W, L) pairs over `records`, each randomly ordered.
pub fn pairs(records: &[Record], count: usize, seed: u64) -> Vec<Pair> {
    let sampler = PairSampler::new(records, seed);
    let mut rng = SmallRng::seed_from_u64(mix(seed, 0x0dde));
    sampler.epoch(0, count).map(|(w, l)| Pair { swap: rng.random_bool(0.5), ..Pair::new(w, l) }).collect()
}

/// The embeddings of the records that `pairs` name, each computed once.
///
/// A split holds far more positions than its pairs use (the whole
/// collection's validation split: 1.4 million positions for 20,000 pairs),
/// and embedding every record took four fifths of a training epoch's wall
/// time with the full network; now only the pairs' positions are embedded.
struct PairEmbeddings<E> {
    /// Each record's index in `embeddings`; `u32::MAX` where no pair names it.
    slot: Vec<u32>,
    embeddings: Vec<E>,
}

impl<E> PairEmbeddings<E> {
    /// `embed(i)` of every record `i` that a pair of `pairs` names, among
    /// `records` records.
    fn new(pairs: &[Pair], records: usize, mut embed: impl FnMut(usize) -> E) -> PairEmbeddings<E> {
        let mut slot = vec![u32::MAX; records];
        let mut embeddings = Vec::new();
        for pair in pairs {
            for i in [pair.better, pair.worse] {
                let slot = &mut slot[i as usize];
                if *slot == u32::MAX {
                    *slot = embeddings.len() as u32;
                    embeddings.push(embed(i as usize));
                }
            }
        }
        PairEmbeddings { slot, embeddings }
    }

    /// The embedding of record `i` (one that a pair names).
    fn get(&self, i: u32) -> &E {
        &self.embeddings[self.slot[i as usize] as usize]
    }
}

/// Accuracy and mean cross-entropy of the float network.
pub fn float_accuracy(net: &FloatNetwork, records: &[Record], pairs: &[Pair]) -> (f64, f64) {
    let embeddings = PairEmbeddings::new(pairs, records.len(), |i| net.embed(&records[i].features()));
    let (mut correct, mut loss) = (0usize, 0f64);
    for pair in pairs {
        let [(a, _), (b, _)] = pair.ordered();
        let p_first_is_w = f64::from(net.compare(embeddings.get(a), embeddings.get(b)));
        let p_correct = if pair.swap { 1.0 - p_first_is_w } else { p_first_is_w };
        correct += usize::from(p_correct > 0.5);
        loss -= p_correct.max(1e-12).ln();
    }
    let n = pairs.len().max(1) as f64;
    (correct as f64 / n, loss / n)
}

/// Accuracy of the quantized network through the core's integer inference.
pub fn quantized_accuracy(net: &Network, records: &[Record], pairs: &[Pair]) -> f64 {
    let embeddings = PairEmbeddings::new(pairs, records.len(), |i| quantized_embedding(net, &records[i]));
    let correct = pairs
        .iter()
        .filter(|pair| {
            let [(a, _), (b, _)] = pair.ordered();
            let first_better = net.compare_logit(embeddings.get(a), embeddings.get(b)) > 0;
            first_better != pair.swap
        })
        .count();
    correct as f64 / pairs.len().max(1) as f64
}

/// The quantized network's validation accuracy, as a line for a training
/// run's log: `float` quantized through core, scored on `pairs`.
pub fn quantized_line(float: &FloatNetwork, records: &[Record], pairs: &[Pair]) -> anyhow::Result<String> {
    let quantized = Network::from_bytes(&float.to_bytes())?;
    Ok(format!("validation accuracy, quantized: {:.4}", quantized_accuracy(&quantized, records, pairs)))
}

/// How closely the quantized network follows the float one on `pairs`: the
/// mean absolute difference of `compare`, and the fraction of pairs both
/// order the same way.
pub fn agreement(float: &FloatNetwork, quantized: &Network, records: &[Record], pairs: &[Pair]) -> (f64, f64) {
    let embeddings = PairEmbeddings::new(pairs, records.len(), |i| {
        (float.embed(&records[i].features()), quantized_embedding(quantized, &records[i]))
    });
    let (mut total, mut same) = (0f64, 0usize);
    for pair in pairs {
        let [(a, _), (b, _)] = pair.ordered();
        let ((float_a, int_a), (float_b, int_b)) = (embeddings.get(a), embeddings.get(b));
        let pf = float.compare(float_a, float_b);
        let pq = quantized.compare(int_a, int_b);
        total += f64::from((pf - pq).abs());
        same += usize::from((pf > 0.5) == (pq > 0.5));
    }
    let n = pairs.len().max(1) as f64;
    (total / n, same as f64 / n)
}

/// The quantized network's embedding of a record (zero for a damaged one).
fn quantized_embedding(net: &Network, record: &Record) -> Embedding {
    record.position().map_or(Embedding::ZERO, |p| net.embed_position(&p))
}

/// The float network's value of a position, `s(x)` (what the scalar search
/// reads: [`FloatNetwork::value`]), in units of utility; 0 without a
/// utility head.
pub fn float_value(net: &FloatNetwork, features: &Features) -> f64 {
    f64::from(net.value(features).unwrap_or(0.0))
}

/// The quantized network's `2 · s(x)`, in units of `1 / SUM_SCALE`
/// ([`Network::value_difference`]); 0 for a damaged record or a network
/// without a utility head.
pub fn quantized_value(net: &Network, record: &Record) -> i64 {
    let Some(pos) = record.position() else { return 0 };
    i64::from(net.value_difference(&pos).unwrap_or(0))
}

/// [`value_accuracy`] of the quantized network's utility through the core's
/// integer inference (the code that plays), as [`quantized_accuracy`] is of
/// its comparison head.
pub fn quantized_value_accuracy(net: &Network, records: &[Record], pairs: &[Pair]) -> f64 {
    value_accuracy(pairs, |i| quantized_value(net, &records[i as usize]))
}

/// How often a value orders the (W, L) pairs correctly (the paper's rule:
/// the position from the game White won is the better for White), where
/// `value(i)` is the value of record `i`; ties count as wrong.
pub fn value_accuracy<T: PartialOrd>(pairs: &[Pair], mut value: impl FnMut(u32) -> T) -> f64 {
    let correct = pairs.iter().filter(|p| value(p.better) > value(p.worse)).count();
    correct as f64 / pairs.len().max(1) as f64
}

/// Every record's active bits.
pub fn features(records: &[Record]) -> Vec<Features> {
    records.iter().map(Record::features).collect()
}

/// W and L positions from a PGN file with the paper's rule, in memory.
pub fn records_from_pgn(path: &Path, sampling: &Sampling) -> anyhow::Result<Vec<Record>> {
    let mut reader = pgn_reader::Reader::new(data::open_pgn(path, &indicatif::ProgressBar::hidden())?);
    let mut records = Vec::new();
    let mut game_index = 0u32;
    while let Some(outcome) = reader.read_game(&mut GameReader)? {
        if let Ok(game) = outcome {
            records.extend(sampling.records(game_index, &game));
        }
        game_index += 1;
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::random_records;
    use deepchess_core::Shape;

    /// A distilled-shape network with seeded weights in ±0.1.
    fn seeded_network(seed: u64) -> FloatNetwork {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut net = FloatNetwork::zeros(&Shape::distilled());
        for layer in net.tower_mut().iter_mut() {
            layer.weights_mut().iter_mut().for_each(|w| *w = rng.random_range(-0.1..0.1));
        }
        for layer in net.head_mut().iter_mut() {
            layer.weights_mut().iter_mut().for_each(|w| *w = rng.random_range(-0.1..0.1));
        }
        net
    }

    #[test]
    fn embedding_only_the_pairs_positions_gives_what_embedding_every_record_gave() {
        // More pairs than records, so that records repeat across pairs, and
        // records that no pair names.
        let records = random_records(120, 7);
        let mut pairs = pairs(&records[..80], 150, 3);
        pairs.iter_mut().step_by(3).for_each(|p| p.mirror = true);
        let float = seeded_network(11);
        let quantized = Network::from_bytes(&float.to_bytes()).unwrap();
        let features = features(&records);

        // What the functions computed before: every record embedded.
        let all_float: Vec<Vec<f32>> = features.iter().map(|f| float.embed(f)).collect();
        let all_int: Vec<Embedding> = records.iter().map(|r| quantized_embedding(&quantized, r)).collect();
        let (mut correct, mut loss, mut int_correct, mut total, mut same) = (0usize, 0f64, 0usize, 0f64, 0usize);
        for pair in &pairs {
            let [(a, _), (b, _)] = pair.ordered();
            let (a, b) = (a as usize, b as usize);
            let p = f64::from(float.compare(&all_float[a], &all_float[b]));
            let p_correct = if pair.swap { 1.0 - p } else { p };
            correct += usize::from(p_correct > 0.5);
            loss -= p_correct.max(1e-12).ln();
            int_correct += usize::from((quantized.compare_logit(&all_int[a], &all_int[b]) > 0) != pair.swap);
            let (pf, pq) = (float.compare(&all_float[a], &all_float[b]), quantized.compare(&all_int[a], &all_int[b]));
            total += f64::from((pf - pq).abs());
            same += usize::from((pf > 0.5) == (pq > 0.5));
        }
        let n = pairs.len() as f64;
        assert!(correct > 0 && correct < pairs.len(), "a network that orders every pair alike tests nothing");
        assert_eq!(float_accuracy(&float, &records, &pairs), (correct as f64 / n, loss / n));
        assert_eq!(quantized_accuracy(&quantized, &records, &pairs), int_correct as f64 / n);
        assert_eq!(agreement(&float, &quantized, &records, &pairs), (total / n, same as f64 / n));
    }
}
