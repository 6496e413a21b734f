//! The networks in `weights/`: named by their content hash, loadable, and the
//! default one embedded in the engine.

use std::io::Write;
use std::process::{Command, Stdio};

use deepchess_core::alphazero::AzNet;
use deepchess_core::deepchess::format;
use deepchess_core::learned::LearnedNet;
use deepchess_core::{DEFAULT_NETWORK, Network};
use deepchess_tests::binary::deepchess;
use deepchess_tests::shipped::{list, paper_network, weights_dir};

#[test]
fn every_shipped_network_is_named_by_its_hash_and_loads() {
    let mut count = 0;
    for entry in std::fs::read_dir(weights_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "dcnn") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(path.file_name().unwrap().to_str().unwrap(), format::file_name(&bytes), "{}", path.display());
        Network::from_bytes(&bytes).unwrap();
        count += 1;
    }
    assert!(count >= 1);
}

/// The networks the site lists besides the built-in one (`learners.json`):
/// every other shipped network, the paper's comparison network first. Each
/// listed file is named by its hash, loads, plays the searches the list
/// says (as the engine names them on loading), and plays in the binary: a
/// learner's through the scalar search to depth 3, the AlphaZero network
/// through 200 MCTS playouts, a DeepChess network through its comparison
/// search (its scalar search if it has no comparison head) to depth 3.
#[test]
fn every_listed_network_is_named_by_its_hash_and_plays() {
    let listed = list();
    for net in &listed {
        let name = &net.file;
        let path = weights_dir().join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let extension = path.extension().unwrap().to_str().unwrap();
        assert_eq!(name, &format::file_name(&bytes).replace(".dcnn", &format!(".{extension}")));
        let (setup, go, info) = match extension {
            "dcaz" => {
                AzNet::from_bytes(&bytes).unwrap();
                ("", "go nodes 200", "nodes 200 ")
            }
            "dcsn" => {
                LearnedNet::from_bytes(&bytes).unwrap();
                ("", "go depth 3", "info depth 3 ")
            }
            _ => {
                let net = Network::from_bytes(&bytes).unwrap();
                if net.has_comparison() {
                    ("setoption name Search value comparison\n", "go depth 3", "info depth 3 ")
                } else {
                    ("", "go depth 3", "info depth 3 ")
                }
            }
        };
        let plays = format!("(plays {})", net.plays.join(", "));
        let mut child =
            Command::new(deepchess()).arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let input =
            format!("setoption name EvalFile value {}\n{setup}position startpos moves e2e4\n{go}\n", path.display());
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let text = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
        let loaded = text.lines().next().unwrap();
        assert!(loaded.starts_with("info string loaded network") && loaded.ends_with(&plays), "{name}: {text}");
        assert!(text.contains(info) && !text.contains("error"), "{name}: {text}");
        assert_legal_bestmove(&text, &after_e4());
    }
    let paper = paper_network();
    assert_eq!(paper.file_name().unwrap().to_str().unwrap(), listed[0].file, "the paper's network comes first");
    assert_eq!(listed[0].plays, ["scalar", "comparison", "mcts"]);
    // Every network in weights/ but the built-in one is listed, once.
    let default = std::fs::read_to_string(weights_dir().join("DEFAULT")).unwrap();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(weights_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if [".dcnn", ".dcsn", ".dcaz"].iter().any(|e| name.ends_with(e)) && name != default.trim() {
            found.push(name);
        }
    }
    found.sort();
    let mut files: Vec<String> = listed.into_iter().map(|net| net.file).collect();
    files.sort();
    assert_eq!(found, files);
}

#[test]
fn the_default_network_is_embedded() {
    let name = std::fs::read_to_string(weights_dir().join("DEFAULT")).unwrap();
    let (embedded, bytes) = DEFAULT_NETWORK.expect("weights/DEFAULT is embedded");
    assert_eq!(embedded, name.trim());
    assert_eq!(bytes, std::fs::read(weights_dir().join(name.trim())).unwrap());
}

/// The README's command, with no `--weights`: the embedded network plays.
#[test]
fn uci_plays_with_the_embedded_network() {
    let mut child = Command::new(deepchess()).arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"uci\nisready\nposition startpos moves e2e4\ngo depth 5\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("info depth")).count(), 5, "{text}");
    assert!(text.lines().last().unwrap().starts_with("bestmove "), "{text}");
    assert!(!text.contains("error"), "{text}");
}

/// The default network is the value network the scalar search plays (and
/// MCTS over its utility); the comparison search plays the paper's network,
/// which the site lists (`every_listed_network_is_named_by_its_hash_and_plays`).
#[test]
fn the_default_network_has_a_utility_head() {
    let (_, bytes) = DEFAULT_NETWORK.unwrap();
    let net = Network::from_bytes(bytes).unwrap();
    assert!(net.has_utility(), "{}", net.shape());
}

/// The `setoption` line that loads a network `search` plays: the embedded
/// default for the scalar search, the paper's network for the comparison
/// search.
fn network_for(search: &str) -> String {
    let file = if search == "comparison" { paper_network().display().to_string() } else { "<embedded>".into() };
    format!("setoption name EvalFile value {file}\n")
}

fn play(input: &str) -> String {
    let mut child = Command::new(deepchess()).arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn after_e4() -> shakmaty::Chess {
    let start = shakmaty::Chess::default();
    let e4 = "e2e4".parse::<shakmaty::uci::UciMove>().unwrap().to_move(&start).unwrap();
    shakmaty::Position::play(start, e4).unwrap()
}

fn assert_legal_bestmove(text: &str, pos: &shakmaty::Chess) {
    let best = text.lines().last().unwrap().strip_prefix("bestmove ").unwrap_or_else(|| panic!("{text}"));
    let m = best.parse::<shakmaty::uci::UciMove>().unwrap();
    assert!(m.to_move(pos).is_ok(), "{best} is not legal");
}

/// The scalar search's acceptance command: a legal move after `info` lines
/// that carry `score cp`; and the same with the comparison search, over the
/// paper's network.
#[test]
fn both_searches_play_a_legal_move_with_centipawn_scores() {
    for search in ["scalar", "comparison"] {
        let text = play(&format!(
            "uci\n{}setoption name Search value {search}\nposition startpos\ngo movetime 1000\n",
            network_for(search)
        ));
        let infos: Vec<&str> = text.lines().filter(|l| l.starts_with("info depth") && l.contains(" pv ")).collect();
        assert!(!infos.is_empty() && infos.iter().all(|l| l.contains(" score cp ")), "{text}");
        assert!(!text.contains("error"), "{text}");
        assert_legal_bestmove(&text, &shakmaty::Chess::default());
    }
}

/// Lazy SMP: helper threads join the scalar search, and `stop` during
/// `go infinite` is answered with one legal move.
#[test]
fn threads_search_together_and_stop() {
    use deepchess_trainer::play::engine::Engine;
    let text = play("uci\n");
    assert!(text.lines().any(|l| l == "option name Threads type spin default 1 min 1 max 64"), "{text}");
    let mut engine = Engine::start(&format!("{} uci", deepchess().display()), &[]).unwrap();
    for search in ["scalar", "comparison"] {
        engine.send("setoption name Threads value 2").unwrap();
        engine.send(network_for(search).trim_end()).unwrap();
        engine.send(&format!("setoption name Search value {search}")).unwrap();
        engine.send("position startpos moves e2e4").unwrap();
        engine.send("go infinite").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(500));
        engine.send("stop").unwrap();
        let out = engine.read_until("bestmove ", std::time::Duration::from_secs(30)).unwrap();
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{out:?}");
        assert_legal_bestmove(&out.join("\n"), &after_e4());
    }
    assert!(engine.quit().unwrap().success());
}

/// `deepchess uci` offers every listed network by name in its `Network`
/// option, and loads one by that name; a `--networks` folder without a
/// list is an error, not an empty option.
#[test]
fn the_network_option_names_the_listed_networks() {
    let list = list();
    let pink = list.iter().find(|n| n.file.ends_with(".dcsn")).expect("a learner's network");
    let mut child = Command::new(deepchess())
        .args(["uci", "--networks"])
        .arg(weights_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = format!("uci\nsetoption name Network value {}\nposition startpos\ngo depth 2\n", pink.name);
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let text = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let vars: String = list.iter().map(|n| format!(" var {}", n.name)).collect();
    let option = format!("option name Network type combo default DeepChess (built in) var DeepChess (built in){vars}");
    assert!(text.lines().any(|l| l == option), "{text}");
    let loaded = format!("info string loaded network {}", weights_dir().join(&pink.file).display());
    assert!(text.lines().any(|l| l.starts_with(&loaded) && l.ends_with("(plays scalar)")), "{text}");
    assert!(text.contains("info depth 2 ") && !text.contains("error"), "{text}");

    let empty = tempfile::tempdir().unwrap();
    let out = Command::new(deepchess()).args(["uci", "--networks"]).arg(empty.path()).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("learners.json"), "{}", String::from_utf8_lossy(&out.stderr));
}
