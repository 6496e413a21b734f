// The engine's details in words (web/src/status.js) and the Engine settings lines (web/src/settings.js), under node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultThreads, hashMb, perMoveGo, perMoveHint, perMoveUnit, threadsHint } from '../src/settings.js';
import { buildText, networkText } from '../src/status.js';

test("the engine's build in words", () => {
  assert.equal(buildText('DeepChess 0.1.0 wasm-relaxed-mt'), 'DeepChess 0.1.0, WebAssembly with relaxed SIMD and threads');
  assert.equal(buildText('DeepChess 0.1.0 wasm-simd128'), 'DeepChess 0.1.0, WebAssembly with SIMD');
  assert.equal(buildText('DeepChess 0.1.0 wasm-scalar'), 'DeepChess 0.1.0, WebAssembly with no SIMD');
  // A name it does not know is shown as it is.
  assert.equal(buildText('DeepChess 0.1.0'), 'DeepChess 0.1.0');
});

test("the engine's network line in words: the file, its shape, the searches it plays", () => {
  assert.equal(
    networkText('info string network <embedded>: 773-256-32 + utility 32-1 (plays scalar, mcts)'),
    'network built in: 773-256-32 + utility 32-1 · plays alpha-beta, MCTS',
  );
  assert.equal(
    networkText('info string loaded network http://127.0.0.1:8080/nets/deepchess-cabc88df51da.dcnn: 773-100-100-100 (plays scalar, comparison, mcts)'),
    'network deepchess-cabc88df51da.dcnn: 773-100-100-100 · plays alpha-beta, position comparison, MCTS',
  );
  assert.equal(networkText('info string loaded network nets/x.dcaz: 22 planes'), 'network x.dcaz: 22 planes');
  // Anything else keeps its words, without the UCI prefix.
  assert.equal(networkText('info string something new'), 'something new');
  assert.equal(networkText(''), '');
});

test('a visit starts with every core but one, within the engine\'s limit', () => {
  assert.equal(defaultThreads(8, 8), 7);
  assert.equal(defaultThreads(2, 2), 1);
  assert.equal(defaultThreads(32, 64), 32);
  // Not isolated (one thread), one core, or no count from the browser.
  assert.equal(defaultThreads(1, 8), 1);
  assert.equal(defaultThreads(1, 1), 1);
  assert.equal(defaultThreads(4, undefined), 1);
});

test('the hash is sized to the memory the browser reports', () => {
  assert.equal(hashMb(8), 128);
  assert.equal(hashMb(4), 64);
  assert.equal(hashMb(0.5), 16);
  // Not reported (Firefox, Safari): the engine's default.
  assert.equal(hashMb(undefined), 16);
});

test('the Threads line says what threads do, or why there is one', () => {
  assert.equal(threadsHint(4, ''), 'More threads search deeper in the same time (up to 4 here).');
  assert.equal(
    threadsHint(1, 'one thread: the page is not cross-origin isolated, so there is no shared memory for threads'),
    'One thread here: the page is not cross-origin isolated, so there is no shared memory for threads.',
  );
  assert.equal(threadsHint(1, ''), 'One thread here.');
});

test('a fixed count per move: its go, its unit and the line under it', () => {
  assert.equal(perMoveGo(''), null);
  assert.equal(perMoveGo('800'), 'go nodes 800');
  assert.equal(perMoveUnit('mcts'), 'playouts');
  assert.equal(perMoveUnit('scalar'), 'nodes');
  assert.match(perMoveHint('', 'scalar'), /Strength level/);
  assert.equal(
    perMoveHint('10000', 'scalar'),
    "A fixed 10,000 nodes each move, in place of Strength and the watched game's time per move.",
  );
  assert.match(perMoveHint('10', 'mcts'), /report plays 10 playouts a move\.$/);
});
