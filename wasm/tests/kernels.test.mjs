// The SIMD128 kernels equal the scalar oracle bit for bit, run inside a real
// WebAssembly engine (node's V8). `node --test wasm/tests/`
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, kernelNames } from '../bench/load.mjs';

test('the SIMD128 build runs the SIMD128 kernels', async () => {
  const wasm = await load('simd128');
  assert.equal(kernelNames[wasm.dc_kernel()], 'simd128');
});

test('every SIMD128 kernel equals the scalar oracle', async () => {
  const wasm = await load('simd128');
  for (const seed of [1, 2, 3]) {
    assert.equal(wasm.dc_selftest(1000, seed), 0, `seed ${seed}`);
  }
});

test('the scalar build runs without SIMD', async () => {
  const wasm = await load('scalar');
  assert.equal(kernelNames[wasm.dc_kernel()], 'scalar');
  assert.equal(wasm.dc_selftest(50, 1), 0);
});

test('both builds compute the same numbers', async () => {
  const [simd, scalar] = await Promise.all([load('simd128'), load('scalar')]);
  assert.equal(simd.dc_bench_setup(0, 4), scalar.dc_bench_setup(0, 4));
  assert.equal(simd.dc_bench_embed(500), scalar.dc_bench_embed(500));
  assert.equal(simd.dc_bench_compare(500), scalar.dc_bench_compare(500));
  assert.equal(simd.dc_bench_update(500), scalar.dc_bench_update(500));
});
