//! `deepchess eval accuracy` on a dataset built from several inputs: the
//! overall figure, then one per input (engine games and human games are
//! reported apart in the model cards).

use std::path::Path;
use std::process::Command;

use deepchess_tests::binary::deepchess;

fn fixture() -> String {
    std::fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games.pgn"))).unwrap()
}

fn default_weights() -> std::path::PathBuf {
    let weights = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../weights"));
    weights.join(std::fs::read_to_string(weights.join("DEFAULT")).unwrap().trim())
}

#[test]
fn accuracy_is_reported_per_input() {
    let dir = tempfile::tempdir().unwrap();
    // Two inputs: the fixture's first two games (a White win and a Black win;
    // the fixture's last games are damaged on purpose), and again with a draw.
    let text = fixture();
    let games: Vec<String> = text.split("[Event ").skip(1).map(|g| format!("[Event {g}")).collect();
    let (a, b) = (dir.path().join("first.pgn"), dir.path().join("second.pgn"));
    std::fs::write(&a, games[..2].concat()).unwrap();
    std::fs::write(&b, games[..3].concat()).unwrap();
    let data = dir.path().join("data");
    let build = Command::new(deepchess())
        .args([
            "data",
            "build",
            "--quiet",
            "--all-positions",
            "--skip-moves",
            "0",
            "--val-permille",
            "999",
            "--keep-duplicates",
            "--pgn",
        ])
        .args([&a, &b])
        .arg("--out")
        .arg(&data)
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));

    let out = Command::new(deepchess())
        .args(["eval", "accuracy", "--pairs", "500", "--weights"])
        .arg(default_weights())
        .arg("--data")
        .arg(&data)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("accuracy  : "), "{text}");
    let per_input: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("by source")).skip(1).collect();
    assert_eq!(per_input.len(), 2, "{text}");
    // The same games in each input: the same positions, pairs and figure.
    let figure = |line: &str| line.split_whitespace().nth(1).unwrap().to_string();
    for (line, name) in per_input.iter().zip(["first.pgn", "second.pgn"]) {
        assert!(line.trim_start().starts_with(name), "{text}");
        assert!(figure(line).ends_with('%') && line.contains(" pairs)"), "{text}");
    }
    assert_eq!(figure(per_input[0]), figure(per_input[1]), "{text}");
    // Each position is counted under its own input: the inputs' positions add up to the total.
    let count = |line: &str| -> usize {
        let inside = &line[line.find('(').unwrap() + 1..];
        inside.split_whitespace().next().unwrap().parse().unwrap()
    };
    let total: usize = text.lines().find_map(|l| l.strip_prefix("positions : ")).unwrap().trim().parse().unwrap();
    assert_eq!(count(per_input[0]) + count(per_input[1]), total, "{text}");
    assert_eq!(count(per_input[0]), count(per_input[1]), "{text}");
}
