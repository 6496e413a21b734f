// The DeepChess site: play, analyse and watch, against the engine in a web
// worker. This module starts the page: the controller (web/src/app.js) with
// the last visit's session or a link's game, its controls, the engine, and
// the service worker that keeps the site offline.
import { App } from './app.js';
import { playNetwork, wireControls } from './controls.js';
import { $ } from './dom.js';
import { createEngine } from './engine.js';
import { fillNetworks, offerSearches } from './networks.js';
import { choose, openLink, restorePage } from './page-session.js';
import { Searcher, buildOf, sendSearch, threadLimit } from './searcher.js';
import { defaultThreads, hashMb } from './settings.js';
import { loadSession } from './session.js';

const app = new App();

// Chessground lays squares out in pixels: redraw when the board's size changes.
new ResizeObserver(() => app.board.redrawAll()).observe($('#board'));
// It also keeps where the board lies on the page from its last measure until
// a scroll or a window resize, and maps taps through it. Anything else that
// moves the board (the header above it growing, or, at tablet and desktop
// widths where the board and the panel are centred side by side, the panel
// growing wider) would make a tap land on the wrong square. So the board
// measures itself again at the start of every press, before chessground
// (listening on its child) maps the press to a square.
for (const type of ['mousedown', 'touchstart']) {
  $('#board').addEventListener(type, () => app.board.state.dom.bounds.clear(), { capture: true, passive: true });
}

const saved = loadSession();
let startMode = saved ? restorePage(app, saved) : 'play';
wireControls(app);
if (openLink(app.game)) startMode = 'analyse';
app.setMode(startMode);
window.addEventListener('hashchange', () => {
  if (!openLink(app.game)) return;
  app.token = {};
  app.searcher?.cancel();
  app.setMode('analyse');
});

/**
 * Fills the Threads choice from the engine's thread limit (one where the
 * page is not cross-origin isolated) and sends the default, every core but one;
 * returns the threads chosen, the most there may be, and the engine's reason
 * where that is one.
 */
function setUpThreads(engine) {
  const { max, why } = threadLimit(engine);
  const select = $('#threads');
  select.replaceChildren(...Array.from({ length: max }, (_, i) => new Option(String(i + 1))));
  select.value = String(defaultThreads(max, navigator.hardwareConcurrency));
  select.disabled = max === 1;
  engine.send(`setoption name Threads value ${select.value}`);
  return { threads: Number(select.value), maxThreads: max, why };
}

/** Once the engine is up: its searches, hash, threads and status; then the last visit's network, Black and search. */
async function engineReady(engine) {
  app.searcher = new Searcher(engine);
  // The engine's answer to `uci` names its network and the searches it plays.
  const networkLine = engine.id.find((l) => l.startsWith('info string network ')) ?? '';
  offerSearches($('#search'), networkLine);
  sendSearch(engine, $('#search').value);
  engine.send(`setoption name Hash value ${hashMb(navigator.deviceMemory)}`);
  window.deepchess = { engine, game: app.game };
  const name = engine.id.find((l) => l.startsWith('id name '))?.slice(8) ?? 'engine';
  app.status.ready({ build: name, ...setUpThreads(engine), networkLine });
  app.update();
  await fillNetworks([$('#network'), $('#watch-black')]);
  if (saved?.network && saved.network !== app.playingNetwork && choose($('#network'), saved.network)) await playNetwork(app);
  else app.chosenNetwork = app.playingNetwork;
  if (saved?.watchBlack) choose($('#watch-black'), saved.watchBlack);
  // And its search, where that network plays it.
  if (saved?.search && saved.search !== $('#search').value && choose($('#search'), saved.search)) {
    app.token = {};
    await app.searcher.cancel();
    sendSearch(engine, saved.search);
    app.update();
  }
  // The service worker keeps the engine build this browser runs for offline use.
  const built = buildOf(name);
  const level = { relaxed: 'relaxed', simd128: 'simd', scalar: 'scalar' }[built?.kernel];
  const build = level && (built.threaded ? `${level}_mt` : level);
  if (build && 'serviceWorker' in navigator) {
    navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ cache: build }));
  }
}

createEngine()
  .then(engineReady)
  .catch((error) => app.status.say(`The engine failed to start: ${error.message}`));

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('sw.js').catch(() => {
    // Without a service worker the site still works, just not offline.
  });
  // On a host that sends no COOP/COEP headers, the service worker adds them:
  // once it controls the page, one reload makes the page cross-origin
  // isolated (threads), unless a game is already under way.
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (self.crossOriginIsolated || sessionStorage.getItem('deepchess-isolation-reload') || app.game.moves.length) return;
    sessionStorage.setItem('deepchess-isolation-reload', '1');
    location.reload();
  });
}
