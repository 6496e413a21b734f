//! A fake UCI engine for the match runner's tests: plays random legal moves
//! at once, and can be told to crash, hang or send an illegal move.
//!
//! `fake_uci_engine [--name N] [--seed S] [--crash-after K] [--hang-after K] [--illegal-after K]`
//! (K counts the `go` commands this process has answered).

use std::io::{BufRead, Write};

use deepchess_core::uci::{parse_game, uci_move};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shakmaty::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| args.windows(2).find(|w| w[0] == flag).map(|w| w[1].clone());
    let number = |flag: &str| value(flag).and_then(|v| v.parse::<u64>().ok());
    let name = value("--name").unwrap_or_else(|| "Fake".into());
    let mut rng = SmallRng::seed_from_u64(number("--seed").unwrap_or(1));
    let mut answered = 0u64;
    let mut moves: Vec<String> = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                let _ = writeln!(out, "id name {name}\nid author tests\nuciok");
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("position") => {
                moves = words.iter().skip_while(|w| **w != "moves").skip(1).map(|w| w.to_string()).collect();
            }
            Some("go") => {
                if number("--crash-after") == Some(answered) {
                    std::process::exit(3);
                }
                if number("--hang-after") == Some(answered) {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                }
                let best = if number("--illegal-after") == Some(answered) {
                    "a1a1".to_string()
                } else {
                    let (pos, _) = parse_game(None, &moves).expect("the runner sends legal moves");
                    let legal = pos.legal_moves();
                    uci_move(legal[rng.random_range(0..legal.len())]).to_string()
                };
                answered += 1;
                let _ = writeln!(out, "info depth 1 score cp 0 nodes 1 time 0 pv {best}\nbestmove {best}");
            }
            Some("quit") => return,
            _ => {}
        }
        let _ = out.flush();
    }
}
