//! The UCI engine state machine, driven line by line as a host drives it.

use deepchess_core::SearchKind;
use deepchess_core::uci::{Command, HelperPool, Request, UciEngine};
use deepchess_core::{Network, Shape, seeded};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

/// An engine over a random network with both heads (the scalar search by
/// default).
fn engine() -> UciEngine {
    let shape = Shape::distilled().with_utility(true).unwrap();
    let net = Network::from_bytes(&seeded::network(&shape, 2.0, 5).to_bytes()).unwrap();
    UciEngine::new(Some(net))
}

/// One engine per search, chosen with `setoption name Search`.
fn engines() -> Vec<(SearchKind, UciEngine)> {
    SearchKind::ALL
        .into_iter()
        .map(|kind| {
            let mut e = engine();
            let mut out = Vec::new();
            e.handle(&format!("setoption name Search value {}", kind.name()), 0, &mut |l| out.push(l.to_string()));
            assert!(out.is_empty(), "{out:?}");
            assert_eq!(e.search_kind(), Some(kind));
            (kind, e)
        })
        .collect()
}

/// Sends `lines`, thinking to completion after each; returns the output.
fn session(engine: &mut UciEngine, lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let clock = || 0;
    for line in lines {
        let request = engine.handle(line, 0, &mut |l| out.push(l.to_string()));
        assert_ne!(request, Request::Quit);
        let mut slices = 0;
        while engine.is_thinking() && slices < 100_000 {
            engine.think(1000, &clock, &mut |l| out.push(l.to_string()));
            slices += 1;
        }
    }
    out
}

fn bestmove(out: &[String]) -> &str {
    out.iter().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove line")
}

#[test]
fn handshake_and_search() {
    for (_, mut e) in engines() {
        let out = session(&mut e, &["uci", "isready", "ucinewgame", "position startpos moves e2e4", "go depth 3"]);
        assert!(out[0].starts_with("id name DeepChess"));
        assert!(out.contains(&"uciok".to_string()));
        assert!(out.contains(&"readyok".to_string()));
        let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
        assert_eq!(infos.len(), 3, "{out:?}");
        for (i, info) in infos.iter().enumerate() {
            for field in [" seldepth ", " multipv 1 ", " score cp ", " nodes ", " nps ", " time ", " pv "] {
                assert!(info.contains(field), "{info} lacks {field:?}");
            }
            assert!(info.starts_with(&format!("info depth {} ", i + 1)));
        }
        let mut pos = Chess::default();
        pos.play_unchecked("e2e4".parse::<UciMove>().unwrap().to_move(&pos).unwrap());
        assert!(bestmove(&out).parse::<UciMove>().unwrap().to_move(&pos).is_ok(), "{out:?}");
    }
}

#[test]
fn multipv_lines() {
    for (_, mut e) in engines() {
        let out = session(&mut e, &["setoption name MultiPV value 3", "position startpos", "go depth 2"]);
        let depth2: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth 2 ")).collect();
        assert_eq!(depth2.len(), 3);
        for (k, line) in depth2.iter().enumerate() {
            assert!(line.contains(&format!(" multipv {} ", k + 1)), "{line}");
        }
    }
}

#[test]
fn mate_scores_are_exact() {
    for (_, mut e) in engines() {
        let out = session(&mut e, &["position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 2"]);
        assert!(out.iter().any(|l| l.contains(" score mate 1 ")), "{out:?}");
        assert_eq!(bestmove(&out), "a1a8");
        let out = session(&mut e, &["position fen 7k/Q7/6K1/8/8/8/8/8 b - - 0 1", "go depth 3"]);
        assert!(out.iter().any(|l| l.contains(" score mate -1 ")), "{out:?}");
    }
}

#[test]
fn no_legal_move() {
    for (_, mut e) in engines() {
        let out = session(&mut e, &["position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "go depth 3"]);
        assert_eq!(bestmove(&out), "(none)");
        assert!(out.iter().any(|l| l.contains("score mate 0")));
    }
}

#[test]
fn bad_input_is_reported_and_survived() {
    let mut e = engine();
    let out = session(
        &mut e,
        &[
            "position startpos moves e2e4",
            "position fen not/a/fen w - - 0 1",
            "position startpos moves e2e5",
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
            "position",
            "go depth banana",
            "setoption name Hash value lots",
            "setoption name NoSuchOption value 1",
            "setoption",
            "\u{0}\u{7f}garbage ☃",
            "",
            "go depth 1",
        ],
    );
    let errors = out.iter().filter(|l| l.starts_with("info string error: ")).count();
    assert_eq!(errors, 8, "{out:#?}");
    // The position from the first command was kept: Black is to move.
    let m = bestmove(&out);
    let mut pos = Chess::default();
    pos.play_unchecked("e2e4".parse::<UciMove>().unwrap().to_move(&pos).unwrap());
    assert!(m.parse::<UciMove>().unwrap().to_move(&pos).is_ok(), "{m}");
}

#[test]
fn stop_during_infinite_gives_bestmove_at_once() {
    for (_, mut e) in engines() {
        let mut out = Vec::new();
        e.handle("position startpos", 0, &mut |l| out.push(l.to_string()));
        e.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
        for _ in 0..20 {
            e.think(500, &|| 0, &mut |l| out.push(l.to_string()));
        }
        assert!(e.is_thinking());
        assert!(!out.iter().any(|l| l.starts_with("bestmove")));
        e.handle("isready", 0, &mut |l| out.push(l.to_string()));
        assert_eq!(out.last().unwrap(), "readyok");
        e.handle("stop", 0, &mut |l| out.push(l.to_string()));
        assert!(out.last().unwrap().starts_with("bestmove "));
        assert!(!e.is_searching());
        // A second stop prints nothing.
        let before = out.len();
        e.handle("stop", 0, &mut |l| out.push(l.to_string()));
        assert_eq!(out.len(), before);
    }
}

#[test]
fn infinite_waits_for_stop_even_when_done() {
    for (_, mut e) in engines() {
        let mut out = Vec::new();
        e.handle("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 0, &mut |l| out.push(l.to_string()));
        // Depth 1 ends almost at once, but `infinite` holds bestmove back.
        e.handle("go infinite depth 1", 0, &mut |l| out.push(l.to_string()));
        for _ in 0..100 {
            e.think(10_000, &|| 0, &mut |l| out.push(l.to_string()));
        }
        assert!(!e.is_thinking() && e.is_searching());
        assert!(!out.iter().any(|l| l.starts_with("bestmove")));
        e.handle("stop", 0, &mut |l| out.push(l.to_string()));
        assert_eq!(out.last().unwrap(), "bestmove a1a8");
    }
}

#[test]
fn time_limits_stop_the_search() {
    for (_, mut e) in engines() {
        let mut out = Vec::new();
        let now = std::cell::Cell::new(0u64);
        e.handle("position startpos", 0, &mut |l| out.push(l.to_string()));
        e.handle("go movetime 100", 0, &mut |l| out.push(l.to_string()));
        let mut slices = 0;
        while e.is_thinking() {
            now.set(now.get() + 10); // each slice "takes" 10 ms
            e.think(200, &|| now.get(), &mut |l| out.push(l.to_string()));
            slices += 1;
            assert!(slices < 1000);
        }
        assert!(out.last().unwrap().starts_with("bestmove "));
        assert!(now.get() <= 200, "stopped after {} ms", now.get());
    }
}

#[test]
fn no_network_is_an_error_not_a_crash() {
    let mut e = UciEngine::new(None);
    let out = session(&mut e, &["uci", "position startpos", "go depth 3"]);
    assert!(out.iter().any(|l| l.starts_with("info string error: no network")));
    assert_eq!(bestmove(&out), "(none)");
    let mut out = Vec::new();
    let bytes = seeded::network(&Shape::distilled(), 1.0, 1).to_bytes();
    e.load_network(Ok(&bytes), "test.dcnn", &mut |l| out.push(l.to_string()));
    e.load_network(Ok(&bytes[..100]), "broken.dcnn", &mut |l| out.push(l.to_string()));
    assert!(out[0].starts_with("info string loaded network test.dcnn"));
    assert!(out[1].starts_with("info string error: cannot load network broken.dcnn: weights file truncated"));
    assert!(e.network().is_some());
}

#[test]
fn evalfile_is_a_host_request() {
    let mut e = engine();
    assert_eq!(
        e.handle("setoption name EvalFile value /tmp/x y.dcnn", 0, &mut |_| {}),
        Request::LoadEvalFile("/tmp/x y.dcnn".into())
    );
    assert_eq!(e.handle("quit", 0, &mut |_| {}), Request::Quit);
}

#[test]
fn evalfile_embedded_is_loaded_by_the_engine() {
    let mut e = UciEngine::new(None);
    let mut out = Vec::new();
    let request = e.handle("setoption name EvalFile value <embedded>", 0, &mut |l| out.push(l.to_string()));
    assert_eq!(request, Request::Continue);
    let (name, _) = deepchess_core::DEFAULT_NETWORK.expect("weights/DEFAULT is embedded");
    let net = e.network().unwrap();
    let plays = if net.has_comparison() { "scalar, comparison, mcts" } else { "scalar, mcts" };
    assert_eq!(out, [format!("info string loaded network {name}: {} (plays {plays})", net.shape())]);
}

/// The `loaded network` line ends with the searches the network plays, so
/// that a front end (the site's Search choice) offers just those.
#[test]
fn the_loaded_line_names_the_searches_the_network_plays() {
    let shapes = [
        (Shape::distilled().with_utility(true).unwrap(), "(plays scalar, comparison, mcts)"),
        (Shape::distilled(), "(plays comparison)"),
        (Shape::with_heads(&[773, 16, 8], &[], true).unwrap(), "(plays scalar, mcts)"),
    ];
    for (shape, plays) in shapes {
        let mut e = UciEngine::new(None);
        let mut out = Vec::new();
        e.load_network(Ok(&seeded::network(&shape, 1.0, 3).to_bytes()), "n.dcnn", &mut |l| out.push(l.to_string()));
        assert_eq!(out, [format!("info string loaded network n.dcnn: {shape} {plays}")]);
        // `uci` names it too, before `uciok`, so that a front end need not load it again.
        let reply = session(&mut e, &["uci"]);
        assert_eq!(
            reply[reply.len() - 2..],
            [format!("info string network n.dcnn: {shape} {plays}"), "uciok".to_string()]
        );
    }
}

#[test]
fn uci_names_the_starting_network_and_none_without_one() {
    let shape = Shape::distilled().with_utility(true).unwrap();
    let net = Network::from_bytes(&seeded::network(&shape, 1.0, 5).to_bytes()).unwrap();
    let reply = session(&mut UciEngine::new(Some(net)), &["uci"]);
    let named: Vec<&String> = reply.iter().filter(|l| l.starts_with("info string network ")).collect();
    assert_eq!(named, [&format!("info string network <embedded>: {shape} (plays scalar, comparison, mcts)")]);
    let net = Network::from_bytes(&seeded::network(&shape, 1.0, 5).to_bytes()).unwrap();
    let reply = session(&mut UciEngine::new(Some(net)).with_source("my.dcnn"), &["uci"]);
    assert!(reply.iter().any(|l| l.starts_with("info string network my.dcnn: ")), "{reply:?}");
    let reply = session(&mut UciEngine::new(None), &["uci"]);
    assert!(!reply.iter().any(|l| l.starts_with("info string network")), "{reply:?}");
    assert_eq!(reply.last().map(String::as_str), Some("uciok"));
}

/// The score of the last `info … score cp N` line.
fn last_cp(out: &[String]) -> i32 {
    let line = out.iter().rev().find(|l| l.contains(" score cp ")).expect("a score");
    line.split(" score cp ").nth(1).and_then(|rest| rest.split(' ').next()).unwrap().parse().unwrap()
}

#[test]
fn fifty_move_scale_shrinks_scores_as_the_count_grows() {
    // Black's only move, Kh7, is quiet: the position searched has 61
    // half-moves, so the scaled score is the unscaled one × 139 / 200.
    let go = ["position fen 7k/8/8/8/8/8/P7/K5Q1 b - - 60 80", "go depth 1"];
    let plain = last_cp(&session(&mut engine(), &go));
    let mut scaled = engine();
    let reply = session(&mut scaled, &["uci", "setoption name FiftyMoveScale value true", go[0], go[1]]);
    assert!(reply.iter().any(|l| l == "option name FiftyMoveScale type check default false"), "{reply:?}");
    assert_ne!(plain, 0);
    assert_eq!(last_cp(&reply), plain * 139 / 200, "{reply:?}");
    // Off again: the plain score; a value that is not a boolean is refused.
    let reply = session(&mut scaled, &["setoption name FiftyMoveScale value false", go[0], go[1]]);
    assert_eq!(last_cp(&reply), plain);
    let reply = session(&mut scaled, &["setoption name FiftyMoveScale value 1"]);
    assert!(reply.iter().any(|l| l.contains("invalid value \"1\" for option FiftyMoveScale")), "{reply:?}");
}

#[test]
fn parser_edge_cases() {
    assert_eq!(
        Command::parse("setoption name Move Overhead value 50"),
        Ok(Some(Command::SetOption { name: "Move Overhead".into(), value: Some("50".into()) }))
    );
    assert_eq!(
        Command::parse("position fen 8/8/8/8/8/8/8/K6k w - - moves a1a2"),
        Ok(Some(Command::Position { fen: Some("8/8/8/8/8/8/8/K6k w - -".into()), moves: vec!["a1a2".into()] }))
    );
    assert!(matches!(Command::parse("go wtime -50 btime 1000"), Ok(Some(Command::Go(g))) if g.wtime == Some(0)));
    assert!(Command::parse("go depth").is_err());
    assert_eq!(Command::parse("   "), Ok(None));
}

#[test]
fn long_iterations_report_progress_once_a_second() {
    for (_, mut e) in engines() {
        let mut out = Vec::new();
        let now = std::cell::Cell::new(0u64);
        e.handle("position startpos", 0, &mut |l| out.push(l.to_string()));
        e.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
        for _ in 0..40 {
            now.set(now.get() + 300); // each slice "takes" 300 ms
            e.think(50, &|| now.get(), &mut |l| out.push(l.to_string()));
        }
        e.handle("stop", now.get(), &mut |l| out.push(l.to_string()));
        let progress: Vec<&String> =
            out.iter().filter(|l| l.starts_with("info depth") && !l.contains(" pv ")).collect();
        assert!(!progress.is_empty(), "{out:?}");
        for line in &progress {
            for field in [" nodes ", " nps ", " hashfull ", " time "] {
                assert!(line.contains(field), "{line} lacks {field:?}");
            }
        }
        // At most one line of any kind per second of search.
        assert!(out.iter().filter(|l| l.starts_with("info")).count() <= 40 * 300 / 1000 + 20, "{out:?}");
    }
}

#[test]
fn search_option() {
    let mut e = engine();
    let out = session(&mut e, &["uci"]);
    assert!(out.contains(&"option name Search type combo default scalar var scalar var comparison".to_string()));
    assert!(out.contains(&"option name Threads type spin default 1 min 1 max 1".to_string()));
    // Spin values are clamped to their range, as for Hash: one thread here.
    let out = session(&mut e, &["setoption name Search value sideways", "setoption name Threads value 2"]);
    assert_eq!(out, ["info string error: invalid value \"sideways\" for option Search"]);
    assert_eq!(e.search_kind(), Some(SearchKind::Scalar));
    e.handle("go infinite", 0, &mut |_| {});
    assert!(e.helper_job().is_none());
    e.handle("stop", 0, &mut |_| {});

    // A network without a utility head plays the comparison search, and says so.
    let comparison_only = Network::from_bytes(&seeded::network(&Shape::distilled(), 2.0, 5).to_bytes()).unwrap();
    let mut e = UciEngine::new(Some(comparison_only));
    assert_eq!(e.search_kind(), Some(SearchKind::Comparison));
    let out = session(&mut e, &["setoption name Search value scalar", "position startpos", "go depth 2"]);
    assert!(out[0].starts_with("info string error: this network has no utility head"), "{out:?}");
    assert_eq!(e.search_kind(), Some(SearchKind::Comparison));
    assert!(out.last().unwrap().starts_with("bestmove "));
}

#[test]
fn threads_start_helpers_only_where_the_host_runs_them() {
    let mut e = engine();
    e.set_max_threads(8);
    let out = session(&mut e, &["uci", "setoption name Threads value 3"]);
    assert!(out.contains(&"option name Threads type spin default 1 min 1 max 8".to_string()));
    assert!(e.helper_job().is_none(), "no search is running");
    let mut out = Vec::new();
    e.handle("position startpos moves e2e4", 0, &mut |l| out.push(l.to_string()));
    e.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
    let job = e.helper_job().expect("a job for the helpers");
    assert_eq!(job.helpers, 2);
    assert_eq!(job.game.len(), 1);
    e.handle("stop", 0, &mut |l| out.push(l.to_string()));
    assert!(e.helper_job().is_none());
    // The comparison search has no helpers.
    e.handle("setoption name Search value comparison", 0, &mut |l| out.push(l.to_string()));
    e.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
    assert!(e.helper_job().is_none());
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
