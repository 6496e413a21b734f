// What of the page survives a reload (web/src/session.js keeps it in
// localStorage): the game, the side, the board's turn, the tab, every picker
// and the clock; and a link's position or game, which opens on the analysis board.
import { Clock } from './clock.js';
import { $ } from './dom.js';
import { gameState, parseLink, restoreGame } from './session.js';

/** The page as the next visit should find it. */
export function pageSession(app) {
  return {
    ...gameState(app.game),
    player: app.player,
    orientation: app.orientation,
    mode: app.mode,
    side: $('#side').value,
    strength: $('#strength').value,
    search: $('#search').value,
    perMove: $('#per-move').value,
    network: app.chosenNetwork,
    multipv: $('#multipv').value,
    watchTime: $('#watch-time').value,
    watchBlack: $('#watch-black').value,
    clockChoice: $('#clock').value,
    clock: app.clock?.toJSON() ?? null,
    settingsOpen: $('#engine-settings').open,
  };
}

/** Sets a picker to `value` if it offers it; says whether it did. */
export function choose(select, value) {
  const offered = [...select.options].some((o) => o.value === value && !o.disabled);
  if (offered) select.value = value;
  return offered;
}

/**
 * Puts the last visit's game, side, pickers and clock back into `app` and
 * the page (its network and *Black plays* once the engine is up); returns the tab.
 */
export function restorePage(app, saved) {
  restoreGame(app.game, saved);
  const colour = (c) => (c === 'white' || c === 'black' ? c : 'white');
  app.player = colour(saved.player);
  app.orientation = colour(saved.orientation);
  app.chosenNetwork = typeof saved.network === 'string' ? saved.network : '';
  choose($('#side'), saved.side);
  choose($('#strength'), saved.strength);
  choose($('#search'), saved.search);
  choose($('#per-move'), saved.perMove);
  choose($('#multipv'), saved.multipv);
  choose($('#watch-time'), saved.watchTime);
  choose($('#clock'), saved.clockChoice);
  $('#engine-settings').open = saved.settingsOpen === true;
  // The clock comes back stopped; it runs again for the side to move.
  if (saved.clock && $('#clock').value) app.clock = Clock.from(saved.clock);
  return ['play', 'analyse', 'watch'].includes(saved.mode) ? saved.mode : 'play';
}

/** Opens the position or game a link carries (`#fen=…`, `#pgn=…`) in `game`; says whether there was one. */
export function openLink(game) {
  const carried = parseLink(location.hash);
  if (!carried) return false;
  try {
    if (carried.fen) game.reset(carried.fen);
    else game.loadPgn(carried.pgn);
    $('#io-error').textContent = '';
  } catch (error) {
    $('#io').open = true;
    $('#io-error').textContent = `The link's ${carried.fen ? 'position' : 'game'} cannot be opened. ${error.message}`;
  }
  // The link has done its work: a reload finds the session, with the linked game in it.
  history.replaceState(null, '', location.pathname + location.search);
  return true;
}
