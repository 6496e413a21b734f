//! `deepchess datagen` with fake engines: games, headers, zstd output that
//! `data build` reads, `--append`, and self-play with one engine.

use std::io::Read;
use std::process::Command;

use deepchess_tests::binary::{deepchess, fake_engine};

fn games_in(path: &std::path::Path) -> String {
    let mut text = String::new();
    zstd::Decoder::new(std::fs::File::open(path).unwrap()).unwrap().read_to_string(&mut text).unwrap();
    text
}

fn datagen(args: &[&str]) {
    let out = Command::new(deepchess()).arg("datagen").args(args).arg("--quiet").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn generates_appends_and_builds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.pgn.zst");
    let (a, b) = (
        format!("{} --name A --seed 3", fake_engine().display()),
        format!("{} --name B --seed 4", fake_engine().display()),
    );
    // Seeded random plies after each opening (the game's own seed): two games
    // from the same opening and colours could otherwise repeat each other move
    // for move, as the fake engines follow their seed from their start, and
    // `data build` would drop one as a duplicate (seen once under load).
    let common = ["--movetime", "5", "--max-plies", "80", "--random-plies", "4", "--out", out.to_str().unwrap()];
    datagen(&[&["--engine", &a, "--engine", &b, "--games", "6", "--jobs", "2"][..], &common[..]].concat());
    let text = games_in(&out);
    assert_eq!(text.matches("[Event \"deepchess datagen\"]").count(), 6);
    for tag in ["[WhiteCommand ", "[BlackCommand ", "[Termination ", "[Result ", "[TimeControl \"movetime 5ms\"]"] {
        assert_eq!(text.matches(tag).count(), 6, "{tag}");
    }
    // Round robin: both engines play both colours.
    assert!(text.contains("[White \"A\"]") && text.contains("[White \"B\"]"));

    // Fresh seeds for the appended games: the fake engines' moves follow
    // their seed from their start, so the same seeds could replay an earlier
    // game move for move (same opening, same colours, engines just started;
    // which games those are depends on the scheduling of the two jobs), and
    // `data build` would drop it as a duplicate.
    let (c, d) = (
        format!("{} --name A --seed 5", fake_engine().display()),
        format!("{} --name B --seed 6", fake_engine().display()),
    );
    datagen(&[&["--engine", &c, "--engine", &d, "--games", "9", "--append"][..], &common[..]].concat());
    let text = games_in(&out);
    assert_eq!(text.matches("[Event ").count(), 9);
    assert!(text.contains("[Round \"9\"]"));

    let data = dir.path().join("data");
    let build = Command::new(deepchess())
        .args([
            "data",
            "build",
            "--pgn",
            out.to_str().unwrap(),
            "--out",
            data.to_str().unwrap(),
            "--include-draws",
            "--quiet",
        ])
        .output()
        .unwrap();
    let summary = String::from_utf8(build.stdout).unwrap();
    assert!(summary.contains("games read     : 9"), "{summary}");
    assert!(summary.contains("games used     : 9"), "{summary}");

    // One engine: it plays itself.
    let solo = dir.path().join("solo.pgn.zst");
    datagen(&["--engine", &a, "--games", "2", "--movetime", "5", "--max-plies", "40", "--out", solo.to_str().unwrap()]);
    assert_eq!(games_in(&solo).matches("[White \"A\"]").count(), 2);
}

#[test]
fn self_play_labels_every_move_and_resumes_without_repeating_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("self-play.pgn.zst");
    let ours = format!("{} uci", deepchess().display());
    let common = [
        "--engine",
        &ours,
        "--nodes",
        "300",
        "--random-plies",
        "4",
        "--max-plies",
        "60",
        "--out",
        out.to_str().unwrap(),
    ];
    datagen(&[&common[..], &["--games", "3"]].concat());
    let text = games_in(&out);
    assert_eq!(text.matches("[TimeControl \"nodes 300\"]").count(), 3, "{text}");
    // Every engine move carries its search score, White's view, as TCEC writes it.
    let scores = text.matches("{ +").count() + text.matches("{ -").count();
    assert!(scores >= 3 * 20, "{scores} scores:\n{text}");

    // A run stopped while writing: half a frame at the end. The next run
    // cuts it off and goes on with the next game numbers.
    let mut bytes = std::fs::read(&out).unwrap();
    let whole = bytes.len();
    bytes.extend_from_slice(&zstd::encode_all(&b"[Event \"cut short\"]"[..], 9).unwrap()[..10]);
    std::fs::write(&out, &bytes).unwrap();
    assert_eq!(deepchess_trainer::commands::datagen::complete_frames(&bytes), whole);
    datagen(&[&common[..], &["--games", "5", "--append"]].concat());
    let text = games_in(&out);
    assert_eq!(text.matches("[Event \"deepchess datagen\"]").count(), 5, "{text}");
    // The same command again: the file is whole, nothing more is played.
    datagen(&[&common[..], &["--games", "5", "--append"]].concat());
    assert_eq!(games_in(&out).matches("[Event \"deepchess datagen\"]").count(), 5);
    assert!(!text.contains("cut short"));
    for round in 1..=5 {
        assert_eq!(text.matches(&format!("[Round \"{round}\"]")).count(), 1, "round {round}");
    }

    // Into the dataset: no game is a duplicate of another, and positions
    // carry the search's scores.
    let data = dir.path().join("data");
    let build = Command::new(deepchess())
        .args(["data", "build", "--pgn", out.to_str().unwrap(), "--out", data.to_str().unwrap()])
        .args(["--include-draws", "--all-positions", "--val-permille", "0", "--quiet"])
        .output()
        .unwrap();
    let summary = String::from_utf8(build.stdout).unwrap();
    assert!(build.status.success(), "{summary}{}", String::from_utf8_lossy(&build.stderr));
    assert!(summary.contains("games used     : 5"), "{summary}");
    let train = deepchess_trainer::data::Dataset::open(&data.join("train.bin")).unwrap();
    let evaluated = train.records().iter().filter(|r| r.eval().is_some()).count();
    assert!(
        evaluated * 10 >= train.records().len() * 8,
        "{evaluated} of {} positions evaluated",
        train.records().len()
    );
}
