// The DeepChess site: play, analyse and watch, against the engine in a web worker.
import { Chessground } from 'chessground';
import { Clock, clockText } from './clock.js';
import { createEngine, parseInfo } from './engine.js';
import { Game } from './game.js';
import { openingAt } from './openings.js';
import { BLUNDER, GLYPHS, JUDGED, MISTAKE, graphPoints, judge, plyAt, whiteChances, withJudgement } from './review.js';
import { gameState, loadSession, makeLink, parseLink, restoreGame, saveSession } from './session.js';
import { renderSettings } from './settings.js';
import { EngineStatus } from './status.js';

const $ = (selector) => document.querySelector(selector);
const game = new Game();
let mode = 'play';
let player = 'white';
let orientation = 'white';
let pendingPromotion = null;
/** Replaced whenever the game changes under a running engine move, so its result is dropped. */
let token = {};
let watching = false;
/** The token of the engine move being searched, if any. */
let thinking = null;
/** multipv → parsed info line, for the analysis panel. */
let lines = new Map();
/** The analysis search whose reports the panel shows (a fresh object per search). */
let analysisRun = null;
// The Network choice of the network that plays ('' the built-in one).
let playingNetwork = '';
/** The play mode's clock, if the game has one. */
let clock = null;
/** The engine's last score in play, from its own side (`{ cp }` or `{ mate }`), for a draw offer. */
let engineScore = null;
const engineStatus = new EngineStatus($('#engine-status'), $('#engine-details'));

const board = Chessground($('#board'), {
  movable: { free: false, showDests: true, events: { after: onBoardMove } },
  premovable: { enabled: false },
  highlight: { lastMove: true, check: true },
  animation: { duration: 150 },
});

// Chessground lays squares out in pixels: redraw when the board's size changes.
new ResizeObserver(() => board.redrawAll()).observe($('#board'));
// It also keeps where the board lies on the page from its last measure until
// a scroll or a window resize, and maps taps through it. Anything else that
// moves the board (the header above it growing, or, at tablet and desktop
// widths where the board and the panel are centred side by side, the panel
// growing wider) would make a tap land on the wrong square. So the board
// measures itself again at the start of every press, before chessground
// (listening on its child) maps the press to a square.
for (const type of ['mousedown', 'touchstart']) {
  $('#board').addEventListener(type, () => board.state.dom.bounds.clear(), { capture: true, passive: true });
}

/**
 * Why a network did not load, in a player's words: offline, a network never
 * downloaded cannot be fetched (once played, one stays available offline).
 */
function loadFailure(line) {
  const why = line.replace(/^info string error: (cannot load network \S+: )?/, '');
  if (!navigator.onLine || /failed to fetch|networkerror|load failed/i.test(why)) {
    return 'it was not downloaded before going offline (a network played once stays available offline)';
  }
  return why;
}

/** Runs one search at a time: a new one stops the previous and waits for its `bestmove`. */
class Searcher {
  constructor(engine) {
    this.engine = engine;
    this.current = null;
    this.generation = 0;
    engine.onLine((line) => this.onLine(line));
  }

  /** Searches `position` with `go`; resolves with the best move, or null if superseded. */
  async start(position, go, onInfo) {
    const generation = ++this.generation;
    await this.stop();
    if (generation !== this.generation) return null;
    let resolve;
    const done = new Promise((r) => (resolve = r));
    this.current = { onInfo, resolve, done };
    this.engine.send(position);
    this.engine.send(go);
    return done;
  }

  async stop() {
    while (this.current) {
      const { done } = this.current;
      this.engine.send('stop');
      await done;
    }
  }

  /** Stops any search, and drops its result. */
  cancel() {
    this.generation++;
    return this.stop();
  }

  onLine(line) {
    const current = this.current;
    if (!current) return;
    if (line.startsWith('bestmove')) {
      this.current = null;
      const move = line.split(/\s+/)[1];
      current.resolve(move && move !== '(none)' ? move : null);
    } else {
      const info = parseInfo(line);
      if (info) current.onInfo?.(info);
    }
  }
}

let searcher = null;

/**
 * The second engine, for Black when two networks play each other (Watch):
 * started the first time it is needed, and loaded with the network of the
 * *Black plays* choice whenever that changes. Null (and a message) when the
 * network cannot load; the choice goes back to *the same network*.
 */
let black = null;
async function blackSearcher() {
  const want = $('#watch-black').value;
  if (!black) {
    black = { searcher: createEngine().then((engine) => new Searcher(engine)), network: '<embedded>', search: 'scalar' };
  }
  let current;
  try {
    current = await black.searcher;
  } catch (error) {
    black = null;
    engineStatus.say(`The second engine failed to start: ${error.message}`);
    return null;
  }
  if (black.network !== want) {
    const name = pickedName($('#watch-black'));
    engineStatus.say(`Loading ${name} for Black…`);
    const last = await current.engine.loadNetwork(want);
    if (last.startsWith('info string error')) {
      $('#watch-black').value = '';
      engineStatus.say(`Could not load that network for Black: ${loadFailure(last)}. Both sides play the same network.`);
      remember();
      return null;
    }
    black.network = want;
    // It plays its network's first search (the AlphaZero networks MCTS only).
    black.search = /\(plays ([a-z]+)/.exec(last)?.[1] ?? 'scalar';
    engineStatus.say(`${name} plays Black`);
  }
  return current;
}

/** Stops both engines' searches, dropping their results. */
function cancelSearches() {
  searcher?.cancel();
  black?.searcher.then((s) => s.cancel()).catch(() => {});
}

createEngine()
  .then(async (engine) => {
    searcher = new Searcher(engine);
    // The engine's answer to `uci` names its network and the searches it plays.
    const networkLine = engine.id.find((l) => l.startsWith('info string network ')) ?? '';
    offerSearches(networkLine);
    sendSearch(engine, $('#search').value);
    window.deepchess = { engine, game };
    const name = engine.id.find((l) => l.startsWith('id name '))?.slice(8) ?? 'engine';
    engineStatus.ready({ build: name, ...setUpThreads(engine), networkLine });
    update();
    // The network of the last visit plays again, once the list of networks is in.
    await fillNetworks();
    if (saved?.network && saved.network !== playingNetwork && choose($('#network'), saved.network)) await playNetwork();
    if (saved?.watchBlack) choose($('#watch-black'), saved.watchBlack);
    // And its search, where that network plays it.
    if (saved?.search && saved.search !== $('#search').value && choose($('#search'), saved.search)) {
      token = {};
      await searcher.cancel();
      sendSearch(engine, saved.search);
      update();
    }
    // The service worker keeps the engine build this browser runs for offline use.
    const [, kernel, mt] = /wasm-(\w+?)(-mt)?$/.exec(name) ?? [];
    const level = { relaxed: 'relaxed', simd128: 'simd', scalar: 'scalar' }[kernel];
    const build = level && (mt ? `${level}_mt` : level);
    if (build && 'serviceWorker' in navigator) {
      navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ cache: build }));
    }
  })
  .catch((error) => {
    engineStatus.say(`The engine failed to start: ${error.message}`);
  });

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('sw.js').catch(() => {
    // Without a service worker the site still works, just not offline.
  });
  // On a host that sends no COOP/COEP headers, the service worker adds them:
  // once it controls the page, one reload makes the page cross-origin
  // isolated (threads), unless a game is already under way.
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (self.crossOriginIsolated || sessionStorage.getItem('deepchess-isolation-reload') || game.moves.length) return;
    sessionStorage.setItem('deepchess-isolation-reload', '1');
    location.reload();
  });
}

/**
 * Fills the Threads choice from the engine's `Threads` option (its maximum is
 * 1 where the page is not cross-origin isolated) and sends the default, half
 * the cores; returns the threads chosen, the most there may be, and the
 * engine's reason where that is one.
 */
function setUpThreads(engine) {
  const max = Number(/^option name Threads type spin .* max (\d+)$/.exec(engine.id.find((l) => l.startsWith('option name Threads ')) ?? '')?.[1] ?? 1);
  const select = $('#threads');
  select.replaceChildren(...Array.from({ length: max }, (_, i) => new Option(String(i + 1))));
  select.value = String(Math.ceil(max / 2));
  select.disabled = max === 1;
  engine.send(`setoption name Threads value ${select.value}`);
  const why = engine.id.find((l) => l.startsWith('info string one thread'))?.slice('info string '.length) ?? '';
  return { threads: Number(select.value), maxThreads: max, why };
}

// ---------------------------------------------------------------- moves

function onBoardMove(orig, dest) {
  if (game.isPromotion(orig, dest)) choosePromotion(orig, dest);
  else userMove(orig + dest);
}

/**
 * Offers the four pieces in a column over the promotion square, as lichess
 * does, in the mover's colour; Escape or a click beside them takes the move back.
 */
function choosePromotion(orig, dest) {
  pendingPromotion = orig + dest;
  const file = dest.charCodeAt(0) - 97;
  const choices = $('#promotion .choices');
  choices.style.left = `${(orientation === 'white' ? file : 7 - file) * 12.5}%`;
  choices.classList.toggle('bottom', (dest[1] === '8') !== (orientation === 'white'));
  for (const piece of choices.querySelectorAll('piece')) piece.className = `${piece.dataset.role} ${game.turn}`;
  $('#promotion').hidden = false;
  choices.querySelector('button').focus();
}

function closePromotion() {
  $('#promotion').hidden = true;
  pendingPromotion = null;
}

for (const button of document.querySelectorAll('#promotion button')) {
  button.addEventListener('click', () => {
    const move = pendingPromotion && pendingPromotion + button.dataset.role;
    closePromotion();
    if (move) userMove(move);
  });
}
// A click beside the pieces: the pawn goes back.
$('#promotion').addEventListener('click', (event) => {
  if (event.target !== $('#promotion')) return;
  closePromotion();
  update();
});

function userMove(uci) {
  token = {};
  const atEnd = game.ply === game.moves.length;
  if (!game.play(uci)) return update();
  if (mode === 'play' && atEnd) moved();
  update();
  if (mode === 'play' && !game.outcome()) engineMove();
}

/** Asks the engine for a move in play and watch modes, and plays it. */
async function engineMove() {
  if (!searcher || thinking) return;
  const mine = (token = {});
  thinking = mine;
  const go = mode === 'watch' ? $('#watch-time').value : playGo();
  update();
  // Watching two networks, Black's moves come from the second engine.
  const mover = mode === 'watch' && game.turn === 'black' && $('#watch-black').value ? await blackSearcher() : searcher;
  if (mine !== token || !mover) {
    // Stopped while the second engine loaded, or it could not load.
    thinking = null;
    if (mine === token) stopWatching();
    update();
    return;
  }
  const move = await mover.start(game.uciPosition(), go, (info) => {
    if (mode === 'play' && info.pv.length) engineScore = info.mate !== undefined ? { mate: info.mate } : { cp: info.cp };
    showThinking(info);
  });
  thinking = null;
  if (mine !== token) {
    // The game or the mode changed meanwhile: look again at who is to move.
    update();
    return;
  }
  if (move) {
    game.go(game.moves.length);
    if (game.play(move) && mode === 'play') moved();
  }
  token = {};
  update();
  if (mode === 'watch' && watching && !game.outcome()) engineMove();
  else if (game.outcome()) stopWatching();
}

function engineToMove() {
  if (game.outcome() || game.ply !== game.moves.length) return false;
  return mode === 'watch' ? watching : mode === 'play' && game.turn !== player;
}

// ---------------------------------------------------------------- view

function update() {
  const outcome = game.outcome();
  const atEnd = game.ply === game.moves.length;
  let movable;
  if (mode === 'analyse') movable = game.turn;
  else if (mode === 'play' && atEnd && !outcome && game.turn === player && !thinking) movable = player;
  board.set({
    fen: game.fen,
    orientation,
    turnColor: game.turn,
    check: game.pos.isCheck() ? game.turn : false,
    lastMove: game.lastMove(),
    movable: { color: movable, dests: movable ? game.dests() : new Map() },
  });
  $('#status').textContent = statusText(outcome);
  const playing = mode === 'play' && atEnd && !outcome;
  $('#resign').disabled = !playing || game.moves.length < 2;
  $('#offer-draw').disabled = !playing || game.moves.length < 2;
  if (outcome || mode !== 'play') clock?.pause();
  else if (clock && atEnd && game.moves.length && !clock.running) clock.start(game.turn);
  renderClocks();
  $('#fen').value = game.fen;
  renderMoves();
  renderSettings(engineStatus);
  if (mode === 'analyse') analyse();
  else {
    board.setAutoShapes([]);
    if (mode === 'play' && engineToMove() && !thinking && searcher) engineMove();
  }
  remember();
}

function statusText(outcome) {
  if (outcome) {
    const reason = `${outcome.reason[0].toUpperCase()}${outcome.reason.slice(1)}`;
    if (outcome.result === '1/2-1/2') return `${reason}: a draw (½–½)`;
    const winner = outcome.result === '1-0' ? 'white' : 'black';
    // In a game against the engine, who won, not which colour.
    const who = mode === 'play' ? (winner === player ? 'you win' : `${networkName(winner)} wins`) : winner === 'white' ? 'White wins' : 'Black wins';
    return `${reason}: ${who} (${outcome.result})`;
  }
  const side = game.turn === 'white' ? 'White' : 'Black';
  const check = game.pos.isCheck() ? ', in check' : '';
  if (mode === 'play') {
    // Stepped back through the moves: the game waits at its last one.
    if (game.ply !== game.moves.length) return `${side} to move${check}, an earlier position: » returns to the game`;
    return game.turn === player ? `Your move (${side})${check}` : `${networkName(game.turn)} is thinking…`;
  }
  return `${side} to move${check}`;
}

/**
 * The name of the network that plays `color`: the Network choice's, or,
 * watching two networks, Black's from the *Black plays* choice.
 */
function networkName(color) {
  if (mode === 'watch' && color === 'black' && $('#watch-black').value) return pickedName($('#watch-black'));
  return pickedName($('#network')) || 'DeepChess';
}

/** The search that plays `color`: the Search choice's, or Black's engine's first (its network's own). */
function searchOf(color) {
  if (mode === 'watch' && color === 'black' && $('#watch-black').value && black) return black.search;
  return $('#search').value;
}

/** How far a search has looked: its depth, or MCTS's playouts (a tree search has no depth to speak of). */
function effort(info, search) {
  return search === 'mcts' ? `${info.nodes.toLocaleString('en')} playouts` : `depth ${info.depth}`;
}

function showThinking(info) {
  if (mode === 'analyse' || !info.pv.length) return;
  const score = scoreText(info, game.turn);
  $('#status').textContent = `${networkName(game.turn)} is thinking… ${effort(info, searchOf(game.turn))}, ${score}`;
  setEvalBar(info, game.turn);
}

/**
 * Scrolls the list so that `item` is in view, and nothing else: unlike
 * `scrollIntoView`, which scrolls every ancestor, the page too (on a phone
 * the board would leave the screen as the game grows).
 */
function reveal(list, item) {
  if (!item) return;
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

/**
 * The move tree as lichess lists it: the main line in two columns (move
 * number, White, Black), and where a main move has alternatives, a block
 * across the columns right after it with each side line in parentheses
 * (and theirs nested inline). The cursor's move is marked, and the moves
 * of the cursor's line too.
 */
function renderMoves() {
  const list = $('#moves');
  list.textContent = '';
  const onLine = new Set(game.line);
  const current = game.node;
  const add = (to, className, text) => {
    const element = document.createElement('span');
    element.className = className;
    element.textContent = text;
    to.append(element);
    return element;
  };
  const moveButton = (to, node) => {
    const move = document.createElement('button');
    move.className = ['move', node === current && 'current', onLine.has(node) && 'on-line', !inMain(node) && 'side']
      .filter(Boolean)
      .join(' ');
    // The player's own glyphs (from a PGN), then the review's judgement unless
    // the player judged the move already, coloured as lichess colours them.
    const nags = withJudgement(node.nags, node.judgement);
    move.textContent = node.move.san + nags.map((n) => GLYPHS[n] ?? '').join('');
    for (const n of nags) if (JUDGED[n]) move.classList.add(JUDGED[n]);
    // Where the player's own mark stands, the review's is in the tooltip.
    const unshown = node.judgement && !nags.includes(node.judgement);
    move.title = unshown ? `the review: ${GLYPHS[node.judgement]}` : inMain(node) ? '' : 'side line';
    move.addEventListener('click', () => navigateTo(node));
    to.append(move);
  };
  // A side line inline, from `first` on (a node whose earlier siblings were shown).
  const inline = (to, first) => {
    let needNumber = true;
    for (let node = first; node; node = node.children[0]) {
      const before = node.parent.pos;
      if (before.turn === 'white' || needNumber) add(to, 'number', before.turn === 'white' ? `${before.fullmoves}.` : `${before.fullmoves}…`);
      moveButton(to, node);
      needNumber = false;
      for (const alternative of node.isFirst ? node.parent.children.slice(1) : []) {
        add(to, 'paren', '(');
        inline(to, alternative);
        add(to, 'paren', ')');
        needNumber = true;
      }
    }
  };
  // The main line in rows of two; `open`: a row waits for Black's move.
  let open = false;
  const main = game.mainline();
  for (const node of main.slice(1)) {
    const before = node.parent.pos;
    if (before.turn === 'white') {
      add(list, 'index', String(before.fullmoves));
      open = true;
    } else if (!open) {
      add(list, 'index', String(before.fullmoves));
      add(list, 'filler', '…');
    }
    moveButton(list, node);
    open = before.turn === 'white';
    const alternatives = node.parent.children.slice(1);
    if (alternatives.length) {
      if (open) add(list, 'filler', '…');
      open = false;
      const block = add(list, 'interrupt', '');
      for (const alternative of alternatives) {
        add(block, 'paren', '(');
        inline(block, alternative);
        add(block, 'paren', ')');
      }
    }
  }
  // In analysis: promote a side line, or delete the moves from the cursor on.
  $('#line-tools').hidden = mode !== 'analyse' || !current.parent;
  $('#promote-line').disabled = inMain(current);
  // The game's result after its last move, as a score sheet has it.
  const final = game.finalOutcome();
  if (final) add(list, 'result', final.result.replace('1/2-1/2', '½–½'));
  reveal(list, list.querySelector('.current'));
  const opening = openingAt(current);
  $('#opening').textContent = opening ? `${opening.eco} ${opening.name}` : '';
  drawGraph();
}

// ---------------------------------------------------------------- clocks

/**
 * A move was made at the end of the game in play: a running clock passes
 * to the other side. (`update` starts a stopped one for the side to move,
 * so White's first move is free.)
 */
function moved() {
  $('#play-note').textContent = '';
  if (clock?.running) clock.press();
}

/**
 * The engine's `go` in play: the Strength choice; with a clock, also held
 * to a share of its time left (a thirtieth, and most of the increment), so
 * it never loses on time.
 */
function playGo() {
  const strength = $('#strength').value;
  if (!clock) return strength;
  const budget = Math.max(50, Math.floor(clock.remaining(game.turn) / 30 + clock.increment * 0.8));
  const movetime = /movetime (\d+)/.exec(strength);
  return movetime ? `go movetime ${Math.min(Number(movetime[1]), budget)}` : `${strength} movetime ${budget}`;
}

/** The clocks beside the board's sides; a side whose time ran out loses, or draws where the other cannot mate. */
function renderClocks() {
  $('#clocks').hidden = !clock || mode !== 'play';
  if (!clock) return;
  const flagged = clock.flagged();
  if (flagged) {
    clock.pause();
    const other = flagged === 'white' ? 'black' : 'white';
    const who = flagged === player ? 'you' : networkName(flagged);
    token = {};
    searcher?.cancel();
    if (game.pos.hasInsufficientMaterial(other)) game.finish('1/2-1/2', `${who} ran out of time, and the other side cannot mate`);
    else game.finish(other === 'white' ? '1-0' : '0-1', `${who} ran out of time`);
    update();
    return;
  }
  const top = orientation === 'white' ? 'black' : 'white';
  for (const [id, color] of [['#clock-top', top], ['#clock-bottom', orientation]]) {
    const box = $(id);
    const left = clock.remaining(color);
    box.querySelector('.who').textContent = color === player ? 'You' : networkName(color);
    box.querySelector('.time').textContent = clockText(left);
    box.classList.toggle('running', clock.running === color);
    box.classList.toggle('low', left < 20000);
  }
}
setInterval(() => {
  if (clock?.running) renderClocks();
}, 100);

// ---------------------------------------------------------------- review

/** The running review, if any (replaced or cleared to stop it). */
let reviewing = null;

/**
 * Reviews the main line: 0.2 s of search on each position gives White's
 * winning chances there (`node.chances`), drawn as the graph; then each
 * move is judged by the chances its side gave away (`?!`, `?`, `??` as
 * NAGs, so they go out with the PGN). Anything else that wants the engine
 * (navigating, analysis, a move) stops it; what it has seen stays.
 */
async function reviewGame() {
  if (!searcher) return;
  const run = (reviewing = {});
  token = {};
  await searcher.cancel();
  const main = game.mainline();
  searcher.engine.send('setoption name MultiPV value 1');
  $('#review-game').disabled = true;
  for (const [i, node] of main.entries()) {
    if (reviewing !== run) break;
    $('#review-progress').textContent = `reviewing ${i + 1} / ${main.length}`;
    const pos = node.pos;
    if (pos.isCheckmate()) node.chances = pos.turn === 'white' ? -1 : 1;
    else if (pos.isStalemate() || pos.isInsufficientMaterial()) node.chances = 0;
    else {
      let last = null;
      const move = await searcher.start(game.uciPositionOf(node), 'go movetime 200', (info) => {
        if (info.pv.length) last = info;
      });
      if (reviewing !== run || move === null) break;
      if (last) node.chances = whiteChances(last, pos.turn);
    }
    drawGraph();
  }
  const done = reviewing === run;
  if (done) reviewing = null;
  for (const node of main.slice(1)) {
    const before = node.parent.chances;
    // The engine's judgement beside the player's own marks, which stay.
    if (before !== undefined && node.chances !== undefined) node.judgement = judge(before, node.chances, node.parent.pos.turn);
  }
  $('#review-game').disabled = false;
  $('#review-progress').textContent = done ? 'reviewed' : 'review stopped';
  if (done) update();
  else renderMoves();
}

/** White's winning chances over the main line, where the review has them; the cursor's move marked. */
function drawGraph() {
  const svg = $('#graph');
  const main = game.mainline();
  const chances = main.map((node) => node.chances ?? null);
  // An SVG element has no `hidden` property: the attribute it is.
  const hidden = mode !== 'analyse' || !chances.some((c) => c !== null);
  svg.toggleAttribute('hidden', hidden);
  if (hidden) return;
  const [width, height] = [400, 80];
  const points = graphPoints(chances, width, height);
  const outline = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  const ply = main.indexOf(game.node);
  const cursor = ply >= 0 ? `<line x1="${points[ply][0]}" x2="${points[ply][0]}" y1="0" y2="${height}" class="cursor"/>` : '';
  const marks = main
    .map((node, i) => [node.judgement, points[i]])
    .filter(([nag]) => nag === BLUNDER || nag === MISTAKE)
    .map(([nag, [x, y]]) => `<circle cx="${x}" cy="${y}" r="3" class="${JUDGED[nag]}"/>`)
    .join('');
  svg.innerHTML = `<polygon points="0,${height} ${outline} ${width},${height}" class="white"/><line x1="0" x2="${width}" y1="${height / 2}" y2="${height / 2}" class="middle"/>${cursor}${marks}`;
}

$('#review-game').addEventListener('click', reviewGame);
$('#graph').addEventListener('click', (event) => {
  const main = game.mainline();
  const box = $('#graph').getBoundingClientRect();
  navigateTo(main[plyAt(event.clientX - box.left, box.width, main.length)]);
});

/** Whether `node` lies on the main line (first children all the way from the root). */
function inMain(node) {
  for (let n = node; n.parent; n = n.parent) if (!n.isFirst) return false;
  return true;
}

/** `+0.35`, `-1.20` or `#3` (mate in 3 for White), from White's side. */
function scoreText(info, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (info.mate !== undefined) return `#${sign * info.mate}`;
  const cp = (sign * info.cp) / 100;
  return `${cp > 0 ? '+' : ''}${cp.toFixed(2)}`;
}

/** The bar's short label: `+0.4`, `-12`, `#3`, `#-2` (White's side), one decimal below 10 pawns. */
function barText(info, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (info.mate !== undefined) return `#${sign * info.mate}`;
  const pawns = (sign * info.cp) / 100;
  const text = Math.abs(pawns) < 10 ? pawns.toFixed(1) : String(Math.round(pawns));
  return pawns > 0 ? `+${text}` : text;
}

/** The bar shows White's winning chances as lichess draws them (the review's curve). */
function setEvalBar(info, turn) {
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
function resetEvalBar(outcome) {
  const white = !outcome ? 50 : outcome.result === '1-0' ? 100 : outcome.result === '0-1' ? 0 : 50;
  $('#eval-fill').style.height = `${100 - white}%`;
  $('#eval-text').textContent = outcome ? outcome.result.replace('1/2-1/2', '½') : '';
  $('#eval-text').classList.toggle('top', white < 50);
}

// ---------------------------------------------------------------- analysis

function analyse() {
  // Analysis wants the engine: a review under way stops, keeping what it saw.
  reviewing = null;
  lines = new Map();
  $('#pv-lines').textContent = '';
  $('#analysis-stats').textContent = '';
  $('#analysis-score').textContent = '';
  hidePreview();
  board.setAutoShapes([]);
  if (!searcher) return;
  const outcome = game.outcome();
  // "Show threat": the best move for the side not to move, as if it were its turn (none in check).
  const threatFen = $('#threat').checked ? game.threatFen() : null;
  $('#threat').disabled = game.pos.isCheck() || !!outcome;
  if (!$('#analysis-on').checked || outcome) {
    searcher.cancel();
    resetEvalBar(outcome);
    return;
  }
  const threat = threatFen !== null;
  const fen = threat ? threatFen : game.fen;
  const turn = threat ? (game.turn === 'white' ? 'black' : 'white') : game.turn;
  const here = game.fen;
  if (threat) resetEvalBar(null);
  // Until the previous search has stopped, its last reports still arrive for
  // the same position: only this search's own may fill the new list.
  const run = (analysisRun = {});
  const count = Number($('#multipv').value);
  searcher.engine.send(`setoption name MultiPV value ${count}`);
  searcher.start(threat ? `position fen ${fen}` : game.uciPosition(), 'go infinite', (info) => {
    if (run !== analysisRun || game.fen !== here || mode !== 'analyse') return;
    if (info.multipv > count) return;
    if (info.pv.length) lines.set(info.multipv, info);
    // A progress line (no pv) updates the stats between lines.
    else if (lines.size) lines.set('progress', info);
    if (lines.size) renderAnalysis(fen, turn, threat);
  });
}

/** A line's worth to the side to move, for ordering: mates beyond any centipawns, quicker first. */
function lineValue(info) {
  if (info.mate !== undefined) return info.mate > 0 ? 1e6 - info.mate : -1e6 - info.mate;
  return info.cp;
}

/**
 * The engine's lines, best first, each with its score and depth, then its
 * moves: a move can be clicked (the line is played up to it) or hovered (a
 * small board shows the position after it). In threat mode the lines are
 * the other side's, and only shown.
 */
function renderAnalysis(fen, turn, threat) {
  // Lines arrive one at a time and some are a depth older than others:
  // order them by value (then by index), and show each line's depth.
  const latest = [...lines.values()].reduce((a, b) => (b.nodes > a.nodes ? b : a));
  const sorted = [...lines.values()]
    .filter((info) => info.pv.length)
    .sort((a, b) => lineValue(b) - lineValue(a) || a.multipv - b.multipv);
  const best = sorted[0];
  // MCTS counts playouts, not nodes, and has no depth to speak of.
  const mcts = $('#search').value === 'mcts';
  const unit = mcts ? 'playouts' : 'nodes';
  const depth = mcts ? '' : `depth ${latest.depth}/${latest.seldepth ?? latest.depth} · `;
  $('#analysis-stats').textContent =
    `${threat ? 'threat · ' : ''}${depth}${Math.round(latest.nps / 1000)}k ${unit}/s · ${latest.nodes.toLocaleString('en')} ${unit}`;
  $('#analysis-score').textContent = threat ? '' : scoreText(best, turn);
  if (!threat) setEvalBar(best, turn);
  const list = $('#pv-lines');
  list.classList.toggle('threat', threat);
  list.textContent = '';
  for (const info of sorted) {
    const item = document.createElement('li');
    item.dataset.fen = fen;
    const score = document.createElement('strong');
    score.textContent = scoreText(info, turn);
    const depth = document.createElement('span');
    depth.className = 'depth';
    depth.textContent = `d${info.depth}`;
    const moves = document.createElement('span');
    moves.className = 'pv';
    for (const [i, move] of Game.lineMoves(fen, info.pv).entries()) {
      const span = document.createElement('span');
      span.className = 'pv-move';
      span.textContent = move.text;
      span.dataset.index = String(i);
      span.dataset.fen = move.fen;
      span.dataset.ucis = info.pv.slice(0, i + 1).join(' ');
      span.dataset.last = move.from + move.to;
      moves.append(span, ' ');
    }
    item.append(score, ' ', ...(mcts ? [] : [depth, ' ']), moves);
    list.append(item);
  }
  board.setAutoShapes(
    sorted.map((info, i) => ({
      orig: info.pv[0].slice(0, 2),
      dest: info.pv[0].slice(2, 4),
      brush: threat ? (i === 0 ? 'red' : 'paleRed') : i === 0 ? 'green' : 'paleBlue',
    })),
  );
}

// The lines' moves: a click plays the line up to that move; a hover shows the position after it.
let preview = null;
// On the press, not the click: the lines are redrawn with every report, and a
// click needs the press and the release on the same element.
$('#pv-lines').addEventListener('mousedown', (event) => {
  if (event.button !== 0) return;
  const move = event.target.closest('.pv-move');
  const item = move?.closest('li');
  if (!move || $('#pv-lines').classList.contains('threat') || item.dataset.fen !== game.fen) return;
  token = {};
  searcher?.cancel();
  for (const uci of move.dataset.ucis.split(' ')) game.play(uci);
  hidePreview();
  update();
});
$('#pv-lines').addEventListener('mouseover', (event) => {
  const move = event.target.closest('.pv-move');
  if (!move) return;
  const box = $('#pv-preview');
  const last = move.dataset.last;
  const config = { fen: move.dataset.fen, orientation, lastMove: [last.slice(0, 2), last.slice(2, 4)] };
  box.hidden = false;
  if (!preview) preview = Chessground(box, { viewOnly: true, coordinates: false, animation: { enabled: false }, drawable: { enabled: false }, ...config });
  else preview.set(config);
  // Below the move, kept inside the window.
  const at = move.getBoundingClientRect();
  const size = box.offsetWidth;
  box.style.left = `${Math.max(4, Math.min(window.innerWidth - size - 4, at.left))}px`;
  box.style.top = `${at.bottom + size + 8 < window.innerHeight ? at.bottom + 4 : Math.max(4, at.top - size - 4)}px`;
});
$('#pv-lines').addEventListener('mouseleave', hidePreview);

function hidePreview() {
  $('#pv-preview').hidden = true;
}

// ---------------------------------------------------------------- controls

/** Moves the cursor to `ply` of its line (clamped). */
function navigate(ply) {
  navigateTo(game.line[Math.max(0, Math.min(game.line.length - 1, ply))]);
}

/** Moves the cursor to a move of the tree, and onto its line. */
function navigateTo(node) {
  if (mode === 'watch') stopWatching();
  token = {};
  cancelSearches();
  game.goTo(node);
  update();
}

function setMode(next) {
  mode = next;
  stopWatching();
  token = {};
  cancelSearches();
  for (const tab of document.querySelectorAll('nav button')) tab.setAttribute('aria-selected', String(tab.dataset.mode === mode));
  for (const panel of document.querySelectorAll('.mode')) panel.hidden = panel.dataset.for !== mode;
  $('#eval-bar').classList.toggle('hidden', mode === 'play');
  update();
}

function newGame() {
  token = {};
  searcher?.cancel();
  const side = $('#side').value;
  player = side === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : side;
  orientation = player;
  game.reset();
  const [initial, increment] = $('#clock').value.split('+').map(Number);
  clock = initial ? new Clock(initial * 1000, increment * 1000) : null;
  engineScore = null;
  $('#play-note').textContent = '';
  update();
}

function stopWatching() {
  watching = false;
  $('#watch-toggle').textContent = 'Start';
}

for (const tab of document.querySelectorAll('nav button')) tab.addEventListener('click', () => setMode(tab.dataset.mode));
$('#new-game').addEventListener('click', newGame);
/**
 * A change of `select` starts a new game; with a game under way it asks
 * first, and declined, the choice goes back to what it was.
 */
function startsNewGame(select) {
  select.addEventListener('change', () => {
    const underway = game.mainline().length > 1 && !game.finalOutcome();
    if (underway && !confirm('Start a new game with this choice? The game in progress will end.')) {
      select.value = select.dataset.previous;
      return;
    }
    select.dataset.previous = select.value;
    newGame();
  });
}
startsNewGame($('#clock'));
$('#resign').addEventListener('click', () => {
  token = {};
  searcher?.cancel();
  game.finish(player === 'white' ? '0-1' : '1-0', 'you resigned');
  update();
});
$('#offer-draw').addEventListener('click', () => {
  // DeepChess agrees when its last search did not think it better, from move 20 on.
  const even = engineScore && (engineScore.mate !== undefined ? engineScore.mate < 0 : engineScore.cp <= 0);
  if (even && game.pos.fullmoves >= 20) {
    token = {};
    searcher?.cancel();
    game.finish('1/2-1/2', 'draw agreed');
    update();
  } else {
    $('#play-note').textContent = game.pos.fullmoves < 20 ? 'DeepChess plays on: it is too early for a draw.' : 'DeepChess declines the draw: it thinks it is better.';
  }
});
// Choosing a side starts a game on that side, the board turned towards it.
startsNewGame($('#side'));
for (const picker of ['#strength', '#watch-time', '#watch-black']) $(picker).addEventListener('change', () => remember());
$('#engine-settings').addEventListener('toggle', () => remember());
$('#take-back').addEventListener('click', () => {
  token = {};
  searcher?.cancel();
  // Back to the player's turn: one move if the engine has not replied yet.
  game.takeBack(game.turn === player ? 2 : 1);
  clock?.pause();
  update();
});
$('#first').addEventListener('click', () => navigate(0));
$('#prev').addEventListener('click', () => navigate(game.ply - 1));
$('#next').addEventListener('click', () => navigate(game.ply + 1));
$('#last').addEventListener('click', () => navigate(game.moves.length));
$('#flip').addEventListener('click', () => {
  orientation = orientation === 'white' ? 'black' : 'white';
  board.set({ orientation });
  remember();
});
$('#analysis-on').addEventListener('change', update);
// Side lines: promote the cursor's one step towards the main line, or delete it from the cursor on.
$('#promote-line').addEventListener('click', () => {
  game.promote(game.node);
  update();
});
$('#delete-line').addEventListener('click', () => {
  game.delete(game.node);
  navigateTo(game.node);
});
/** The page's search choice as UCI: an alpha-beta search (`Search`), or MCTS (`Engine`). */
function sendSearch(engine, choice) {
  if (choice === 'mcts') {
    engine.send('setoption name Engine value mcts');
  } else {
    engine.send('setoption name Engine value alphabeta');
    engine.send(`setoption name Search value ${choice}`);
  }
}

/** Lists the other networks the site ships (`nets/networks.json`) in the Network choice. */
async function fillNetworks() {
  try {
    const response = await fetch('nets/networks.json');
    for (const net of response.ok ? await response.json() : []) {
      const option = document.createElement('option');
      // The worker resolves a relative URL against its own location: give it the page's.
      option.value = new URL(`nets/${net.file}`, location.href).href;
      // The other learners play far weaker than DeepChess's networks.
      option.dataset.name = net.name;
      option.textContent = net.learner === 'deepchess' ? net.name : `${net.name} (experimental)`;
      option.title = net.description ?? '';
      $('#network').append(option);
      $('#watch-black').append(option.cloneNode(true));
    }
  } catch {
    // Offline before the list was cached: the built-in network only.
  }
}

/**
 * Offers in the Search choice just the searches a network plays, as the
 * engine names them when it loads one (`loaded network …: 773-256-32 +
 * utility 32-1 (plays scalar, mcts)`): a learner's only the scalar search,
 * the AlphaZero reimplementation's only MCTS, the built-in value network both over its
 * utility, the paper's network the comparison search too. If the choice
 * was one the network does not play, its first search is chosen. A failed
 * load leaves the choice alone (the previous network still plays).
 */
function offerSearches(loaded) {
  const plays = /\(plays ([a-z, ]+)\)$/.exec(loaded)?.[1].split(', ');
  if (!plays) return;
  const select = $('#search');
  for (const option of select.options) option.disabled = !plays.includes(option.value);
  if (!plays.includes(select.value)) select.value = plays[0];
  select.disabled = plays.length === 1;
}

/** The name of the network a Network or Black plays choice has picked. */
function pickedName(select) {
  const picked = select.selectedOptions[0];
  return picked?.dataset.name ?? picked?.textContent ?? '';
}

/**
 * Plays the network of the Network choice: the Search choice offers what it
 * plays, and the engine plays the search chosen there.
 */
async function playNetwork() {
  if (!searcher) return;
  token = {};
  await searcher.cancel();
  const engine = searcher.engine;
  const name = pickedName($('#network'));
  engineStatus.say(`Loading ${name}…`);
  const last = await engine.loadNetwork($('#network').value || '<embedded>');
  if (last.startsWith('info string error')) {
    // The network that played still plays (offline, a network never
    // downloaded cannot load): the picker goes back to it and says why.
    $('#network').value = playingNetwork;
    engineStatus.say(`Could not load that network: ${loadFailure(last)}. The previous one still plays.`);
    update();
    return;
  }
  playingNetwork = $('#network').value;
  offerSearches(last);
  sendSearch(engine, $('#search').value);
  engineStatus.loaded(name, last);
  update();
}
$('#network').addEventListener('change', playNetwork);

// The engine's searches: a running search stops, then the next one uses the choice.
$('#search').addEventListener('change', () => {
  if (!searcher) return;
  token = {};
  searcher.cancel();
  sendSearch(searcher.engine, $('#search').value);
  update();
});
$('#threads').addEventListener('change', () => {
  if (!searcher) return;
  token = {};
  searcher.cancel();
  searcher.engine.send(`setoption name Threads value ${$('#threads').value}`);
  engineStatus.setThreads(Number($('#threads').value));
  update();
});
$('#multipv').addEventListener('change', update);
$('#threat').addEventListener('change', update);
$('#watch-toggle').addEventListener('click', () => {
  if (watching) {
    stopWatching();
    token = {};
    cancelSearches();
  } else {
    watching = true;
    $('#watch-toggle').textContent = 'Stop';
    game.go(game.moves.length);
    if (game.outcome()) game.reset();
    engineMove();
  }
});
$('#watch-new').addEventListener('click', () => {
  stopWatching();
  token = {};
  cancelSearches();
  game.reset();
  update();
});

document.addEventListener('keydown', (event) => {
  if (!$('#promotion').hidden) {
    if (event.key === 'Escape') {
      event.preventDefault();
      closePromotion();
      update();
    }
    return;
  }
  if (event.target.closest('input, textarea, select')) return;
  const keys = { ArrowLeft: game.ply - 1, ArrowRight: game.ply + 1, Home: 0, End: game.moves.length };
  if (event.key in keys) {
    event.preventDefault();
    navigate(keys[event.key]);
  } else if (event.key === 'f') $('#flip').click();
  else if (event.key === 'x' && mode === 'analyse' && !$('#threat').disabled) $('#threat').click();
});

// FEN and PGN in and out.
function ioError(message) {
  $('#io-error').textContent = message;
}

$('#load-fen').addEventListener('click', () => {
  try {
    game.reset($('#fen').value);
    ioError('');
    if (mode === 'play') setMode('analyse');
    else navigate(0);
  } catch (error) {
    ioError(error.message);
  }
});
$('#load-pgn').addEventListener('click', () => {
  try {
    game.loadPgn($('#pgn').value);
    ioError('');
    // The game opens at its last move.
    if (mode !== 'analyse') setMode('analyse');
    else navigateTo(game.node);
  } catch (error) {
    ioError(error.message);
  }
});

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
$('#copy-fen').addEventListener('click', () => copy(game.fen, $('#fen')));
$('#copy-link').addEventListener('click', () => copy(makeLink(location.href, { fen: game.fen })));
$('#copy-pgn').addEventListener('click', () => {
  let names = {};
  const engine = player === 'white' ? 'black' : 'white';
  if (mode === 'play') names = { [player === 'white' ? 'White' : 'Black']: 'You', [engine === 'white' ? 'White' : 'Black']: networkName(engine) };
  // Watching, each side's network.
  if (mode === 'watch') names = { White: networkName('white'), Black: networkName('black') };
  copy(game.pgn(names), $('#pgn'));
});

// ---------------------------------------------------------------- sessions

/** The page as the next visit should find it. */
function session() {
  return {
    ...gameState(game),
    player,
    orientation,
    mode,
    side: $('#side').value,
    strength: $('#strength').value,
    search: $('#search').value,
    network: playingNetwork,
    multipv: $('#multipv').value,
    watchTime: $('#watch-time').value,
    watchBlack: $('#watch-black').value,
    clockChoice: $('#clock').value,
    clock: clock?.toJSON() ?? null,
    settingsOpen: $('#engine-settings').open,
  };
}

function remember() {
  saveSession(session());
}

/** Sets a picker to `value` if it offers it; says whether it did. */
function choose(select, value) {
  const offered = [...select.options].some((o) => o.value === value && !o.disabled);
  if (offered) select.value = value;
  return offered;
}

/** Puts the last visit's game, side, pickers and tab back (its network once the engine is up); returns the tab. */
function restore(saved) {
  restoreGame(game, saved);
  const colour = (c) => (c === 'white' || c === 'black' ? c : 'white');
  player = colour(saved.player);
  orientation = colour(saved.orientation);
  choose($('#side'), saved.side);
  choose($('#strength'), saved.strength);
  choose($('#search'), saved.search);
  choose($('#multipv'), saved.multipv);
  choose($('#watch-time'), saved.watchTime);
  choose($('#clock'), saved.clockChoice);
  $('#engine-settings').open = saved.settingsOpen === true;
  // The clock comes back stopped; it runs again for the side to move.
  if (saved.clock && $('#clock').value) clock = Clock.from(saved.clock);
  return ['play', 'analyse', 'watch'].includes(saved.mode) ? saved.mode : 'play';
}

/** Opens the position or game a link carries (`#fen=…`, `#pgn=…`); says whether there was one. */
function openLink() {
  const carried = parseLink(location.hash);
  if (!carried) return false;
  try {
    if (carried.fen) game.reset(carried.fen);
    else game.loadPgn(carried.pgn);
    ioError('');
  } catch (error) {
    $('#io').open = true;
    ioError(`The link's ${carried.fen ? 'position' : 'game'} cannot be opened. ${error.message}`);
  }
  // The link has done its work: a reload finds the session, with the linked game in it.
  history.replaceState(null, '', location.pathname + location.search);
  return true;
}

const saved = loadSession();
let startMode = saved ? restore(saved) : 'play';
for (const select of [$('#clock'), $('#side')]) select.dataset.previous = select.value;
if (openLink()) startMode = 'analyse';
setMode(startMode);
window.addEventListener('hashchange', () => {
  if (!openLink()) return;
  token = {};
  searcher?.cancel();
  setMode('analyse');
});
