//! Weighting a dataset's inputs against each other (`train value
//! --source-weight selfplay=8`): a dataset built from several PGN files
//! records which games came from which (`meta.json`), and a learner that
//! draws its positions through a [`SourceMix`] draws each input's positions
//! as often as its weight says, relative to the others. A weight of 1 leaves
//! an input as built; 0 leaves it out; 8 draws each of its positions eight
//! times as often as one of weight 1.
//!
//! This is how a few hundred thousand positions from the engine's own games
//! count beside 26 million from human and engine games without copying them.

use std::fmt;
use std::str::FromStr;

use anyhow::{Context, bail, ensure};
use rand::Rng;

use crate::data::SourceSummary;

/// One `NAME=WEIGHT`: the inputs whose file name contains `NAME`, drawn
/// `WEIGHT` times as often per position as the others.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SourceWeight {
    /// Part of an input's file name (`selfplay`, `masters.pgn.zst`).
    pub source: String,
    /// Relative weight per position, finite and at least 0.
    pub weight: f64,
}

impl FromStr for SourceWeight {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (source, weight) = s.split_once('=').ok_or_else(|| format!("{s:?} is not NAME=WEIGHT"))?;
        let weight: f64 = weight.trim().parse().map_err(|_| format!("{weight:?} is not a number"))?;
        if !weight.is_finite() || weight < 0.0 {
            return Err(format!("the weight of {source:?} must be finite and at least 0, not {weight}"));
        }
        if source.trim().is_empty() {
            return Err(format!("{s:?} names no input"));
        }
        Ok(SourceWeight { source: source.trim().to_string(), weight })
    }
}

impl fmt::Display for SourceWeight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.source, self.weight)
    }
}

/// For each input of `sources`, the value of the last flag that names it
/// (`NAME` a part of its file name), as later flags override earlier ones;
/// `None` where none does. Every flag must name an input.
pub fn per_input(flags: &[SourceWeight], sources: &[SourceSummary]) -> anyhow::Result<Vec<Option<f64>>> {
    for flag in flags {
        ensure!(
            sources.iter().any(|s| s.name().contains(&flag.source)),
            "no input of the dataset is named like {:?} (its inputs: {})",
            flag.source,
            sources.iter().map(SourceSummary::name).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(sources
        .iter()
        .map(|s| {
            let name = s.name();
            flags.iter().rev().find(|f| name.contains(&f.source)).map(|f| f.weight)
        })
        .collect())
}

/// One input's items in a mix.
#[derive(Clone, Debug)]
struct Group {
    name: String,
    weight: f64,
    /// Indices into the learner's item list.
    items: Vec<u32>,
}

/// Draws item indices so that each input's share follows its weight.
#[derive(Clone, Debug)]
pub struct SourceMix {
    groups: Vec<Group>,
    /// Cumulative shares of the groups that can be drawn, ending at 1.
    cumulative: Vec<f64>,
}

impl SourceMix {
    /// A mix of `games` (the game index of each item, in item order) from
    /// `sources` (the dataset's `meta.json`) under `weights`; inputs no
    /// weight names keep weight 1. Every weight must name an input, and
    /// something must be left to draw.
    pub fn new(
        games: impl Iterator<Item = u64>,
        sources: &[SourceSummary],
        weights: &[SourceWeight],
    ) -> anyhow::Result<SourceMix> {
        ensure!(
            !sources.is_empty(),
            "the dataset records no inputs (no meta.json from `data build`), so none can be weighted"
        );
        let mut groups: Vec<Group> = sources
            .iter()
            .zip(per_input(weights, sources)?)
            .map(|(s, weight)| Group { name: s.name(), weight: weight.unwrap_or(1.0), items: Vec::new() })
            .collect();
        let mut other = Group { name: "(no input)".into(), weight: 1.0, items: Vec::new() };
        for (item, game) in games.enumerate() {
            let item = u32::try_from(item).context("too many items to weight")?;
            match sources.iter().position(|s| s.contains(game)) {
                Some(i) => groups[i].items.push(item),
                None => other.items.push(item),
            }
        }
        groups.push(other);
        groups.retain(|g| !g.items.is_empty());
        let mass: Vec<f64> = groups.iter().map(|g| g.weight * g.items.len() as f64).collect();
        let total: f64 = mass.iter().sum();
        if total <= 0.0 {
            bail!("every input with positions has weight 0: nothing to draw");
        }
        let mut sum = 0.0;
        let cumulative = mass
            .iter()
            .map(|m| {
                sum += m;
                sum / total
            })
            .collect();
        Ok(SourceMix { groups, cumulative })
    }

    /// The index of one item, drawn by weight.
    pub fn draw(&self, rng: &mut impl Rng) -> u32 {
        let u: f64 = rng.random();
        let g = self.cumulative.partition_point(|&c| c <= u).min(self.groups.len() - 1);
        // A group of weight 0 has a zero-width share and is never landed on,
        // except by the clamp above when u rounds to the top; skip it then.
        let g = (0..=g).rev().find(|&g| self.groups[g].weight > 0.0).unwrap_or(g);
        let items = &self.groups[g].items;
        items[rng.random_range(0..items.len())]
    }

    /// Each input's name, items, weight and share of the draws.
    pub fn shares(&self) -> Vec<(String, usize, f64, f64)> {
        let mut previous = 0.0;
        self.groups
            .iter()
            .zip(&self.cumulative)
            .map(|(g, &c)| {
                let share = c - previous;
                previous = c;
                (g.name.clone(), g.items.len(), g.weight, share)
            })
            .collect()
    }
}

impl fmt::Display for SourceMix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, items, weight, share) in self.shares() {
            writeln!(f, "  {name:<28} {items:>10} positions × {weight:<5} → {:5.1}% of the draws", 100.0 * share)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;

    fn source(path: &str, first_game: u64, games_read: u64) -> SourceSummary {
        SourceSummary {
            path: PathBuf::from(path),
            first_game,
            games_read,
            games_used: games_read,
            decisive_games: 0,
            skipped: BTreeMap::new(),
            positions: 0,
            evaluated_positions: 0,
        }
    }

    #[test]
    fn parses_and_refuses() {
        assert_eq!("selfplay=8".parse(), Ok(SourceWeight { source: "selfplay".into(), weight: 8.0 }));
        assert_eq!("masters.pgn.zst = 0.5".parse::<SourceWeight>().map(|w| w.weight), Ok(0.5));
        for bad in ["selfplay", "selfplay=x", "selfplay=-1", "=2", "a=inf"] {
            assert!(bad.parse::<SourceWeight>().is_err(), "{bad}");
        }
    }

    #[test]
    fn draws_follow_the_weights() {
        // Games 0..10 from a.pgn (3 items each), 10..12 from selfplay.pgn (5 items each).
        let sources = [source("/d/a.pgn", 0, 10), source("/d/selfplay.pgn.zst", 10, 2)];
        let games: Vec<u64> = (0..10).flat_map(|g| [g; 3]).chain((10..12).flat_map(|g| [g; 5])).collect();
        let weights = ["selfplay=3".parse().unwrap()];
        let mix = SourceMix::new(games.iter().copied(), &sources, &weights).unwrap();
        // 30 items × 1 against 10 × 3: half and half.
        let shares: Vec<f64> = mix.shares().iter().map(|s| s.3).collect();
        assert!((shares[0] - 0.5).abs() < 1e-12 && (shares[1] - 0.5).abs() < 1e-12, "{shares:?}");
        let mut rng = SmallRng::seed_from_u64(1);
        let n = 40_000;
        let from_selfplay = (0..n).filter(|_| games[mix.draw(&mut rng) as usize] >= 10).count();
        // Binomial(40,000, ½): the standard deviation is 100.
        assert!((from_selfplay as i64 - 20_000).abs() < 600, "{from_selfplay}");
    }

    #[test]
    fn weight_zero_leaves_an_input_out_and_unknown_names_are_errors() {
        let sources = [source("a.pgn", 0, 2), source("b.pgn", 2, 2)];
        let games = [0u64, 1, 2, 3];
        let mix = SourceMix::new(games.iter().copied(), &sources, &["a.pgn=0".parse().unwrap()]).unwrap();
        let mut rng = SmallRng::seed_from_u64(2);
        assert!((0..1000).all(|_| mix.draw(&mut rng) >= 2));
        assert!(SourceMix::new(games.iter().copied(), &sources, &["c.pgn=2".parse().unwrap()]).is_err());
        let all_zero: Vec<SourceWeight> = vec!["a=0".parse().unwrap(), "b=0".parse().unwrap()];
        assert!(SourceMix::new(games.iter().copied(), &sources, &all_zero).is_err());
        assert!(SourceMix::new(games.iter().copied(), &[], &[]).is_err());
    }
}
