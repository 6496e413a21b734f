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
        // The command lines tell the engines apart where their names do not.
        let alpha = fake("--name Alpha --seed 1");
        assert_eq!(tag(game, if i % 2 == 0 { "WhiteCommand" } else { "BlackCommand" }), alpha);
        // Both games of a pair start with the same opening.
        if i % 2 == 1 {
            assert_eq!(first_moves(games[i - 1]), first_moves(game), "pair {}", i / 2);
        }
        assert!(game.contains("{ book }"));
        // Every move after the book says how long its engine thought, after
        // its score and depth where the engine gave them (cutechess's
        // `{ +0.46/14 0.41s }`).
        let text = game.replace('\n', " ");
        let notes: Vec<&str> =
            text.split("{ ").skip(1).filter_map(|c| c.split(" }").next()).filter(|&c| c != "book").collect();
        assert!(!notes.is_empty(), "{game}");
        for note in notes {
            let time = note.rsplit(' ').next().unwrap();
            assert!(time.ends_with('s') && time.trim_end_matches('s').parse::<f64>().is_ok(), "{note:?} in {game}");
        }
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
    // The opponent's crashes are its forfeits: wins, but left out of the score.
    assert!(summary.contains("W/D/L           : 0 / 0 / 0"), "{summary}");
    assert!(summary.contains("their forfeits  : 4 (crashes 4, on time 0, illegal moves 0)"), "{summary}");
    assert!(summary.contains("with forfeits   : +4 =0 -0"), "{summary}");
    assert!(summary.contains("engine failures : 4"), "{summary}");
    assert_eq!(pgn.matches("failed: Crashy exited").count(), 4, "{pgn}");

    let (summary, pgn) =
        run_match(&fake("--name Alpha"), &fake("--name Liar --illegal-after 2"), &["--games", "2", "--movetime", "5"]);
    // The illegal move comes in the first game (left out of the score); the
    // second is random play.
    assert!(summary.contains("their forfeits  : 1 (crashes 0, on time 0, illegal moves 1)"), "{summary}");
    let line = summary.lines().find_map(|l| l.strip_prefix("W/D/L           : ")).unwrap();
    let counted: u32 = line.split(" / ").map(|n| n.trim().parse::<u32>().unwrap()).sum();
    assert_eq!(counted, 1, "{summary}");
    // The PGN writer turns the description's double quotes into single ones.
    assert!(pgn.contains("illegal move 'a1a1'"), "{pgn}");
}

#[test]
fn a_hung_engine_loses_on_its_move() {
    let (summary, pgn) =
        run_match(&fake("--name Alpha"), &fake("--name Sleepy --hang-after 1"), &["--games", "1", "--movetime", "20"]);
    // A hang is the opponent's forfeit: its loss, left out of the score.
    assert!(summary.contains("their forfeits  : 1 (crashes 1, on time 0, illegal moves 0)"), "{summary}");
    assert!(summary.contains("with forfeits   : +1 =0 -0"), "{summary}");
    assert!(pgn.contains("did not answer"), "{pgn}");
}

#[test]
fn time_losses_and_our_own_forfeits_are_counted_apart() {
    // The opponent overruns a 1 s clock from its third move on: each game
    // is its loss on time, left out of the score.
    let (summary, _) = run_match(
        &fake("--name Alpha"),
        &fake("--name Sloth --slow-after 2 --slow-ms 600"),
        &["--games", "2", "--tc", "1+0", "--max-plies", "100"],
    );
    assert!(summary.contains("their forfeits  : 2 (crashes 0, on time 2, illegal moves 0)"), "{summary}");
    assert!(summary.contains("W/D/L           : 0 / 0 / 0"), "{summary}");
    assert!(summary.contains("Elo difference  : none (no game counted)"), "{summary}");

    // Our own crashes are our losses, and count.
    let (summary, _) = run_match(
        &fake("--name Crashy --crash-after 3"),
        &fake("--name Beta"),
        &["--games", "2", "--movetime", "5", "--max-plies", "100"],
    );
    assert!(summary.contains("our forfeits    : 2 (crashes 2, on time 0, illegal moves 0)"), "{summary}");
    assert!(summary.contains("W/D/L           : 0 / 0 / 2"), "{summary}");
    assert!(summary.contains("their forfeits  : 0 (crashes 0, on time 0, illegal moves 0)"), "{summary}");
}

#[test]
fn time_odds_give_each_side_its_own_clock() {
    // After an eight-ply opening each side makes six moves; we think 400 ms
    // a move from our second on: 2 s or more overruns a 1 s clock, and fits
    // a 4 s one.
    let slow = fake("--name Slow --slow-after 1 --slow-ms 400");
    let even = ["--games", "2", "--tc", "1+0", "--max-plies", "20"];
    let (summary, _) = run_match(&slow, &fake("--name Quick"), &even);
    assert!(summary.contains("our forfeits    : 2 (crashes 0, on time 2, illegal moves 0)"), "{summary}");

    let odds = ["--games", "2", "--tc", "4+0", "--opponent-tc", "1+0", "--max-plies", "20"];
    let (summary, pgn) = run_match(&slow, &fake("--name Quick"), &odds);
    assert!(summary.contains("ours 4+0, theirs 1+0"), "{summary}");
    assert!(summary.contains("our forfeits    : 0 (crashes 0, on time 0"), "{summary}");
    assert!(summary.contains("W/D/L           : 0 / 2 / 0"), "{summary}");
    let games: Vec<&str> = pgn.split("[Event").skip(1).collect();
    assert_eq!((tag(games[0], "WhiteTimeControl"), tag(games[0], "BlackTimeControl")), ("4+0", "1+0"));
    assert_eq!((tag(games[1], "WhiteTimeControl"), tag(games[1], "BlackTimeControl")), ("1+0", "4+0"));
    assert!(!pgn.contains("[TimeControl"), "{pgn}");
}

#[test]
fn a_fixed_depth_match_says_so() {
    let (summary, pgn) =
        run_match(&fake("--name A"), &fake("--name B"), &["--games", "2", "--depth", "2", "--max-plies", "20"]);
    assert!(summary.contains("2 games, depth 2"), "{summary}");
    assert_eq!(pgn.matches("[TimeControl \"depth 2\"]").count(), 2, "{pgn}");
    assert!(summary.contains("as White        : ") && summary.contains("as Black        : "), "{summary}");

    // Our fixed depth against the opponent's clock (how the site's Strength
    // levels are rated): each side searches by its own limit.
    let (summary, pgn) = run_match(
        &fake("--name A"),
        &fake("--name B"),
        &["--games", "2", "--depth", "3", "--opponent-tc", "2+0.05", "--max-plies", "20"],
    );
    assert!(summary.contains("2 games, ours depth 3, theirs 2+0.05"), "{summary}");
    let games: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    assert_eq!((tag(games[0], "WhiteTimeControl"), tag(games[0], "BlackTimeControl")), ("depth 3", "2+0.05"));
    assert_eq!((tag(games[1], "WhiteTimeControl"), tag(games[1], "BlackTimeControl")), ("2+0.05", "depth 3"));
    assert!(summary.contains("our forfeits    : 0 (crashes 0, on time 0"), "{summary}");
}

#[test]
fn each_engine_gets_its_own_options() {
    // `Illegal=true` makes the fake engine answer with illegal moves: given to
    // us, we forfeit both games; the opponent's options stay its own.
    let (summary, pgn) = run_match(
        &fake("--name A"),
        &fake("--name B"),
        &["--games", "2", "--movetime", "5", "--max-plies", "20", "--our-option", "Illegal=true", "--option", "Hash=1"],
    );
    assert!(summary.contains("our forfeits    : 2 (crashes 0, on time 0, illegal moves 2)"), "{summary}");
    let games: Vec<&str> = pgn.split("[Event").skip(1).collect();
    assert_eq!((tag(games[0], "WhiteOptions"), tag(games[0], "BlackOptions")), ("Illegal=true", "Hash=1"));
    assert_eq!((tag(games[1], "WhiteOptions"), tag(games[1], "BlackOptions")), ("Hash=1", "Illegal=true"));

    let out = Command::new(deepchess())
        .args(["match", "--ours", &fake("--name A"), "--engine", &fake("--name B"), "--movetime", "5"])
        .args(["--our-option", "Threads"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--our-option takes Name=Value"));
}

#[test]
fn the_sprt_stops_the_match_when_it_decides() {
    // Our engine crashes in every game: at 0,200 each lost pair adds −0.42
    // to the LLR, so seven do not decide (−2.93) and eight accept H0 (−3.35
    // ≤ −2.94, fishtest's value); no further game starts (one may have
    // started while the sixteenth was being counted: its pair stays open).
    let (summary, pgn) = run_match(
        &fake("--name Crashy --crash-after 3"),
        &fake("--name Beta"),
        &["--games", "40", "--movetime", "5", "--sprt", "0,200"],
    );
    assert!(summary.contains("after 8 pairs [8, 0, 0, 0, 0]: H0 accepted (at most +0)"), "{summary}");
    assert!(summary.contains("LLR -3.35 in [-2.94, 2.94]"), "{summary}");
    let games = pgn.matches("[Event ").count();
    assert!(games == 16 || games == 17, "{games} games: {summary}");
    assert!(summary.contains(&format!("DeepChess vs Beta: {games} games")), "{summary}");
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
fn our_command_and_our_network_are_not_both_taken() {
    // `--ours` replaces the command `--weights` would be given to: refused, not ignored.
    let out = Command::new(deepchess())
        .args(["match", "--ours", &fake("--name Alpha"), "--weights", "net.dcnn", "--engine", &fake("--name Beta")])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--ours") && stderr.contains("--weights"), "{stderr}");
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
