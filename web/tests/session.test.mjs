// The session store and links under node, without a browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Game } from '../src/game.js';
import { gameState, loadSession, makeLink, parseLink, restoreGame, saveSession } from '../src/session.js';

/** localStorage's interface over a Map; `full` makes every write throw, as a full or disabled store does. */
function fakeStorage(full = false) {
  const items = new Map();
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => {
      if (full) throw new Error('QuotaExceededError');
      items.set(k, String(v));
    },
  };
}

test('a saved session comes back; a missing, broken or foreign one is null', () => {
  const storage = fakeStorage();
  assert.equal(loadSession(storage), null);
  saveSession({ pgn: '1. e4 *', path: [0], side: 'black' }, storage);
  assert.deepEqual(loadSession(storage), { pgn: '1. e4 *', path: [0], side: 'black' });
  for (const bad of ['{', '[1, 2]', '"text"', 'null']) {
    storage.items.set([...storage.items.keys()][0], bad);
    assert.equal(loadSession(storage), null, bad);
  }
  assert.equal(loadSession(undefined), null, 'no storage at all');
});

test('a full or disabled store forgets quietly: nothing is kept, nothing comes back', () => {
  const storage = fakeStorage(true);
  saveSession({ pgn: '*' }, storage);
  assert.equal(storage.items.size, 0);
  assert.equal(loadSession(storage), null);
});

/** Every node of the game's tree, depth first: its move, comments and NAGs, and how many moves follow it. */
function tree(game) {
  const nodes = [];
  const walk = (node) => {
    nodes.push({ san: node.move?.san ?? null, comments: node.comments, nags: node.nags, children: node.children.length });
    node.children.forEach(walk);
  };
  walk(game.root);
  return nodes;
}

/** What a player sees of a game: its tree, the cursor, the cursor's line, the position and how it ended. */
const snapshot = (game) => ({ tree: tree(game), path: game.path(), moves: game.moves.map((m) => m.san), fen: game.fen, end: game.end });

test('a saved game comes back move by move: side lines, comments, the cursor and how it ended', () => {
  const game = new Game();
  for (const uci of ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6']) assert.ok(game.play(uci));
  game.go(4);
  assert.ok(game.play('f1c4')); // 3. Bc4 beside 3. Bb5
  assert.ok(game.play('f8c5'));
  game.line[5].comments = ['the Italian'];
  game.line[5].nags = [3];
  game.go(5); // the cursor on 3. Bc4, in the side line
  game.finish('0-1', 'White resigned');
  const before = snapshot(game);
  assert.deepEqual(before.moves, ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5'], 'the cursor\'s line goes on past it');

  const storage = fakeStorage();
  saveSession({ ...gameState(game), side: 'white' }, storage);
  const restored = new Game();
  assert.equal(restoreGame(restored, loadSession(storage)), true);
  assert.deepEqual(snapshot(restored), before);
  assert.equal(restored.ply, 5);
  assert.deepEqual(restored.mainline().slice(1).map((n) => n.move.san), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
});

test('a saved game that cannot be read leaves the board at the start', () => {
  const game = new Game();
  game.play('d2d4');
  assert.equal(restoreGame(game, { pgn: '1. e4 e5 2. Ke3 *', path: [0, 0], end: { result: '1-0', reason: 'x' } }), false);
  assert.equal(game.moves.length, 0);
  assert.equal(game.root.children.length, 0);
  assert.equal(game.end, null);
  // A path longer than the tree stops at its end.
  assert.equal(restoreGame(game, { pgn: '1. e4 e5 *', path: [0, 0, 0, 0] }), true);
  assert.deepEqual(game.moves.map((m) => m.san), ['e4', 'e5']);
});

test('links carry a FEN (spaces as _) or a PGN, and come back as they went', () => {
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  const link = makeLink('https://example.org/deepchess/?x=1#old', { fen });
  assert.equal(link, `https://example.org/deepchess/?x=1#fen=${fen.replaceAll(' ', '_').replaceAll('/', '%2F')}`);
  assert.deepEqual(parseLink(new URL(link).hash), { fen });
  const pgn = '[Event "x"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0';
  assert.deepEqual(parseLink(new URL(makeLink('https://example.org/', { pgn })).hash), { pgn });
  // Typed by hand: spaces as %20, slashes as they are.
  assert.deepEqual(parseLink('#fen=8/8/8/8/8/8/8/K6k%20w%20-%20-%200%201'), { fen: '8/8/8/8/8/8/8/K6k w - - 0 1' });
  assert.equal(parseLink(''), null);
  assert.equal(parseLink('#other=1'), null);
});
