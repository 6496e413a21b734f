//! Games of AlphaZero networks through core's MCTS: self-play games that
//! become training samples, and gate matches between two networks.
//!
//! Each move is a fresh tree over the position (its game so far as history,
//! for repetitions) run for a fixed number of playouts. In self-play the
//! root's priors get Dirichlet noise, `P ← 0.75 P + 0.25 η`, `η ~ Dir(0.3)`
//! (AlphaZero's chess values), and the move is drawn in proportion to the
//! root's visit counts for the first `temperature_plies` plies (temperature
//! 1), the most visited after (temperature → 0). Each position's sample is
//! its planes, the visit distribution `π` as the policy target, and the
//! game's result for its side to move. A game ends by the rules
//! (checkmate, stalemate, insufficient material, the fifty-move rule,
//! threefold repetition) or as a draw at `max_plies`.

use burn::config::Config;
use deepchess_core::alphazero::{AzNet, Planes, Repetitions, move_index};
use deepchess_core::search::zobrist;
use deepchess_core::search::{AzEvaluator, Mcts, Puct};
use deepchess_core::shakmaty::{Chess, Color, KnownOutcome, Move, Outcome, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Gamma};

use crate::cluster;
use crate::data::az::Sample;

/// How the games are played.
#[derive(Config, Debug, PartialEq)]
pub struct AzPlayConfig {
    /// Self-play games per generation.
    #[config(default = 32)]
    pub games: usize,
    /// MCTS playouts per move (AlphaZero: 800).
    #[config(default = 800)]
    pub playouts: u32,
    /// Plies after which a game is a draw.
    #[config(default = 300)]
    pub max_plies: usize,
    /// Plies played at temperature 1 (AlphaZero: 30).
    #[config(default = 30)]
    pub temperature_plies: usize,
    /// The Dirichlet noise's α (AlphaZero for chess: 0.3).
    #[config(default = 0.3)]
    pub dirichlet_alpha: f64,
    /// The noise's share of the root priors (AlphaZero: 0.25).
    #[config(default = 0.25)]
    pub noise_fraction: f64,
    /// Positions kept in the replay buffer (the newest).
    #[config(default = 500_000)]
    pub buffer: usize,
    /// Games of each gate match (the new network against the last accepted;
    /// none: every generation is accepted).
    #[config(default = 20)]
    pub gate_games: usize,
    /// The score the new network needs in its gate match (AlphaGo Zero: 55%).
    #[config(default = 0.55)]
    pub gate_score: f64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct AzGame {
    /// One sample per position before the end (result filled in).
    pub samples: Vec<Sample>,
    /// The result for White: 1, 0, −1.
    pub white_result: f32,
    /// Half-moves played.
    pub plies: usize,
}

/// The Dirichlet(α) noise for `n` moves.
fn dirichlet(n: usize, alpha: f64, rng: &mut SmallRng) -> Vec<f32> {
    let gamma = Gamma::new(alpha, 1.0).expect("α is positive");
    let draws: Vec<f64> = (0..n).map(|_| gamma.sample(rng)).collect();
    let total: f64 = draws.iter().sum();
    if total > 0.0 { draws.iter().map(|d| (d / total) as f32).collect() } else { vec![1.0 / n as f32; n] }
}

/// Plays a game from `start`, `white` and `black` choosing moves (the
/// same network for self-play); `noise` adds root noise. Samples are kept
/// when `record`.
fn play_game(
    white: &AzNet,
    black: &AzNet,
    start: Chess,
    config: &AzPlayConfig,
    noise: bool,
    record: bool,
    seed: u64,
) -> AzGame {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut players = [AzEvaluator::new(white.clone()), AzEvaluator::new(black.clone())];
    let mut pos = start;
    let mut history: Vec<u64> = Vec::new();
    let mut repetitions = Repetitions::new();
    let mut pending: Vec<(Sample, Color)> = Vec::new();
    let mut plies = 0;
    let white_result = loop {
        let seen = repetitions.push(&pos);
        match pos.outcome() {
            Outcome::Known(KnownOutcome::Decisive { winner }) => break if winner.is_white() { 1.0 } else { -1.0 },
            Outcome::Known(KnownOutcome::Draw) => break 0.0,
            Outcome::Unknown => {}
        }
        if seen >= 2 || pos.halfmoves() >= 100 || plies >= config.max_plies {
            break 0.0;
        }
        let evaluator = &mut players[usize::from(pos.turn() == Color::Black)];
        let mut tree = Mcts::new(pos.clone(), history.clone(), Puct::default());
        if noise {
            let legal = pos.legal_moves().len();
            let eta = dirichlet(legal, config.dirichlet_alpha, &mut rng);
            tree.add_root_noise(evaluator, &eta, config.noise_fraction as f32);
        }
        let remaining = config.playouts.saturating_sub(tree.playouts()).max(1);
        tree.run(evaluator, remaining);
        let moves = tree.root_moves();
        let total: u32 = moves.iter().map(|m| m.visits).sum();
        let chosen: Move = if plies < config.temperature_plies && total > 0 {
            let mut pick = rng.random_range(0..total);
            moves.iter().find(|m| {
                if pick < m.visits {
                    return true;
                }
                pick -= m.visits;
                false
            })
        } else {
            moves.first()
        }
        .map(|m| m.mv)
        .expect("a position before the end has a legal move");
        if record && total > 0 {
            let policy = moves
                .iter()
                .filter(|m| m.visits > 0)
                .map(|m| (move_index(&pos, &m.mv) as u16, m.visits as f32 / total as f32))
                .collect();
            let legal = moves.iter().map(|m| move_index(&pos, &m.mv) as u16).collect();
            pending.push((Sample::new(Planes::new(&pos, seen), policy, legal, 0.0), pos.turn()));
        }
        history.push(zobrist(&pos));
        pos.play_unchecked(chosen);
        plies += 1;
    };
    let samples = pending
        .into_iter()
        .map(|(sample, turn)| sample.with_result(if turn == Color::White { white_result } else { -white_result }))
        .collect();
    AzGame { samples, white_result, plies }
}

/// `count` self-play games of `net`, on `threads` threads, drawn by `seed`
/// (game `i` by `mix(seed, i)`). Under MPI each rank plays its share of
/// the games and every rank gets all of them, in order: the same games as
/// one process plays.
pub fn self_play(
    net: &AzNet,
    count: usize,
    config: &AzPlayConfig,
    threads: usize,
    seed: u64,
) -> anyhow::Result<Vec<AzGame>> {
    let mine = cluster::share(count, cluster::rank(), cluster::size());
    let games = parallel(mine.len(), threads, |i| {
        let index = mine.start + i;
        play_game(net, net, Chess::default(), config, true, true, crate::data::mix(seed, index as u64))
    });
    if cluster::size() == 1 {
        return Ok(games);
    }
    let mut all = Vec::with_capacity(count);
    for bytes in cluster::all_gather(AzGame::write_all(&games)) {
        all.extend(AzGame::read_all(&bytes).ok_or_else(|| anyhow::anyhow!("a damaged game from another rank"))?);
    }
    anyhow::ensure!(all.len() == count, "the ranks played {} self-play games of {count}", all.len());
    Ok(all)
}

impl AzGame {
    /// `games` as bytes: each game's result, plies and samples.
    fn write_all(games: &[AzGame]) -> Vec<u8> {
        let mut out = Vec::new();
        for game in games {
            out.extend(game.white_result.to_le_bytes());
            out.extend((game.plies as u64).to_le_bytes());
            out.extend((game.samples.len() as u64).to_le_bytes());
            for sample in &game.samples {
                sample.write(&mut out);
            }
        }
        out
    }

    /// The games [`AzGame::write_all`] wrote; None for damaged bytes.
    fn read_all(mut bytes: &[u8]) -> Option<Vec<AzGame>> {
        let mut games = Vec::new();
        while !bytes.is_empty() {
            let (head, rest) = bytes.split_at_checked(20)?;
            bytes = rest;
            let white_result = f32::from_le_bytes(head[..4].try_into().ok()?);
            let plies = u64::from_le_bytes(head[4..12].try_into().ok()?) as usize;
            let count = u64::from_le_bytes(head[12..].try_into().ok()?) as usize;
            let samples = (0..count).map(|_| Sample::read(&mut bytes)).collect::<Option<Vec<_>>>()?;
            games.push(AzGame { samples, white_result, plies });
        }
        Some(games)
    }
}

/// A gate match of `count` games, `new` White in the even ones: its wins,
/// draws and losses. The first `temperature_plies` plies are drawn by visit
/// counts (no noise), so that the games differ.
pub fn gate(new: &AzNet, old: &AzNet, count: usize, config: &AzPlayConfig, threads: usize, seed: u64) -> [u32; 3] {
    let results = parallel(count, threads, |i| {
        let seed = crate::data::mix(seed, i as u64);
        let (white, black) = if i % 2 == 0 { (new, old) } else { (old, new) };
        let result = play_game(white, black, Chess::default(), config, false, false, seed).white_result;
        if i % 2 == 0 { result } else { -result }
    });
    let mut score = [0; 3];
    for r in results {
        score[if r > 0.0 {
            0
        } else if r == 0.0 {
            1
        } else {
            2
        }] += 1;
    }
    score
}

/// `f(0) … f(count − 1)` on `threads` threads, in order.
fn parallel<T: Send>(count: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = threads.clamp(1, count.max(1));
    let mut out: Vec<(usize, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let f = &f;
                scope.spawn(move || (t..count).step_by(threads).map(|i| (i, f(i))).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a game thread panicked")).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use deepchess_core::seeded;

    use super::*;

    #[test]
    fn self_play_games_follow_the_rules_and_label_every_position() {
        let net = seeded::az_net(1, 8, 3);
        let config = AzPlayConfig::new().with_playouts(16).with_max_plies(40).with_temperature_plies(10);
        let games = self_play(&net, 3, &config, 2, 7).unwrap();
        // As they travel between MPI ranks, whole.
        let again = AzGame::read_all(&AzGame::write_all(&games)).unwrap();
        assert_eq!(AzGame::write_all(&again), AzGame::write_all(&games));
        assert!(AzGame::read_all(&AzGame::write_all(&games)[..100]).is_none());
        for game in games {
            assert_eq!(game.samples.len(), game.plies);
            assert!(game.plies <= 40);
            for sample in &game.samples {
                let total: f32 = sample.policy().iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-4, "{total}");
                assert!(sample.policy().iter().all(|(i, _)| sample.legal().contains(i)));
                assert!(sample.z().abs() == game.white_result.abs());
            }
        }
        let eta = dirichlet(20, 0.3, &mut SmallRng::seed_from_u64(1));
        assert!((eta.iter().sum::<f32>() - 1.0).abs() < 1e-5 && eta.iter().all(|&x| x >= 0.0));
    }

    #[test]
    fn a_network_against_itself_scores_all_its_games() {
        let net = seeded::az_net(1, 8, 4);
        let config = AzPlayConfig::new().with_playouts(8).with_max_plies(30).with_temperature_plies(6);
        let [w, d, l] = gate(&net, &net, 4, &config, 2, 1);
        assert_eq!(w + d + l, 4);
    }
}
