// The search's move path (core's `search::movegen`: the staged captures, the
// quick test for a legal move, the incremental keys) equals shakmaty's at
// every position of the chess programming wiki's perft trees, inside a real
// WebAssembly engine: each tree's leaf count is the published one, and 0
// would mean a position where the two differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
