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
    let common = ["--movetime", "5", "--max-plies", "80", "--out", out.to_str().unwrap()];
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
    datagen(&[&["--engine", &c, "--engine", &d, "--games", "3", "--append"][..], &common[..]].concat());
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
