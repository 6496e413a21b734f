//! Move ordering for the scalar search: the hash move, captures by static
//! exchange, killers, countermoves and history with a malus, handed out by
//! partial selection ([`pick`]).

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

use crate::search::ordering::is_tactical;
use crate::search::see::{see_ge, see_value};
use crate::search::types::MAX_PLY;

/// The ordering scores of a node's moves, beside its `MoveList`.
pub type Scores = ArrayVec<i32, 256>;

/// Picks by selection before the tail is sorted (see [`pick`]).
const SELECTED_PICKS: usize = 3;

/// The move to search `next`: moves are handed out exactly as a stable sort
/// by descending score would order them, without sorting the moves a cutoff
/// never reaches. The first [`SELECTED_PICKS`] are found by selection (the
/// first of the highest score, moved to `next` with the others keeping their
/// order); a node that gets further is likely to search everything, so the
/// rest is then sorted once, stably, and read in order.
///
/// `next` must count up from 0 by one (a node's moves are picked in turn).
pub fn pick(moves: &mut [Move], scores: &mut [i32], next: usize) -> Move {
    match next.cmp(&SELECTED_PICKS) {
        core::cmp::Ordering::Less => {
            let mut best = next;
            for i in next + 1..scores.len() {
                if scores[i] > scores[best] {
                    best = i;
                }
            }
            if best > next {
                moves[next..=best].rotate_right(1);
                scores[next..=best].rotate_right(1);
            }
        }
        core::cmp::Ordering::Equal => {
            // Insertion sort of the tail: stable, in place, and short lists.
            for i in next + 1..scores.len() {
                let (score, m) = (scores[i], moves[i]);
                let mut j = i;
                while j > next && scores[j - 1] < score {
                    scores[j] = scores[j - 1];
                    moves[j] = moves[j - 1];
                    j -= 1;
                }
                scores[j] = score;
                moves[j] = m;
            }
        }
        core::cmp::Ordering::Greater => {}
    }
    moves[next]
}

/// History scores stay within ±this.
const HISTORY_MAX: i32 = 16_384;

const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
const COUNTER: i32 = KILLER - 2;
const BAD_CAPTURE: i32 = -(1 << 28);

/// Whether a tactical move's ordering score (from [`History::scores`])
/// says it does not lose material: `see_ge(pos, m, 0)`. The hash move's
/// score says nothing of the kind (`false`).
pub fn is_good_capture(score: i32) -> bool {
    // A good capture scores GOOD_CAPTURE + 8 × victim − attacker's role (at
    // most 6); a losing one is below zero.
    (GOOD_CAPTURE - 8..HASH_MOVE).contains(&score)
}

/// What the scalar search has learnt about quiet moves: killers by ply,
/// butterfly history by side and from-to squares, and the countermove to
/// each opponent move (by its piece and target square).
pub struct History {
    killers: [[Option<Move>; 2]; MAX_PLY],
    butterfly: [[[i32; 64]; 64]; 2],
    counters: [[[Option<Move>; 64]; 6]; 2],
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History { killers: [[None; 2]; MAX_PLY], butterfly: [[[0; 64]; 64]; 2], counters: [[[None; 64]; 6]; 2] }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = History::new();
    }

    /// Writes into `scores` the ordering score of each of `moves` of `pos`
    /// (higher first): the
    /// hash move; captures and promotions that do not lose material (by
    /// [`see_ge`]), most valuable victim first; the killers of `ply`; the
    /// countermove to `previous`; quiet moves by history; then losing
    /// captures. [`pick`] hands the moves out in that order.
    pub fn scores(
        &self,
        pos: &Chess,
        moves: &[Move],
        hash_move: Option<Move>,
        ply: usize,
        previous: Option<Move>,
        scores: &mut Scores,
    ) {
        // Moves compared as packed integers: one match per move instead of
        // one per comparison through `Move`'s derived equality.
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]).map(key_of);
        let (hash_key, counter) = (key_of(hash_move), key_of(self.counter(pos.turn(), previous)));
        let turn = pos.turn();
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            let k = move_key(m);
            if k == hash_key {
                HASH_MOVE
            } else if is_tactical(m) {
                let victim = m.capture().map_or(0, see_value) + m.promotion().map_or(0, see_value);
                let base = if see_ge(pos, m, 0) { GOOD_CAPTURE } else { BAD_CAPTURE };
                base + victim * 8 - m.role() as i32
            } else if k == killers[0] {
                KILLER + 1
            } else if k == killers[1] {
                KILLER
            } else if k == counter {
                COUNTER
            } else {
                self.score(turn, m)
            }
        }));
    }

    /// The history score of a quiet move, within ±16384.
    pub fn score(&self, turn: Color, m: Move) -> i32 {
        let (from, to) = squares(m);
        self.butterfly[turn as usize][from][to]
    }

    /// Whether `m` is a killer at `ply` or the countermove to `previous`.
    pub fn is_refutation(&self, turn: Color, m: Move, ply: usize, previous: Option<Move>) -> bool {
        self.killers.get(ply).is_some_and(|k| k.contains(&Some(m))) || self.counter(turn, previous) == Some(m)
    }

    fn counter(&self, turn: Color, previous: Option<Move>) -> Option<Move> {
        let previous = previous?;
        self.counters[(!turn) as usize][previous.role() as usize - 1][previous.to() as usize]
    }

    /// The quiet move `best` caused a cutoff at `ply` with `depth` left,
    /// after the quiet moves `tried` (which it ends) failed to: `best` gains
    /// history, becomes a killer and the countermove to `previous`; the others
    /// lose history.
    pub fn record_cutoff(
        &mut self,
        turn: Color,
        best: Move,
        tried: &[Move],
        ply: usize,
        depth: i32,
        previous: Option<Move>,
    ) {
        if is_tactical(best) {
            return;
        }
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(best)
        {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        if let Some(previous) = previous {
            self.counters[(!turn) as usize][previous.role() as usize - 1][previous.to() as usize] = Some(best);
        }
        // Linear in the depth, so that shallow cutoffs count too and a move's
        // history reaches the thousands where the late-move reduction reads
        // it (`score / 8192` plies).
        let bonus = (128 * depth).min(1536);
        for &m in tried {
            let (from, to) = squares(m);
            let entry = &mut self.butterfly[turn as usize][from][to];
            let delta = if m == best { bonus } else { -bonus };
            // Gravity: the nearer the bound, the smaller the step.
            *entry += delta - *entry * delta.abs() / HISTORY_MAX;
        }
    }
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

/// `m` packed into 24 bits, one-to-one: the variant in the low two bits
/// (a drop also sets bit 23), then role, from, capture, to and promotion.
fn move_key(m: Move) -> u32 {
    let role = |r: Role| r as u32;
    match m {
        Move::Normal { role: r, from, capture, to, promotion } => {
            1 | role(r) << 2
                | (from as u32) << 5
                | capture.map_or(0, role) << 11
                | (to as u32) << 14
                | promotion.map_or(0, role) << 20
        }
        Move::EnPassant { from, to } => 2 | (from as u32) << 5 | (to as u32) << 14,
        Move::Castle { king, rook } => 3 | (king as u32) << 5 | (rook as u32) << 14,
        Move::Put { role: r, to } => role(r) << 2 | (to as u32) << 14 | 1 << 23,
    }
}

/// [`move_key`] of a move, or a key no move has.
fn key_of(m: Option<Move>) -> u32 {
    m.map_or(u32::MAX, move_key)
}

fn squares(m: Move) -> (usize, usize) {
    (m.from().map_or(0, |sq: Square| sq as usize), m.to() as usize)
}

/// Whether the side to move has a piece other than pawns and its king: the
/// null-move search's zugzwang guard.
pub fn has_non_pawn_material(pos: &Chess) -> bool {
    let board = pos.board();
    let pieces = board.by_color(pos.turn()) & !board.by_role(Role::Pawn) & !board.by_role(Role::King);
    pieces.any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::MoveList;

    #[test]
    fn picking_hands_moves_out_in_stable_sort_order() {
        // Every move of a middlegame position, with scores drawn from a small
        // range so that many tie: picking one by one gives exactly the order
        // of a stable sort by descending score.
        let pos: Chess = "r1bqk2r/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQkq - 0 7"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let moves = pos.legal_moves();
        let mut state = 0x9e37_79b9_u32;
        let scores: Scores = moves
            .iter()
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state % 5) as i32
            })
            .collect();
        let mut expected: alloc::vec::Vec<(i32, Move)> = scores.iter().copied().zip(moves.iter().copied()).collect();
        expected.sort_by_key(|&(score, _)| core::cmp::Reverse(score));

        let (mut picked_moves, mut picked_scores) = (moves.clone(), scores.clone());
        let picked: alloc::vec::Vec<Move> =
            (0..moves.len()).map(|next| pick(&mut picked_moves, &mut picked_scores, next)).collect();
        assert_eq!(picked, expected.iter().map(|&(_, m)| m).collect::<alloc::vec::Vec<_>>());
    }

    #[test]
    fn a_capture_score_says_what_see_says() {
        // The scores of a position's captures and promotions tell winning from
        // losing ones exactly as `see_ge(pos, m, 0)` does (quiescence relies on it).
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1b1k3/1P4P1/8/3q4/2P1n3/8/1p4p1/R3K1NR w KQq - 0 1",
            "4k3/8/2p5/3p2p1/8/8/8/3RK1R1 w - - 0 1",
        ] {
            let pos: Chess =
                fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
            let moves: MoveList = pos.legal_moves().into_iter().filter(|&m| is_tactical(m)).collect();
            assert!(moves.iter().any(|&m| see_ge(&pos, m, 0)) && moves.iter().any(|&m| !see_ge(&pos, m, 0)), "{fen}");
            let mut scores = Scores::new();
            History::new().scores(&pos, &moves, None, 0, None, &mut scores);
            for (&m, &score) in moves.iter().zip(&scores) {
                assert_eq!(is_good_capture(score), see_ge(&pos, m, 0), "{fen} {m}");
            }
        }
    }

    #[test]
    fn move_keys_are_one_to_one() {
        // Every move of positions with castling, en passant and promotions,
        // and drops: equal keys exactly when the moves are equal.
        let mut moves: alloc::vec::Vec<Move> = alloc::vec::Vec::new();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "r1b1k3/1P4P1/8/8/8/8/1p4p1/R3K1NR w KQq - 0 1",
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let pos: Chess =
                fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
            moves.extend(pos.legal_moves());
        }
        for role in Role::ALL {
            moves.push(Move::Put { role, to: Square::E4 });
        }
        assert!(moves.len() > 150);
        for &a in &moves {
            assert_ne!(move_key(a), u32::MAX);
            for &b in &moves {
                assert_eq!(move_key(a) == move_key(b), a == b, "{a:?} {b:?}");
            }
        }
    }
}
