//! The AlphaZero reimplementation's training items: a position's 22 input
//! planes with its policy and value targets, made from dataset records.
//! Supervised training (`train az`), self-play and `eval az` share them; no
//! burn here, so the CPU-only build's `eval az` has them too.

use deepchess_core::alphazero::{PLANES, Planes, move_index};
use deepchess_core::shakmaty::{Color, Move, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::{GameResult, Record};

/// One training position: its planes and its targets.
#[derive(Clone, Debug)]
pub struct Sample {
    planes: Planes,
    /// The policy target `π`: probabilities by policy index (the move
    /// played alone, or self-play's visit distribution).
    policy: Vec<(u16, f32)>,
    /// The index of `π`'s largest entry, for top-1 accuracy.
    target: usize,
    /// The legal moves' policy indexes.
    legal: Vec<u16>,
    /// The result for the side to move.
    z: f32,
}

impl Sample {
    /// A sample of `planes` with policy target `policy` (not empty) among
    /// the `legal` indexes and value target `z`.
    pub fn new(planes: Planes, policy: Vec<(u16, f32)>, legal: Vec<u16>, z: f32) -> Sample {
        let target = policy.iter().max_by(|a, b| a.1.total_cmp(&b.1)).map_or(0, |p| usize::from(p.0));
        Sample { planes, policy, target, legal, z }
    }

    /// The same sample with value target `z`.
    pub fn with_result(self, z: f32) -> Sample {
        Sample { z, ..self }
    }

    /// The input planes.
    pub fn planes(&self) -> &Planes {
        &self.planes
    }

    /// The index of the policy target's largest entry (the move played).
    pub fn target(&self) -> usize {
        self.target
    }

    /// The policy target.
    pub fn policy(&self) -> &[(u16, f32)] {
        &self.policy
    }

    /// The legal moves' policy indexes.
    pub fn legal(&self) -> &[u16] {
        &self.legal
    }

    /// The value target.
    pub fn z(&self) -> f32 {
        self.z
    }

    /// Appends the sample's bytes (little-endian: the planes, then the
    /// policy's and the legal moves' lengths and entries, then `z`): how
    /// self-play's samples travel between MPI ranks.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend(self.planes.values().iter().flat_map(|v| v.to_le_bytes()));
        out.extend((self.policy.len() as u32).to_le_bytes());
        for (index, p) in &self.policy {
            out.extend(index.to_le_bytes());
            out.extend(p.to_le_bytes());
        }
        out.extend((self.legal.len() as u32).to_le_bytes());
        out.extend(self.legal.iter().flat_map(|i| i.to_le_bytes()));
        out.extend(self.z.to_le_bytes());
    }

    /// Reads a sample [`Sample::write`] wrote from the front of `bytes`,
    /// advancing it; None where they end early.
    pub fn read(bytes: &mut &[u8]) -> Option<Sample> {
        fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            let (head, tail) = bytes.split_at_checked(n)?;
            *bytes = tail;
            Some(head)
        }
        let f32_at = |b: &[u8]| f32::from_le_bytes(b.try_into().expect("four bytes"));
        let u16_at = |b: &[u8]| u16::from_le_bytes(b.try_into().expect("two bytes"));
        let u32_at = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("four bytes")) as usize;
        let values: Vec<f32> = take(bytes, 4 * PLANES * 64)?.chunks_exact(4).map(f32_at).collect();
        let planes = Planes::from_values(&values)?;
        let entries = u32_at(take(bytes, 4)?);
        let policy = take(bytes, 6 * entries)?.chunks_exact(6).map(|e| (u16_at(&e[..2]), f32_at(&e[2..]))).collect();
        let legal = u32_at(take(bytes, 4)?);
        let legal = take(bytes, 2 * legal)?.chunks_exact(2).map(u16_at).collect();
        let z = f32_at(take(bytes, 4)?);
        Some(Sample::new(planes, policy, legal, z))
    }
}

/// The sample of `record`; `None` for a damaged record.
pub fn sample(record: &Record) -> Option<Sample> {
    let pos = record.position()?;
    let played: Move = record.played().to_move(&pos).ok()?;
    let white = match record.result()? {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => -1.0,
        GameResult::Draw => 0.0,
    };
    let z = if pos.turn() == Color::White { white } else { -white };
    let legal = pos.legal_moves().iter().map(|m| move_index(&pos, m) as u16).collect();
    Some(Sample::new(Planes::new(&pos, 0), vec![(move_index(&pos, &played) as u16, 1.0)], legal, z))
}

/// `count` samples from random records of `records`, drawn by `seed`.
pub fn samples(records: &[Record], count: usize, seed: u64) -> Vec<Sample> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count && attempts < count.saturating_mul(4) && !records.is_empty() {
        attempts += 1;
        out.extend(sample(&records[rng.random_range(0..records.len())]));
    }
    out
}
