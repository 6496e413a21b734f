// A lichess-style analysis board that drives the DeepChess worker exactly
// as it would drive stockfish.js: plain UCI lines over postMessage.
import { Chessground } from 'chessground';
import { Chess } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { makeFen } from 'chessops/fen';
import { makeSanVariation } from 'chessops/san';
import { parseUci } from 'chessops/util';

const DEPTH = 12;
const $ = (selector) => document.querySelector(selector);
const worker = new Worker(new URL('engine/worker.js', document.baseURI), { type: 'module' });
const moves = [];
let pos = Chess.default();
let searching = false;
let pending = false;

const log = (direction, line) => {
  const el = $('#log');
  el.textContent = `${el.textContent}${direction} ${line}\n`.split('\n').slice(-40).join('\n');
};
const send = (line) => {
  log('>', line);
  worker.postMessage(line);
};

const board = Chessground($('#board'), {
  movable: { free: false, showDests: true, events: { after: (orig, dest) => play(orig + dest) } },
  animation: { duration: 150 },
});

function play(uci) {
  let move = parseUci(uci);
  const piece = pos.board.get(move.from);
  if (piece?.role === 'pawn' && (uci[3] === '8' || uci[3] === '1')) move = parseUci(`${uci}q`);
  if (!pos.isLegal(move)) return redraw();
  pos.play(move);
  moves.push(`${uci}${move.promotion ? 'q' : ''}`);
  redraw();
  analyse();
}

function redraw() {
  const color = pos.isEnd() ? undefined : pos.turn;
  board.set({ fen: makeFen(pos.toSetup()), turnColor: pos.turn, check: pos.isCheck(), movable: { color, dests: chessgroundDests(pos) } });
}

// One search at a time: a new position stops the old search first, and
// starts when its `bestmove` arrives.
function analyse() {
  if (searching) {
    pending = true;
    send('stop');
    return;
  }
  if (pos.isEnd()) return;
  searching = true;
  $('#pv-lines').textContent = '';
  send(`position startpos${moves.length ? ` moves ${moves.join(' ')}` : ''}`);
  send(`go depth ${DEPTH}`);
}

const lines = new Map();
worker.onmessage = (event) => {
  const line = String(event.data);
  if (!line.startsWith('info depth')) log('<', line);
  if (line === 'uciok') {
    send('setoption name MultiPV value 2');
    // `?network=URL` plays another network (`/nets/<file>`, say the paper's),
    // `?search=comparison` DeepChess's comparison search, which needs a
    // network with a comparison head such as the paper's.
    const params = new URLSearchParams(location.search);
    const network = params.get('network');
    if (network) send(`setoption name EvalFile value ${network}`);
    const search = params.get('search');
    if (search) send(`setoption name Search value ${search}`);
    send('isready');
  } else if (line === 'readyok') {
    $('#status').textContent = 'Engine ready';
    redraw();
    analyse();
  } else if (line.startsWith('bestmove')) {
    searching = false;
    if (pending) {
      pending = false;
      lines.clear();
      analyse();
    }
  } else if (line.startsWith('info depth') && line.includes(' pv ') && !pending) {
    const words = line.split(' ');
    const at = (key) => words[words.indexOf(key) + 1];
    const ucis = words.slice(words.indexOf('pv') + 1);
    const pv = ucis.map(parseUci);
    const kind = at('score');
    const score = kind === 'mate' ? `#${at('mate')}` : `${(Number(at('cp')) / 100).toFixed(2)}`;
    lines.set(at('multipv'), `${score} ${makeSanVariation(pos, pv)}`);
    $('#status').textContent = `depth ${at('depth')} · ${at('nps')} nodes/s (score from the side to move)`;
    $('#pv-lines').innerHTML = '';
    for (const [, text] of [...lines].sort()) {
      const li = document.createElement('li');
      li.textContent = text;
      $('#pv-lines').append(li);
    }
    // The arrow shows the first line's move, whichever line arrived last.
    if (at('multipv') === '1' && ucis.length) {
      board.setAutoShapes([{ orig: ucis[0].slice(0, 2), dest: ucis[0].slice(2, 4), brush: 'green' }]);
    }
  }
};
send('uci');
