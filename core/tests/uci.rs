//! The UCI engine state machine, driven line by line as a host drives it.

use deepchess_core::SearchKind;
use deepchess_core::uci::{Command, Request, UciEngine};
use deepchess_core::{Network, Shape, seeded};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

mod common;

use common::uci::{bestmove, engine, engines, session};

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
    assert_eq!(Command::parse("go perft 5"), Ok(Some(Command::Perft(5))));
    for bad in ["go perft", "go perft 0", "go perft five", "go perft -1", "go perft 3 4"] {
        assert!(Command::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn go_perft_divides_as_stockfish_does() {
    let mut e = engine();
    // The chess programming wiki's position 2 (castling both ways, en
    // passant, promotions two plies on): 48 moves, 2,039 leaves at depth 2.
    let kiwipete = "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = session(&mut e, &[kiwipete, "go perft 2"]);
    let (moves, end) = out.split_at(out.len() - 2);
    assert_eq!(end, ["", "Nodes searched: 2039"], "{out:?}");
    assert_eq!(moves.len(), 48);
    let sum: u64 = moves.iter().map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 2039);
    assert!(moves.contains(&"e1g1: 43".to_string()) && moves.contains(&"e1c1: 43".to_string()), "{moves:?}");
    // Each first move at depth 1 counts itself; the game's moves are played first.
    let out = session(&mut e, &["position startpos moves e2e4 e7e5", "go perft 1"]);
    assert_eq!(out.last().unwrap(), "Nodes searched: 29");
    assert!(out[..29].iter().all(|l| l.ends_with(": 1")), "{out:?}");
    // A position without moves: nothing under it.
    let out = session(&mut e, &["position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "go perft 3"]);
    assert_eq!(out, ["", "Nodes searched: 0"]);
    // A bad depth is an error line, and the engine goes on.
    let out = session(&mut e, &["go perft 0", "position startpos", "go perft 3"]);
    assert!(out[0].starts_with("info string error: go perft"), "{out:?}");
    assert_eq!(out.last().unwrap(), "Nodes searched: 8902");
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
    assert!(e.helper_tasks(&Default::default()).is_empty());
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
