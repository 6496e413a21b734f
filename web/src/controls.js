// The page's controls: each button, picker and key wired to what it does to
// the controller's state (web/src/app.js).
import { Clock } from './clock.js';
import { $ } from './dom.js';
import { offerSearches, pickedName } from './networks.js';
import { plyAt } from './review.js';
import { loadFailure, sendSearch } from './searcher.js';
import { makeLink } from './session.js';
import { renderSettings } from './settings.js';

/** Starts a new game in play with the *You play* and *Clock* choices. */
export function newGame(app) {
  app.token = {};
  app.searcher?.cancel();
  const side = $('#side').value;
  app.player = side === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : side;
  app.orientation = app.player;
  app.game.reset();
  const [initial, increment] = $('#clock').value.split('+').map(Number);
  app.clock = initial ? new Clock(initial * 1000, increment * 1000) : null;
  app.engineScore = null;
  $('#play-note').textContent = '';
  app.update();
}

/**
 * Plays the network of the Network choice: the Search choice offers what it
 * plays, and the engine plays the search chosen there. A network that does
 * not load (offline, one never downloaded) leaves the previous one playing,
 * the picker back on it, and says why.
 */
export async function playNetwork(app) {
  if (!app.searcher) return;
  app.token = {};
  await app.searcher.cancel();
  const { engine } = app.searcher;
  const name = pickedName($('#network'));
  app.chosenNetwork = $('#network').value;
  app.status.say(`Loading ${name}…`);
  const last = await engine.loadNetwork($('#network').value || '<embedded>');
  if (last.startsWith('info string error')) {
    $('#network').value = app.playingNetwork;
    app.chosenNetwork = app.playingNetwork;
    app.status.say(`Could not load that network: ${loadFailure(last)}. The previous one still plays.`);
    app.update();
    return;
  }
  app.playingNetwork = $('#network').value;
  offerSearches($('#search'), last);
  sendSearch(engine, $('#search').value);
  app.status.loaded(name, last);
  app.update();
}

/** Stops what the engine does, then `change` (a new option for the next search), and draws the page again. */
function engineChange(app, change) {
  if (!app.searcher) return;
  app.token = {};
  app.searcher.cancel();
  change(app.searcher.engine);
  app.update();
}

/** Reviews the main line (web/src/reviewer.js): the graph as it goes, the judged moves at the end. */
async function review(app) {
  if (!app.searcher) return;
  app.token = {};
  const done = await app.reviewer.review(app.searcher, app.game, () => app.drawGraph());
  if (done) app.update();
  else app.renderMoves();
}

/**
 * A change of `select` starts a new game; with a game under way it asks
 * first, and declined, the choice goes back to what it was.
 */
function startsNewGame(app, select) {
  select.dataset.previous = select.value;
  select.addEventListener('change', () => {
    const underway = app.game.mainline().length > 1 && !app.game.finalOutcome();
    if (underway && !confirm('Start a new game with this choice? The game in progress will end.')) {
      select.value = select.dataset.previous;
      return;
    }
    select.dataset.previous = select.value;
    newGame(app);
  });
}

/** Ends the game in play with `result` for `reason`. */
function finish(app, result, reason) {
  app.token = {};
  app.searcher?.cancel();
  app.game.finish(result, reason);
  app.update();
}

/** The message line under FEN and PGN. */
function ioError(message) {
  $('#io-error').textContent = message;
}

/** Copies `text` to the clipboard, and shows it in `field` (or, without one, in the message line). */
async function copy(text, field) {
  if (field) field.value = text;
  try {
    await navigator.clipboard.writeText(text);
    ioError('');
  } catch {
    field?.select();
    ioError(field ? 'Copied into the field above; the clipboard is not available here.' : `The clipboard is not available here: ${text}`);
  }
}

/** The players' names for a PGN: in play, you and the network; watching, each side's network. */
function players(app) {
  const name = (color) => (app.mode === 'play' && color === app.player ? 'You' : app.networkName(color));
  return app.mode === 'analyse' ? {} : { White: name('white'), Black: name('black') };
}

/** Wires every control of the page to `app`. */
export function wireControls(app) {
  const { game } = app;
  for (const tab of document.querySelectorAll('nav button')) tab.addEventListener('click', () => app.setMode(tab.dataset.mode));

  // Play.
  $('#new-game').addEventListener('click', () => newGame(app));
  // Choosing a side or a clock starts a game with it, the board turned towards the player.
  startsNewGame(app, $('#clock'));
  startsNewGame(app, $('#side'));
  $('#resign').addEventListener('click', () => finish(app, app.player === 'white' ? '0-1' : '1-0', 'you resigned'));
  $('#offer-draw').addEventListener('click', () => {
    // The engine agrees when its last search did not think it better, from move 20 on.
    const score = app.engineScore;
    const even = score && (score.mate !== undefined ? score.mate < 0 : score.cp <= 0);
    if (even && game.pos.fullmoves >= 20) return finish(app, '1/2-1/2', 'draw agreed');
    const name = app.networkName(app.player === 'white' ? 'black' : 'white');
    $('#play-note').textContent =
      game.pos.fullmoves < 20 ? `${name} plays on: it is too early for a draw.` : `${name} declines the draw: it thinks it is better.`;
  });
  $('#take-back').addEventListener('click', () => {
    app.token = {};
    app.searcher?.cancel();
    // Back to the player's turn: one move if the engine has not replied yet.
    game.takeBack(game.turn === app.player ? 2 : 1);
    app.clock?.pause();
    app.update();
  });
  setInterval(() => {
    if (app.clock?.running) app.renderClocks();
  }, 100);

  // The board and the moves.
  $('#first').addEventListener('click', () => app.navigate(0));
  $('#prev').addEventListener('click', () => app.navigate(game.ply - 1));
  $('#next').addEventListener('click', () => app.navigate(game.ply + 1));
  $('#last').addEventListener('click', () => app.navigate(game.moves.length));
  $('#flip').addEventListener('click', () => {
    app.orientation = app.orientation === 'white' ? 'black' : 'white';
    app.board.set({ orientation: app.orientation });
    app.remember();
  });
  // Side lines: promote the cursor's one step towards the main line, or delete it from the cursor on.
  $('#promote-line').addEventListener('click', () => {
    game.promote(game.node);
    app.update();
  });
  $('#delete-line').addEventListener('click', () => {
    game.delete(game.node);
    app.navigateTo(game.node);
  });

  // Analyse.
  for (const picker of ['#analysis-on', '#multipv', '#threat']) $(picker).addEventListener('change', () => app.update());
  $('#review-game').addEventListener('click', () => review(app));
  $('#graph').addEventListener('click', (event) => {
    const main = game.mainline();
    const box = $('#graph').getBoundingClientRect();
    app.navigateTo(main[plyAt(event.clientX - box.left, box.width, main.length)]);
  });

  // Watch.
  $('#watch-toggle').addEventListener('click', () => {
    if (app.watching) {
      app.stopWatching();
      app.token = {};
      app.cancelSearches();
    } else {
      app.watching = true;
      $('#watch-toggle').textContent = 'Stop';
      game.go(game.moves.length);
      if (game.outcome()) game.reset();
      app.engineMove();
    }
  });
  $('#watch-new').addEventListener('click', () => {
    app.stopWatching();
    app.token = {};
    app.cancelSearches();
    game.reset();
    app.update();
  });

  // Engine settings: a running search stops, then the next one uses the choice.
  $('#network').addEventListener('change', () => playNetwork(app));
  $('#search').addEventListener('change', () => engineChange(app, (engine) => sendSearch(engine, $('#search').value)));
  $('#threads').addEventListener('change', () =>
    engineChange(app, (engine) => {
      engine.send(`setoption name Threads value ${$('#threads').value}`);
      app.status.setThreads(Number($('#threads').value));
    }),
  );
  for (const picker of ['#strength', '#watch-time', '#watch-black']) $(picker).addEventListener('change', () => app.remember());
  // A fixed count per move: the engine's next move uses it.
  $('#per-move').addEventListener('change', () => {
    renderSettings(app.status);
    app.remember();
  });
  $('#engine-settings').addEventListener('toggle', () => app.remember());

  document.addEventListener('keydown', (event) => {
    if (app.promotion.open) {
      if (event.key === 'Escape') {
        event.preventDefault();
        app.promotion.close(null);
      }
      return;
    }
    if (event.target.closest('input, textarea, select')) return;
    const keys = { ArrowLeft: game.ply - 1, ArrowRight: game.ply + 1, Home: 0, End: game.moves.length };
    if (event.key in keys) {
      event.preventDefault();
      app.navigate(keys[event.key]);
    } else if (event.key === 'f') $('#flip').click();
    else if (event.key === 'x' && app.mode === 'analyse' && !$('#threat').disabled) $('#threat').click();
  });

  // FEN and PGN in and out.
  $('#load-fen').addEventListener('click', () => {
    try {
      game.reset($('#fen').value);
      ioError('');
      if (app.mode === 'play') app.setMode('analyse');
      else app.navigate(0);
    } catch (error) {
      ioError(error.message);
    }
  });
  $('#load-pgn').addEventListener('click', () => {
    try {
      game.loadPgn($('#pgn').value);
      ioError('');
      // The game opens at its last move.
      if (app.mode !== 'analyse') app.setMode('analyse');
      else app.navigateTo(game.node);
    } catch (error) {
      ioError(error.message);
    }
  });
  $('#copy-fen').addEventListener('click', () => copy(game.fen, $('#fen')));
  $('#copy-link').addEventListener('click', () => copy(makeLink(location.href, { fen: game.fen })));
  $('#copy-pgn').addEventListener('click', () => copy(game.pgn(players(app)), $('#pgn')));
}
