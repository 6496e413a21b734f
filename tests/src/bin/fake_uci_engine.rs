//! A fake UCI engine for the match runner's tests: plays random legal moves
//! at once, and can be told to crash, hang or send an illegal move.
//!
//! `fake_uci_engine [--name N] [--seed S] [--crash-after K] [--hang-after K] [--illegal-after K]
//! [--slow-after K --slow-ms MS]` (K counts the `go` commands this process has answered; from the
//! K-th on, a slow engine waits MS milliseconds before each answer, so that it overruns a clock).
//! `setoption name Illegal value true` makes every later answer an illegal move (to see that a
//! match sends each engine its own options).
//!
//! With `--xboard` it speaks the xboard protocol instead, as Phalanx does:
//! features up to `done=1`, `ping`/`pong`, `new`, `force`, moves, `go`, and
//! `move …` answers; it castles whenever it may, written `O-O` or `O-O-O`.

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
    let mut illegal = false;
    let mut moves: Vec<String> = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.iter().any(|a| a == "--xboard") {
        xboard(&name, &mut rng);
        return;
    }
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                let _ = writeln!(out, "id name {name}\nid author tests\nuciok");
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("setoption") => {
                illegal |= line == "setoption name Illegal value true";
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
                if number("--slow-after").is_some_and(|k| answered >= k) {
                    std::thread::sleep(std::time::Duration::from_millis(number("--slow-ms").unwrap_or(1000)));
                }
                let best = if illegal || number("--illegal-after") == Some(answered) {
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

/// The xboard protocol: castles whenever it may (to test how castling is
/// written), else plays a random legal move.
fn xboard(name: &str, rng: &mut SmallRng) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut moves: Vec<String> = Vec::new();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("protover") => {
                let _ = writeln!(out, "feature myname=\"{name}\" ping=1 setboard=1\nfeature done=1");
            }
            Some("ping") => {
                let _ = writeln!(out, "pong {}", words.get(1).unwrap_or(&"0"));
            }
            Some("new") => moves.clear(),
            Some("go") => {
                let (pos, _) = parse_game(None, &moves).expect("the runner sends legal moves");
                let legal = pos.legal_moves();
                let m = match legal.iter().find(|m| m.is_castle()) {
                    Some(castle) => *castle,
                    None => legal[rng.random_range(0..legal.len())],
                };
                let text = match m.castling_side() {
                    Some(shakmaty::CastlingSide::KingSide) => "O-O".to_string(),
                    Some(shakmaty::CastlingSide::QueenSide) => "O-O-O".to_string(),
                    None => uci_move(m).to_string(),
                };
                moves.push(uci_move(m).to_string());
                let _ = writeln!(out, "move {text}");
            }
            Some("quit") => return,
            Some(word)
                if word.len() >= 4
                    && word.as_bytes()[0].is_ascii_lowercase()
                    && word.as_bytes()[1].is_ascii_digit() =>
            {
                moves.push(word.to_string());
            }
            _ => {}
        }
        let _ = out.flush();
    }
}
