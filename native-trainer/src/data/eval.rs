//! Engine evaluations in PGN comments, as TCEC and cutechess write them:
//! read ([`parse_eval`]) and written ([`eval_comment`]).

use crate::data::record::Eval;

/// Parses `+0.80/39`, `-1.25/30 12s`, `+M20/58` or `-M7/40` (pawns, or mate
/// in moves, from White's point of view) at the start of a comment. Anything
/// else (`book`, text) is `None`.
///
/// ```
/// # use deepchess_trainer::data::{Eval, parse_eval};
/// assert_eq!(parse_eval(b" +0.80/39 "), Some(Eval::Cp(80)));
/// assert_eq!(parse_eval(b"-M7/40"), Some(Eval::Mate(-7)));
/// assert_eq!(parse_eval(b"book"), None);
/// ```
pub fn parse_eval(comment: &[u8]) -> Option<Eval> {
    let text = std::str::from_utf8(comment).ok()?.trim();
    let score = text.split(['/', ' ']).next()?;
    let (negative, magnitude) = match score.as_bytes().first()? {
        b'+' => (false, &score[1..]),
        b'-' => (true, &score[1..]),
        _ => (false, score),
    };
    if let Some(moves) = magnitude.strip_prefix('M').or_else(|| magnitude.strip_prefix('#')) {
        let n: i16 = moves.parse().ok()?;
        return Some(Eval::Mate(if negative { -n } else { n }));
    }
    // Pawns with a decimal point; a bare integer is not an evaluation.
    if !magnitude.contains('.') || !magnitude.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let pawns: f64 = magnitude.parse().ok()?;
    let cp = (pawns * 100.0).round().min(f64::from(i16::MAX));
    Some(Eval::Cp(if negative { -cp as i16 } else { cp as i16 }))
}

/// An evaluation as [`parse_eval`] reads it back, White's view: `+0.35`
/// (pawns) or `-M3` (mate in moves), as `datagen` and `match` write it.
///
/// ```
/// # use deepchess_trainer::data::{Eval, eval_comment, parse_eval};
/// assert_eq!(eval_comment(Eval::Cp(-35)), "-0.35");
/// assert_eq!(eval_comment(Eval::Mate(3)), "+M3");
/// for eval in [Eval::Cp(0), Eval::Cp(1234), Eval::Cp(-7), Eval::Mate(-12)] {
///     assert_eq!(parse_eval(eval_comment(eval).as_bytes()), Some(eval));
/// }
/// ```
pub fn eval_comment(eval: Eval) -> String {
    match eval {
        Eval::Cp(cp) => format!("{}{:.2}", if cp < 0 { '-' } else { '+' }, f64::from(cp.unsigned_abs()) / 100.0),
        Eval::Mate(moves) => format!("{}M{}", if moves < 0 { '-' } else { '+' }, moves.unsigned_abs()),
    }
}
