// The status line under the board's panel, in a player's words: whose move,
// check, who won and why, and while the engine thinks, how far it has looked.
import { scoreText } from './score.js';

/** The status of `app`'s game: its end (`outcome`), or whose move it is. */
export function statusText(app, outcome) {
  const { game, mode } = app;
  if (outcome) {
    const reason = `${outcome.reason[0].toUpperCase()}${outcome.reason.slice(1)}`;
    if (outcome.result === '1/2-1/2') return `${reason}: a draw (½–½)`;
    const winner = outcome.result === '1-0' ? 'white' : 'black';
    // In a game against the engine, who won, not which colour.
    const who = mode === 'play' ? (winner === app.player ? 'you win' : `${app.networkName(winner)} wins`) : winner === 'white' ? 'White wins' : 'Black wins';
    return `${reason}: ${who} (${outcome.result})`;
  }
  const side = game.turn === 'white' ? 'White' : 'Black';
  const check = game.pos.isCheck() ? ', in check' : '';
  if (mode === 'play') {
    // Stepped back through the moves: the game waits at its last one.
    if (game.ply !== game.moves.length) return `${side} to move${check}, an earlier position: » returns to the game`;
    return game.turn === app.player ? `Your move (${side})${check}` : `${app.networkName(game.turn)} is thinking…`;
  }
  return `${side} to move${check}`;
}

/** The engine's progress on its move: how far it has looked (MCTS: its playouts, having no depth) and its score. */
export function thinkingText(app, info) {
  const turn = app.game.turn;
  const effort = app.searchOf(turn) === 'mcts' ? `${info.nodes.toLocaleString('en')} playouts` : `depth ${info.depth}`;
  return `${app.networkName(turn)} is thinking… ${effort}, ${scoreText(info, turn)}`;
}
