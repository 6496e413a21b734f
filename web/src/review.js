// A game's review: each position's evaluation as White's winning chances,
// the moves judged by how much of their side's chances they gave away
// (lichess's thresholds), and the graph over the game.

/** The annotation glyphs as PGN NAGs: `?!` 6, `?` 2, `??` 4. */
export const INACCURACY = 6;
export const MISTAKE = 2;
export const BLUNDER = 4;
/** The class a judged move (and its mark on the graph) is drawn with. */
export const JUDGED = { [INACCURACY]: 'inaccuracy', [MISTAKE]: 'mistake', [BLUNDER]: 'blunder' };
/** What each NAG prints as, beside a move. */
export const GLYPHS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };

/**
 * White's winning chances in [-1, 1] from an engine score given from the
 * side to move's view (`{ cp }` or `{ mate }`), lichess's curve (scores
 * held to ±10 pawns): a pawn up is about +0.18, mate is ±1.
 */
export function whiteChances(score, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (score.mate !== undefined) return score.mate === 0 ? -sign : sign * Math.sign(score.mate);
  const cp = Math.max(-1000, Math.min(1000, sign * score.cp));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

/**
 * The NAG a move earns by the chances its side gave away (`before` and
 * `after` are White's chances around it): 0.3 a blunder, 0.2 a mistake, 0.1
 * an inaccuracy, as lichess judges; null for a move that gave away less.
 */
export function judge(before, after, mover) {
  const lost = mover === 'white' ? before - after : after - before;
  if (lost >= 0.3) return BLUNDER;
  if (lost >= 0.2) return MISTAKE;
  if (lost >= 0.1) return INACCURACY;
  return null;
}

/**
 * The NAGs a move carries out (PGN, the move list): the player's own, kept
 * as they are, and the engine's judgement beside them unless the player
 * judged the move already.
 */
export function withJudgement(nags, judgement) {
  if (judgement === null || judgement === undefined || nags.some((n) => JUDGED[n])) return [...nags];
  return [...nags, judgement];
}

/**
 * The graph's outline in a `width` × `height` box: one point per position
 * (`chances[i]`, or null where not evaluated yet, drawn level), White's
 * advantage upwards.
 */
export function graphPoints(chances, width, height) {
  const step = chances.length > 1 ? width / (chances.length - 1) : 0;
  return chances.map((c, i) => [i * step, ((1 - (c ?? 0)) / 2) * height]);
}

/** The position (index) a click at `x` of a `width`-wide graph of `count` positions means. */
export function plyAt(x, width, count) {
  if (count <= 1) return 0;
  return Math.max(0, Math.min(count - 1, Math.round((x / width) * (count - 1))));
}
