// The session store and links under node, without a browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSession, makeLink, parseLink, saveSession } from '../src/session.js';

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

test('a full or disabled store forgets quietly', () => {
  assert.doesNotThrow(() => saveSession({ pgn: '*' }, fakeStorage(true)));
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
