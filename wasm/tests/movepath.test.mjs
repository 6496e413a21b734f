// The search's move path (core's `search::movegen`: the staged captures, the
// quick test for a legal move, the incremental keys) equals shakmaty's at
// every position of perft trees, inside a real WebAssembly engine: each of
// the chess programming wiki's trees gives its published leaf count, and the
// suite's 300 positions (core/src/search/perft.epd, counted by python-chess)
// their counts to depth 3; 0 would mean a position where they differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../bench/load.mjs';

// The published counts at the depths core's `PERFT_POSITIONS` gives.
const LEAVES = [197281n, 97862n, 674624n, 422333n, 62379n, 89890n];

test('the move path equals shakmaty on the perft trees in wasm', async () => {
  const wasm = await load('simd128');
  LEAVES.forEach((leaves, index) => {
    assert.equal(wasm.dc_movepath_check(index), leaves, `position ${index + 1}`);
  });
  assert.equal(wasm.dc_movepath_check(LEAVES.length), 0n, 'past the list');
});

test('the move path and shakmaty give the perft suite counts in wasm', async () => {
  const wasm = await load('simd128');
  const suite = readFileSync(new URL('../../core/src/search/perft.epd', import.meta.url), 'utf8');
  const positions = suite.split('\n').filter((line) => line.trim()).length;
  assert.equal(positions, 300);
  assert.equal(wasm.dc_perft_suite_check(3), positions);
});
