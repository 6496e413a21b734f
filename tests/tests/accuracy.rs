//! `deepchess eval accuracy` on a dataset built from several inputs: the
//! overall figure, then one per input (engine games and human games are
//! reported apart in the model cards), on games whose right answer is
//! known.

use std::path::Path;
use std::process::Command;

use deepchess_tests::binary::deepchess;

fn default_weights() -> std::path::PathBuf {
    let weights = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../weights"));
    weights.join(std::fs::read_to_string(weights.join("DEFAULT")).unwrap().trim())
}

/// White takes Black's queen on the third move, then both sides develop
/// quietly: no capture, no check, queens off for Black alone.
const WHITE_WINS_THE_QUEEN: &str = "1. e4 e5 2. Nf3 Qh4 3. Nxh4 Nc6 4. d3 d6 5. Be2 Be7 6. O-O Nf6 7. c3 O-O 8. Nd2 \
                                    Be6 9. Re1 Rfe8 10. Bf1 Rad8 11. h3 h6 12. a3 a6";
/// Black takes White's queen on the second move, then the same.
const BLACK_WINS_THE_QUEEN: &str = "1. e4 Nf6 2. Qh5 Nxh5 3. d3 e5 4. Nf3 Nc6 5. Be2 Nf6 6. O-O Be7 7. Nc3 O-O 8. \
                                    Be3 d6 9. Rfe1 Be6 10. Rad1 Re8 11. h3 h6 12. a3 a6";

fn game(moves: &str, result: &str) -> String {
    format!("[Event \"fixture\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n")
}

#[test]
fn accuracy_is_reported_per_input_and_is_right_where_the_answer_is_known() {
    let dir = tempfile::tempdir().unwrap();
    // Two inputs of the same two games: one with their true results (each
    // won by the side a queen up), one with the results swapped. From the
    // fourth move on (--skip-moves 3) every pair of the first orders a
    // position a queen up for White above one a queen up for Black: a
    // network that knows material gets all of them right, and all of the
    // second's wrong.
    let (right, swapped) = (dir.path().join("right.pgn"), dir.path().join("swapped.pgn"));
    std::fs::write(&right, game(WHITE_WINS_THE_QUEEN, "1-0") + &game(BLACK_WINS_THE_QUEEN, "0-1")).unwrap();
    std::fs::write(&swapped, game(WHITE_WINS_THE_QUEEN, "0-1") + &game(BLACK_WINS_THE_QUEEN, "1-0")).unwrap();
    let data = dir.path().join("data");
    let build = Command::new(deepchess())
        .args(["data", "build", "--quiet", "--all-positions", "--skip-moves", "3", "--val-permille", "1000"])
        .args(["--keep-duplicates", "--pgn"])
        .args([&right, &swapped])
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
    let per_input: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("by source")).skip(1).collect();
    assert_eq!(per_input.len(), 2, "{text}");
    let figure = |line: &str| line.split_whitespace().nth(1).unwrap().to_string();
    for (line, (name, expected)) in per_input.iter().zip([("right.pgn", "100.00%"), ("swapped.pgn", "0.00%")]) {
        assert!(line.trim_start().starts_with(name), "{text}");
        assert_eq!(figure(line), expected, "{name}: {text}");
        assert!(line.contains("utility") && line.contains(" pairs)"), "{text}");
    }
    // Each position is counted under its own input: the 18 positions after
    // the first three moves of each game, in each input.
    let count = |line: &str| -> usize {
        let inside = &line[line.find('(').unwrap() + 1..];
        inside.split_whitespace().next().unwrap().parse().unwrap()
    };
    let total: usize = text.lines().find_map(|l| l.strip_prefix("positions : ")).unwrap().trim().parse().unwrap();
    assert_eq!(count(per_input[0]) + count(per_input[1]), total, "{text}");
    assert_eq!(count(per_input[0]), count(per_input[1]), "{text}");
    assert_eq!(total, 4 * 18, "{text}");
}
