//! The UCI engine's searches driven line by line: Lazy SMP helper threads,
//! MCTS, MultiPV order, and random sessions that must never panic.

use deepchess_core::SearchKind;
use deepchess_core::uci::HelperPool;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

mod common;

use common::uci::{bestmove, engine, engines, session};

#[test]
fn threads_start_helpers_only_where_the_host_runs_them() {
    let mut e = engine();
    e.set_max_threads(8);
    let out = session(&mut e, &["uci", "setoption name Threads value 3"]);
    assert!(out.contains(&"option name Threads type spin default 1 min 1 max 8".to_string()));
    let stop = Default::default();
    assert!(e.helper_tasks(&stop).is_empty(), "no search is running");
    let mut out = Vec::new();
    e.handle("position startpos moves e2e4", 0, &mut |l| out.push(l.to_string()));
    e.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
    assert_eq!(e.helper_tasks(&stop).len(), 2);
    e.handle("stop", 0, &mut |l| out.push(l.to_string()));
    assert!(e.helper_tasks(&stop).is_empty());
    // The comparison search has no helpers.
    e.handle("setoption name Search value comparison", 0, &mut |l| out.push(l.to_string()));
    e.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
    assert!(e.helper_tasks(&stop).is_empty());
}

/// The pool a host keeps: tasks for a new search with helpers, none for
/// one without, stopped when the search ends or a new `go` replaces it; the
/// helpers' nodes count in `info`.
#[test]
fn helper_pool_starts_and_stops_helpers_with_the_searches() {
    let mut e = engine();
    e.set_max_threads(4);
    let mut pool = HelperPool::new();
    e.handle("setoption name Threads value 3", 0, &mut |_| {});
    assert!(pool.sync(&e).start.is_empty(), "no search");
    e.handle("go infinite", 0, &mut |_| {});
    let sync = pool.sync(&e);
    assert!(!sync.stopped);
    assert_eq!(sync.start.len(), 2);
    let threads: Vec<_> = sync.start.into_iter().map(|task| std::thread::spawn(move || task.run())).collect();
    assert!(pool.sync(&e).start.is_empty(), "one set of tasks per search");
    let mut out = Vec::new();
    let clock = || 0;
    while !out.iter().any(|l: &String| l.starts_with("info depth 3 ")) {
        e.think(2048, &clock, &mut |l| out.push(l.to_string()));
    }
    // Let the helpers count a few slices, then end the search.
    std::thread::sleep(std::time::Duration::from_millis(200));
    e.think(1, &clock, &mut |l| out.push(l.to_string()));
    e.handle("stop", 0, &mut |l| out.push(l.to_string()));
    assert!(pool.sync(&e).stopped);
    let helper_nodes: u64 = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert!(helper_nodes > 0);
    assert!(!pool.is_running());

    // A new `go` replaces the search: its helpers stop, and new ones start.
    e.handle("go infinite", 0, &mut |_| {});
    let first = pool.sync(&e);
    assert_eq!(first.start.len(), 2);
    e.handle("go infinite", 0, &mut |_| {});
    let second = pool.sync(&e);
    assert!(second.stopped);
    assert_eq!(second.start.len(), 2);
    // Tasks of a stopped search end at once.
    for task in first.start {
        assert_eq!(task.run(), 0);
    }
    e.handle("stop", 0, &mut |_| {});
    assert!(pool.sync(&e).stopped);
    for task in second.start {
        assert_eq!(task.run(), 0);
    }
    // One thread: no helpers, and the engine is asked once per search.
    e.handle("setoption name Threads value 1", 0, &mut |_| {});
    e.handle("go depth 2", 0, &mut |_| {});
    assert!(pool.sync(&e).start.is_empty());
}

/// `info` counts the helpers' nodes: a search with helpers that have
/// searched reports more nodes than its own.
#[test]
fn info_nodes_include_the_helpers() {
    let mut e = engine();
    e.set_max_threads(2);
    let mut pool = HelperPool::new();
    e.handle("setoption name Threads value 2", 0, &mut |_| {});
    e.handle("go infinite", 0, &mut |_| {});
    let tasks = pool.sync(&e).start;
    let stop_after = std::thread::spawn(move || tasks.into_iter().map(|t| t.run()).sum::<u64>());
    std::thread::sleep(std::time::Duration::from_millis(300));
    pool.stop();
    let helper_nodes = stop_after.join().unwrap();
    assert!(helper_nodes > 0);
    let mut out = Vec::new();
    let clock = || 2000;
    while !out.iter().any(|l: &String| l.contains(" pv ")) {
        e.think(64, &clock, &mut |l| out.push(l.to_string()));
    }
    let line = out.iter().find(|l| l.contains(" pv ")).unwrap();
    let nodes: u64 = line.split(" nodes ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(nodes > helper_nodes, "{line} (helpers: {helper_nodes})");
    e.handle("stop", 0, &mut |_| {});
}

/// Random sessions built from UCI words, valid and broken: no panic, and
/// every search ends with exactly one `bestmove`. (`fuzz/` runs the same
/// property under libFuzzer on arbitrary bytes.)
#[test]
fn random_sessions_never_panic() {
    use rand::{Rng, SeedableRng, rngs::SmallRng};
    let words = [
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "infinite",
        "stop",
        "setoption",
        "name",
        "value",
        "Hash",
        "MultiPV",
        "Threads",
        "EvalFile",
        "Search",
        "scalar",
        "comparison",
        "e2e4",
        "e7e5",
        "g1f3",
        "a7a8q",
        "e1g1",
        "0",
        "1",
        "2",
        "3",
        "-7",
        "99999999999999999999",
        "8/8/8/8/8/8/8/8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "w",
        "b",
        "KQkq",
        "-",
        "☃",
        "\u{0}",
    ];
    let mut rng = SmallRng::seed_from_u64(3);
    let mut e = engine();
    e.handle("setoption name Hash value 1", 0, &mut |_| {});
    for _ in 0..3_000 {
        let n = rng.random_range(0..8);
        let mut line: Vec<&str> = (0..n).map(|_| words[rng.random_range(0..words.len())]).collect();
        if rng.random_bool(0.5) {
            line.insert(0, ["go", "position", "setoption", "stop"][rng.random_range(0..4)]);
        }
        let line = line.join(" ");
        let searching = e.is_searching();
        let mut bestmoves = 0;
        e.handle(&line, 0, &mut |l| bestmoves += usize::from(l.starts_with("bestmove")));
        for _ in 0..4 {
            e.think(300, &|| 0, &mut |l| bestmoves += usize::from(l.starts_with("bestmove")));
        }
        assert!(bestmoves <= 1 + usize::from(searching), "{line}: {bestmoves} bestmoves");
        if line.starts_with("stop") {
            assert!(!e.is_searching());
        }
    }
    let mut bestmoves = 0;
    let searching = e.is_searching();
    e.handle("stop", 0, &mut |l| bestmoves += usize::from(l.starts_with("bestmove")));
    assert_eq!(bestmoves, usize::from(searching));
}

#[test]
fn engine_mcts_plays_a_legal_move_and_answers_stop() {
    let mut e = engine();
    let out =
        session(&mut e, &["uci", "setoption name Engine value mcts", "position startpos moves e2e4", "go nodes 800"]);
    assert!(out.contains(&"option name Engine type combo default alphabeta var alphabeta var mcts".to_string()));
    assert_eq!(e.search_kind(), Some(SearchKind::Mcts));
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    // Lines at 64, 128, 256 and 512 playouts, and the last at 800.
    assert_eq!(infos.len(), 5, "{out:?}");
    assert!(
        infos.last().unwrap().contains(" nodes 800 ") && infos.iter().all(|l| l.contains(" score cp ")),
        "{infos:?}"
    );
    let mut pos = Chess::default();
    pos.play_unchecked("e2e4".parse::<UciMove>().unwrap().to_move(&pos).unwrap());
    let best = bestmove(&out).parse::<UciMove>().unwrap();
    assert!(best.to_move(&pos).is_ok(), "{best} is legal after 1. e4");

    // `stop` during `go infinite` ends it with a bestmove at once.
    let mut out = Vec::new();
    e.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
    e.think(300, &|| 0, &mut |l| out.push(l.to_string()));
    assert!(!out.iter().any(|l| l.starts_with("bestmove")));
    e.handle("stop", 0, &mut |l| out.push(l.to_string()));
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");

    // Back to alpha-beta: the Search option's kind plays again.
    session(&mut e, &["setoption name Engine value alphabeta"]);
    assert_eq!(e.search_kind(), Some(SearchKind::Scalar));
    let out = session(&mut e, &["setoption name Engine value montecarlo"]);
    assert!(out[0].starts_with("info string error: invalid value"), "{out:?}");
}

/// MultiPV from visit counts: each MCTS report is `k` lines, `multipv 1` to
/// `k`, different root moves, most visited first; `bestmove` is line 1's.
#[test]
fn engine_mcts_reports_multipv_lines_by_visits() {
    let mut e = engine();
    let lines =
        ["setoption name Engine value mcts", "setoption name MultiPV value 3", "position startpos", "go nodes 300"];
    let out = session(&mut e, &lines);
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    // Reports at 64, 128 and 256 playouts, and the last at 300: three lines each.
    assert_eq!(infos.len(), 12, "{out:?}");
    let last = &infos[9..];
    let first_moves: Vec<String> = last.iter().map(|l| value_of(l, "pv")).collect();
    for (k, line) in last.iter().enumerate() {
        assert_eq!(value_of(line, "multipv"), (k + 1).to_string(), "{line}");
        assert!(line.contains(" nodes 300 ") && line.contains(" score cp "), "{line}");
    }
    assert!(first_moves[0] != first_moves[1] && first_moves[1] != first_moves[2] && first_moves[0] != first_moves[2]);
    assert_eq!(bestmove(&out), first_moves[0]);
    // At most one line per legal move: Ka2 is White's only move.
    let out = session(&mut e, &["position fen 1r5k/8/8/8/8/8/8/K7 w - - 0 1", "go nodes 64"]);
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 1, "{out:?}");
    assert!(infos[0].contains(" multipv 1 ") && infos[0].contains(" pv a1a2"), "{out:?}");
    assert_eq!(bestmove(&out), "a1a2");
}

/// The word after `name` in an `info` line.
fn value_of(line: &str, name: &str) -> String {
    line.split(&format!(" {name} ")).nth(1).expect(name).split(' ').next().unwrap().to_string()
}

/// A line's score as a key that orders it for the side to move (mates above
/// and below every centipawn score), read from its `info` text.
fn score_rank(line: &str) -> i64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").expect("a score");
    let n: i64 = words[at + 2].parse().unwrap();
    match words[at + 1] {
        "cp" => n,
        "mate" if n > 0 => (1 << 32) - n,
        "mate" => -(1 << 32) - n,
        other => panic!("score {other}"),
    }
}

#[test]
fn multipv_lines_are_sorted_within_each_depth_and_bestmove_is_line_one() {
    let fens = [
        "startpos".to_string(),
        "fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".to_string(),
        "fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".to_string(),
        "fen r3k2r/ppp2ppp/2n1bn2/3qp3/3P4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 8".to_string(),
    ];
    for (kind, mut e) in engines().into_iter().filter(|(kind, _)| *kind != SearchKind::Mcts) {
        // The comparison search needs 90 s for depth 5 on the last position in
        // a test build, 10 s for depth 4; four iterations of four lines each
        // test the order as well.
        let go = if kind == SearchKind::Comparison { "go depth 4" } else { "go depth 5" };
        for fen in &fens {
            let out = session(&mut e, &["setoption name MultiPV value 4", &format!("position {fen}"), go]);
            let infos: Vec<&String> =
                out.iter().filter(|l| l.starts_with("info depth") && l.contains(" pv ")).collect();
            // Printed in iterations: multipv 1, 2, …, k, each iteration's scores best first.
            let mut iteration: Vec<&String> = Vec::new();
            for line in &infos {
                let multipv: usize = value_of(line, "multipv").parse().unwrap();
                if multipv == 1 {
                    iteration.clear();
                }
                assert_eq!(multipv, iteration.len() + 1, "{kind:?} {fen}: {infos:#?}");
                if let Some(previous) = iteration.last() {
                    assert_eq!(value_of(previous, "depth"), value_of(line, "depth"), "{kind:?} {fen}: {infos:#?}");
                    assert!(score_rank(previous) >= score_rank(line), "{kind:?} {fen}: unsorted {infos:#?}");
                }
                iteration.push(line);
            }
            let line_one = infos.iter().rev().find(|l| value_of(l, "multipv") == "1").expect("a line 1");
            let first_move = line_one.split(" pv ").nth(1).unwrap().split_whitespace().next().unwrap();
            assert_eq!(bestmove(&out), first_move, "{kind:?} {fen}: {out:#?}");
        }
    }
}
