// Scores as the page shows them (`+0.35`, `#3`, from White's side) and the
// eval bar beside the board, which draws White's winning chances as lichess does.
import { $ } from './dom.js';
import { whiteChances } from './review.js';

/** `+0.35`, `-1.20` or `#3` (mate in 3 for White), from White's side. */
export function scoreText(info, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (info.mate !== undefined) return `#${sign * info.mate}`;
  const cp = (sign * info.cp) / 100;
  return `${cp > 0 ? '+' : ''}${cp.toFixed(2)}`;
}

/** The bar's short label: `+0.4`, `-12`, `#3`, `#-2` (White's side), one decimal below 10 pawns. */
export function barText(info, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (info.mate !== undefined) return `#${sign * info.mate}`;
  const pawns = (sign * info.cp) / 100;
  const text = Math.abs(pawns) < 10 ? pawns.toFixed(1) : String(Math.round(pawns));
  return pawns > 0 ? `+${text}` : text;
}

/** A line's worth to the side to move, for ordering: mates beyond any centipawns, quicker first. */
export function lineValue(info) {
  if (info.mate !== undefined) return info.mate > 0 ? 1e6 - info.mate : -1e6 - info.mate;
  return info.cp;
}

/** The bar shows White's winning chances as lichess draws them (the review's curve). */
export function setEvalBar(info, turn) {
  const white = 50 + 50 * whiteChances(info, turn);
  $('#eval-fill').style.height = `${100 - white}%`;
  $('#eval-text').textContent = barText(info, turn);
  // The score sits at the end of the side that leads.
  $('#eval-text').classList.toggle('top', white < 50);
}

/**
 * The eval bar with no engine score: the result where the game is over
 * (full for the winner, even for a draw), else even and blank.
 */
export function resetEvalBar(outcome) {
  const white = !outcome ? 50 : outcome.result === '1-0' ? 100 : outcome.result === '0-1' ? 0 : 50;
  $('#eval-fill').style.height = `${100 - white}%`;
  $('#eval-text').textContent = outcome ? outcome.result.replace('1/2-1/2', '½') : '';
  $('#eval-text').classList.toggle('top', white < 50);
}
