//! The data pipeline on `tests/fixtures/games.pgn` and on generated games:
//! counts and skip reasons, the sampling rule, records against a replay,
//! evaluations, disjoint splits, determinism, pairs, and damaged files.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use deepchess_core::seeded;
use deepchess_core::shakmaty::san::San;
use deepchess_core::shakmaty::{Chess, EnPassantMode, Position, fen::Fen};
use deepchess_trainer::data::{
    self, BuildOptions, Dataset, DatasetError, Eval, GameFilter, GameReader, GameResult, HeldOut, PairSampler, Record,
    Sampling, SkipReason,
};
use pgn_reader::Reader;

#[path = "common/learnable.rs"]
mod learnable;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/games.pgn")
}

fn build(pgn: Vec<PathBuf>, out: &Path, sampling: Sampling, val_permille: u32) -> data::Summary {
    let filter = GameFilter::default();
    data::build(
        &BuildOptions { pgn, out: out.to_owned(), filter, sampling, held_out: HeldOut::Permille(val_permille) },
        true,
    )
    .unwrap()
}

fn records(dir: &Path) -> Vec<Record> {
    ["train.bin", "val.bin"].iter().flat_map(|f| Dataset::open(&dir.join(f)).unwrap().records().to_vec()).collect()
}

fn fen(pos: &Chess) -> String {
    // Without the move counters, which records normalize.
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.rsplitn(3, ' ').nth(2).unwrap().to_string()
}

#[test]
fn fixture_counts_and_skip_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let summary = build(vec![fixture()], dir.path(), Sampling::default(), 0);
    assert_eq!(summary.games_read, 7);
    assert_eq!(summary.games_used, 3);
    assert_eq!(summary.decisive_games, 2);
    for reason in [SkipReason::IllegalMove, SkipReason::Variant, SkipReason::NoResult, SkipReason::StartPosition] {
        assert_eq!(summary.skipped.get(&reason), Some(&1), "{reason:?}");
    }
    // Draws are excluded by default; up to 10 positions per decisive game.
    assert_eq!(summary.train.draws, 0);
    assert_eq!(summary.train.white_wins, 10);
    assert_eq!(summary.train.black_wins, 10);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["games_read"], 7);
    assert_eq!(meta["skipped"]["illegal-move"], 1);
}

#[test]
fn duplicates_across_inputs_are_kept_once_and_each_input_is_summarized() {
    let dir = tempfile::tempdir().unwrap();
    // The fixture twice, as a second collection: its games are all duplicates.
    let copy = dir.path().join("copy.pgn");
    std::fs::copy(fixture(), &copy).unwrap();
    let filter = GameFilter { dedup: true, min_plies: 20, ..GameFilter::default() };
    let options = BuildOptions {
        pgn: vec![fixture(), copy.clone()],
        out: dir.path().join("ds"),
        filter,
        sampling: Sampling { include_draws: true, ..Sampling::default() },
        held_out: HeldOut::Permille(0),
    };
    let summary = data::build(&options, true).unwrap();
    let [first, second] = &summary.sources[..] else { panic!("two sources: {:?}", summary.sources) };
    assert_eq!((first.games_read, second.games_read), (7, 7));
    assert_eq!((first.first_game, second.first_game), (0, 7));
    assert_eq!(first.games_used + first.skipped.values().sum::<u64>(), 7);
    assert_eq!(second.games_used, 0, "every game of the copy is a duplicate, too short or unreadable");
    assert_eq!(second.skipped.get(&SkipReason::Duplicate), Some(&first.games_used));
    assert_eq!(first.skipped.get(&SkipReason::TooShort), second.skipped.get(&SkipReason::TooShort));
    assert_eq!(second.positions, 0);
    assert_eq!(first.positions, summary.train.positions());
    let records = records(&options.out);
    assert!(records.iter().all(|r| first.contains(u64::from(r.game()))));
    assert_eq!(first.evaluated_positions, records.iter().filter(|r| r.eval().is_some()).count() as u64);
    assert!(summary.to_string().contains("copy.pgn"), "{summary}");

    // Without dedup the copy gives the same positions again.
    let again = BuildOptions { filter: GameFilter { dedup: false, ..filter }, out: dir.path().join("all"), ..options };
    let summary = data::build(&again, true).unwrap();
    assert_eq!(summary.sources[1].positions, summary.sources[0].positions);
}

#[test]
fn records_follow_the_paper_rule_and_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let all = Sampling { include_draws: true, all_positions: true, ..Sampling::default() };
    build(vec![fixture()], dir.path(), all, 0);
    let records = records(dir.path());

    // Replay the fixture's games independently of the build.
    let mut reader = Reader::new(std::fs::File::open(fixture()).unwrap());
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut GameReader).unwrap() {
        games.push(game.ok());
    }
    let (mut castles, mut promotions, mut en_passant, mut with_eval) = (0, 0, 0, 0);
    let mut expected = 0;
    for game in games.iter().flatten() {
        for (ply, p) in game.plies.iter().enumerate() {
            castles += usize::from(p.played.is_castle());
            promotions += usize::from(p.played.is_promotion());
            en_passant += usize::from(p.played.is_en_passant());
            expected += usize::from(ply >= 10 && !p.played.is_capture());
        }
    }
    assert!(castles >= 2 && promotions >= 1 && en_passant >= 1, "{castles} {promotions} {en_passant}");
    assert_eq!(records.len(), expected);

    for record in &records {
        let game = games[record.game() as usize].as_ref().expect("only replayable games give records");
        let ply = &game.plies[record.ply() as usize];
        let pos = record.position().unwrap();
        assert_eq!(fen(&pos), fen(&ply.position), "game {} ply {}", record.game(), record.ply());
        let played = record.played().to_move(&pos).unwrap();
        assert_eq!(played, ply.played);
        assert!(record.ply() >= 10, "none from the first five moves");
        assert!(!played.is_capture(), "none before a capture");
        assert_eq!(record.result(), Some(game.result));
        assert_eq!(record.eval(), ply.eval);
        with_eval += usize::from(record.eval().is_some());
        // The variation's comment never reaches the main line.
        assert_ne!(record.eval(), Some(Eval::Cp(999)));
    }
    assert!(with_eval > 20, "{with_eval} records with an evaluation");
}

#[test]
fn skip_checks_leaves_out_exactly_the_positions_in_check() {
    let (with, without) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let all = Sampling { include_draws: true, all_positions: true, include_captures: true, ..Sampling::default() };
    build(vec![fixture()], with.path(), all, 0);
    build(vec![fixture()], without.path(), Sampling { skip_checks: true, ..all }, 0);
    let key = |r: &Record| (r.game(), r.ply());
    let (with, without) = (records(with.path()), records(without.path()));
    let in_check: HashSet<_> = with.iter().filter(|r| r.position().unwrap().is_check()).map(key).collect();
    assert!(in_check.len() >= 4, "{} positions in check", in_check.len());
    let kept: HashSet<_> = without.iter().map(key).collect();
    let expected: HashSet<_> = with.iter().map(key).filter(|k| !in_check.contains(k)).collect();
    assert_eq!(kept, expected);
    assert_eq!(without.len(), with.len() - in_check.len());
}

/// A PGN of random games, written with shakmaty's SAN.
fn random_pgn(path: &Path, games: u64) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for seed in 0..games {
        let result = ["1-0", "0-1", "1/2-1/2"][seed as usize % 3];
        write!(out, "[Event \"Random {seed}\"]\n[Result \"{result}\"]\n\n").unwrap();
        for (i, (pos, m)) in seeded::playout(60, seed).into_iter().enumerate() {
            let Some(m) = m else { break };
            if i % 2 == 0 {
                write!(out, "{}. ", i / 2 + 1).unwrap();
            }
            write!(out, "{} ", San::from_move(&pos, m)).unwrap();
        }
        write!(out, "{result}\n\n").unwrap();
    }
}

#[test]
fn splits_are_disjoint_by_game_and_builds_are_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("random.pgn");
    random_pgn(&pgn, 300);
    // zstd input, as lichess publishes it.
    let zst = dir.path().join("random.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(std::fs::File::open(&pgn).unwrap(), 3).unwrap()).unwrap();

    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let sa = build(vec![pgn], &a, Sampling::default(), 300);
    let sb = build(vec![zst], &b, Sampling::default(), 300);
    assert_eq!((sa.games_read, sb.games_read), (300, 300));
    for file in ["train.bin", "val.bin"] {
        assert_eq!(std::fs::read(a.join(file)).unwrap(), std::fs::read(b.join(file)).unwrap(), "{file}");
    }
    let train: HashSet<u32> = Dataset::open(&a.join("train.bin")).unwrap().records().iter().map(Record::game).collect();
    let val: HashSet<u32> = Dataset::open(&a.join("val.bin")).unwrap().records().iter().map(Record::game).collect();
    assert!(train.is_disjoint(&val));
    assert!(train.len() > 100 && val.len() > 30, "{} {}", train.len(), val.len());

    // Another seed samples other positions.
    let c = dir.path().join("c");
    build(vec![dir.path().join("random.pgn")], &c, Sampling { seed: 7, ..Sampling::default() }, 300);
    assert_ne!(std::fs::read(a.join("train.bin")).unwrap(), std::fs::read(c.join("train.bin")).unwrap());
}

#[test]
fn record_round_trip() {
    for seed in 0..100 {
        for (i, (pos, m)) in seeded::playout(200, seed).into_iter().enumerate() {
            let Some(m) = m else { continue };
            for (result, eval) in [
                (GameResult::WhiteWins, Some(Eval::Cp(-123))),
                (GameResult::BlackWins, Some(Eval::Mate(-7))),
                (GameResult::Draw, None),
            ] {
                let record = Record::new(&pos, m, i as u32, result, eval, seed as u32);
                assert_eq!(fen(&record.position().unwrap()), fen(&pos));
                assert_eq!(record.position().unwrap().halfmoves(), pos.halfmoves().min(255));
                assert_eq!(record.played().to_move(&pos).unwrap(), m);
                assert_eq!(
                    (record.ply(), record.result(), record.eval(), record.game()),
                    (i as u32, Some(result), eval, seed as u32)
                );
            }
        }
    }
    assert_eq!(data::parse_eval(b"+M20/58"), Some(Eval::Mate(20)));
    assert_eq!(data::parse_eval(b"-0.05/1 0.1s"), Some(Eval::Cp(-5)));
    assert_eq!(data::parse_eval(b"12"), None);
}

#[test]
fn pairs_are_deterministic_and_fresh_each_epoch() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("random.pgn");
    random_pgn(&pgn, 60);
    build(vec![pgn], dir.path(), Sampling::default(), 0);
    let dataset = Dataset::open(&dir.path().join("train.bin")).unwrap();
    let records = dataset.records();
    let sampler = PairSampler::new(records, 1);
    let epoch0: Vec<_> = sampler.epoch(0, 500).collect();
    assert_eq!(epoch0, sampler.epoch(0, 500).collect::<Vec<_>>());
    assert_ne!(epoch0, sampler.epoch(1, 500).collect::<Vec<_>>());
    assert_ne!(epoch0, PairSampler::new(records, 2).epoch(0, 500).collect::<Vec<_>>());
    for (w, l) in epoch0 {
        assert_eq!(records[w as usize].result(), Some(GameResult::WhiteWins));
        assert_eq!(records[l as usize].result(), Some(GameResult::BlackWins));
    }
}

#[test]
fn damaged_datasets_are_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    build(vec![fixture()], dir.path(), Sampling::default(), 0);
    let train = dir.path().join("train.bin");
    let bytes = std::fs::read(&train).unwrap();
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, &bytes[..bytes.len() - 5]).unwrap();
    assert!(matches!(Dataset::open(&bad), Err(DatasetError::Length { .. })));
    std::fs::write(&bad, b"PK\x03\x04 definitely not a dataset, but long enough").unwrap();
    assert!(matches!(Dataset::open(&bad), Err(DatasetError::BadMagic { .. })));
    assert!(matches!(Dataset::open(&dir.path().join("missing.bin")), Err(DatasetError::Io { .. })));
}

#[test]
fn cli_build_dump_stats_openings() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_deepchess");
    let out = dir.path().join("ds");
    let run = |args: &[&str]| {
        let output = Command::new(bin).args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let summary =
        run(&["data", "build", "--pgn", fixture().to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(summary.contains("skipped illegal-move  : 1"), "{summary}");
    let dump = run(&["data", "dump", out.to_str().unwrap(), "--limit", "3"]);
    let lines: Vec<&str> = dump.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in lines {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert!(fields[0].parse::<Fen>().is_ok(), "{line}");
        assert!(["1-0", "0-1"].contains(&fields[1]));
        assert!(fields[2].parse::<u32>().unwrap() >= 10);
        assert!(fields[4] == "-" || fields[4].starts_with(['+', '-', 'M']), "{line}");
    }
    let stats = run(&["data", "stats", out.to_str().unwrap()]);
    assert!(stats.contains("positions : 20 from 2 games"), "{stats}");
    // Per input, from meta.json: games, kept, decisive share, positions, evaluated.
    assert!(stats.contains("games.pgn"), "{stats}");
    assert!(stats.lines().any(|l| l.starts_with("games.pgn") && l.contains("66.7%")), "{stats}");
    let openings = run(&["data", "openings", "--pgn", fixture().to_str().unwrap(), "--plies", "4"]);
    assert_eq!(openings.lines().count(), 3);
    assert!(openings.lines().all(|l| l.split(' ').count() == 4));
    let missing = Command::new(bin).args(["data", "dump", "/nonexistent/ds.bin"]).output().unwrap();
    assert!(!missing.status.success());
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("cannot read /nonexistent/ds.bin: "), "{stderr}");
    assert_eq!(stderr.matches("(os error 2)").count(), 1, "the cause once: {stderr}");
}

/// `data fit-scale` fits the scale of games whose evaluations predict their
/// results imperfectly, and says so, failing, where no evaluation exists.
#[test]
fn cli_fit_scale() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_deepchess");
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"];
    let (mut evaluated, mut bare) = (String::new(), String::new());
    for i in 0..48 {
        // Evaluations from −1.75 to +1.75; the side ahead mostly wins, not always.
        let pawns = (i % 8) as f64 * 0.5 - 1.75;
        let result = match (pawns > 0.0, i % 5) {
            (_, 0) => "1/2-1/2",
            (true, 1) | (false, 2..=4) => "0-1",
            _ => "1-0",
        };
        let (mut with, mut without) = (String::new(), String::new());
        for (ply, m) in moves.iter().enumerate() {
            let number = if ply % 2 == 0 { format!("{}. ", ply / 2 + 1) } else { String::new() };
            with += &format!("{number}{m} {{ {pawns:+.2}/12 }} ");
            without += &format!("{number}{m} ");
        }
        let tags = format!("[Event \"g{i}\"]\n[Result \"{result}\"]\n\n");
        evaluated += &format!("{tags}{with}{result}\n\n");
        bare += &format!("{tags}{without}{result}\n\n");
    }
    let run = |pgn: &str, name: &str| {
        let (path, out) = (dir.path().join(format!("{name}.pgn")), dir.path().join(name));
        std::fs::write(&path, pgn).unwrap();
        let build = Command::new(bin)
            .args(["data", "build", "--pgn", path.to_str().unwrap(), "--out", out.to_str().unwrap()])
            .args(["--all-positions", "--include-draws", "--keep-duplicates", "--skip-moves", "0"])
            .args(["--val-permille", "1000", "--quiet"])
            .output()
            .unwrap();
        assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
        Command::new(bin).args(["data", "fit-scale", out.to_str().unwrap()]).output().unwrap()
    };
    let fitted = run(&evaluated, "evaluated");
    let text = String::from_utf8_lossy(&fitted.stdout);
    assert!(fitted.status.success(), "{text}{}", String::from_utf8_lossy(&fitted.stderr));
    let all = text.lines().find(|l| l.trim_start().starts_with("all")).unwrap_or_else(|| panic!("{text}"));
    assert!(all.contains("480 positions"), "{all}");
    let scale: f64 = all.split("s = ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(scale > 10.0 && scale < 100_000.0, "{all}");
    assert!(text.lines().any(|l| l.trim_start().starts_with("evaluated.pgn") && l.contains("s = ")), "{text}");
    let none = run(&bare, "bare");
    assert!(!none.status.success());
    let stderr = String::from_utf8_lossy(&none.stderr);
    assert!(stderr.contains("no position has both an evaluation and a result"), "{stderr}");
}

#[test]
fn folds_hold_out_every_game_once() {
    use std::collections::BTreeSet;
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    learnable::learnable_pgn(&pgn, 60);
    let games =
        |file: &Path| -> BTreeSet<u32> { Dataset::open(file).unwrap().records().iter().map(Record::game).collect() };
    let sampling = Sampling { include_draws: true, ..Sampling::default() };
    let (mut held, mut all) = (Vec::new(), BTreeSet::new());
    for index in 1..=3 {
        let out = dir.path().join(format!("fold{index}"));
        let options = BuildOptions {
            pgn: vec![pgn.clone()],
            out: out.clone(),
            filter: GameFilter::default(),
            sampling,
            held_out: HeldOut::parse_fold(&format!("{index}/3")).unwrap(),
        };
        data::build(&options, true).unwrap();
        let (train, val) = (games(&out.join("train.bin")), games(&out.join("val.bin")));
        assert!(train.is_disjoint(&val), "fold {index}");
        let both: BTreeSet<u32> = train.union(&val).copied().collect();
        if index > 1 {
            assert_eq!(both, all, "every build keeps the same games");
        }
        all = both;
        // Each fold holds out about a third of the games.
        assert!((10..=30).contains(&val.len()), "fold {index}: {} of {} games held out", val.len(), all.len());
        held.push(val);
    }
    // The three folds' held-out games are disjoint and cover every game.
    let mut covered = BTreeSet::new();
    for val in &held {
        assert!(covered.is_disjoint(val));
        covered.extend(val.iter().copied());
    }
    assert_eq!(covered, all);
}
