//! `deepchess match` between fake engines: pairing and colours, the PGN, and
//! crashes, hangs and illegal moves; the Elo arithmetic against known values.

use std::process::Command;

use deepchess_tests::binary::{deepchess, fake_engine};
use deepchess_trainer::play::stats::{Score, elo_from_score};

fn fake(args: &str) -> String {
    format!("{} {args}", fake_engine().display())
}

fn run_match(ours: &str, theirs: &str, extra: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let out = Command::new(deepchess())
        .args(["match", "--ours", ours, "--engine", theirs, "--quiet", "--pgn", pgn.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), std::fs::read_to_string(pgn).unwrap())
}

fn first_moves(game: &str) -> Vec<&str> {
    game.split("\n\n").nth(1).unwrap().split_whitespace().take(12).collect()
}

fn tag<'a>(game: &'a str, name: &str) -> &'a str {
    let start = format!("[{name} \"");
    let from = game.find(&start).unwrap() + start.len();
    &game[from..from + game[from..].find('"').unwrap()]
}

#[test]
fn games_are_paired_with_colours_swapped() {
    let (summary, pgn) = run_match(
        &fake("--name Alpha --seed 1"),
        &fake("--name Beta --seed 2"),
        &["--games", "6", "--movetime", "5", "--concurrency", "2", "--max-plies", "60"],
    );
    // Games are written as they end (as cutechess does): put them in round order.
    let mut games: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    games.sort_by_key(|g| tag(g, "Round").parse::<usize>().unwrap());
    assert_eq!(games.len(), 6);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (i, game) in games.iter().enumerate() {
        assert_eq!(tag(game, "Round"), (i + 1).to_string());
        let (white, black) = (tag(game, "White"), tag(game, "Black"));
        assert_eq!((white, black), if i % 2 == 0 { ("Alpha", "Beta") } else { ("Beta", "Alpha") });
        // Both games of a pair start with the same opening.
        if i % 2 == 1 {
            assert_eq!(first_moves(games[i - 1]), first_moves(game), "pair {}", i / 2);
        }
        assert!(game.contains("{ book }"));
        match (tag(game, "Result"), i % 2 == 0) {
            ("1/2-1/2", _) => draws += 1,
            ("1-0", true) | ("0-1", false) => wins += 1,
            _ => losses += 1,
        }
    }
    assert!(summary.contains(&format!("W/D/L           : {wins} / {draws} / {losses}")), "{summary}");
}

#[test]
fn crashes_and_illegal_moves_lose_and_the_match_goes_on() {
    let (summary, pgn) = run_match(
        &fake("--name Alpha"),
        &fake("--name Crashy --crash-after 3"),
        &["--games", "4", "--movetime", "5", "--max-plies", "100"],
    );
    assert!(summary.contains("W/D/L           : 4 / 0 / 0"), "{summary}");
    assert!(summary.contains("engine failures : 4"), "{summary}");
    assert_eq!(pgn.matches("failed: Crashy exited").count(), 4, "{pgn}");

    let (summary, pgn) =
        run_match(&fake("--name Alpha"), &fake("--name Liar --illegal-after 2"), &["--games", "2", "--movetime", "5"]);
    // The illegal move comes in the first game; the second is random play.
    let wins: u32 = summary.split("W/D/L           : ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(wins >= 1, "{summary}");
    // The PGN writer turns the description's double quotes into single ones.
    assert!(pgn.contains("illegal move 'a1a1'"), "{pgn}");
}

#[test]
fn a_hung_engine_loses_on_its_move() {
    let (summary, pgn) =
        run_match(&fake("--name Alpha"), &fake("--name Sleepy --hang-after 1"), &["--games", "1", "--movetime", "20"]);
    assert!(summary.contains("W/D/L           : 1 / 0 / 0"), "{summary}");
    assert!(pgn.contains("did not answer"), "{pgn}");
}

#[test]
fn xboard_opponents_play_and_castle() {
    let (summary, pgn) = run_match(
        &fake("--name Alpha --seed 3"),
        &fake("--name Xavier --seed 4 --xboard"),
        &["--protocol", "xboard", "--games", "4", "--movetime", "5", "--max-plies", "120"],
    );
    assert!(summary.contains("engine failures : 0"), "{summary}");
    assert_eq!(pgn.matches("[Event ").count(), 4);
    assert!(!pgn.contains("illegal move"), "{pgn}");
    assert!(pgn.contains("\"Xavier\""), "the xboard name is read from its features");
    // The fake castles whenever it may, and writes it O-O.
    assert!(pgn.contains(" O-O"), "{pgn}");
}

#[test]
fn a_stopped_match_resumes_with_the_games_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let run = |games: &str, extra: &[&str]| {
        Command::new(deepchess())
            .args(["match", "--ours", &fake("--name Alpha --seed 5"), "--engine", &fake("--name Beta --seed 6")])
            .args(["--quiet", "--movetime", "5", "--max-plies", "60", "--pgn", pgn.to_str().unwrap(), "--games", games])
            .args(extra)
            .output()
            .unwrap()
    };
    let first = run("4", &[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let before = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(before.matches("[Event ").count(), 4);

    // Asked for 6 games, the resumed match plays rounds 5 and 6 only, and counts all 6.
    let resumed = run("6", &["--resume"]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let after = std::fs::read_to_string(&pgn).unwrap();
    assert!(after.starts_with(&before), "the games played stay as they were");
    let mut rounds: Vec<usize> = after
        .match_indices("[Round \"")
        .map(|(i, _)| after[i + 8..].split('"').next().unwrap().parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, [1, 2, 3, 4, 5, 6]);
    let summary = String::from_utf8(resumed.stdout).unwrap();
    assert!(summary.contains(": 6 games"), "{summary}");

    // Nothing is left to play; another clock is refused.
    let again = run("6", &["--resume"]);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), after);
    let other = Command::new(deepchess())
        .args(["match", "--ours", &fake("--name Alpha"), "--engine", &fake("--name Beta"), "--quiet", "--games", "6"])
        .args(["--movetime", "9", "--resume", "--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!other.status.success());
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("played at movetime 5ms"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
}

#[test]
fn elo_arithmetic_matches_known_values() {
    // Computed independently (Python's math module).
    let score = Score { wins: 60, draws: 20, losses: 20 };
    assert!((score.fraction() - 0.7).abs() < 1e-12);
    let elo = score.elo().unwrap();
    assert!((elo.diff - 147.190_714).abs() < 1e-3, "{elo:?}");
    assert!((elo.lower - 86.225_015).abs() < 1e-3 && (elo.upper - 218.251_778).abs() < 1e-3, "{elo:?}");
    assert!((Score { wins: 10, draws: 7, losses: 5 }.los() - 0.901_647).abs() < 1e-5);
    assert_eq!(elo_from_score(0.5), 0.0);
    assert!((elo_from_score(0.75) - 190.848_501).abs() < 1e-3);
    assert!(Score { wins: 3, draws: 0, losses: 0 }.elo().is_none());
    assert_eq!(Score::default().los(), 0.5);
}
