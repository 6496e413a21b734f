//! `deepchess eval epd` on `tests/fixtures/suite.epd`: mates are solved by
//! the rules at any depth, whatever the network; STS points are counted.

use std::process::Command;

use deepchess_tests::binary::deepchess;
use deepchess_tests::shipped::paper_network;
use deepchess_trainer::eval::epd::parse_case;

#[test]
fn suite_is_scored() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/suite.epd");
    for search in ["scalar", "comparison"] {
        let mut command = Command::new(deepchess());
        command.args(["eval", "epd", "--suite", suite, "--depth", "2", "--search", search, "--verbose"]);
        if search == "comparison" {
            // The embedded default is a value network; the paper's plays the comparison search.
            command.arg("--weights").arg(paper_network());
        }
        let out = command.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("suite     : ") && text.contains("(6 positions)"), "{text}");
        assert!(text.contains(&format!("search    : {search}")), "{text}");
        // Four mates in one are found by the rules; the avoid-move line depends
        // on the network, so 4 or 5 of 5.
        assert!(text.contains("solved    : 4 / 5") || text.contains("solved    : 5 / 5"), "{text}");
        assert!(text.contains("points    : 10 / 10 (100.0%)"), "{text}");
        for id in ["back rank ", "back rank, Black ", "queen and king ", "scholar "] {
            assert!(text.lines().any(|l| l.starts_with(id) && l.ends_with("solved")), "{id}: {text}");
        }
    }
}

#[test]
fn bad_lines_are_clear_errors() {
    assert!(parse_case("8/8/8/8 w - - bm Ra8", 3).unwrap_err().to_string().contains("line 3"));
    let err = parse_case("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh5;", 7).unwrap_err().to_string();
    assert!(err.contains("line 7") && err.contains("Qh5"), "{err}");
    let case = parse_case("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; am Ra2 Rb1; id \"x\";", 1).unwrap();
    assert_eq!((case.best.len(), case.avoid.len(), case.id.as_str()), (1, 2, "x"));
}

#[test]
fn sts_points_are_read_strictly() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - -";
    let case = parse_case(&format!("{fen} bm Ra8#; c8 \"10 3\"; c9 \"a1a8 a1a2\";"), 1).unwrap();
    assert_eq!(case.points.iter().map(|(_, p)| *p).collect::<Vec<_>>(), [10, 3]);
    // Points that are not numbers, or a count that differs from the moves', are errors.
    let err = parse_case(&format!("{fen} c8 \"10 x\"; c9 \"a1a8 a1a2\";"), 4).unwrap_err().to_string();
    assert!(err.contains("line 4") && err.contains("\"x\""), "{err}");
    let err = parse_case(&format!("{fen} c8 \"10\"; c9 \"a1a8 a1a2\";"), 5).unwrap_err().to_string();
    assert!(err.contains("line 5") && err.contains("1 points for the 2 moves"), "{err}");
    // A move listed twice keeps its first points (as in seven lines of STS v3).
    let case = parse_case(&format!("{fen} c8 \"10 3 9\"; c9 \"a1a8 a1a2 a1a2\";"), 6).unwrap();
    assert_eq!(case.points.iter().map(|(_, p)| *p).collect::<Vec<_>>(), [10, 3]);
}
