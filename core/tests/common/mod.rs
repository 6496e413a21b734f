//! Helpers shared by the search tests: positions, mate proofs, games, the
//! checks every value network passes (`value_net`) and a
//! material count that makes the right choice known in advance.
// Each test file uses its own part of these.
#![allow(dead_code)]

pub mod uci;
pub mod value_net;

use deepchess_core::search::{Event, Limits, Report, Score, zobrist};
use deepchess_core::{Search, WeightsError};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, Role, fen::Fen};

/// A position from its FEN.
pub fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

/// A move in UCI, or `(none)`.
pub fn uci(m: Option<Move>) -> String {
    m.map_or("(none)".into(), |m| UciMove::from_standard(m).to_string())
}

/// Limits of a fixed-depth search.
pub fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

/// Whether the side to move in `pos` can force mate within `moves` moves.
pub fn forces_mate(pos: &Chess, moves: u32) -> bool {
    moves > 0
        && pos.legal_moves().into_iter().any(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
                || (!after.legal_moves().is_empty()
                    && after.legal_moves().into_iter().all(|reply| {
                        let mut next = after.clone();
                        next.play_unchecked(reply);
                        forces_mate(&next, moves - 1)
                    }))
        })
}

/// Material (pawn 1, minor 3, rook 5, queen 9), White's minus Black's. For
/// tests only: the engine never uses a hand-written judgement.
pub fn material(pos: &Chess) -> i32 {
    let values = [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)];
    let board = pos.board();
    values
        .iter()
        .map(|&(role, v)| {
            v * ((board.by_role(role) & board.white()).count() as i32
                - (board.by_role(role) & board.black()).count() as i32)
        })
        .sum()
}

/// The game so far: from `start`, the moves given; returns the position and
/// the hashes before it.
pub fn game(start: &str, moves: &[&str]) -> (Chess, Vec<u64>) {
    let mut pos = position(start);
    let mut hashes = Vec::new();
    for m in moves {
        hashes.push(zobrist(&pos));
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    (pos, hashes)
}

/// Searches `pos` to `depth` with `k` lines (MultiPV) through the search
/// seam, and checks what every search must give: each iteration reports
/// lines 1 to `k` in order, with distinct first moves, each a legal
/// sequence from the root. Returns the last iteration's reports.
pub fn multipv_lines(search: &mut dyn Search, pos: &Chess, depth: u32, k: usize) -> Vec<Report> {
    search.start(pos.clone(), &[], Limits { depth: Some(depth), multipv: k, ..Limits::default() });
    let mut reports = Vec::new();
    while let event @ (Event::Line | Event::Paused) = search.step(u64::MAX, &mut |_| false) {
        if event == Event::Line {
            reports.push(search.report(pos).unwrap());
        }
    }
    let events: Vec<(u32, usize)> = reports.iter().map(|r| (r.depth, r.multipv)).collect();
    let expected: Vec<(u32, usize)> = (1..=depth).flat_map(|d| (1..=k).map(move |i| (d, i))).collect();
    assert_eq!(events, expected);
    let last = reports.split_off(reports.len() - k);
    for (i, line) in last.iter().enumerate() {
        assert!(last[..i].iter().all(|other| other.pv[0] != line.pv[0]), "{last:?}");
        let mut p = pos.clone();
        for &m in &line.pv {
            assert!(p.legal_moves().contains(&m));
            p.play_unchecked(m);
        }
    }
    last
}

/// What every weights file's reader must refuse with a typed error, never
/// a panic: every truncation (each `step` bytes), a byte after the last
/// tensor, a magic of another format (`other`), and version 9. The shared
/// header ([`deepchess_core::file::FileHeader`]) reads the magic and the
/// version of every family.
pub fn header_defects_are_typed_errors<T: std::fmt::Debug>(
    bytes: &[u8],
    step: usize,
    other: &[u8; 4],
    read: impl Fn(&[u8]) -> Result<T, WeightsError>,
) {
    for cut in (0..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
        assert!(read(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut extra = bytes.to_vec();
    extra.push(0);
    assert_eq!(read(&extra).unwrap_err(), WeightsError::TrailingBytes { extra: 1 });
    let mut magic = bytes.to_vec();
    magic[..4].copy_from_slice(other);
    assert!(matches!(read(&magic), Err(WeightsError::BadMagic { .. })));
    let mut version = bytes.to_vec();
    version[4] = 9;
    assert!(matches!(read(&version), Err(WeightsError::UnsupportedVersion { found: 9, .. })));
}

/// Repetition is a draw, for any search that `run` runs (position, game
/// before it) and reports (score, best move) of: White a rook down repeats
/// (Kb1 again) and scores 0; a rook up, it avoids the repetition.
pub fn repetition_is_a_draw(mut run: impl FnMut(&Chess, &[u64]) -> (Score, Option<Move>)) {
    let shuffle = ["a1b1", "h8g8", "b1a1", "g8h8"];
    let (pos, hashes) = game("7k/8/8/8/8/8/7r/K7 w - - 10 40", &shuffle);
    let (score, best) = run(&pos, &hashes);
    assert_eq!(uci(best), "a1b1");
    assert_eq!(score, Score::Cp(0));

    let (pos, hashes) = game("7k/8/8/8/8/1R6/8/K7 w - - 10 40", &shuffle);
    let (score, best) = run(&pos, &hashes);
    assert_ne!(uci(best), "a1b1");
    assert!(matches!(score, Score::Cp(cp) if cp > 0));
}

/// `stop` ends a search at once, leaving a legal move to play.
pub fn stop_leaves_a_legal_move(search: &mut dyn Search, pos: &Chess) {
    search.start(pos.clone(), &[], Limits::default());
    assert_eq!(search.step(10, &mut |_| false), Event::Paused);
    search.stop();
    assert!(!search.is_running());
    assert!(pos.legal_moves().contains(&search.best_move().unwrap()));
}

/// A search run in slices of 37 nodes gives what one run gives: the same
/// nodes, move and last line (`whole` and `sliced` are two fresh searches
/// of one kind).
pub fn slices_resume_exactly(whole: &mut dyn Search, sliced: &mut dyn Search, pos: &Chess, depth: u32) {
    let run = |search: &mut dyn Search, budget: u64| {
        search.start(pos.clone(), &[], Limits { depth: Some(depth), ..Limits::default() });
        let (mut slices, mut last) = (0, None);
        loop {
            slices += 1;
            match search.step(budget, &mut |_| false) {
                Event::Finished => return (slices, last),
                Event::Line => last = search.report(pos),
                Event::Paused => {}
            }
        }
    };
    let (_, line) = run(whole, u64::MAX);
    let (slices, sliced_line) = run(sliced, 37);
    assert!(slices > 50, "{slices} slices");
    assert_eq!(sliced.nodes(), whole.nodes());
    assert_eq!((sliced_line, sliced.best_move()), (line, whole.best_move()));
}

/// `bytes` with its last weight not a number.
pub fn last_weight_nan(bytes: &[u8]) -> Vec<u8> {
    let mut nan = bytes.to_vec();
    let at = nan.len() - 4;
    nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
    nan
}
