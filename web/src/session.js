// What survives a reload, and what a link carries. The page keeps its
// session (the game as PGN with the cursor's path through its tree, the
// side, the pickers and the tab) in localStorage after every change; a
// link's fragment may carry a position (`#fen=…`, spaces as `_` or `%20`)
// or a game (`#pgn=…`), which opens on the analysis board.

const KEY = 'deepchess-session-v1';

/** The saved session, or null: none yet, storage switched off, or not ours. */
export function loadSession(storage = globalThis.localStorage) {
  try {
    const saved = JSON.parse(storage?.getItem(KEY) ?? 'null');
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? saved : null;
  } catch {
    return null;
  }
}

/** Keeps `session` for the next visit; where storage is full or off the page still works, it just forgets. */
export function saveSession(session, storage = globalThis.localStorage) {
  try {
    storage?.setItem(KEY, JSON.stringify(session));
  } catch {
    // Nothing to do: the next visit starts afresh.
  }
}

/** The game's part of a session: its moves with their side lines (PGN), the cursor's path through them, and how it ended off the board. */
export function gameState(game) {
  return { pgn: game.pgn(), path: game.path(), end: game.end };
}

/**
 * Puts a saved game (what `gameState` gave) back into `game`: the moves and side lines, the cursor,
 * and how it ended. A game that cannot be read leaves `game` at the start; returns whether it came back.
 */
export function restoreGame(game, saved) {
  try {
    game.loadPgn(saved.pgn);
    game.followPath(Array.isArray(saved.path) ? saved.path : []);
  } catch {
    game.reset();
    return false;
  }
  if (saved.end?.result && saved.end?.reason) game.finish(String(saved.end.result), String(saved.end.reason));
  return true;
}

/** What a link's fragment (`location.hash`) carries: `{ fen }`, `{ pgn }`, or null. */
export function parseLink(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const fen = params.get('fen');
  if (fen) return { fen: fen.replaceAll('_', ' ') };
  const pgn = params.get('pgn');
  if (pgn) return { pgn };
  return null;
}

/** A link to the page at `base` that opens `fen` (`{ fen }`) or a game (`{ pgn }`). */
export function makeLink(base, carried) {
  const url = new URL(base);
  const params = new URLSearchParams();
  if (carried.fen) params.set('fen', carried.fen.replaceAll(' ', '_'));
  else params.set('pgn', carried.pgn);
  url.hash = params.toString();
  return url.href;
}
